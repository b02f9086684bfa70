"""The web UI's sign-in: a session cookie standing for an API key, and CSRF protection.

Signing in (``/?token=KEY``, as Jupyter does, or the sign-in form) checks the key and makes a
session: a random id the browser keeps in an HttpOnly, SameSite=Strict cookie, mapped here to
the key and to a CSRF token. A request carrying the cookie is the key's caller — the key is
authenticated again on every request, so revoking or rotating it ends its sessions. A request
that changes something (any method but GET, HEAD, OPTIONS) with the cookie must also send the
session's CSRF token in ``X-CSRF-Token`` (the page reads it from ``GET /v1/session``, which a
page of another origin cannot): a form or script elsewhere cannot forge it. Sessions live in
the server's memory: a restart signs everyone out.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass

from starlette.requests import Request

from memvault.errors import AccessDenied
from memvault.tenancy import Principal, Tenants

__all__ = [
    "COOKIE",
    "CSRF_HEADER",
    "SAFE_METHODS",
    "WebSession",
    "WebSessions",
    "cookie_principal",
]

COOKIE = "memvault_session"
CSRF_HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: The most sessions kept: the oldest is forgotten past it (each sign-in makes one).
MAX_SESSIONS = 1000


class CsrfRefused(AccessDenied):
    """A cookie-authenticated request that changes something came without the session's
    CSRF token."""


@dataclass(frozen=True, slots=True)
class WebSession:
    id: str
    api_key: str
    csrf: str


class WebSessions:
    """The signed-in browsers of one server. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_id: dict[str, WebSession] = {}

    def sign_in(self, tenants: Tenants, api_key: str) -> tuple[WebSession, Principal]:
        """A new session for a valid `api_key` (Unauthenticated, 401, otherwise)."""
        caller = tenants.authenticate(api_key)
        made = WebSession(secrets.token_urlsafe(32), api_key, secrets.token_urlsafe(32))
        with self._lock:
            while len(self._by_id) >= MAX_SESSIONS:
                self._by_id.pop(next(iter(self._by_id)))
            self._by_id[made.id] = made
        return made, caller

    def get(self, session_id: str | None) -> WebSession | None:
        if not session_id:
            return None
        with self._lock:
            return self._by_id.get(session_id)

    def sign_out(self, session_id: str | None) -> None:
        with self._lock:
            self._by_id.pop(session_id or "", None)


def sessions_of(request: Request) -> WebSessions:
    """The application's sessions (made on first use)."""
    state = request.app.state
    found = getattr(state, "web_sessions", None)
    if found is None:
        found = state.web_sessions = WebSessions()
    assert isinstance(found, WebSessions)
    return found


def cookie_principal(request: Request, tenants: Tenants) -> Principal | None:
    """The caller of a request signed in with the session cookie; None without a known
    session. A state-changing request without the session's CSRF token is refused (403)."""
    found = sessions_of(request).get(request.cookies.get(COOKIE))
    if found is None:
        return None
    if request.method not in SAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        if not secrets.compare_digest(sent.encode(), found.csrf.encode()):
            raise CsrfRefused(
                f"a request signed in with the session cookie that changes something needs "
                f"the session's {CSRF_HEADER} header (GET /v1/session gives it)"
            )
    return tenants.authenticate(found.api_key)
