"""Which importer reads a target: by content (entry names, the first bytes of a file — never
the whole file), or forced by name (``--from PROVIDER``).

`REGISTRY` lists the provider modules; each defines a module-level ``IMPORTER``. A PAM
memory-store, conversation file or export (read by `memvault.exchange`, not by an importer)
is told apart by `looks_like_pam`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Final

from memvault.errors import HTTP_UNPROCESSABLE, VaultError
from memvault.formats.pam import STORE_FILE
from memvault.importers.base import Importer
from memvault.sources import SourceError, Target

#: Provider modules under memvault.importers, in the order their `sniff` is tried.
REGISTRY: Final[tuple[str, ...]] = (
    "chatgpt", "claude", "gemini", "copilot", "grok", "mcp_memory", "mem0", "portable_memory",
    "letta", "basic_memory", "memory_text",
)  # fmt: skip
#: The modules of REGISTRY that live in memvault.hub (memory systems' formats, read and
#: written: docs/formats.md).
HUB_MODULES: Final = frozenset({"mcp_memory", "mem0", "portable_memory", "letta", "basic_memory"})

#: Names accepted by ``--from`` besides the module names (the PAM platform spelling).
ALIASES: Final = {"memory-text": "memory_text", "openai": "chatgpt", "openmemory": "mem0",
           "mem": "portable_memory", "portable-memory": "portable_memory"}  # fmt: skip

#: What each provider's sniff looks for, for the error when nothing matches.
LOOKED_FOR: Final = {
    "chatgpt": "conversations.json starting with a JSON array whose objects have 'mapping'",
    "claude": "conversations.json whose first bytes have 'chat_messages' (or memories.json, "
    "projects.json, users.json with 'conversations_memory', 'prompt_template', "
    "'email_address')",
    "gemini": "My Activity/Gemini Apps/MyActivity.json (or Minha atividade/Apps do "
    "Gemini/MinhaAtividade.json): a JSON array of events whose 'header' names Gemini or Bard",
    "copilot": "copilot-activity-history.csv, copilot-chat-activity.csv, "
    "copilot-in-Microsoft-365-apps-activity.csv, windows-apps-copilot-activity-history.csv, "
    "or a CSV whose header has Conversation, Time, Author, Message (or ChatName, CreatedAt, "
    "MessageContent, Author; or ClientApp, Timestamp, Prompt)",
    "grok": "prod-grok-backend.json: a JSON object starting with 'conversations', "
    "'projects', 'tasks' or 'media_posts'",
    "mcp_memory": "a .jsonl file whose first line is an MCP memory-server entity or relation "
    '({"type":"entity",…})',
    "mem0": "a JSON file of mem0 memories ('memory' members in 'results' or an array), or "
    "OpenMemory's export (memories.json with 'user' and 'apps', or memories.jsonl.gz)",
    "portable_memory": "a MacPaw Portable Memory .mem bundle (a folder or zip with "
    "manifest.json naming 'conformanceLevel' and 'exportMode')",
    "letta": "a Letta agent file (.af): a JSON object with 'agents' (v2) or 'core_memory' "
    "(legacy), or a JSON string holding one",
    "basic_memory": "basic-memory Markdown notes (.md with frontmatter naming 'permalink', or "
    "'title' and 'type'): a note, a folder or a zip of them",
    "memory_text": "a text file of numbered, dated lines ('1. [2024-05-01]. …')",
}

_PAM_MARK: Final = b'"portable-ai-memory'
_HEAD: Final = 4096


class DetectionError(VaultError):
    """No importer recognized the target (or the forced name is unknown)."""

    http_status = HTTP_UNPROCESSABLE


def load(name: str) -> Importer:
    """The importer of a provider module, by its name or alias (``--from``)."""
    module = ALIASES.get(name.lower(), name.lower().replace("-", "_"))
    if module not in REGISTRY:
        known = ", ".join(sorted({*(m.replace("_", "-") for m in REGISTRY)}))
        raise DetectionError(f"unknown provider {name!r}; known: {known}")
    package = "memvault.hub" if module in HUB_MODULES else "memvault.importers"
    imported = importlib.import_module(f"{package}.{module}")
    importer = imported.IMPORTER
    if not isinstance(importer, Importer):
        raise DetectionError(f"{package}.{module}.IMPORTER is not an Importer")
    return importer


def importers() -> Iterator[tuple[str, Importer]]:
    for module in REGISTRY:
        yield module, load(module)


def looks_like_pam(target: Target) -> bool:
    """A PAM document or export: a JSON object whose first bytes name a portable-ai-memory
    schema (memory-store, conversation or embeddings), or a folder/zip with memory-store.json.
    """
    if any(e.name.rsplit("/", 1)[-1] == STORE_FILE for e in target.entries):
        return True
    for entry in target.entries[:1] if target.kind == "file" else []:
        try:
            with entry.stream() as stream:
                head = stream.read(_HEAD)
        except SourceError:
            return False
        stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
        return stripped[:1] == b"{" and _PAM_MARK in head
    return False


def detect(target: Target) -> Importer:
    """The importer whose `sniff` recognizes the target; DetectionError listing what was
    looked for when none does (a PAM input is named as such)."""
    for _module, importer in importers():
        if importer.sniff(target):
            return importer
    if looks_like_pam(target):
        raise DetectionError(
            f"{target.path} is a PAM document or export, not a provider export; "
            "use `memvault import` without --from"
        )
    raise DetectionError(not_recognized(target))


def not_recognized(target: Target) -> str:
    """Why no importer took `target`: what it holds and what each one looked for."""
    looked = "; ".join(f"{m.replace('_', '-')}: {LOOKED_FOR.get(m, 'its own files')}"
                       for m in REGISTRY)  # fmt: skip
    names = ", ".join(e.name for e in target.entries[:8]) or "no files"
    return (
        f"{target.path} is not an export memvault recognizes (it holds: {names}). Looked for — "
        f"{looked}. Name the provider with --from PROVIDER if it is one of these."
    )
