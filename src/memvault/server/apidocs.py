"""`GET /docs`: the HTTP API as one self-contained page, made from the OpenAPI document.

FastAPI's own pages (Swagger UI, ReDoc) load their scripts from a CDN: blank offline, and a
third party's script running on the vault's origin, beside the browser's session. This page
has no script and loads nothing: every route with its parameters, body and answers, as text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any, Final

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

__all__ = ["install"]

#: Nothing but the page's own inline style: no script, no request anywhere.
POLICY: Final = (
    "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'; "
    "form-action 'none'"
)

_STYLE: Final = (
    "body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:0 auto;padding:1rem;"
    "color:#1b1b1b;background:#fafafa}code,pre{font-family:ui-monospace,monospace}"
    "pre{white-space:pre-wrap;margin:.3rem 0}section{background:#fff;border:1px solid #ddd;"
    "border-radius:6px;padding:.2rem 1rem;margin:1rem 0}h2{font-size:1.1rem}"
    "h2 code{background:#14284b;color:#fff;padding:.1rem .4rem;border-radius:4px}"
    "table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.25rem .5rem;"
    "border-bottom:1px solid #e2e2e2;vertical-align:top;overflow-wrap:break-word}"
    "th,td:first-child,td:nth-child(2){white-space:nowrap}"
    "nav li{margin:.1rem 0}.wrap{overflow-x:auto}.wrap table{min-width:48rem}"
)


def _type(schema: Mapping[str, Any]) -> str:
    """A JSON Schema as a short type: ``integer``, ``string | null``, ``array of string``."""
    if "enum" in schema:
        return " | ".join(str(v) for v in schema["enum"])
    if "anyOf" in schema:
        return " | ".join(_type(s) for s in schema["anyOf"])
    if schema.get("type") == "array":
        return f"array of {_type(schema.get('items') or {})}"
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    return str(schema.get("type") or "any")


def _rows(rows: Sequence[tuple[str, ...]], head: tuple[str, ...]) -> str:
    cells = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    titles = "".join(f"<th>{escape(h)}</th>" for h in head)
    table = f"<table><thead><tr>{titles}</tr></thead><tbody>{cells}</tbody></table>"
    return f'<div class="wrap">{table}</div>'  # scrolls on its own on a phone


def _operation(method: str, path: str, op: Mapping[str, Any], anchor: str) -> str:
    parts = [
        f'<section id="{anchor}"><h2><code>{escape(method.upper())} {escape(path)}</code> '
        f"{escape(str(op.get('summary') or ''))}</h2>"
    ]
    if op.get("description"):
        parts.append(f"<pre>{escape(str(op['description']))}</pre>")
    if op.get("security"):
        parts.append("<p>Needs <code>Authorization: Bearer KEY</code>.</p>")
    params = [
        (
            f"<code>{escape(str(p.get('name')))}</code>",
            escape(str(p.get("in"))),
            "yes" if p.get("required") else "",
            escape(_type(p.get("schema") or {})),
            escape(str(p.get("description") or "")),
        )
        for p in op.get("parameters") or []
    ]
    if params:
        parts.append("<h3>Parameters</h3>")
        parts.append(_rows(params, ("name", "in", "required", "type", "description")))
    for media, body in ((op.get("requestBody") or {}).get("content") or {}).items():
        schema = body.get("schema") or {}
        required = set(schema.get("required") or ())
        fields = [
            (
                f"<code>{escape(name)}</code>",
                "yes" if name in required else "",
                escape(_type(field)),
                escape(str(field.get("description") or "")),
            )
            for name, field in (schema.get("properties") or {}).items()
        ]
        parts.append(f"<h3>Body <code>{escape(media)}</code></h3>")
        if fields:
            parts.append(_rows(fields, ("field", "required", "type", "description")))
    answers = [
        (f"<code>{escape(code)}</code>", escape(str(r.get("description") or "")))
        for code, r in (op.get("responses") or {}).items()
    ]
    if answers:
        parts.append("<h3>Answers</h3>" + _rows(answers, ("status", "meaning")))
    parts.append("</section>")
    return "".join(parts)


def page(document: Mapping[str, Any]) -> str:
    """The HTML of `document` (an OpenAPI 3 document)."""
    info = document.get("info") or {}
    title = escape(f"{info.get('title', 'API')} {info.get('version', '')}".strip())
    toc, sections = [], []
    for path, operations in (document.get("paths") or {}).items():
        for method, op in operations.items():
            anchor = f"{method}-{path}".replace("/", "-").replace("{", "").replace("}", "")
            label = f"{method.upper()} {path}"
            toc.append(f'<li><a href="#{escape(anchor)}"><code>{escape(label)}</code></a> '
                       f"{escape(str(op.get('summary') or ''))}</li>")  # fmt: skip
            sections.append(_operation(method, path, op, escape(anchor)))
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title} — HTTP API</title><style>{_STYLE}</style></head><body>"
        f"<h1>{title} — HTTP API</h1><p>{escape(str(info.get('description') or ''))}</p>"
        f"<p>Every route but <code>/openapi.json</code> and <code>/docs</code> needs "
        f"<code>Authorization: Bearer KEY</code>: a tenant's API key, or a personal vault's "
        f"local token (<code>memvault token</code>). The machine-readable document: "
        f'<a href="/openapi.json">/openapi.json</a>.</p>'
        f"<nav><ul>{''.join(toc)}</ul></nav>{''.join(sections)}</body></html>"
    )


def install(app: FastAPI) -> None:
    """Serve the page at ``/docs`` (the app is made with ``docs_url=None``)."""

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(
            page(app.openapi()),
            headers={
                "Content-Security-Policy": POLICY,
                "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer",
            },
        )
