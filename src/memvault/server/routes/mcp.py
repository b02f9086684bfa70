"""``/mcp``: the MCP server (`memvault.mcp`) over Streamable HTTP, behind the same bearer
tokens and tenant scoping as the rest of the API. Each request is authenticated before the
protocol sees it (`deps.principal`: a 401 problem without a valid token); its tools run in the
token's session (owner or PAM §9 agent) and check the token's scopes; no tool reads or writes
a path — content travels inline. Stateless: nothing ties one request to the next but the
token."""

from __future__ import annotations

import importlib.util
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Annotated, Any, Final

from fastapi import APIRouter, Depends, FastAPI, Request, Response
from starlette.types import Receive, Scope, Send

from memvault.server.deps import principal
from memvault.tenancy import Principal, Tenants, Unauthenticated

if TYPE_CHECKING:
    from mcp.server.mcpserver import Context, MCPServer

    from memvault.vault import Vault

PATH: Final = "/mcp"
#: Where the authenticated caller travels from the route to the tools (the request's state).
_PRINCIPAL: Final = "memvault_principal"


def _token_session(tenants: Tenants) -> Any:
    """Sessions for the MCP tools: the caller's, when its token holds the scope."""

    def source(ctx: Context | None, scope: str) -> Vault:
        request = None if ctx is None else ctx.request_context.request
        caller = None if request is None else getattr(request.state, _PRINCIPAL, None)
        if not isinstance(caller, Principal):  # pragma: no cover - the route always sets it
            raise Unauthenticated("this request carries no authenticated caller")
        return tenants.session(caller.require(scope))

    return source


def _server(app: FastAPI) -> MCPServer:
    from mcp.server.transport_security import TransportSecuritySettings

    from memvault.mcp import build_server

    server = build_server(_token_session(app.state.tenants))
    # Builds the session manager. Every request carries a bearer token a rebinding page
    # cannot know, so the Host check (made for unauthenticated local servers) is not needed
    # and would refuse a server bound to another name.
    server.streamable_http_app(
        streamable_http_path=PATH,
        stateless_http=True,
        json_response=True,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    return server


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    server = _server(app)
    app.state.mcp = server
    async with server.session_manager.run():
        yield


class _Delegated(Response):
    """The answer of the MCP session manager, which writes to the connection itself: the
    route's response hands it the request as it arrived (its body still unread)."""

    def __init__(self, server: MCPServer) -> None:
        super().__init__()
        self._server = server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self._server.session_manager.handle_request(scope, receive, send)


def mcp_endpoint(request: Request, caller: Annotated[Principal, Depends(principal)]) -> Response:
    setattr(request.state, _PRINCIPAL, caller)
    return _Delegated(request.app.state.mcp)


# Without the [mcp] extra there is no /mcp (and no `router`: the app includes nothing here).
if importlib.util.find_spec("mcp") is not None:
    router = APIRouter(lifespan=_lifespan)
    # One operation per method, each with its own id in the OpenAPI document.
    for _method in ("POST", "GET", "DELETE"):
        router.add_api_route(
            PATH,
            mcp_endpoint,
            methods=[_method],
            operation_id=f"mcp_{_method.lower()}",
            summary="The MCP server (Streamable HTTP)",
            description="Model Context Protocol messages (JSON-RPC) for the caller's vault "
            "session: the tools, resources and prompt of `memvault mcp`, with the token's "
            "scopes (docs/mcp.md).",
            response_class=Response,
        )
