"""Memory extraction through any OpenAI-compatible chat-completions endpoint (Ollama's
``http://localhost:11434/v1``, llama.cpp's ``llama-server``, vLLM, a hosted service).

Nothing leaves the machine unless an endpoint is configured: `LLMConfig.from_env` returns None
when neither ``--llm-url`` nor ``$MEMVAULT_LLM_URL`` is given, and the rules extractor is used.
The API key, if the endpoint needs one, comes from ``$MEMVAULT_LLM_API_KEY``.

User messages go in batches (`batch_size` per request) as JSON; the reply must be
``{"memories": [{"message_id", "type", "content", "language", "confidence", "slot", "value",
"polarity", "change"}, …]}``. The request asks for that shape with ``response_format``
``json_schema`` (llama.cpp, vLLM, Ollama and hosted services honour it); a server that rejects
the field is asked again without it. Replies are parsed tolerantly — code fences, text before or
after the JSON, a bare array, a truncated array (the complete objects are kept) — and a reply
that stays malformed after `retries` more tries is *reported*: every message of that batch is
listed in `Proposal.skipped` with the reason, never dropped silently. An endpoint that is down,
times out or answers an HTTP error raises `LLMError` before anything is written.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from memvault import __version__
from memvault.errors import HTTP_UPSTREAM, VaultError
from memvault.extract.base import SINGLE_VALUED_SLOTS, Candidate, UserMessage
from memvault.extract.pipeline import Proposal, Skipped
from memvault.extract.settings import LLM_KEY_ENV, LLM_MODEL_ENV, LLM_URL_ENV
from memvault.model import MEMORY_TYPES
from memvault.vault_inputs import LANGUAGE_PATTERN

if TYPE_CHECKING:
    import httpx

__all__ = [
    "LLM_KEY_ENV",
    "LLM_MODEL_ENV",
    "LLM_URL_ENV",
    "LLMConfig",
    "LLMError",
    "LLMExtractor",
    "parse_reply",
]


#: PAM §5 types an LLM may propose (`custom` needs a registry entry, so it is not offered).
TYPES: Final = tuple(t for t in MEMORY_TYPES if t != "custom")
#: An LLM's own confidence is not calibrated here; it is capped below the rules' best.
MAX_CONFIDENCE: Final = 0.8
DEFAULT_CONFIDENCE: Final = 0.6

SCHEMA: Final[Mapping[str, Any]] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["memories"],
    "properties": {
        "memories": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["message_id", "type", "content"],
                "properties": {
                    "message_id": {"type": "string"},
                    "type": {"type": "string", "enum": list(TYPES)},
                    "content": {"type": "string", "minLength": 1},
                    "language": {"type": "string"},
                    "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                    "slot": {"type": ["string", "null"]},
                    "value": {"type": ["string", "null"]},
                    "polarity": {"type": "boolean"},
                    "change": {"type": "boolean"},
                },
            },
        }
    },
}

SYSTEM_PROMPT: Final = f"""\
You extract durable memories about the user from messages the user wrote to an assistant.
Read only the given user messages. Keep only first-person statements the user makes about
themself: not questions, not hypotheticals ("if I were…"), not what other people said or
think, not statements about other people, not one-off task requests or instructions for the
current task ("I want to resume this chat", "make it shorter"), not statements the user is
unsure about. Nothing inside text given to the assistant to work on is about the user: text
to translate, rewrite or proofread, role-play and "act as" set-ups, pasted documents, problem
statements, code and error messages, and the assistant's or the provider's stock text.
Write each memory in the third person, in the message's language: English as "User …"
(e.g. "User lives in Lisbon"), Portuguese as "O usuário …" (e.g. "O usuário mora em Lisboa";
"A usuária é engenheira" when the words are feminine). Keep values whole ("6:30 in the
morning"). When a message has a "speaker", the conversation has several named people: write
the speaker's name instead of "User" ("Ana lives in Porto").
type is one of: {", ".join(TYPES)}.
slot names what the memory is about when it is one of {", ".join(sorted(SINGLE_VALUED_SLOTS))}
(else null); value is that slot's value in lower case. polarity is false for a negative
statement ("no longer lives in Berlin", "dislikes jazz"). change is true when the user says
something changed ("I moved to…", "now I prefer…").
Answer with JSON only: {{"memories": [{{"message_id": …, "type": …, "content": …,
"language": "en" or "pt", "confidence": 0..1, "slot": …, "value": …, "polarity": …,
"change": …}}]}}. Give {{"memories": []}} when there is nothing to keep."""


class LLMError(VaultError):
    """The LLM endpoint could not be used (down, timed out, refused the request)."""

    http_status = HTTP_UPSTREAM


@dataclass(frozen=True, slots=True)
class LLMConfig:
    """Where the endpoint is and how to talk to it."""

    url: str
    model: str
    api_key: str | None = None
    timeout: float = 60.0
    batch_size: int = 20
    retries: int = 2
    backoff: float = 0.5
    json_schema: bool = True

    @property
    def endpoint(self) -> str:
        base = self.url.rstrip("/")
        return base if base.endswith("/chat/completions") else base + "/chat/completions"

    @classmethod
    def from_env(
        cls, url: str | None = None, model: str | None = None, **kwargs: Any
    ) -> LLMConfig | None:
        """The configuration from arguments, else ``$MEMVAULT_LLM_URL`` /
        ``$MEMVAULT_LLM_MODEL``; None when no endpoint is configured (nothing will be sent
        anywhere). A URL without a model is an error."""
        url = url or os.environ.get(LLM_URL_ENV) or None
        model = model or os.environ.get(LLM_MODEL_ENV) or None
        if url is None:
            if model is not None:
                raise LLMError(
                    f"an LLM model is set but no endpoint: give --llm-url or {LLM_URL_ENV}"
                )
            return None
        if not re.match(r"^https?://", url):
            raise LLMError(f"--llm-url {url!r} must be an http:// or https:// URL")
        if model is None:
            raise LLMError(f"--llm-url is set but no model: give --llm-model or {LLM_MODEL_ENV}")
        return cls(url=url, model=model, api_key=os.environ.get(LLM_KEY_ENV) or None, **kwargs)


# -- tolerant parsing ------------------------------------------------------------------------

_FENCE: Final = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)(?:```|$)", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Parsed:
    items: list[Any]
    complete: bool  # False: the reply was cut off and only the complete objects were kept


def _salvage(text: str) -> list[Any]:
    """The complete objects at the start of a (truncated) JSON array in `text`."""
    start = text.find("[")
    if start < 0:
        return []
    decoder = json.JSONDecoder()
    items: list[Any] = []
    position = start + 1
    while True:
        while position < len(text) and text[position] in " \t\r\n,":
            position += 1
        if position >= len(text) or text[position] == "]":
            return items
        try:
            item, position = decoder.raw_decode(text, position)
        except json.JSONDecodeError:
            return items
        items.append(item)


def parse_reply(text: str) -> Parsed | None:
    """The memory items of a reply, or None when nothing can be read from it."""
    fenced = _FENCE.search(text)
    body = fenced.group(1) if fenced else text
    decoder = json.JSONDecoder()
    for opener in ("{", "["):
        index = body.find(opener)
        while index >= 0:
            try:
                value, _ = decoder.raw_decode(body, index)
            except json.JSONDecodeError:
                index = body.find(opener, index + 1)
                continue
            if isinstance(value, Mapping) and isinstance(value.get("memories"), list):
                return Parsed(list(value["memories"]), True)
            if isinstance(value, list):
                return Parsed(value, True)
            index = body.find(opener, index + 1)
    salvaged = _salvage(body[body.find("memories") :] if "memories" in body else body)
    if salvaged:
        return Parsed(salvaged, False)
    return None


# -- the extractor ---------------------------------------------------------------------------


class LLMExtractor:
    """Propose candidates with an OpenAI-compatible endpoint."""

    name = "llm"

    def __init__(self, config: LLMConfig, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self.config = config
        self._sleep = sleep
        self._schema = config.json_schema
        # PAM §11.2 wants "name/x.y.z" here; the model goes to metadata.extraction.model.
        self.extractor = f"memvault-llm/{__version__}"

    def propose(
        self, messages: list[UserMessage], progress: Callable[[int], None] | None = None
    ) -> Proposal:
        proposal = Proposal()
        headers = {"Content-Type": "application/json"}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        import httpx  # loaded only when an endpoint is used: the CLI starts faster without it

        with httpx.Client(timeout=self.config.timeout, headers=headers) as client:
            size = max(1, self.config.batch_size)
            for start in range(0, len(messages), size):
                batch = messages[start : start + size]
                self._batch(client, batch, proposal)
                if progress is not None:
                    progress(len(batch))
        return proposal

    def _body(self, batch: Sequence[UserMessage]) -> dict[str, Any]:
        payload = [
            {
                "message_id": m.message_id,
                "text": m.text,
                **({"speaker": m.speaker} if m.speaker else {}),
            }
            for m in batch
        ]
        body: dict[str, Any] = {
            "model": self.config.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": json.dumps(payload, ensure_ascii=False)},
            ],
        }
        if self._schema:
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "memories", "strict": True, "schema": SCHEMA},
            }
        return body

    def _post(self, client: httpx.Client, batch: Sequence[UserMessage]) -> str:
        """The text of the first choice. Retries connection errors, timeouts and 5xx answers;
        raises LLMError when they persist or on another HTTP error."""
        import httpx

        url = self.config.endpoint
        attempts = self.config.retries + 1
        problem = ""
        attempt = 0
        while attempt < attempts:
            attempt += 1
            try:
                response = client.post(url, json=self._body(batch))
            except httpx.TimeoutException:
                problem = f"no answer within {self.config.timeout:g} s (timeout)"
            except httpx.TransportError as exc:
                problem = f"cannot connect ({exc.__class__.__name__}: {exc})"
            else:
                if (
                    response.status_code in (400, 422)
                    and self._schema
                    and ("response_format" in response.text or "json_schema" in response.text)
                ):
                    self._schema = False  # this server does not do structured output
                    attempt -= 1
                    continue
                if response.status_code >= 500:
                    problem = f"HTTP {response.status_code}: {response.text[:200]}"
                elif response.status_code >= 400:
                    raise LLMError(
                        f"the LLM endpoint {url} refused the request: HTTP "
                        f"{response.status_code}: {response.text[:300]}; nothing was written"
                    )
                else:
                    return _choice_text(response)
            if attempt < attempts:
                self._sleep(self.config.backoff * attempt)
        raise LLMError(
            f"the LLM endpoint {url} failed after {attempts} tries: {problem}; nothing was written"
        )

    def _batch(
        self, client: httpx.Client, batch: Sequence[UserMessage], proposal: Proposal
    ) -> None:
        parsed: Parsed | None = None
        for attempt in range(self.config.retries + 1):
            text = self._post(client, batch)
            parsed = parse_reply(text)
            if parsed is not None and parsed.complete:
                break
            if attempt < self.config.retries:
                self._sleep(self.config.backoff)
        by_id = {m.message_id: m for m in batch}
        if parsed is None:
            for message in batch:
                proposal.skipped.append(
                    Skipped(
                        message.conversation_id,
                        message.message_id,
                        f"the LLM reply was not JSON after {self.config.retries + 1} tries",
                    )
                )
            return
        if not parsed.complete:
            for message in batch:
                proposal.skipped.append(
                    Skipped(
                        message.conversation_id,
                        message.message_id,
                        f"the LLM reply was cut off after {len(parsed.items)} complete "
                        f"{'memory' if len(parsed.items) == 1 else 'memories'}; later facts of "
                        "this batch may be missing",
                    )
                )
        for position, item in enumerate(parsed.items):
            candidate, problem = self._candidate(item, by_id)
            if candidate is not None:
                proposal.candidates.append(candidate)
            else:
                first = batch[0]
                proposal.skipped.append(
                    Skipped(first.conversation_id, "?", f"memories[{position}]: {problem}")
                )

    def _candidate(
        self, item: Any, by_id: Mapping[str, UserMessage]
    ) -> tuple[Candidate | None, str]:
        if not isinstance(item, Mapping):
            return None, "not an object"
        message = by_id.get(str(item.get("message_id")))
        if message is None:
            return None, f"message_id {item.get('message_id')!r} is not in the batch"
        type = item.get("type")
        if type not in TYPES:
            return None, f"type {type!r} is not a PAM type ({', '.join(TYPES)})"
        content = item.get("content")
        if not isinstance(content, str) or not content.strip():
            return None, "content is empty"
        language = item.get("language")
        if not isinstance(language, str) or not LANGUAGE_PATTERN.fullmatch(language):
            language = "pt" if content.startswith("O usuário") else "en"
        confidence = item.get("confidence")
        if isinstance(confidence, bool) or not isinstance(confidence, int | float):
            confidence = DEFAULT_CONFIDENCE
        confidence = round(min(max(float(confidence), 0.0), 1.0) * MAX_CONFIDENCE, 2)
        slot = item.get("slot")
        value = item.get("value")
        return (
            Candidate(
                type=type,
                content=" ".join(content.split()),
                language=language,
                confidence=confidence,
                source=message,
                method="llm_inference",
                extractor=self.extractor,
                pattern="llm",
                slot=slot if isinstance(slot, str) and slot in SINGLE_VALUED_SLOTS else None,
                value=value.lower() if isinstance(value, str) else None,
                polarity=item.get("polarity") is not False,
                change=item.get("change") is True,
                tags=("extracted", type),
                extra={"model": self.config.model},
                subject=message.speaker,
            ),
            "",
        )


def _choice_text(response: httpx.Response) -> str:
    try:
        data = response.json()
        content = data["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        return response.text  # not the chat-completions shape: let the tolerant parser try
    return content if isinstance(content, str) else ""
