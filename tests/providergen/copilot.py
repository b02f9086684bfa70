"""A generator of Microsoft Privacy Dashboard Copilot exports shaped like the real ones.

`export(seed)` returns the CSV files of an export:

- `copilot-activity-history.csv` — Conversation, Time, Author, Message; UTF-8 with a byte
  order mark, CRLF, ISO 8601 times without offset (UTC), authors ``user``/``AI``, full texts,
  quotes, commas and line breaks inside messages, one chat name used by two sessions days
  apart;
- `copilot-chat-activity.csv` — CreatedAt, MessageContent, Author, ChatName; times as
  ``M/D/YYYY h:mm:ss AM -03:00``, authors ``Human``/``Copilot``; one chat is the same as in
  the activity history (same instants) with its AI texts cut to 100 UTF-16 code units plus
  ``...``,
  another exists only here, cut;
  chats whose AI texts hold emoji are cut at 100 UTF-16 code units (an emoji counts two, one
  cut in half becomes U+FFFD), as Microsoft cuts them;
- `copilot-in-Microsoft-365-apps-activity.csv` — the chat-activity columns plus ``AppName``,
  24-hour ``M/D/YYYY H:MM:SS +01:00`` times, one row without a time;
- `windows-apps-copilot-activity-history.csv` — Timestamp, ClientApp, Prompt (prompts only);
- `browsing-activity.csv` — another dashboard file an importer must leave alone.

`rows(seed)` is the ground truth: every data row with its file, row number, instant and the
full text of its message, for tests that find each value in what was imported.
"""

from __future__ import annotations

import csv
import io
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from typing import Final

ACTIVITY: Final = "copilot-activity-history.csv"
CHAT: Final = "copilot-chat-activity.csv"
M365: Final = "copilot-in-Microsoft-365-apps-activity.csv"
WINDOWS: Final = "windows-apps-copilot-activity-history.csv"
OTHER: Final = "browsing-activity.csv"
HEADERS: Final = {
    ACTIVITY: ["Conversation", "Time", "Author", "Message"],
    CHAT: ["CreatedAt", "MessageContent", "Author", "ChatName"],
    M365: ["CreatedAt", "MessageContent", "Author", "ChatName", "AppName"],
    WINDOWS: ["Timestamp", "ClientApp", "Prompt"],
}
#: The column holding the message text, per layout.
TEXT_COLUMNS: Final = ("Message", "MessageContent", "Prompt")
START: Final = datetime(2026, 2, 17, 14, 36, 11, tzinfo=UTC)
BRASILIA: Final = timezone(timedelta(hours=-3))
PARIS: Final = timezone(timedelta(hours=1))
CUT: Final = 100

LONG_PT: Final = (
    "Aqui vão três ideias de jantar vegetariano: risoto de cogumelos com parmesão, curry de "
    "grão-de-bico com leite de coco e arroz basmati, e lasanha de berinjela com ricota e "
    "manjericão fresco. Todas ficam prontas em menos de quarenta minutos."
)
LONG_EN: Final = (
    'Sure! Day one: walk Alfama, "eat" pastéis de nata in Belém, and watch the sunset at '
    "Miradouro da Senhora do Monte.\nDay two: take the train to Sintra, visit Pena Palace, "
    "and come back for dinner in Bairro Alto."
)
MEETING: Final = (
    "Resumo da reunião: a equipe decidiu adiar o lançamento para março, revisar os testes de "
    "carga e contratar mais uma pessoa para o suporte, com orçamento aprovado pela diretoria."
)


#: AI texts with emoji, longer than the cut: the first has whole emoji in its first 100
#: UTF-16 units, the second an emoji across units 100 and 101.
EMOJI_WHOLE: Final = (
    "Para a festa 🎉: balões 🎈, bolo de chocolate 🎂, música ao vivo 🎸 e uma mesa de doces 🍬 "
    "com brigadeiros, beijinhos e cajuzinhos para todo mundo."
)
EMOJI_SPLIT: Final = (
    "Pack light: three shirts, two trousers, a rain jacket and good walking shoes, sunscreen "
    "too, a hat 🧳 and a book 📚 for the train."
)
EMOJI_ONLY_HERE: Final = (
    "Sim 🌧️🌧️ — amanhã deve chover de manhã e à tarde ☔, com máxima de 18 °C e ventos "
    "fortes 💨 no litoral; leve guarda-chuva."
)


@dataclass(frozen=True, slots=True)
class Row:
    file: str
    number: int
    chat: str
    #: the instant the row records; None when its time cell is empty
    when: datetime | None
    author: str
    #: the text as written in the file (maybe cut) and the message's full text
    text: str
    full: str
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def truncated(self) -> bool:
        return self.text != self.full


def cut(text: str) -> str:
    """Microsoft's cut: the first 100 UTF-16 code units plus ``...`` (an emoji is two units;
    one cut in half is written as U+FFFD, as .NET's UTF-8 encoder writes a lone surrogate)."""
    units = text.encode("utf-16-le")
    if len(units) <= 2 * CUT:
        return text
    return units[: 2 * CUT].decode("utf-16-le", errors="replace") + "..."


