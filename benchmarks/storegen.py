"""Generate realistic PAM v1.0 memory stores for benchmarks.

Deterministic for a given ``(n, seed)``. Memories are shaped like the official
example (spec/pam/examples/example-memory-store.json): every member of a memory
is present, with explicit nulls where there is no value. The mix covers the
ten standard types plus ``custom``, all five statuses, English and Brazilian
Portuguese text (accents, some NFD-decomposed, some with stray whitespace, a few
emoji, quotes, backslashes and newlines), confidence values that are whole
floats (``1.0``), two-decimal floats and full-precision decayed floats, UTC and
``-03:00`` timestamps, relations, a conversations index kept consistent with
``provenance.conversation_ref`` (PAM §14.1), and an integrity block (PAM §15).

``content_hash`` follows PAM §6 / Appendix C; the integrity checksum follows
§15.2 (RFC 8785 over the memories sorted by id), computed with the ``rfc8785``
package, or with ``memvault.canonical.integrity_checksum`` when ``rfc8785`` is
not installed.

With ``omit_nulls=True`` null members are left out instead (still valid PAM,
and the form the official SDK's checksum check accepts, see benchmarks/README.md).

100,000 memories written with indent=2 come to roughly 140 MB: the members that
every memory carries take ~1.2 KB at that indentation before any content.

Usage: ``python benchmarks/storegen.py N OUT [--seed S] [--omit-nulls]``
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import random
import sys
import unicodedata
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import base58
import orjson

Json = dict[str, Any]

EXPORTED_BY = "memvault-storegen/1.0.0"
BRT = timezone(timedelta(hours=-3))
EPOCH = datetime(2023, 1, 2, 9, 0, 0, tzinfo=UTC)

# ── PAM §6 / Appendix C ──────────────────────────────────────────────────────


def normalize_content(content: str) -> str:
    """PAM Appendix C normalization: trim, lowercase, NFC, collapse whitespace."""
    text = content.strip()
    text = text.lower()
    text = unicodedata.normalize("NFC", text)
    return " ".join(text.split())


def content_hash(content: str) -> str:
    """``sha256:<hex>`` of the normalized content (PAM §6.2)."""
    digest = hashlib.sha256(normalize_content(content).encode("utf-8")).hexdigest()
    return f"sha256:{digest}"


def integrity_checksum(memories: Sequence[Json]) -> str:
    """PAM §15.2: RFC 8785 over the memories sorted by id, SHA-256, ``sha256:<hex>``."""
    try:
        import rfc8785
    except ImportError:
        try:
            from memvault.canonical import integrity_checksum as mv_checksum
        except ImportError as exc:
            raise SystemExit(
                "storegen needs the 'rfc8785' package (or memvault.canonical) "
                "to compute the PAM integrity checksum"
            ) from exc
        return str(mv_checksum(list(memories)))
    ordered = sorted(memories, key=lambda m: m["id"])
    return "sha256:" + hashlib.sha256(rfc8785.dumps(ordered)).hexdigest()


# ── vocabulary ───────────────────────────────────────────────────────────────

STANDARD_TYPES = (
    "fact",
    "preference",
    "skill",
    "context",
    "relationship",
    "goal",
    "instruction",
    "identity",
    "environment",
    "project",
)
TYPE_WEIGHTS = (18, 16, 12, 10, 7, 8, 8, 4, 6, 6)
CUSTOM_TYPES = (
    "dietary_restriction",
    "health_condition",
    "travel_document",
    "pet",
    "vehicle",
    "security_clearance",
    "favorite_media",
)
STATUSES = ("active", "superseded", "deprecated", "retracted", "archived")
STATUS_WEIGHTS = (80, 6, 4, 3, 7)
PLATFORMS = ("chatgpt", "claude", "gemini", "grok", "copilot", "perplexity", "local", "manual")
PLATFORM_WEIGHTS = (38, 30, 12, 6, 6, 3, 3, 2)
CHAT_PLATFORMS = frozenset(PLATFORMS[:6])
EXTRACTORS = ("memvault/0.1.0", "gines/0.5.0", "pam-cli/1.0.0", None)
DOMAINS = ("personal", "technical", "professional", "health", "financial", "education", None)
AGENTS = ("agent-work-assistant", "agent-travel-planner", "agent-health-coach", "family-calendar")
CONFIDENCE_STEPS = (1.0, 1.0, 0.95, 0.9, 0.9, 0.85, 0.8, 0.75, 0.7, 0.6, 0.5)
RELATION_TYPES = ("related_to", "supports", "extends", "contradicts", "derived_from")

# Slot values. Portuguese ones carry accents on purpose.
S: dict[str, tuple[str, ...]] = {
    "city": (
        "Lisbon",
        "São Paulo",
        "Florianópolis",
        "Berlin",
        "Toronto",
        "Porto Alegre",
        "Austin",
        "Brasília",
        "Kraków",
        "Zürich",
        "Belo Horizonte",
        "Osaka",
        "Recife",
        "Curitiba",
        "Montréal",
        "Porto",
        "Salvador",
        "Dublin",
        "Bogotá",
        "Nairobi",
    ),
    "tech": (
        "Python",
        "PostgreSQL",
        "Rust",
        "Kubernetes",
        "TypeScript",
        "Django",
        "Terraform",
        "Go",
        "React",
        "SQLite",
        "Scrapy",
        "FastAPI",
        "Ansible",
        "BGP routing",
        "Kafka",
        "Elixir",
        "Svelte",
        "Redis",
        "pandas",
        "C++",
        "Swift",
        "Kotlin",
        "Haskell",
        "Spark",
    ),
    "food": (
        "feijoada",
        "sushi",
        "pão de queijo",
        "ramen",
        "açaí",
        "moqueca",
        "tacos",
        "vegan curry",
        "coxinha",
        "brigadeiro",
        "pastel de nata",
        "pho",
        "pierogi",
        "bacalhau",
        "tapioca",
    ),
    "name": (
        "Ana",
        "João",
        "Maria",
        "Conceição",
        "Sofia",
        "Luís",
        "Mateus",
        "Beatriz",
        "Chen",
        "Priya",
        "Olúwaseun",
        "Zoë",
        "Inês",
        "Gonçalo",
        "Letícia",
        "Raúl",
        "Thiago",
        "Aurélie",
        "Hiroshi",
        "Fátima",
        "Kwame",
        "Björn",
        "Camila",
        "Dmitri",
    ),
    "rel_en": (
        "sister",
        "brother",
        "manager",
        "partner",
        "daughter",
        "son",
        "mentor",
        "cofounder",
        "neighbour",
        "best friend",
        "aunt",
        "landlord",
    ),
    "rel_pt": ("irmã", "prima", "gestora", "esposa", "filha", "sogra", "tia", "madrinha"),
    "job_en": (
        "nurse",
        "civil engineer",
        "teacher",
        "data analyst",
        "lawyer",
        "chef",
        "pilot",
        "pharmacist",
        "journalist",
        "architect",
        "dentist",
        "bus driver",
    ),
    "job_pt": (
        "enfermeira",
        "engenheira civil",
        "professora",
        "analista de dados",
        "advogada",
        "farmacêutica",
        "jornalista",
        "arquiteta",
        "dentista",
        "médica veterinária",
    ),
    "hobby_en": (
        "trail running",
        "chess",
        "film photography",
        "bouldering",
        "sourdough baking",
        "birdwatching",
        "woodworking",
        "salsa dancing",
        "sea kayaking",
        "gardening",
    ),
    "hobby_pt": (
        "corrida de trilha",
        "xadrez",
        "fotografia analógica",
        "escalada",
        "crochê",
        "capoeira",
        "marcenaria",
        "jardinagem",
        "surfe",
        "forró",
    ),
    "style_en": (
        "concise bullet points",
        "step-by-step explanations",
        "code first, prose after",
        "a short summary followed by details",
        "plain language without jargon",
    ),
    "style_pt": (
        "respostas curtas e diretas",
        "explicações passo a passo",
        "exemplos práticos",
        "um resumo no início",
        "linguagem simples, sem jargão",
    ),
    "os": (
        "Debian 12",
        "Ubuntu 24.04",
        "macOS Sonoma",
        "Windows 11 with WSL2",
        "Fedora 40",
        "Arch Linux",
        "NixOS 24.05",
    ),
    "editor": ("Neovim", "VS Code", "PyCharm", "Emacs", "Helix", "Zed", "IntelliJ IDEA"),
    "goal_en": (
        "run a marathon under four hours",
        "learn conversational Japanese",
        "ship the beta to 100 users",
        "pay off the mortgage early",
        "publish a paper on memory systems",
        "read 30 books",
        "get the AWS architect exam",
        "move to a smaller flat near the river",
        "save for a sabbatical",
    ),
    "goal_pt": (
        "correr uma maratona em menos de quatro horas",
        "aprender alemão para o mestrado",
        "lançar a versão beta para 100 usuários",
        "quitar o financiamento do apartamento",
        "fazer a transição de carreira para segurança da informação",
        "ler 30 livros",
        "tirar a carteira de motorista",
        "juntar dinheiro para um intercâmbio",
    ),
    "project_en": (
        "a personal AI assistant with long-term memory",
        "an inventory tracker for a bakery",
        "a home-lab Kubernetes cluster",
        "a scraper for public procurement portals",
        "a budgeting app for shared households",
        "a CLI for syncing dotfiles",
        "a volunteer rota for the food bank",
        "a bird-call classifier",
    ),
    "project_pt": (
        "um assistente pessoal de IA com memória de longo prazo",
        "um sistema de agendamento para a clínica da família",
        "um painel de monitoramento da rede do datacenter",
        "um aplicativo de orçamento doméstico",
        "um bot de avisos para o condomínio",
        "uma loja virtual de artesanato",
    ),
    "month_en": (
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ),
    "month_pt": (
        "janeiro",
        "fevereiro",
        "março",
        "abril",
        "maio",
        "junho",
        "julho",
        "agosto",
        "setembro",
        "outubro",
        "novembro",
        "dezembro",
    ),
    "weekday_en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"),
    "weekday_pt": ("segunda", "terça", "quarta", "quinta", "sexta", "sábado"),
    "allergen": ("peanuts", "shellfish", "penicillin", "pollen", "cats", "gluten", "latex"),
    "pet_en": ("golden retriever", "tabby cat", "parrot", "beagle", "rabbit", "tortoise"),
    "pet_pt": ("gata", "cachorra", "calopsita", "coelha", "jabuti"),
    "media": (
        "Studio Ghibli films",
        "Brazilian 70s MPB",
        "Nordic noir series",
        "sci-fi novels",
        "Formula 1 races",
        "true-crime podcasts",
    ),
}

TAGS: dict[str, tuple[str, ...]] = {
    "fact": ("location", "family", "work", "history", "education"),
    "preference": ("food", "communication", "ui", "music", "travel"),
    "skill": ("programming", "networking", "databases", "devops", "languages"),
    "context": ("current", "schedule", "health", "work"),
    "relationship": ("family", "colleague", "friend", "mentor"),
    "goal": ("fitness", "career", "finance", "learning"),
    "instruction": ("tone", "format", "language", "privacy"),
    "identity": ("identity", "language", "pronouns", "name"),
    "environment": ("hardware", "os", "editor", "network", "home-lab"),
    "project": ("side-project", "ai-assistant", "startup", "open-source"),
    "custom": ("health", "travel", "pets", "vehicle", "media", "security"),
}

Template = Callable[[random.Random], str]


def _p(rng: random.Random, key: str) -> str:
    return rng.choice(S[key])


def _yr(rng: random.Random) -> int:
    return rng.randint(1998, 2026)


EN: dict[str, tuple[Template, ...]] = {
    "fact": (
        lambda r: f"User lives in {_p(r, 'city')} and moved there in {_p(r, 'month_en')} {_yr(r)}.",
        lambda r: (
            f"User has {r.randint(1, 4)} children and works from home on {_p(r, 'weekday_en')}s."
        ),
        lambda r: f"User studied computer science in {_p(r, 'city')} and graduated in {_yr(r)}.",
        lambda r: f"User's birthday is on {r.randint(1, 28)} {_p(r, 'month_en')}.",
        lambda r: f"User commutes {r.randint(2, 60)} km to the office in {_p(r, 'city')}.",
        lambda r: f"User has worked at the same company for {r.randint(1, 25)} years.",
    ),
    "preference": (
        lambda r: (
            f"User loves {_p(r, 'food')} and orders it about {r.randint(1, 9)} times a month."
        ),
        lambda r: f"User prefers {_p(r, 'style_en')} for {_p(r, 'tech')} questions.",
        lambda r: (
            f"User prefers dark mode, a {r.choice((12, 24))}-hour clock and "
            f"font size {r.randint(11, 22)}."
        ),
        lambda r: f"User listens to jazz while coding and enjoys {_p(r, 'hobby_en')}.",
        lambda r: (
            f"User likes meetings before {r.randint(9, 12)}:{r.choice(('00', '30'))} "
            f"and no calls on {_p(r, 'weekday_en')}s."
        ),
    ),
    "skill": (
        lambda r: (
            f"User has {r.randint(1, 25)} years of experience with {_p(r, 'tech')} "
            f"and {_p(r, 'tech')}."
        ),
        lambda r: f"User is an expert in {_p(r, 'tech')} and mentors juniors on {_p(r, 'tech')}.",
        lambda r: f"User reads Spanish fluently and scored {r.randint(60, 99)}% on a B2 test.",
        lambda r: (
            f"User holds a {_p(r, 'tech')} certification earned in {_p(r, 'month_en')} {_yr(r)}."
        ),
    ),
    "context": (
        lambda r: f"User is preparing a talk about {_p(r, 'tech')} for {_p(r, 'month_en')}.",
        lambda r: (
            f"User is recovering from a knee injury and paused {_p(r, 'hobby_en')} "
            f"for {r.randint(2, 16)} weeks."
        ),
        lambda r: f"User is on parental leave until {r.randint(1, 28)} {_p(r, 'month_en')}.",
        lambda r: f"User is travelling to {_p(r, 'city')} for {r.randint(2, 21)} days.",
    ),
    "relationship": (
        lambda r: (
            f"User's {_p(r, 'rel_en')} {_p(r, 'name')} is a {_p(r, 'job_en')} in {_p(r, 'city')}."
        ),
        lambda r: f"User plays {_p(r, 'hobby_en')} with {_p(r, 'name')} on {_p(r, 'weekday_en')}s.",
        lambda r: (
            f"User's {_p(r, 'rel_en')} {_p(r, 'name')} turns {r.randint(3, 90)} "
            f"in {_p(r, 'month_en')}."
        ),
    ),
    "goal": (
        lambda r: (
            f"User wants to {_p(r, 'goal_en')} by {_p(r, 'month_en')} {r.randint(2025, 2031)}."
        ),
        lambda r: f"User's goal for {r.randint(2024, 2028)}: {_p(r, 'goal_en')}.",
    ),
    "instruction": (
        lambda r: (
            f"Always answer with {_p(r, 'style_en')}; keep it under {r.randint(3, 30)}0 words."
        ),
        lambda r: (
            "Use metric units, ISO 8601 dates (YYYY-MM-DD) and the "
            f"{_p(r, 'city')} time zone in every answer."
        ),
        lambda r: f'Never call the user "buddy"; address them as {_p(r, "name")}.',
        lambda r: (
            r"Paths on the user's work laptop look like C:\Users\dev\src; "
            f"the main repo is {_p(r, 'tech').lower().replace(' ', '-')}-{r.randint(1, 99)}."
        ),
        lambda r: (
            f"When suggesting {_p(r, 'tech')} code, target version {r.randint(1, 19)}."
            f"{r.randint(0, 12)}."
        ),
    ),
    "identity": (
        lambda r: (
            f"User's name is {_p(r, 'name')} {_p(r, 'name')}son and they use they/them pronouns."
        ),
        lambda r: (
            f"User is bilingual in English and Portuguese and was born in {_p(r, 'city')} "
            f"in {r.randint(1950, 2006)}."
        ),
    ),
    "environment": (
        lambda r: (
            f"User develops on {_p(r, 'os')} with {_p(r, 'editor')} and "
            f"{r.choice((16, 32, 64, 96))} GB of RAM."
        ),
        lambda r: (
            f"User's home lab runs {_p(r, 'tech')} on {r.randint(2, 9)} mini PCs behind "
            f"VLAN {r.randint(2, 4094)}."
        ),
    ),
    "project": (
        lambda r: (
            f"User is building {_p(r, 'project_en')} with {_p(r, 'tech')} and {_p(r, 'tech')}."
        ),
        lambda r: f"User maintains {_p(r, 'project_en')}; the repo has {r.randint(3, 9000)} stars.",
    ),
    "custom": (
        lambda r: f"Allergic to {_p(r, 'allergen')}; carries an epinephrine pen since {_yr(r)}.",
        lambda r: (
            f"Passport renewal is due in {_p(r, 'month_en')} {r.randint(2025, 2032)}; "
            "prefers aisle seats on long flights."
        ),
        lambda r: (
            f'Has a {_p(r, "pet_en")} called "{_p(r, "name")}" who is {r.randint(1, 17)} years old.'
        ),
        lambda r: (
            f"Drives a {r.randint(2005, 2025)} hybrid hatchback and charges it on "
            f"{_p(r, 'weekday_en')}s."
        ),
        lambda r: (
            "Holds a government security clearance, so never pastes work documents into "
            f"chats (renewal {r.randint(2025, 2030)})."
        ),
        lambda r: f"Rewatches {_p(r, 'media')} every {_p(r, 'month_en')} and dislikes spoilers.",
    ),
}

PT: dict[str, tuple[Template, ...]] = {
    "fact": (
        lambda r: f"O usuário mora em {_p(r, 'city')} desde {_p(r, 'month_pt')} de {_yr(r)}.",
        lambda r: (
            f"Usuário é formado em Engenharia Elétrica, turma de {_yr(r)}, "
            f"e fez mestrado em {_p(r, 'city')}."
        ),
        lambda r: f"Faz aniversário em {r.randint(1, 28)} de {_p(r, 'month_pt')}.",
        lambda r: f"Tem {r.randint(1, 4)} filhos e trabalha de casa às {_p(r, 'weekday_pt')}s.",
    ),
    "preference": (
        lambda r: (
            f"Adora {_p(r, 'food')} e prefere café sem açúcar, {r.randint(1, 6)} xícaras por dia."
        ),
        lambda r: f"Prefere {_p(r, 'style_pt')} em perguntas sobre {_p(r, 'tech')}.",
        lambda r: f"Gosta de {_p(r, 'hobby_pt')} nas {_p(r, 'weekday_pt')}s à noite.",
        lambda r: (
            f"Não gosta de reuniões depois das {r.randint(16, 19)}h às {_p(r, 'weekday_pt')}s."
        ),
    ),
    "skill": (
        lambda r: f"Tem {r.randint(1, 25)} anos de experiência com {_p(r, 'tech')} em produção.",
        lambda r: f"É especialista em {_p(r, 'tech')} e dá aulas de {_p(r, 'tech')} à noite.",
        lambda r: f"Fala inglês fluente e tirou {r.randint(60, 120)} pontos no TOEFL.",
    ),
    "context": (
        lambda r: (
            f"Está se mudando de apartamento e anda sem tempo até {r.randint(1, 28)} de "
            f"{_p(r, 'month_pt')}."
        ),
        lambda r: (
            f"Está estudando para uma certificação de {_p(r, 'tech')} "
            f"({r.randint(2, 12)} semanas restantes)."
        ),
        lambda r: f"Vai viajar para {_p(r, 'city')} por {r.randint(2, 21)} dias.",
    ),
    "relationship": (
        lambda r: (
            f"A {_p(r, 'rel_pt')} do usuário, {_p(r, 'name')}, é {_p(r, 'job_pt')} em "
            f"{_p(r, 'city')}."
        ),
        lambda r: f"Joga {_p(r, 'hobby_pt')} com {_p(r, 'name')} às {_p(r, 'weekday_pt')}s.",
    ),
    "goal": (
        lambda r: f"Quer {_p(r, 'goal_pt')} até {_p(r, 'month_pt')} de {r.randint(2025, 2031)}.",
        lambda r: f"Meta para {r.randint(2024, 2028)}: {_p(r, 'goal_pt')}.",
    ),
    "instruction": (
        lambda r: f"Responda sempre em português, com {_p(r, 'style_pt')}, para {_p(r, 'name')}.",
        lambda r: f"Não use emojis nas respostas e trate o usuário por {_p(r, 'name')}.",
        lambda r: (
            f"Use reais (R$) e datas no formato DD/MM/AAAA; limite de {r.randint(3, 30)}0 palavras."
        ),
    ),
    "identity": (
        lambda r: (
            f"Chama-se {_p(r, 'name')} e nasceu em {_p(r, 'city')} em {r.randint(1950, 2006)}."
        ),
        lambda r: (
            f"É brasileiro, mora em {_p(r, 'city')} desde {_yr(r)} e fala português, "
            "inglês e espanhol."
        ),
    ),
    "environment": (
        lambda r: (
            f"Usa {_p(r, 'os')} com {_p(r, 'editor')} no notebook do trabalho "
            f"({r.choice((8, 16, 32))} GB)."
        ),
        lambda r: (
            f"A internet de casa é fibra de {r.choice((100, 300, 500, 1000))} Mbps, mas o "
            f"Wi-Fi do escritório em {_p(r, 'city')} é instável."
        ),
    ),
    "project": (
        lambda r: f"Está desenvolvendo {_p(r, 'project_pt')} em {_p(r, 'tech')} e {_p(r, 'tech')}.",
        lambda r: f"Mantém {_p(r, 'project_pt')} como projeto paralelo desde {_yr(r)}.",
    ),
    "custom": (
        lambda r: f"Tem intolerância à lactose desde {_yr(r)} e evita pratos com creme de leite.",
        lambda r: (
            f"O passaporte vence em {_p(r, 'month_pt')} de {r.randint(2025, 2032)}; prefere "
            "poltrona no corredor."
        ),
        lambda r: f"Tem uma {_p(r, 'pet_pt')} chamada {_p(r, 'name')} de {r.randint(1, 17)} anos.",
        lambda r: f"Não come carne vermelha às {_p(r, 'weekday_pt')}s desde {_yr(r)}.",
    ),
}

EXTRA_EN = (
    " They mentioned this in several conversations, most recently while planning a trip.",
    " This came up again last week and was confirmed explicitly.",
    "\nContext: stated while debugging a deployment late at night.",
    ' Quote: "please remember this for next time".',
)
EXTRA_PT = (
    " Isso foi mencionado em várias conversas, a última durante o planejamento de uma viagem.",
    " Confirmou de novo na semana passada, então a informação é recente.",
    "\nContexto: disse isso enquanto revisava o código de um colega.",
)
EMOJI = (" 🎉", " ☕", " 🐈", " 👍🏽", " 🇧🇷")

SUMMARY_EN = (
    "Lives abroad",
    "Prefers concise answers",
    "Senior engineer",
    "Has a dog",
    "Marathon goal",
    "Works remotely",
    "Home lab owner",
    "Bilingual",
)
SUMMARY_PT = (
    "Mora em São Paulo",
    "Prefere respostas curtas",
    "Projeto paralelo",
    "Meta de corrida",
    "Intolerância à lactose",
    "Bilíngue",
)


# ── helpers ──────────────────────────────────────────────────────────────────


def _uuid4(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _ts(moment: datetime, rng: random.Random, *, brazil: bool) -> str:
    """RFC 3339 text. Mostly whole-second UTC ``Z``; some microseconds; some -03:00.

    The written instant lies in ``[floor(moment), floor(moment) + 1 s)``, so callers keep
    ordering by putting "later" instants at least one second after "earlier" ones.
    """
    moment = moment.replace(microsecond=0)
    roll = rng.random()
    if brazil and roll < 0.35:
        return moment.astimezone(BRT).isoformat()
    if roll > 0.93:
        micro = rng.randint(100000, 999999)  # six digits: keeps one textual form
        return moment.replace(microsecond=micro).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _confidence_pair(rng: random.Random, decay: str | None, age_days: float) -> tuple[float, float]:
    initial = rng.choice(CONFIDENCE_STEPS)
    roll = rng.random()
    if decay in (None, "none") or roll < 0.35:
        current = initial
    elif roll < 0.65:
        current = round(max(0.05, initial - rng.randint(1, 30) / 100), 2)
    elif roll < 0.997:
        rate = 0.0004 if decay == "time_linear" else 0.0011
        if decay == "time_linear":
            current = max(0.0, initial - rate * age_days)
        else:
            current = initial * math.exp(-rate * age_days)
    else:
        # Deep decay: tiny values that JCS writes without an exponent (1e-6 ≤ x < 1e-4)
        # or with one (x < 1e-6); a useful corner for canonical JSON.
        current = rng.choice((3.5e-05, 7.25e-05, 1e-06, 4e-07, 0.0))
    return initial, min(initial, max(0.0, current))


def _dated(rng: random.Random, text: str, when: datetime, portuguese: bool) -> str:
    """Prefix a time qualifier, as LLM extractors often write ("As of March 2024, ...")."""
    if portuguese:
        month = S["month_pt"][when.month - 1]
        lead = rng.choice(
            (f"Desde {when.day} de {month} de {when.year}, ", f"Em {month} de {when.year}, ")
        )
    else:
        month = S["month_en"][when.month - 1]
        lead = rng.choice(
            (f"As of {when.day} {month} {when.year}, ", f"Since {month} {when.year}, ")
        )
    return lead + text[0].lower() + text[1:]


def _content(rng: random.Random, mtype: str, portuguese: bool, when: datetime) -> str:
    table = PT if portuguese else EN
    text = rng.choice(table[mtype])(rng)
    roll = rng.random()
    if roll < 0.75:
        text = _dated(rng, text, when, portuguese)
    elif roll < 0.9:
        count = rng.randint(2, 60)
        text += f" (mencionado {count} vezes)" if portuguese else f" (mentioned {count} times)"
    roll = rng.random()
    if roll < 0.12:
        text += rng.choice(EXTRA_PT if portuguese else EXTRA_EN)
    elif roll < 0.14:
        # a long memory, as LLM extractors sometimes write
        parts = [rng.choice(table[rng.choice(STANDARD_TYPES)])(rng) for _ in range(6)]
        text += " " + " ".join(parts)
    if rng.random() < 0.02:
        text += rng.choice(EMOJI)
    quirk = rng.random()
    if quirk < 0.03:
        text = "  " + text + " \n"  # stray whitespace: hashed after trimming
    elif quirk < 0.05:
        text = text.replace(" ", "  ", 2)  # doubled spaces: collapsed by §6 normalization
    elif portuguese and quirk < 0.09:
        text = unicodedata.normalize("NFD", text)  # decomposed accents (macOS copy-paste)
    return text


# ── memories ─────────────────────────────────────────────────────────────────


def build_memories(n: int, seed: int = 0) -> list[Json]:
    """``n`` PAM memory objects, oldest first, every member present (nulls explicit)."""
    memories, _, _ = _build(n, seed)
    return memories


def _build(n: int, seed: int) -> tuple[list[Json], list[Json], list[datetime]]:
    """Memories, the conversations they came from, and each memory's creation time."""
    rng = random.Random(seed)
    memories: list[Json] = []
    conversations: list[Json] = []
    created_at: list[datetime] = []
    end = EPOCH + timedelta(days=1125)
    now = EPOCH
    span = timedelta(days=1125)  # ~3 years of history whatever n is
    step = span / max(n, 1)
    conv: Json | None = None
    conv_left = 0

    for _ in range(n):
        now = min(end - timedelta(days=1), now + step * (0.5 + rng.random()))
        portuguese = rng.random() < 0.3
        # Conversation-derived memories come in runs from one conversation.
        if conv is not None and conv_left > 0 and rng.random() < 0.85:
            conv_left -= 1
            platform = conv["platform"]
        else:
            conv = None
            platform = rng.choices(PLATFORMS, PLATFORM_WEIGHTS)[0]
            if platform in CHAT_PLATFORMS and rng.random() < 0.75:
                started = now - timedelta(minutes=rng.randint(5, 600))
                conv = _new_conversation(rng, platform, started, portuguese)
                conversations.append(conv)
                conv_left = rng.choice((1, 2, 3, 4, 6, 9, 14))
        created = now
        brazil = portuguese

        if rng.random() < 0.05:
            mtype, custom_type = "custom", rng.choice(CUSTOM_TYPES)
        else:
            mtype, custom_type = rng.choices(STANDARD_TYPES, TYPE_WEIGHTS)[0], None
        content = _content(rng, mtype, portuguese, created)
        status = rng.choices(STATUSES, STATUS_WEIGHTS)[0]

        decay = rng.choice(("none", "time_linear", "time_linear", "time_exponential", None))
        age_days = (end - created).total_seconds() / 86400
        initial, current = _confidence_pair(rng, decay, age_days)
        reinforced = (
            None
            if rng.random() < 0.3
            else _ts(
                created + timedelta(seconds=rng.randint(1, int(age_days * 86400))),
                rng,
                brazil=brazil,
            )
        )

        updated = (
            None
            if rng.random() < 0.4
            else _ts(
                min(end, created + timedelta(seconds=rng.randint(1, 200 * 86400))),
                rng,
                brazil=brazil,
            )
        )
        valid_from = (
            None
            if rng.random() < 0.35
            else _ts(created - timedelta(days=rng.randint(0, 3000), seconds=1), rng, brazil=brazil)
        )
        valid_until = None
        if status in ("superseded", "archived", "retracted") or rng.random() < 0.02:
            valid_until = _ts(created + timedelta(days=rng.randint(1, 400)), rng, brazil=brazil)

        if conv is not None:
            conv_ref: str | None = conv["id"]
            message_ref: str | None = (
                f"msg-{rng.randint(1, max(1, conv['message_count'])):04d}"
                if rng.random() < 0.6
                else _uuid4(rng)
            )
            method: str | None = rng.choice(("llm_inference", "llm_inference", "api_export"))
        else:
            conv_ref = None
            message_ref = None
            method = rng.choice(
                ("explicit_user_input", "manual", "browser_extraction", "api_export", None)
            )
            if platform in ("manual", "local"):
                method = rng.choice(("manual", "explicit_user_input"))

        visibility = rng.choices(("private", "shared", "public"), (80, 15, 5))[0]
        shared_with: list[Json] = []
        if visibility == "shared":
            for agent in rng.sample(AGENTS, rng.randint(1, 2)):
                perms = ["read"] if rng.random() < 0.8 else ["read", "write"]
                shared_with.append({"entity": agent, "permissions": perms})

        tags = rng.sample(TAGS[mtype], rng.choice((0, 1, 2, 2, 3)))
        if portuguese and rng.random() < 0.5:
            tags.append("pt-br")

        metadata: Json = {
            "language": (rng.choice(("pt-BR", "pt")) if portuguese else rng.choice(("en", "en-US")))
            if rng.random() < 0.9
            else None,
            "domain": rng.choice(DOMAINS),
        }
        if rng.random() < 0.08:
            metadata["importance"] = rng.randint(1, 5)
        if rng.random() < 0.04:
            metadata["source_hint"] = rng.choice(("memory prompt", "settings page", "chat"))

        memory: Json = {
            "id": _uuid4(rng),
            "type": mtype,
            "custom_type": custom_type,
            "status": status,
            "content": content,
            "content_hash": content_hash(content),
            "summary": rng.choice(SUMMARY_PT if portuguese else SUMMARY_EN)
            if rng.random() < 0.45
            else None,
            "tags": tags,
            "confidence": {
                "initial": initial,
                "current": current,
                "decay_model": decay,
                "last_reinforced": reinforced,
            },
            "temporal": {
                "created_at": _ts(created, rng, brazil=brazil),
                "updated_at": updated,
                "valid_from": valid_from,
                "valid_until": valid_until,
                "superseded_by": None,
            },
            "provenance": {
                "platform": platform,
                "platform_user_id": None if rng.random() < 0.7 else f"user-{rng.getrandbits(40):x}",
                "conversation_ref": conv_ref,
                "message_ref": message_ref,
                "extraction_method": method,
                "extracted_at": None
                if rng.random() < 0.1
                else _ts(created + timedelta(seconds=rng.randint(1, 90)), rng, brazil=brazil),
                "extractor": rng.choice(EXTRACTORS),
            },
            "access": {
                "visibility": visibility,
                "exportable": True,
                "shared_with": shared_with,
            },
            "embedding_ref": None,  # no embeddings file ships with the store
            "metadata": metadata,
        }
        memories.append(memory)
        created_at.append(created)
        if conv is not None:
            conv["derived_memories"].append(memory["id"])
            conv["temporal"]["updated_at"] = (created + timedelta(minutes=1)).strftime(
                "%Y-%m-%dT%H:%M:%SZ"
            )

    # superseded memories point at a newer memory
    for i, memory in enumerate(memories):
        if memory["status"] == "superseded":
            if i + 1 < n:
                newer = memories[rng.randint(i + 1, min(n - 1, i + 500))]
                memory["temporal"]["superseded_by"] = newer["id"]
            else:
                memory["status"] = "archived"
    return memories, conversations, created_at


