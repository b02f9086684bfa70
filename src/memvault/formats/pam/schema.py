"""memvault's own JSON Schemas for the three PAM documents, and schema errors as findings.

The schemas in `schemas/` are written from the PAM v1.0 specification; each node that
enforces a rule carries an `x-pam-section` annotation, so an error can cite the section of
the spec it comes from (a node may also carry `x-pam-section-required`, the section that lists
its required members, used for `required` errors). Validation uses jsonschema-rs (Draft
2020-12, `format` checked). tests/test_schemas_differential.py holds every verdict equal to the
official schemas'.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any, Final

import jsonschema_rs

from memvault.findings import Finding

try:
    from memvault._memory_schema import unclear as _c_unclear
except ImportError:  # pragma: no cover - the extension is part of every normal build
    _c_unclear = None
#: The C pre-check of memory objects (None: every memory goes to jsonschema-rs). It clears
#: only memories the schema certainly accepts; tests/test_memory_schema_fast.py holds it to
#: jsonschema-rs's verdicts.
unclear_memories: Callable[[list[Any]], list[int]] | None = _c_unclear

DOCUMENT_SCHEMAS: Final = {
    "memory-store": "memory-store.schema.json",
    "conversation": "conversation.schema.json",
    "embeddings": "embeddings.schema.json",
}
_SCHEMA_DIR = Path(__file__).with_name("schemas")
_MESSAGE_LIMIT = 300
_NON_EMPTY_CUSTOM_TYPE = 'custom_type must be a non-empty string when type is "custom"'
#: PAM §5.1 in words, by the kind of error the schema's custom_type rule produced.
_CUSTOM_TYPE_MESSAGES: Final = {
    "Const": 'custom_type must be null unless type is "custom"',
    "Constant": 'custom_type must be null unless type is "custom"',
    "Required": 'custom_type is required when type is "custom"',
    "Type": _NON_EMPTY_CUSTOM_TYPE,
    "MinLength": _NON_EMPTY_CUSTOM_TYPE,
}


@cache
def load_schema(kind: str) -> dict[str, Any]:
    """The schema document for a PAM document kind."""
    text = (_SCHEMA_DIR / DOCUMENT_SCHEMAS[kind]).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _validator(kind: str, definition: str | None, as_array: bool) -> Any:
    schema = load_schema(kind)
    if definition is not None:
        target: dict[str, Any] = {"$ref": f"#/$defs/{definition}"}
        if as_array:
            target = {"type": "array", "items": target}
        schema = {"$schema": schema["$schema"], "$defs": schema["$defs"], **target}
    # All PAM patterns are plain regular expressions: the linear-time engine is faster.
    return jsonschema_rs.validator_for(
        schema, validate_formats=True, pattern_options=jsonschema_rs.RegexOptions()
    )


def json_path(parts: Sequence[str | int]) -> str:
    """['memories', 3, 'content'] -> '$.memories[3].content'."""
    out = ["$"]
    for part in parts:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif part.isidentifier():
            out.append(f".{part}")
        else:
            out.append(f"[{json.dumps(part)}]")
    return "".join(out)


def _section_for(kind: str, evaluation_path: Sequence[str | int]) -> str | None:
    """The innermost `x-pam-section` along the path the validator took through the schema."""
    root = load_schema(kind)
    node: Any = root
    section: str | None = root.get("x-pam-section")
    for step in evaluation_path:
        parent = node
        if isinstance(node, Mapping) and step == "$ref" and "$ref" in node:
            node = _resolve(root, node["$ref"])
        else:
            node = _child(node, step)
            if node is _NOWHERE:
                break
        if isinstance(node, Mapping) and isinstance(node.get("x-pam-section"), str):
            section = node["x-pam-section"]
        elif (
            step == "required"
            and isinstance(parent, Mapping)
            and isinstance(parent.get("x-pam-section-required"), str)
        ):
            section = parent["x-pam-section-required"]
    return f"PAM {section}" if section else None


_NOWHERE: Final = object()


def _child(node: Any, step: str | int) -> Any:
    """node[step] for a schema object or list, `_NOWHERE` when there is no such child."""
    if isinstance(node, Mapping) and isinstance(step, str):
        return node.get(step, _NOWHERE)
    if isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
        return node[step]
    return _NOWHERE


def _resolve(root: Mapping[str, Any], ref: str) -> Any:
    node: Any = root
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def _message(kind_name: str, error: Any, section: str | None) -> str:
    message: str = error.message
    if section == "PAM §5.1":
        message = _CUSTOM_TYPE_MESSAGES.get(kind_name, message)
    if len(message) > _MESSAGE_LIMIT:
        message = message[: _MESSAGE_LIMIT - 1] + "…"
    return message


def _findings(
    kind: str,
    errors: Iterator[Any],
    *,
    file: str | None,
    prefix: Sequence[str | int],
    records: Mapping[Any, str],
) -> Iterator[Finding]:
    seen: set[tuple[str, str, str]] = set()
    for error in errors:
        kind_name = type(error.kind).__name__
        section = _section_for(kind, _evaluation_path(kind, prefix, error))
        parts = [*prefix, *error.instance_path]
        finding = Finding(
            "error",
            f"schema-{_kebab(kind_name)}",
            _message(kind_name, error, section),
            json_path(parts),
            section,
            file,
            records.get(parts[1]) if len(parts) > 1 and parts[0] == "memories" else None,
        )
        key = (finding.code, finding.path, finding.message)
        if key not in seen:  # one rule stated in two places of a schema is reported once
            seen.add(key)
            yield finding


def _evaluation_path(kind: str, prefix: Sequence[str | int], error: Any) -> list[str | int]:
    path = list(error.evaluation_path)
    if prefix and prefix[0] == "memories" and "$ref" in path:
        # Memories are validated one batch at a time against the Memory definition.
        return ["properties", "memories", "items", *path[path.index("$ref") :]]
    return path


def _kebab(name: str) -> str:
    return "".join("-" + c.lower() if c.isupper() else c for c in name).lstrip("-")


def validate_document(kind: str, document: Any, *, file: str | None = None) -> list[Finding]:
    """Schema findings for a whole document."""
    validator = _validator(kind, None, False)
    if validator.is_valid(document):
        return []
    records: dict[Any, str] = {}
    if kind == "memory-store" and isinstance(document, Mapping):
        memories = document.get("memories")
        if isinstance(memories, list):
            records = _records(memories)
    errors = validator.iter_errors(document)
    return list(_findings(kind, errors, file=file, prefix=(), records=records))


def validate_memories(
    memories: Sequence[Any],
    start: int | Sequence[int],
    *,
    file: str | None = None,
) -> list[Finding]:
    """Schema findings for a batch of memory objects.

    `start` is the document index of the first (the batch is `memories[start:]`), or the
    document index of each memory when the batch is not contiguous.
    """
    positions = range(start, start + len(memories)) if isinstance(start, int) else start
    if unclear_memories is not None and type(memories) is list:
        # Only what the C check cannot clear goes to the full validator (nearly always
        # nothing: a valid memory is cleared in a third of the time).
        left = unclear_memories(memories)
        if not left:
            return []
        if len(left) < len(memories):
            memories = [memories[i] for i in left]
            positions = [positions[i] for i in left]
    validator = _validator("memory-store", "Memory", True)
    if validator.is_valid(memories):
        return []
    found = _findings(
        "memory-store",
        validator.iter_errors(memories),
        file=file,
        prefix=("memories",),
        records=_records(memories),
    )
    return [_shift(f, positions) for f in found]


def _records(memories: Sequence[Any]) -> dict[Any, str]:
    """Memory ids by index in `memories`, the `record` of a finding."""
    return {
        i: m["id"]
        for i, m in enumerate(memories)
        if isinstance(m, Mapping) and isinstance(m.get("id"), str)
    }


def _shift(finding: Finding, positions: Sequence[int]) -> Finding:
    """Turn a batch-relative path "$.memories[3].x" into the document's "$.memories[n].x"."""
    head, _, rest = finding.path.partition("[")
    index_text, _, tail = rest.partition("]")
    position = positions[int(index_text)]
    if position == int(index_text):
        return finding
    return replace(finding, path=f"{head}[{position}]{tail}")
