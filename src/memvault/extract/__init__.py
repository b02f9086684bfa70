"""Memory extraction (PAM §25.1 "Extract Memories"): from the user messages of the
conversations in the vault to PAM memories about the user.

- `rules`: offline, deterministic patterns (English and Portuguese), the default;
- `llm`: any OpenAI-compatible chat-completions endpoint, when one is configured;
- `reconcile`: duplicates, near-duplicates, updates and contradictions against the vault,
  applied in one transaction.

See docs/extraction.md.
"""

from __future__ import annotations

from memvault.extract.base import Candidate, UserMessage, user_messages

__all__ = ["Candidate", "UserMessage", "user_messages"]
