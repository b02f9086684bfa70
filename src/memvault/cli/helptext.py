"""Help text shown as it was written: `build_app` passes every command's, group's and
option's help through `literal` before Typer renders it.

Typer renders help with Rich markup, which would turn ``did:key:`` into ``did🔑`` (an emoji
code) and drop ``[a-z0-9-]`` (read as a style tag), and keeps the line breaks of a
docstring, so a paragraph hard-wrapped at 95 columns breaks mid-sentence on any other
terminal. `literal` joins each paragraph's lines (Rich wraps to the terminal), escapes
brackets and splits emoji codes, leaving the text a reader sees exactly as written.
"""

from __future__ import annotations

import inspect
import re
import typing
from collections.abc import Callable
from typing import Any, Final

import typer
from rich.markup import escape
from typer.models import ParameterInfo

__all__ = ["literal", "prepare"]

#: What Rich reads as an emoji code (`rich._emoji_replace`): ``:name:``.
_EMOJI_CODE: Final = re.compile(r":([^\s:]+):")
#: A line that starts a list item: kept on its own line.
_ITEM: Final = re.compile(r"\s*(?:[-*•]|\d+[.)])\s")
#: Texts `literal` made: passing one through again leaves it as it is (options such as
#: --home are one object shared by every command).
_DONE: set[str] = set()


def _emoji_names() -> frozenset[str]:
    from rich._emoji_codes import EMOJI

    return frozenset(EMOJI)


def _unwrap(text: str) -> str:
    """Each paragraph's lines joined with spaces; list items and blank lines kept."""
    paragraphs = []
    for paragraph in inspect.cleandoc(text).split("\n\n"):
        lines: list[str] = []
        for line in paragraph.splitlines():
            if lines and not _ITEM.match(line) and line.strip():
                lines[-1] = f"{lines[-1].rstrip()} {line.strip()}"
            else:
                lines.append(line.rstrip())
        paragraphs.append("\n".join(lines))
    return "\n\n".join(paragraphs)


def literal(text: str) -> str:
    """`text` as Typer's Rich markup shows it verbatim: unwrapped, brackets escaped, emoji
    codes split by an empty style span (Rich replaces a code only within one span)."""
    if text in _DONE:
        return text
    names = _emoji_names()

    def split(match: re.Match[str]) -> str:
        name = match.group(1)
        if name.lower().split("-")[0] not in names and name.lower() not in names:
            return match.group(0)
        return f":[none]{name}:[/none]"

    done = _EMOJI_CODE.sub(split, escape(_unwrap(text)))
    _DONE.add(done)
    return done


def _prepare_callback(callback: Callable[..., Any] | None) -> None:
    if callback is None:
        return
    if callback.__doc__:
        callback.__doc__ = literal(callback.__doc__)
    # The objects Typer copies when it builds the command: option defaults and the
    # metadata of Annotated hints (shared ones, such as --home, met once per command).
    for param in inspect.signature(callback).parameters.values():
        if isinstance(param.default, ParameterInfo):
            _prepare_parameter(param.default)
    for hint in typing.get_type_hints(callback, include_extras=True).values():
        for extra in getattr(hint, "__metadata__", ()):
            if isinstance(extra, ParameterInfo):
                _prepare_parameter(extra)


def _prepare_parameter(info: ParameterInfo) -> None:
    if isinstance(info.help, str):
        info.help = literal(info.help)


def prepare(app: typer.Typer) -> None:
    """Pass every help text of `app` (its commands, groups and their options) through
    `literal`."""
    if isinstance(app.info.help, str):
        app.info.help = literal(app.info.help)
    if app.registered_callback is not None:
        if isinstance(app.registered_callback.help, str):
            app.registered_callback.help = literal(app.registered_callback.help)
        _prepare_callback(app.registered_callback.callback)
    for command in app.registered_commands:
        if isinstance(command.help, str):
            command.help = literal(command.help)
        _prepare_callback(command.callback)
    for group in app.registered_groups:
        if isinstance(group.help, str):
            group.help = literal(group.help)
        if isinstance(group.typer_instance, typer.Typer):
            prepare(group.typer_instance)
