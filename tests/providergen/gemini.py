"""A generator of Google Takeout "My Activity → Gemini Apps" exports shaped like the real ones.

`export(seed, locale)` returns the files of a Takeout (the activity log, an attached image,
the Takeout index page and another product's activity log that must not be read). The log
holds, newest first, every shape an importer meets:

- variant A (``details`` Request/Response) and variant B (``userInteractions`` with JSON-string
  request/response, one of them without ``text`` members) in conversations named by
  ``titleUrl`` (both ``/app/c/<id>`` and ``/app/<id>``);
- the common real shape, ``title: "Prompted …"`` ("Comando: …" in the Portuguese Takeout) with
  the response as HTML in ``safeHtmlItem``, ``products``, ``activityControls``, ``subtitles``,
  ``attachedFiles``, and no conversation id — two sessions far apart in time;
- an event without ``time`` and an event that carries no message;
- an upload Takeout lists twice (``attachedFiles`` and ``imageFile``), images Gemini
  generated (listed in ``attachedFiles`` like uploads, and shown by the response HTML's
  ``<img src>``), one answer that is an image and nothing else;
- standalone events ("Used Gemini Apps", "Gave feedback: …"), with a ``titleUrl`` of their
  own or none, that carry no message and belong to no conversation;
- a "Created Gemini Canvas titled …" document: the document as HTML in ``safeHtmlItem``
  (headings, a table, code) and a ``details`` entry that is neither Request nor Response;
- answers with links (``<a href>``) and a table.

`assistant_events(seed)` is a Google Assistant activity log (My Activity → Assistant), which
is no Gemini log though it looks like one.

Text is English and Portuguese in both locales. `events(seed, locale)` is the log itself, for
tests that compare what they read with what was written.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from typing import Any, Final

#: Where Takeout puts the Gemini activity log, per Takeout language.
ACTIVITY_PATH: Final = {
    "en": "Takeout/My Activity/Gemini Apps/MyActivity.json",
    "pt": "Takeout/Minha atividade/Apps do Gemini/MinhaAtividade.json",
}
_WORDS: Final = {
    "en": {
        "header": "Gemini Apps",
        "product": "Gemini Apps",
        "control": "Gemini Apps Activity",
        "used": "Used Gemini Apps",
        "prompted": "Prompted ",
        "subtitle": "Gemini Apps",
        "search_path": "Takeout/My Activity/Search/MyActivity.json",
        "searched": "Searched for ",
        "canvas": "Created Gemini Canvas titled ",
        "feedback": "Gave feedback: ",
    },
    "pt": {
        "header": "Apps do Gemini",
        "product": "Apps do Gemini",
        "control": "Atividade nos Apps do Gemini",
        "used": "Usou os Apps do Gemini",
        "prompted": "Comando: ",
        "subtitle": "Apps do Gemini",
        "search_path": "Takeout/Minha atividade/Pesquisa/MinhaAtividade.json",
        "searched": "Pesquisou ",
        "canvas": "Criou o Canvas do Gemini com o título ",
        "feedback": "Enviou feedback: ",
    },
}
PROMPTS: Final = [
    "What is a good name for a grey cat?",
    "Explain recursion with an example in Python.",
    "Você pode resumir a história de Portugal em cinco frases?",
    "Quais são os melhores pães para fazer em casa?",
    "Write a limerick about a lighthouse keeper.",
    "Como se diz 'obrigado' em japonês?",
    "List three ways to keep basil alive indoors.",
    "Qual a distância entre a Terra e a Lua?",
]
ANSWERS: Final = [
    "Some good names: Ash, Smoky, Pebble and Earl Grey.",
    "A recursive function calls itself on a smaller input until it reaches a base case.",
    "Portugal nasceu em 1143 e navegou o mundo nos séculos XV e XVI.",
    "Pão de fermentação natural, broa de milho e pão de forma são ótimos começos.",
    "A keeper of light on a rock by the sea / polished his lamp and brewed his tea.",
    "Em japonês, 'obrigado' é arigatō (ありがとう).",
    "Give it bright light, water when the soil is dry, and pinch off the flowers.",
    "A distância média é de cerca de 384.400 quilômetros.",
]
START: Final = datetime(2025, 3, 2, 9, 15, 0, 123000, tzinfo=UTC)


def stamp(when: datetime) -> str:
    """Takeout's timestamp spelling: UTC, milliseconds, ``Z``."""
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{when.microsecond // 1000:03d}Z"


def html_answer(paragraph: str, items: list[str]) -> str:
    """A Gemini response as Takeout's ``safeHtmlItem`` holds it."""
    listed = "".join(f"<li>{_escape(item)}</li>" for item in items)
    return f'<p>{_escape(paragraph)}</p><ul>{listed}</ul><p>Fonte: <a href="https://example.org/x?a=1&amp;b=2">example&nbsp;org</a></p>'


#: Files of the images Gemini generated, and the upload Takeout lists twice.
GENERATED: Final = ("Gemini_Generated_Image_4k2p9x.png", "Gemini_Generated_Image_q81zr0.jpeg")
UPLOAD: Final = "foto-do-gato.jpg"
CANVAS_TITLE: Final = "Plano de estudos: Python em 4 semanas"
CANVAS_CODE: Final = 'def saudacao(nome):\n    """Diz olá."""\n\n    return f"Olá, {nome}!"\n'
CANVAS_HTML: Final = (
    "<h1>Plano de estudos</h1><p>Quatro semanas, uma hora por dia.</p>"
    "<table><thead><tr><th>Semana</th><th>Tema</th></tr></thead><tbody>"
    "<tr><td>1</td><td>Tipos e funções</td></tr><tr><td>2</td><td>Listas | dicionários</td></tr>"
    "</tbody></table><h2>Exemplo</h2>"
    f'<pre><code class="language-python">{CANVAS_CODE}</code></pre>'
    '<p>Leia também <a href="https://docs.python.org/3/tutorial/">o tutorial oficial</a>.</p>'
)
TABLE_HTML: Final = (
    "<p>Compare:</p><table><tr><th>Pão</th><th>Tempo</th></tr>"
    "<tr><td>Broa de milho</td><td>1 h</td></tr><tr><td>Pão de forma</td><td>3 h</td></tr></table>"
)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def events(seed: int = 5, locale: str = "en") -> list[dict[str, Any]]:
    """The activity log, newest first, as Takeout writes it."""
    rng = random.Random(seed)
    words = _WORDS[locale]
    log: list[dict[str, Any]] = []
    clock = START

    def pick() -> tuple[str, str]:
        i = rng.randrange(len(PROMPTS))
        return PROMPTS[i], ANSWERS[i]

    def base(when: datetime | None, url: str | None) -> dict[str, Any]:
        event: dict[str, Any] = {"header": words["header"], "title": words["used"]}
        if url is not None:
            event["titleUrl"] = url
        if when is not None:
            event["time"] = stamp(when)
        event["products"] = [words["product"]]
        return event

    # Variant A: one conversation, two events an hour apart (the id keeps them together).
    cid_a = f"{rng.getrandbits(64):016x}"
    for hours in (0, 1):
        prompt, answer = pick()
        event = base(clock + timedelta(hours=hours), f"https://gemini.google.com/app/c/{cid_a}")
        event["details"] = [
            {"name": "Request", "value": prompt},
            {"name": "Response", "value": answer},
        ]
        log.append(event)
    clock += timedelta(days=1)

    # Variant B: request/response as JSON strings.
    cid_b = f"{rng.getrandbits(64):016x}"
    prompt, answer = pick()
    event = base(clock, f"https://gemini.google.com/app/{cid_b}")
    event["userInteractions"] = [
        {
            "userInteraction": {
                "endpoint": 2,
                "shown": False,
                "latencySeconds": 1.25,
                "request": json.dumps([{"text": prompt, "lang": locale}], ensure_ascii=False),
                "response": json.dumps([{"text": answer}], ensure_ascii=False),
            }
        },
        {
            "userInteraction": {
                "endpoint": 3,
                "shown": True,
                "latencySeconds": 0.0,
                # an older spelling: nested arrays, no "text" members
                "request": json.dumps(
                    [["Obrigado! And one more thing?", None, 0]], ensure_ascii=False
                ),
                "response": json.dumps([[["Claro, pode perguntar."]]], ensure_ascii=False),
            }
        },
    ]
    log.append(event)
    clock += timedelta(days=1)

    # The real shape, two sessions without conversation ids, two days apart.
    for session in range(2):
        for turn in range(3):
            prompt, answer = pick()
            when = clock + timedelta(minutes=7 * turn, seconds=rng.randrange(60))
            event = base(when, "https://gemini.google.com/app")
            event["title"] = words["prompted"] + prompt
            event["subtitles"] = [{"name": words["subtitle"]}]
            event["safeHtmlItem"] = [
                {"html": html_answer(answer, [f"{prompt[:12]} {turn}", "Olá & adeus"])}
            ]
            event["activityControls"] = [words["control"]]
            if session == 0 and turn == 1:
                event["attachedFiles"] = ["foto-do-gato.jpg", "notes.pdf"]
            log.append(event)
        clock += timedelta(days=2)

    # An event Takeout wrote without a time, right after the previous one in the log.
    prompt, answer = pick()
    event = base(None, None)
    event["title"] = words["prompted"] + prompt
    event["safeHtmlItem"] = [{"html": f"<p>{_escape(answer)}</p>"}]
    log.append(event)

    # An event that carries no message at all (a setting change, say).
    log.append(base(clock + timedelta(hours=5), None))
    clock += timedelta(days=1)

    # An upload listed twice, generated images and an image-only answer, a table: one
    # conversation named by its id.
    cid_c = f"{rng.getrandbits(64):016x}"
    url_c = f"https://gemini.google.com/app/{cid_c}"
    event = base(clock, url_c)
    event["title"] = words["prompted"] + "Draw this cat as a lighthouse keeper."
    event["imageFile"] = UPLOAD
    event["safeHtmlItem"] = [
        {"html": f'<p>Here he is, on duty:</p><img src="{GENERATED[0]}" alt="A grey cat">'}
    ]
    event["attachedFiles"] = [UPLOAD, GENERATED[0]]
    log.append(event)
    event = base(clock + timedelta(minutes=3), url_c)
    event["title"] = words["prompted"] + "Agora à noite, só a imagem."
    event["safeHtmlItem"] = [{"html": f'<img src="{GENERATED[1]}" alt="">'}]
    event["attachedFiles"] = [GENERATED[1]]
    log.append(event)
    event = base(clock + timedelta(minutes=9), url_c)
    event["title"] = words["prompted"] + "Quanto tempo leva cada pão?"
    event["safeHtmlItem"] = [{"html": TABLE_HTML}]
    log.append(event)
    # Feedback on that conversation: no message, but its conversation is known.
    event = base(clock + timedelta(minutes=10), url_c)
    event["title"] = words["feedback"] + "Good response"
    log.append(event)
    clock += timedelta(days=1)

    # A Canvas document, no conversation id.
    event = base(clock, None)
    event["title"] = words["canvas"] + CANVAS_TITLE
    event["details"] = [{"name": "Gemini Canvas"}]
    event["safeHtmlItem"] = [{"html": CANVAS_HTML}]
    log.append(event)
    clock += timedelta(days=1)

    # Standalone events, far from any conversation: "Used Gemini Apps" with a conversation
    # id of its own and without one, feedback on nothing the log holds.
    log.append(base(clock, f"https://gemini.google.com/app/{rng.getrandbits(64):016x}"))
    log.append(base(clock + timedelta(hours=6), "https://gemini.google.com/app"))
    event = base(clock + timedelta(days=2), None)
    event["title"] = words["feedback"] + "Bad response"
    log.append(event)
    return list(reversed(log))  # Takeout lists the newest first


def assistant_events(count: int = 12) -> list[dict[str, Any]]:
    """A Google Assistant activity log (Takeout: My Activity → Assistant), newest first:
    voice commands and their answers as Takeout writes them, not Gemini's."""
    log = []
    for i in range(count):
        when = START + timedelta(hours=3 * i)
        log.append(
            {
                "header": "Assistant",
                "title": "Said " + ("turn on the lights" if i % 2 else "what's the weather"),
                "time": stamp(when),
                "products": ["Assistant"],
                "subtitles": [{"name": "It's 18 degrees and cloudy." if i % 2 == 0 else "OK"}],
                "activityControls": ["Web & App Activity"],
                "details": [{"name": "Started by hotword"}],
            }
        )
    return list(reversed(log))


def export(seed: int = 5, locale: str = "en") -> dict[str, bytes]:
    """The files of a Takeout archive holding the Gemini activity log."""
    words = _WORDS[locale]
    log = events(seed, locale)
    search = [
        {
            "header": "Search",
            "title": words["searched"] + "gatos cinzentos",
            "time": stamp(START),
            "products": ["Search"],
        }
    ]
    folder = ACTIVITY_PATH[locale].rsplit("/", 1)[0]
    return {
        ACTIVITY_PATH[locale]: json.dumps(log, ensure_ascii=False, indent=2).encode("utf-8"),
        f"{folder}/{UPLOAD}": b"\xff\xd8\xff\xe0 not really a jpeg",
        f"{folder}/{GENERATED[0]}": b"\x89PNG\r\n\x1a\n generated",
        f"{folder}/{GENERATED[1]}": b"\xff\xd8\xff\xe0 generated",
        words["search_path"]: json.dumps(search, ensure_ascii=False).encode("utf-8"),
        "Takeout/archive_browser.html": b"<html><body>Takeout</body></html>",
    }


def activity_bytes(seed: int = 5, locale: str = "en") -> bytes:
    """The activity log alone (what a user uploads when they extracted just that file)."""
    return export(seed, locale)[ACTIVITY_PATH[locale]]
