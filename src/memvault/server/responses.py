"""JSON answers, serialised by orjson (the shapes hold plain JSON values)."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.responses import Response

__all__ = ["JSONAnswer", "answer"]


class JSONAnswer(Response):
    """An ``application/json`` body from a JSON-ready value."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def answer(content: Any, status_code: int = 200) -> JSONAnswer:
    """`content` as a JSON response with `status_code`."""
    return JSONAnswer(content, status_code=status_code)
