"""The LLM extractor against a real HTTP server on 127.0.0.1 that answers like llama.cpp's
`/v1/chat/completions`: good replies, code fences, malformed and truncated JSON, timeouts, HTTP
errors and an endpoint that is down — each handled with a clear message, nothing half-written
(PAM §11.3 `llm_inference` provenance on what is written)."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from httpkit import json_server
from memvault.extract.evaluation import conversation_of
from memvault.extract.llm import (
    LLM_KEY_ENV,
    LLM_MODEL_ENV,
    LLM_URL_ENV,
    LLMConfig,
    LLMError,
    LLMExtractor,
    parse_reply,
)
from memvault.extract.pipeline import run
from memvault.store.base import MemoryQuery
from memvault.vault import Vault
from vaultkit import assert_valid_pam, make_vault

#: (HTTP status, assistant message content or raw body, delay in seconds, raw body?)
Reply = tuple[int, str, float, bool]


@dataclass
class Stub:
    """What the server will answer, in order (the last one repeats), and what it was sent."""

    replies: list[Reply] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    url: str = ""

    def reply(self, content: str, status: int = 200, delay: float = 0.0) -> None:
        self.replies.append((status, content, delay, False))

    def raw(self, body: str, status: int) -> None:
        self.replies.append((status, body, 0.0, True))

    def next(self) -> Reply:
        return self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]

    def batches(self) -> list[list[dict[str, str]]]:
        return [json.loads(r["messages"][1]["content"]) for r in self.requests]


def _completion(content: str) -> bytes:
    """A llama.cpp-style chat completion."""
    return json.dumps(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": "stub",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": content},
                    "finish_reason": "stop",
                }
            ],
            "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
        }
    ).encode()


@pytest.fixture
def stub() -> Iterator[Stub]:
    state = Stub()

    def answer(path: str, raw: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
        state.requests.append(json.loads(raw))
        state.headers.append(headers)
        if path != "/v1/chat/completions":
            return 404, b'{"error": "not found"}'
        status, text, delay, is_raw = state.next()
        time.sleep(delay)
        return status, text.encode() if is_raw else _completion(text)

    with json_server(answer) as url:
        state.url = url
        yield state


@pytest.fixture
def vault(tmp_path: Path) -> Iterator[Vault]:
    v = make_vault(tmp_path / "vault")
    v.put_conversation(
        conversation_of(
            "c1",
            [
                ("user", "I live in Lisbon.", "2025-01-01T00:00:00Z"),
                ("assistant", "Nice city!", "2025-01-01T00:00:01Z"),
                ("user", "Prefiro respostas curtas.", "2025-01-01T00:00:02Z"),
                ("user", "What's the weather like?", "2025-01-01T00:00:03Z"),
            ],
            platform="claude",
        )
    )
    try:
        yield v
    finally:
        v.close()


def _memories(items: list[dict[str, Any]]) -> str:
    return json.dumps({"memories": items}, ensure_ascii=False)


LISBON = {
    "message_id": "c1-m1",
    "type": "fact",
    "content": "User lives in Lisbon",
    "language": "en",
    "confidence": 0.9,
    "slot": "residence",
    "value": "lisbon",
    "polarity": True,
    "change": False,
}
CURTAS = {
    "message_id": "c1-m3",
    "type": "preference",
    "content": "O usuário prefere respostas curtas",
    "language": "pt",
}


def _extractor(stub: Stub, **kwargs: Any) -> LLMExtractor:
    kwargs.setdefault("retries", 1)
    kwargs.setdefault("timeout", 5.0)
    return LLMExtractor(LLMConfig(stub.url, "qwen2.5-7b", **kwargs), sleep=lambda _: None)


def _count(vault: Vault) -> int:
    return len(list(vault.iter_memories(MemoryQuery(statuses=None, limit=None))))


def test_pam_11_3_a_good_reply_becomes_llm_inference_memories(vault: Vault, stub: Stub) -> None:
    stub.reply(_memories([LISBON, CURTAS]))
    report = run(vault, extractor=_extractor(stub))
    assert report.skipped == []
    memories = {m.content: m for m in vault.list().items}
    assert set(memories) == {"User lives in Lisbon", "O usuário prefere respostas curtas"}
    assert_valid_pam(memories.values())
    lisbon = memories["User lives in Lisbon"]
    assert lisbon.provenance.extraction_method == "llm_inference"
    extractor = lisbon.provenance.extractor
    assert isinstance(extractor, str) and extractor.startswith("memvault-llm/")
    assert lisbon.metadata["extraction"]["model"] == "qwen2.5-7b"  # type: ignore[index]
    assert (lisbon.provenance.platform, lisbon.provenance.message_ref) == ("claude", "c1-m1")
    assert lisbon.confidence.initial == 0.72  # type: ignore[union-attr]  # 0.9 × cap 0.8
    assert memories["O usuário prefere respostas curtas"].metadata["language"] == "pt"  # type: ignore[index]
    # Only user messages were sent, with a JSON-schema response format.
    (request,) = stub.requests
    assert [m["message_id"] for m in stub.batches()[0]] == ["c1-m1", "c1-m3", "c1-m4"]
    assert request["model"] == "qwen2.5-7b"
    assert request["response_format"]["type"] == "json_schema"
    assert "Nice city" not in json.dumps(request)


def test_messages_go_in_batches(vault: Vault, stub: Stub) -> None:
    stub.reply(_memories([LISBON]))
    stub.reply(_memories([]))
    run(vault, extractor=_extractor(stub, batch_size=2))
    assert [[m["message_id"] for m in b] for b in stub.batches()] == [
        ["c1-m1", "c1-m3"],
        ["c1-m4"],
    ]


def test_code_fences_and_trailing_text_are_tolerated(vault: Vault, stub: Stub) -> None:
    stub.reply("Sure! Here you go:\n```json\n" + _memories([LISBON]) + "\n```\nAnything else?")
    report = run(vault, extractor=_extractor(stub))
    assert report.skipped == []
    assert [m.content for m in vault.list().items] == ["User lives in Lisbon"]


def test_malformed_json_is_retried_then_accepted(vault: Vault, stub: Stub) -> None:
    stub.reply("I think the user lives in Lisbon {not json")
    stub.reply(_memories([LISBON]))
    report = run(vault, extractor=_extractor(stub))
    assert len(stub.requests) == 2 and report.skipped == []
    assert _count(vault) == 1


def test_a_reply_that_stays_malformed_is_reported_never_silently_lost(
    vault: Vault, stub: Stub
) -> None:
    stub.reply("no JSON here at all")
    report = run(vault, extractor=_extractor(stub, retries=2))
    assert len(stub.requests) == 3
    assert [(s.message_id, s.reason) for s in report.skipped] == [
        (m, "the LLM reply was not JSON after 3 tries") for m in ("c1-m1", "c1-m3", "c1-m4")
    ]
    assert _count(vault) == 0


def test_a_truncated_reply_keeps_complete_objects_and_reports_the_batch(
    vault: Vault, stub: Stub
) -> None:
    text = _memories([LISBON, CURTAS])
    stub.reply(text[: text.index('"O usuário') + 5])  # cut inside the second object
    report = run(vault, extractor=_extractor(stub))
    assert len(stub.requests) == 2  # retried once, cut off again
    assert [m.content for m in vault.list().items] == ["User lives in Lisbon"]
    assert len(report.skipped) == 3
    assert "cut off after 1 complete memory;" in report.skipped[0].reason


def test_items_that_break_the_schema_are_reported(vault: Vault, stub: Stub) -> None:
    stub.reply(
        _memories(
            [
                LISBON,
                {"message_id": "c1-m3", "type": "opinion", "content": "x"},
                {"message_id": "nope", "type": "fact", "content": "User is tall"},
                {"message_id": "c1-m3", "type": "fact", "content": "  "},
            ]
        )
    )
    report = run(vault, extractor=_extractor(stub))
    assert _count(vault) == 1
    reasons = [s.reason for s in report.skipped]
    assert reasons[0].startswith("memories[1]: type 'opinion' is not a PAM type")
    assert reasons[1] == "memories[2]: message_id 'nope' is not in the batch"
    assert reasons[2] == "memories[3]: content is empty"


def test_a_server_without_structured_output_is_asked_again_without_it(
    vault: Vault, stub: Stub
) -> None:
    stub.raw('{"error": "response_format json_schema is not supported"}', 400)
    stub.reply(_memories([LISBON]))
    run(vault, extractor=_extractor(stub))
    assert "response_format" in stub.requests[0]
    assert "response_format" not in stub.requests[1]
    assert _count(vault) == 1


def test_a_server_error_is_retried(vault: Vault, stub: Stub) -> None:
    stub.raw('{"error": "loading model"}', 503)
    stub.reply(_memories([LISBON]))
    run(vault, extractor=_extractor(stub))
    assert len(stub.requests) == 2 and _count(vault) == 1


def test_an_http_error_is_a_clear_error_and_nothing_is_written(vault: Vault, stub: Stub) -> None:
    stub.raw('{"error": "invalid api key"}', 401)
    audit = vault.audit_log()
    with pytest.raises(LLMError, match=r"refused the request: HTTP 401.*nothing was written"):
        run(vault, extractor=_extractor(stub))
    assert _count(vault) == 0 and vault.audit_log() == audit


def test_a_timeout_is_retried_then_a_clear_error_and_nothing_is_written(
    vault: Vault, stub: Stub
) -> None:
    stub.reply(_memories([LISBON]), delay=1.0)
    audit = vault.audit_log()
    started = time.monotonic()
    with pytest.raises(LLMError, match=r"failed after 2 tries: no answer within 0.2 s \(timeout\)"):
        run(vault, extractor=_extractor(stub, timeout=0.2))
    assert time.monotonic() - started < 5
    assert _count(vault) == 0 and vault.audit_log() == audit


def test_a_later_batch_failing_writes_nothing_of_the_earlier_ones(vault: Vault, stub: Stub) -> None:
    stub.reply(_memories([LISBON]))
    stub.raw('{"error": "boom"}', 500)
    with pytest.raises(LLMError, match="HTTP 500"):
        run(vault, extractor=_extractor(stub, batch_size=1))
    assert _count(vault) == 0


def test_an_endpoint_that_is_down_is_a_clear_error(vault: Vault) -> None:
    with socket.socket() as sock:  # a port on 127.0.0.1 that nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = LLMConfig(f"http://127.0.0.1:{port}/v1", "m", retries=1, timeout=2.0)
    with pytest.raises(LLMError, match=r"failed after 2 tries: cannot connect"):
        run(vault, extractor=LLMExtractor(config, sleep=lambda _: None))
    assert _count(vault) == 0


def test_the_api_key_is_sent_as_a_bearer_token(
    vault: Vault, stub: Stub, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(LLM_KEY_ENV, "sk-test")
    config = LLMConfig.from_env(stub.url, "m", retries=0)
    assert config is not None
    stub.reply(_memories([]))
    run(vault, extractor=LLMExtractor(config))
    assert stub.headers[0]["Authorization"] == "Bearer sk-test"


def test_nothing_is_configured_so_nothing_leaves_the_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in (LLM_URL_ENV, LLM_MODEL_ENV, LLM_KEY_ENV):
        monkeypatch.delenv(name, raising=False)
    assert LLMConfig.from_env() is None
    with pytest.raises(LLMError, match="no model"):
        LLMConfig.from_env("http://localhost:11434/v1")
    with pytest.raises(LLMError, match="no endpoint"):
        LLMConfig.from_env(None, "llama3")
    with pytest.raises(LLMError, match="http:// or https://"):
        LLMConfig.from_env("localhost:11434", "llama3")
    monkeypatch.setenv(LLM_URL_ENV, "http://localhost:11434/v1/")
    monkeypatch.setenv(LLM_MODEL_ENV, "llama3")
    config = LLMConfig.from_env()
    assert config is not None
    assert config.endpoint == "http://localhost:11434/v1/chat/completions"


@pytest.mark.parametrize(
    ("text", "items", "complete"),
    [
        ('{"memories": [{"a": 1}]}', [{"a": 1}], True),
        ('[{"a": 1}, {"b": 2}]', [{"a": 1}, {"b": 2}], True),
        ('```\n{"memories": []}\n```', [], True),
        ('Here: {"memories": [{"a": 1}]} Hope it helps', [{"a": 1}], True),
        ('{"memories": [{"a": 1}, {"b": 2}, {"c"', [{"a": 1}, {"b": 2}], False),
        ('```json\n{"memories": [{"a": 1}, {"b":', [{"a": 1}], False),
    ],
)
def test_tolerant_parsing(text: str, items: list[Any], complete: bool) -> None:
    parsed = parse_reply(text)
    assert parsed is not None
    assert (parsed.items, parsed.complete) == (items, complete)


@pytest.mark.parametrize("text", ["", "nothing", '{"memories": "x"}', '{"memories": [{"a"'])
def test_unreadable_replies(text: str) -> None:
    assert parse_reply(text) is None


def test_the_llm_path_runs_the_evaluation_set_through_a_real_chat_server() -> None:
    """The same evaluation as the rules, through the OpenAI chat API over HTTP with a
    schema-constrained request (`tests/chatserver.py`, whose model is the rules extractor):
    every batch asks for the memories schema, and the figures equal the rules' own."""
    from chatserver import serve
    from memvault.extract.conversation_eval import load_conversations, score_conversations
    from memvault.extract.llm import SCHEMA
    from memvault.extract.rules import extract_messages

    root = Path(__file__).resolve().parents[1]
    dev = [
        c
        for c in load_conversations(root / "benchmarks/extraction_set/conversations.jsonl")
        if c.split == "dev"
    ]
    conversations = [c for c in dev if c.lang == "en"][:15] + [c for c in dev if c.lang == "pt"][
        :15
    ]
    with serve() as server:
        extractor = LLMExtractor(LLMConfig(server.url, "memvault-rules", batch_size=8))
        by_llm = score_conversations(conversations, lambda m: extractor.propose(m).candidates)
    by_rules = score_conversations(conversations, lambda m: extract_messages(m))
    assert server.requests
    for body in server.requests:
        assert body["response_format"]["json_schema"]["schema"] == SCHEMA
    for lang in ("en", "pt"):
        assert (by_llm[lang].precision(), by_llm[lang].recall()) == (
            by_rules[lang].precision(),
            by_rules[lang].recall(),
        )
        assert sum(by_llm[lang].found.values()) > 10