def _iso(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S")


def _us_12h(when: datetime) -> str:
    local = when.astimezone(BRASILIA)
    hour = local.hour % 12 or 12
    half = "AM" if local.hour < 12 else "PM"
    return f"{local.month}/{local.day}/{local.year} {hour}:{local:%M:%S} {half} -03:00"


def _us_24h(when: datetime) -> str:
    local = when.astimezone(PARIS)
    return f"{local.month}/{local.day}/{local.year} {local.hour}:{local:%M:%S} +01:00"


def rows(seed: int = 3) -> list[Row]:
    rng = random.Random(seed)
    out: list[Row] = []
    numbers: dict[str, int] = {}

    def add(
        file: str, chat: str, when: datetime | None, author: str, full: str, *,
        is_cut: bool = False, **extra: str,
    ) -> None:  # fmt: skip
        numbers[file] = numbers.get(file, 1) + 1
        text = cut(full) if is_cut else full
        out.append(Row(file, numbers[file], chat, when, author, text, full, extra))

    def later(when: datetime, low: int = 5, high: int = 40) -> datetime:
        return when + timedelta(seconds=rng.randint(low, high))

    # Chat in both files: full in the activity history, cut in chat activity.
    t = START
    shared = [
        ("user", "Quero ideias de jantar vegetariano, rápidas e baratas."),
        ("AI", LONG_PT),
        ("user", "E uma sobremesa sem açúcar?"),
        ("AI", "Banana assada com canela e iogurte natural."),
    ]
    times = []
    for _ in shared:
        times.append(t)
        t = later(t)
    for (author, text), when in zip(shared, times, strict=True):
        add(ACTIVITY, "Receitas vegetarianas", when, author, text)
    for (author, text), when in zip(shared, times, strict=True):
        chat_author = "Human" if author == "user" else "Copilot"
        add(CHAT, "Receitas vegetarianas", when, chat_author, text, is_cut=author == "AI")

    # Only in the activity history: quotes, commas, a line break.
    t = START + timedelta(hours=5)
    add(ACTIVITY, "Trip to Lisbon", t, "user", 'Plan 2 days in Lisbon, "cheap", please.')
    add(ACTIVITY, "Trip to Lisbon", later(t), "AI", LONG_EN)

    # One chat name, two sessions two days apart.
    for days in (1, 3):
        t = START + timedelta(days=days, minutes=rng.randint(0, 30))
        add(ACTIVITY, "Greeting", t, "user", "Hi there!" if days == 1 else "Olá de novo!")
        add(ACTIVITY, "Greeting", later(t), "AI", "Hello! How can I help you today?")

    # Only in chat activity, and cut: nothing to restore it from.
    t = START + timedelta(days=2, hours=1)
    add(CHAT, "Resumo de reunião", t, "Human", "Resuma a reunião de hoje em um parágrafo.")
    add(CHAT, "Resumo de reunião", later(t), "Copilot", MEETING, is_cut=True)

    # Emoji: in both files, cut in chat activity at 100 UTF-16 units — one cut whole, one
    # cut through an emoji's surrogate pair — and one only in chat activity, cut.
    t = START + timedelta(days=6)
    for n, (prompt, answer) in enumerate(
        (("Ideias de festa?", EMOJI_WHOLE), ("Packing list?", EMOJI_SPLIT))
    ):
        when = t + timedelta(minutes=10 * n)
        answered = later(when)
        add(ACTIVITY, "Festa 🎉", when, "user", prompt)
        add(ACTIVITY, "Festa 🎉", answered, "AI", answer)
        add(CHAT, "Festa 🎉", when, "Human", prompt)
        add(CHAT, "Festa 🎉", answered, "Copilot", answer, is_cut=True)
    t = START + timedelta(days=7)
    add(CHAT, "Só aqui 🌧️", t, "Human", "Vai chover amanhã?")
    add(CHAT, "Só aqui 🌧️", later(t), "Copilot", EMOJI_ONLY_HERE, is_cut=True)

    # Microsoft 365 apps: an extra column, a row without a time.
    t = START + timedelta(days=4)
    add(M365, "Budget in Excel", t, "user", "Sum column B, please.", AppName="Excel")
    add(M365, "Budget in Excel", None, "Copilot", "=SUM(B2:B40) gives 1,234.50.", AppName="Excel")
    add(M365, "Draft in Word", later(t, 600, 900), "user", "Escreva um convite.", AppName="Word")

    # Windows: prompts only.
    t = START + timedelta(days=5)
    add(WINDOWS, "Windows Copilot", t, "user", "Turn on dark mode")
    add(WINDOWS, "Windows Copilot", later(t), "user", "Abrir as configurações de Bluetooth")
    return out


def cells(row: Row) -> list[str]:
    when = row.when
    if row.file == ACTIVITY:
        assert when is not None
        return [row.chat, _iso(when), row.author, row.text]
    if row.file == CHAT:
        assert when is not None
        return [_us_12h(when), row.text, row.author, row.chat]
    if row.file == M365:
        return [_us_24h(when) if when else "", row.text, row.author, row.chat, row.extra["AppName"]]
    assert when is not None
    return [when.strftime("%Y-%m-%dT%H:%M:%SZ"), row.chat, row.text]


def csv_bytes(header: list[str], body: list[list[str]], *, bom: bool, crlf: bool) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n" if crlf else "\n")
    writer.writerow(header)
    writer.writerows(body)
    return (b"\xef\xbb\xbf" if bom else b"") + buffer.getvalue().encode("utf-8")


def export(seed: int = 3) -> dict[str, bytes]:
    """The files of the export, by name."""
    truth = rows(seed)
    style = {
        ACTIVITY: (True, True),
        CHAT: (False, False),
        M365: (True, False),
        WINDOWS: (False, True),
    }
    files = {}
    for name, header in HEADERS.items():
        bom, crlf = style[name]
        body = [cells(r) for r in truth if r.file == name]
        files[name] = csv_bytes(header, body, bom=bom, crlf=crlf)
    files[OTHER] = csv_bytes(
        ["DateTime", "Url", "PageTitle"],
        [["2026-02-17T10:00:00", "https://example.org/", "Example"]],
        bom=False,
        crlf=True,
    )
    return files
