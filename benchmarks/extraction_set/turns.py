"""The shape of the hand-written conversations of the extraction evaluation set
(`heldout_supplement.py`, `realistic_dev.py`, `real2_*.py`, `blind2_*.py`), and the small
functions they are written with.

A conversation is ``(participants, turns)``; a turn is ``(speaker, text, expectations)`` with
speaker "" in a one-person chat (an assistant reply follows each such turn) and a participant's
name in a group conversation. An expectation is ``(type, keys, forbid)`` as in `templates.py`.
"""

from __future__ import annotations

Expect = tuple[str, tuple[str, ...], tuple[str, ...]]
Turn = tuple[str, str, tuple[Expect, ...]]
Conversation = tuple[tuple[str, ...], tuple[Turn, ...]]


def e(type: str, *keys: str, forbid: tuple[str, ...] = ()) -> Expect:
    return (type, keys, forbid)


def u(text: str, *expects: Expect) -> Turn:
    """A user turn of a one-person chat."""
    return ("", text, expects)


def by(speaker: str, text: str, *expects: Expect) -> Turn:
    """A turn of a named participant in a group conversation."""
    return (speaker, text, expects)


def chat(*turns: Turn) -> Conversation:
    return ((), turns)


def group(names: tuple[str, ...], *turns: Turn) -> Conversation:
    return (names, turns)
