"""HTML fragments (a Gemini response or Canvas document in Google Takeout) as Markdown text.

What the HTML says beyond its words is kept in Markdown's own spelling: a link keeps its
URL (``[text](url)``), a table stays a table (a pipe table, its first row the header), a
heading its level (``## …``), a list item its bullet or number, ``<pre>`` a fenced code
block (its language from a ``language-…`` class) with its spacing. Paragraphs are separated
by a blank line, scripts and styles are dropped, entities decoded. Images are not text: they
are returned apart, in document order, for the caller to attach.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Final

_PARAGRAPHS: Final = frozenset(
    {"p", "ul", "ol", "pre", "blockquote", "hr", "section", "article"}
    | {"h1", "h2", "h3", "h4", "h5", "h6"}
)
_LINES: Final = frozenset({"li", "tr", "div", "dt", "dd"})
_SKIP: Final = frozenset({"script", "style"})
_CELLS: Final = frozenset({"td", "th"})
_LINK_SCHEMES: Final = ("http://", "https://", "mailto:")
_FENCE: Final = "```"
#: List levels indented (deeper ones as the deepest): indentation stays linear in the input.
_MAX_INDENT: Final = 8


@dataclass(frozen=True, slots=True)
class Image:
    """An ``<img>`` of the fragment: its ``src`` and ``alt`` as written."""

    src: str
    alt: str | None


@dataclass(frozen=True, slots=True)
class Markdown:
    text: str
    images: list[Image] = field(default_factory=list)


def fold_spaces(data: str) -> str:
    """Every run of whitespace as one space, as a browser shows it (str.split: C speed)."""
    folded = " ".join(data.split())
    if not folded:
        return " " if data else ""
    return (" " if data[0].isspace() else "") + folded + (" " if data[-1].isspace() else "")


@dataclass(slots=True)
class _Link:
    href: str
    #: index in the output of the "[" written before the link's first text, once written
    bracket: int | None = None
    out: list[str] | None = None


@dataclass(slots=True)
class _Table:
    #: the output, pending line breaks and prefix the table interrupted
    saved: tuple[list[str], int, str]
    rows: list[list[str]] = field(default_factory=list)
    cell: list[str] | None = None


def _language(attrs: list[tuple[str, str | None]]) -> str | None:
    for name, value in attrs:
        if name == "class" and value:
            for cls in value.split():
                if cls.startswith(("language-", "lang-")):
                    return cls.split("-", 1)[1]
    return None


def _cell_text(chunks: list[str]) -> str:
    lines = [" ".join(line.split()) for line in "".join(chunks).split("\n")]
    return "<br>".join(line for line in lines if line).replace("|", "\\|")


def _render_table(rows: list[list[str]]) -> str:
    rows = [row for row in rows if row]
    if not rows:
        return ""
    width = max(len(row) for row in rows)
    padded = [row + [""] * (width - len(row)) for row in rows]
    lines = ["| " + " | ".join(padded[0]) + " |", "|" + " --- |" * width]
    lines += ["| " + " | ".join(row) + " |" for row in padded[1:]]
    return "\n".join(lines)


class _Converter(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.images: list[Image] = []
        self._pending = 0  # line breaks owed before the next text: 1 = new line, 2 = blank line
        self._prefix = ""
        self._pre = 0
        self._fence: str | None = None  # the language of the fence to open, "" for none
        self._fenced = False
        self._skip = 0
        self._links: list[_Link] = []
        self._opened = 0  # links[:_opened] have their "[" written: each is opened once
        self._lists: list[list[int] | None] = []  # None for <ul>, [n] for <ol>
        self._table: _Table | None = None
        self._inner = 0  # tables inside the table's cells: their text joins the cell

    # -- structure --------------------------------------------------------------------------

    def _block(self, level: int) -> None:
        self._pending = max(self._pending, level)

    def _start_line(self) -> None:
        """Pay the line breaks owed and write the line's prefix."""
        if self.out and self._pending:
            self.out.append("\n" * self._pending)
        if self._prefix:
            self.out.append(self._prefix)
        self._pending, self._prefix = 0, ""

    def _open_links(self) -> None:
        for link in self._links[self._opened :]:
            link.bracket, link.out = len(self.out), self.out
            self.out.append("[")
        self._opened = len(self._links)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self._skip += 1
        elif tag == "br":
            self.out.append("\n")
        elif tag == "img":
            values = dict(attrs)
            src = values.get("src")
            if src:
                self.images.append(Image(src, values.get("alt")))
        elif tag == "a":
            self._links.append(_Link((dict(attrs).get("href") or "").strip()))
        elif tag == "table" and self._table is not None and self._table.cell is not None:
            # A table in a cell is not drawn (a pipe table holds none): its rows and cells
            # are separated by spaces in the cell, so nesting costs nothing per level.
            self._inner += 1
            self.out.append(" ")
        elif self._inner and (tag == "tr" or tag in _CELLS):
            self.out.append(" ")
        elif tag == "table" and self._table is None:
            self._block(2)
            self._table = _Table((self.out, self._pending, self._prefix))
            self.out, self._pending, self._prefix = [], 0, ""
        elif tag in _CELLS and self._table is not None:
            table = self._table
            self._end_cell(table)
            if not table.rows:
                table.rows.append([])
            table.cell = self.out = []
            self._pending, self._prefix = 0, ""
        elif tag == "tr" and self._table is not None:
            table = self._table
            self._end_cell(table)
            table.rows.append([])
        elif tag in _PARAGRAPHS:
            self._block(2)
            if tag == "pre":
                self._pre += 1
                self._fence, self._fenced = _language(attrs) or "", False
            elif tag in ("ul", "ol"):
                if self._lists:  # a list inside a list item: no blank line
                    self._pending = 1
                self._lists.append([0] if tag == "ol" else None)
            elif tag[0] == "h" and tag[1:].isdigit():
                self._prefix = "#" * int(tag[1:]) + " "
        elif tag == "code" and self._pre and not self._fenced:
            self._fence = _language(attrs) or self._fence
        elif tag in _LINES:
            self._block(1)
            self._prefix = ""
            if tag == "li":
                depth = min(max(len(self._lists), 1), _MAX_INDENT)
                counter = self._lists[-1] if self._lists else None
                if counter is not None:
                    counter[0] += 1
                bullet = f"{counter[0]}. " if counter is not None else "- "
                self._prefix = "  " * (depth - 1) + bullet

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag == "a":
            if self._links:
                self._close_link(self._links.pop())
                self._opened = min(self._opened, len(self._links))
        elif tag == "table" and self._inner:
            self._inner -= 1
        elif self._inner and (tag == "tr" or tag in _CELLS):
            pass
        elif tag in _CELLS and self._table is not None:
            self._end_cell(self._table)
        elif tag == "table" and self._table is not None:
            self._end_table()
        elif tag in _PARAGRAPHS:
            if tag == "pre" and self._pre:
                self._pre -= 1
                if self._fenced:
                    while self.out and self.out[-1].endswith("\n"):
                        self.out[-1] = self.out[-1].rstrip("\n")
                    self.out.append("\n" + _FENCE)
                self._fence, self._fenced = None, False
            elif tag in ("ul", "ol") and self._lists:
                self._lists.pop()
                if self._lists:
                    self._block(1)
                    return
            self._block(2)
        elif tag in _LINES:
            self._block(1)

    def _end_cell(self, table: _Table) -> None:
        if table.cell is not None:
            if not table.rows:
                table.rows.append([])
            table.rows[-1].append(_cell_text(table.cell))
            table.cell = None
        self.out = []  # text between cells is not part of any cell

    def _end_table(self) -> None:
        table = self._table
        if table is None:
            return
        self._end_cell(table)
        self._table, self._inner = None, 0
        self.out, self._pending, self._prefix = table.saved
        rendered = _render_table(table.rows)
        if rendered:
            self._block(2)
            self._start_line()
            self.out.append(rendered)
        self._block(2)

    def finish(self) -> None:
        """Close what the fragment left open: an unclosed table's text is kept."""
        self.close()
        self._end_table()

    def _close_link(self, link: _Link) -> None:
        if link.bracket is None or link.out is None:
            return
        usable = link.href.startswith(_LINK_SCHEMES) and not self._pre
        if usable and not _is_text(link.out, link.bracket + 1, link.href):
            link.out.append(f"]({link.href})")
        else:
            link.out[link.bracket] = ""  # a bare URL, a link without one or in code: its text

    # -- text ---------------------------------------------------------------------------------

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._table is not None and self._table.cell is None:
            return  # whitespace between rows and cells
        if self._pre:
            if not self._fenced:
                self._block(2)
                self._start_line()
                self.out.append(_FENCE + (self._fence or "") + "\n")
                self._fenced = True
                data = data.removeprefix("\n")  # HTML drops a newline right after <pre>
            self.out.append(data)
            return
        text = fold_spaces(data)
        if not text.strip():
            if not self._pending and self.out:
                self.out.append(text)
            return
        if self._pending or not self.out or self._prefix:
            self._start_line()
            text = text.lstrip()
        self._open_links()
        self.out.append(text)


