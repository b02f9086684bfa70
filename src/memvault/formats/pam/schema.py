"""memvault's own JSON Schemas for the three PAM documents, and schema errors as findings.

The schemas in `schemas/` are written from the PAM v1.0 specification; each node that
enforces a rule carries an `x-pam-section` annotation, so an error can cite the section of
the spec it comes from. Validation uses jsonschema-rs (Draft 2020-12, `format` checked).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any, Final

import jsonschema_rs

from memvault.findings import Finding

DOCUMENT_SCHEMAS: Final = {
    "memory-store": "memory-store.schema.json",
    "conversation": "conversation.schema.json",
    "embeddings": "embeddings.schema.json",
}
_MESSAGE_LIMIT = 300


@cache
def load_schema(kind: str) -> dict[str, Any]:
    """The schema document for a PAM document kind."""
    text = resources.files(__package__).joinpath("schemas", DOCUMENT_SCHEMAS[kind]).read_text()
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
    return jsonschema_rs.validator_for(schema, validate_formats=True)


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
        if isinstance(node, Mapping) and step == "$ref" and "$ref" in node:
            node = _resolve(root, node["$ref"])
        elif (isinstance(node, Mapping) and step in node) or (
            isinstance(node, list) and isinstance(step, int) and step < len(node)
        ):
            node = node[step]
        else:
            break
        if isinstance(node, Mapping) and isinstance(node.get("x-pam-section"), str):
            section = node["x-pam-section"]
    return f"PAM {section}" if section else None


def _resolve(root: Mapping[str, Any], ref: str) -> Any:
    node: Any = root
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def _message(kind_name: str, error: Any, section: str | None) -> str:
    message: str = error.message
    if kind_name == "Const" and section == "PAM §5.1":
        message = 'custom_type must be null unless type is "custom"'
    elif kind_name == "Required" and section == "PAM §5.1":
        message = 'custom_type is required when type is "custom"'
    if len(message) > _MESSAGE_LIMIT:
        message = message[: _MESSAGE_LIMIT - 1] + "…"
    return message


def _findings(
    kind: str,
    errors: Iterator[Any],
    *,
    file: str | None,
    prefix: Sequence[str | int],
) -> Iterator[Finding]:
    for error in errors:
        kind_name = type(error.kind).__name__
        section = _section_for(kind, _evaluation_path(kind, prefix, error))
        parts = [*prefix, *error.instance_path]
        yield Finding(
            "error",
            f"schema-{_kebab(kind_name)}",
            _message(kind_name, error, section),
            json_path(parts),
            section,
            file,
        )


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
    return list(_findings(kind, validator.iter_errors(document), file=file, prefix=()))


def validate_memories(
    memories: Sequence[Any], start: int, *, file: str | None = None
) -> list[Finding]:
    """Schema findings for a batch of memory objects that sit at `memories[start:]`."""
    validator = _validator("memory-store", "Memory", True)
    if validator.is_valid(memories):
        return []
    records = {
        start + i: m["id"]
        for i, m in enumerate(memories)
        if isinstance(m, Mapping) and isinstance(m.get("id"), str)
    }
    found = _findings(
        "memory-store", validator.iter_errors(memories), file=file, prefix=("memories",)
    )
    return [_shift(f, start, records) for f in found]


def _shift(finding: Finding, start: int, records: Mapping[int, str]) -> Finding:
    """Turn a batch-relative path "$.memories[3].x" into the document's "$.memories[start+3].x"."""
    head, _, rest = finding.path.partition("[")
    index_text, _, tail = rest.partition("]")
    index = start + int(index_text)
    return Finding(
        finding.severity,
        finding.code,
        finding.message,
        f"{head}[{index}]{tail}",
        finding.section,
        finding.file,
        records.get(index),
    )
