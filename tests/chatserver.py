"""A real OpenAI-compatible chat-completions server on 127.0.0.1, for tests and benchmarks.

It stands in for Ollama, llama.cpp's ``llama-server`` or vLLM (which cannot run on the test
machines): same route (``POST /v1/chat/completions``), same request (``{"model", "messages",
"temperature", "response_format"}``) and same reply (``{"id", "object": "chat.completion",
"choices": [{"index", "message": {"role": "assistant", "content"}, "finish_reason"}],
"usage"}``). Its "model" is memvault's own rules extractor: it reads the JSON list of user
messages memvault sends, extracts from each, and answers in the JSON schema the request asks
for — and checks its answer against that schema, as a server with structured output would.
So the LLM path (prompt, batching, ids, parsing) runs for real and its figures on the
evaluation set can be compared with the rules'.

    with serve() as server:
        extractor = LLMExtractor(LLMConfig(server.url, "memvault-rules"))

`python tests/chatserver.py [PORT]` runs one in the foreground (for benchmarks/extraction.py
--llm-url http://127.0.0.1:PORT/v1 --llm-model memvault-rules).
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import jsonschema_rs

from httpkit import Answer, json_server
from memvault.extract.base import UserMessage
from memvault.extract.rules import extract_message


def answer(body: dict[str, Any]) -> dict[str, Any]:
    """The memories of the user messages in a memvault extraction request."""
    payload = json.loads(body["messages"][-1]["content"])
    memories: list[dict[str, Any]] = []
    for item in payload:
        message = UserMessage(
            "chat", "c", str(item["message_id"]), str(item["text"]), None, item.get("speaker")
        )
        for c in extract_message(message):
            memories.append(
                {
                    "message_id": item["message_id"],
                    "type": c.type,
                    "content": c.content,
                    "language": c.language,
                    "confidence": c.confidence,
                    "slot": c.slot,
                    "value": c.value,
                    "polarity": c.polarity,
                    "change": c.change,
                }
            )
    return {"memories": memories}


@dataclass
class ChatServer:
    url: str = ""
    requests: list[dict[str, Any]] = field(default_factory=list)


def _answer(state: ChatServer) -> Answer:
    def send(status: int, data: dict[str, Any]) -> tuple[int, bytes]:
        return status, json.dumps(data).encode()

    def answer_post(path: str, raw: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        if path.rstrip("/") != "/v1/chat/completions":
            return send(404, {"error": {"message": f"no route {path}"}})
        body = json.loads(raw)
        state.requests.append(body)
        if not isinstance(body.get("model"), str) or not isinstance(body.get("messages"), list):
            return send(400, {"error": {"message": "model and messages are required"}})
        content = answer(body)
        schema = (body.get("response_format") or {}).get("json_schema", {}).get("schema")
        if schema is not None:
            jsonschema_rs.validator_for(schema).validate(content)  # structured output
        return send(
            200,
            {
                "id": f"chatcmpl-{len(state.requests)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body["model"],
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": json.dumps(content)},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
            },
        )

    return answer_post


@contextmanager
def serve(port: int = 0) -> Iterator[ChatServer]:
    """A server on 127.0.0.1 (a free port unless given), stopped on exit."""
    state = ChatServer()
    with json_server(_answer(state), port) as url:
        state.url = url
        yield state


if __name__ == "__main__":
    with serve(int(sys.argv[1]) if len(sys.argv) > 1 else 0) as running:
        print(running.url, flush=True)
        threading.Event().wait()
