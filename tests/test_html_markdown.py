"""HTML fragments as Markdown (`importers/html_markdown.py`, used for Gemini's Takeout
responses and Canvas documents): links keep their URLs, tables stay tables, code stays code,
images come apart — and hostile nesting costs time and memory linear in the input."""

from __future__ import annotations

import time
import tracemalloc

import pytest

from memvault.importers.html_markdown import Image, html_to_markdown


def md(html: str) -> str:
    return html_to_markdown(html).text


def test_links_keep_their_urls() -> None:
    assert md('<p>See <a href="https://example.org/a?b=1&amp;c=2">the docs</a>.</p>') == (
        "See [the docs](https://example.org/a?b=1&c=2)."
    )
    # a bare URL, a link whose text is its URL, one without href or with another scheme
    assert md('<a href="https://a.b/">https://a.b/</a>') == "https://a.b/"
    assert md("<a>plain</a> <a href='javascript:x()'>js</a>") == "plain js"
    assert md('<a href="mailto:ana@example.org">Ana</a>') == "[Ana](mailto:ana@example.org)"
    # a link at the start of a paragraph opens after the line break, not before it
    assert md('<p>one</p><p><a href="https://x.y/">two</a></p>') == "one\n\n[two](https://x.y/)"


def test_tables_are_pipe_tables_first_row_the_header() -> None:
    html = (
        "<table><thead><tr><th>Name</th><th>Note</th></tr></thead><tbody>"
        "<tr><td>Ana</td><td>a | b<br>c</td></tr><tr><td>only</td></tr></tbody></table>"
    )
    assert md(f"<p>Before</p>{html}<p>After</p>") == (
        "Before\n\n| Name | Note |\n| --- | --- |\n| Ana | a \\| b<br>c |\n| only |  |\n\nAfter"
    )


def test_a_table_in_a_cell_joins_the_cell_text() -> None:
    html = "<table><tr><td>a<table><tr><td>b</td><td>c</td></tr></table></td><td>d</td></tr>"
    assert md(html + "</table>") == "| a b c | d |\n| --- | --- |"
    assert md(html) == "| a b c | d |\n| --- | --- |"  # an unclosed table is kept


def test_code_blocks_are_fenced_with_their_language_and_spacing() -> None:
    code = 'def f():\n\n\n    return "x"  \n'
    html = f'<p>Code:</p><pre><code class="language-python">{code}</code></pre><p>end</p>'
    assert md(html) == f"Code:\n\n```python\n{code.rstrip(chr(10))}\n```\n\nend"


def test_headings_and_lists() -> None:
    html = "<h1>T</h1><h3>S</h3><ol><li>a</li><li>b<ul><li>c</li></ul></li></ol>"
    assert md(html) == "# T\n\n### S\n\n1. a\n2. b\n  - c"


def test_images_come_apart_in_document_order() -> None:
    converted = html_to_markdown('<p>Look:</p><img src="a.png" alt="A"><img src="b.jpg">')
    assert converted.text == "Look:"
    assert converted.images == [Image("a.png", "A"), Image("b.jpg", None)]


HOSTILE = {
    "nested tables": "<table><tr><td>x" * 10_000,
    "nested lists": "<ul><li>x" * 10_000,
    "nested links": '<a href="https://example.org/">x' * 10_000 + "</a>" * 10_000,
    "many links": '<a href="https://example.org/">x</a>' * 10_000,
    "nested pre": "<pre>" * 10_000 + "x",
}


@pytest.mark.parametrize("html", HOSTILE.values(), ids=list(HOSTILE))
def test_hostile_nesting_costs_linear_time_and_memory(html: str) -> None:
    """Bounded memory on untrusted input (DESIGN: "Stream, don't slurp"): output at most a
    few times the input, a few MB of peak allocation, seconds not minutes — where drawing
    every nested table, indenting every list level or rescanning every open link grew with
    the square of the nesting."""
    tracemalloc.start()
    started = time.perf_counter()
    try:
        text = md(html)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(text) <= 4 * len(html)
    assert peak < 64 << 20, peak
    assert time.perf_counter() - started < 30