def _is_text(chunks: list[str], start: int, href: str) -> bool:
    """Whether the link text written from `chunks[start]` on is `href` itself (or blank).
    Only as many characters as the URL holds are looked at (and a few spaces), so closing
    many nested links costs no more than the input is long."""
    seen: list[str] = []
    length = 0
    for index in range(start, len(chunks)):
        chunk = chunks[index]
        seen.append(chunk)
        length += len(chunk)
        if length > len(href) + 64:
            return False
    text = "".join(seen).strip()
    return not text or text == href


def _tidy(text: str) -> str:
    """Trailing spaces off and at most one blank line in a row — outside fenced code, whose
    lines stay as written."""
    lines: list[str] = []
    in_code = False
    for line in text.split("\n"):
        if line.startswith(_FENCE):
            in_code = not in_code
            lines.append(line)
        elif in_code:
            lines.append(line)
        else:
            line = line.rstrip(" ")
            if line or not lines or lines[-1]:
                lines.append(line)
    return "\n".join(lines).strip("\n").strip()


def html_to_markdown(html: str) -> Markdown:
    """The fragment as Markdown text, and its images."""
    parser = _Converter()
    parser.feed(html)
    parser.close()
    parser.finish()
    return Markdown(_tidy("".join(parser.out)), parser.images)