def _new_conversation(
    rng: random.Random, platform: str, started: datetime, portuguese: bool
) -> Json:
    titles_en = (
        "Trip planning",
        "Debugging a flaky test",
        "Weekly meal plan",
        "Career advice",
        "Kubernetes networking questions",
        "Birthday gift ideas",
        "Tax return help",
    )
    titles_pt = (
        "Planejamento de viagem",
        "Ajuda com a declaração do imposto de renda",
        "Receitas para a semana",
        "Dúvidas sobre contrato de aluguel",
    )
    return {
        "id": _uuid4(rng),
        "platform": platform,
        "title": rng.choice(titles_pt if portuguese else titles_en) if rng.random() < 0.9 else None,
        "message_count": rng.randint(2, 180),
        "temporal": {
            "created_at": started.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "updated_at": None,
        },
        "tags": rng.sample(
            ("travel", "coding", "health", "finance", "family", "work"), rng.randint(0, 2)
        ),
        "derived_memories": [],
        "storage": {
            "type": "file",
            "ref": "",  # filled in once the id is known
            "format": "json",
        },
    }


def _relations(rng: random.Random, memories: list[Json], created_at: list[datetime]) -> list[Json]:
    relations: list[Json] = []
    n = len(memories)
    by_id = {m["id"]: i for i, m in enumerate(memories)}

    def add(src: int, dst: int, rtype: str) -> None:
        later = max(created_at[src], created_at[dst]) + timedelta(seconds=rng.randint(0, 3600))
        relations.append(
            {
                "id": _uuid4(rng),
                "from": memories[src]["id"],
                "to": memories[dst]["id"],
                "type": rtype,
                "confidence": None if rng.random() < 0.2 else rng.choice((1.0, 0.95, 0.85, 0.8)),
                "created_at": later.strftime("%Y-%m-%dT%H:%M:%SZ"),
            }
        )

    for i, memory in enumerate(memories):
        newer_id = memory["temporal"]["superseded_by"]
        if newer_id is not None:
            add(by_id[newer_id], i, "supersedes")
    if n >= 2:
        for _ in range(n // 12):
            i = rng.randrange(n)
            j = rng.randrange(n - 1)
            j = j + 1 if j >= i else j
            add(i, j, rng.choice(RELATION_TYPES))
    return relations


# ── store ────────────────────────────────────────────────────────────────────


def _strip_nulls(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_strip_nulls(v) for v in value]
    return value


def build_store(n: int, seed: int = 0, *, omit_nulls: bool = False) -> Json:
    """A complete, valid PAM memory-store document with ``n`` memories."""
    memories, conversations, created_at = _build(n, seed)
    rng = random.Random(f"{seed}/store")
    relations = _relations(rng, memories, created_at)
    for conv in conversations:
        conv["storage"]["ref"] = f"conversations/{conv['id']}.json"
        if conv["temporal"]["updated_at"] is None:
            conv["temporal"]["updated_at"] = conv["temporal"]["created_at"]
    if omit_nulls:
        memories = _strip_nulls(memories)
        relations = _strip_nulls(relations)
        conversations = _strip_nulls(conversations)
    # A well-formed did:key (multicodec 0xed01 + a 32-byte Ed25519 key, base58btc): §17.2
    # requires the DID to resolve, and a did:key resolves offline.
    owner_key = base58.b58encode(b"\xed\x01" + rng.randbytes(32)).decode("ascii")
    store: Json = {
        "schema": "portable-ai-memory",
        "schema_version": "1.0",
        "spec_uri": "https://portable-ai-memory.org/spec/v1.0",
        "export_id": _uuid4(rng),
        "exported_by": EXPORTED_BY,
        "export_date": (EPOCH + timedelta(days=1126)).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "owner": {
            "id": _uuid4(rng),
            "did": f"did:key:z{owner_key}",
            "created_at": EPOCH.strftime("%Y-%m-%dT%H:%M:%SZ"),
        },
        "memories": memories,
        "relations": relations,
        "conversations_index": conversations,
        "integrity": {
            "canonicalization": "RFC8785",
            "checksum": integrity_checksum(memories),
            "total_memories": len(memories),
        },
        "export_type": "full",
        "base_export_id": None,
        "since": None,
        "type_registry": "https://portable-ai-memory.org/types/",
        "signature": None,
    }
    return _strip_nulls(store) if omit_nulls else store


def dumps_store(store: Json) -> bytes:
    """UTF-8 JSON with 2-space indent and no ASCII escaping, newline-terminated."""
    return orjson.dumps(store, option=orjson.OPT_INDENT_2) + b"\n"


def write_store(
    path: str | os.PathLike[str], n: int, seed: int = 0, *, omit_nulls: bool = False
) -> Path:
    """Write a generated store to ``path`` (via a temporary name, then rename)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    data = dumps_store(build_store(n, seed, omit_nulls=omit_nulls))
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write a realistic PAM v1.0 memory store.")
    parser.add_argument("n", type=int, help="number of memories")
    parser.add_argument("out", type=Path, help="output .json path")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--omit-nulls", action="store_true", help="leave null members out instead of writing them"
    )
    args = parser.parse_args(argv)
    if args.n < 0:
        parser.error("n must be >= 0")
    path = write_store(args.out, args.n, args.seed, omit_nulls=args.omit_nulls)
    print(f"{path}: {args.n} memories, {path.stat().st_size:,} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
