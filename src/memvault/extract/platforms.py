"""The named platforms of a first-person statement of use ("i'm on rider on an m2 macbook",
"tenho o ubuntu 22.04 num thinkpad t480", "uso um notebook dell com windows 11", "stack is
django + react native"): one environment memory per platform, whatever the wording around it.

The wording of such statements varies without end, while the things named come from a short
list (operating systems, machines, editors, stacks, services): the rule reads the list, not the
phrase. A clause counts only when it opens as a statement of one's own use (`_USING`): "I have
a question about Excel" opens with a possession, and only machines and systems are had
("tenho um thinkpad", never "tenho o excel aberto" as a tool of one's own).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

__all__ = ["Platform", "platforms"]

#: Machines and systems: what one has ("I have a ThinkPad") as well as what one uses.
_MACHINES: Final = (
    r"ubuntu|debian|fedora|arch linux|linux mint|pop!?_os|manjaro|nixos|linux|"
    r"windows(?: \d+)?|mac ?os|macos|chrome ?os|"
    r"macbook(?: air| pro)?|imac|mac mini|mac studio|mac|thinkpad|dell|lenovo|hp|asus|acer|"
    r"raspberry pi(?: \d)?|iphone|ipad|android|kindle|"
    # words as often common as names: only capitalised
    r"(?-i:Surface(?: Pro| Laptop)?|Pixel|Galaxy)|"
    r"chromebook|steam deck|ps5|playstation|xbox|nintendo switch"
)
#: Software one uses: editors, office tools, stacks, databases, services.
_SOFTWARE: Final = (
    r"vs ?code|visual studio code|visual studio|neovim|nvim|vim|emacs|intellij(?: idea)?|"
    r"pycharm|webstorm|rider|android studio|xcode|eclipse|sublime(?: text)?|jupyter|rstudio|"
    r"excel|google sheets|notion|obsidian|confluence|jira|trello|slack|figma|"
    r"django|flask|fastapi|rails|laravel|react native|react|angular|vue|"
    r"next\.?js|node\.?js|flutter|unreal engine|godot|postgres(?:ql)?|mysql|sqlite|mongodb|"
    r"(?-i:Word|Node|Unity|Spring(?: Boot)?)|"
    r"redis|kubernetes|docker|aws|gcp|azure|firebase|supabase|nextcloud|home assistant|"
    r"netflix|spotify|prime video|disney\+|hbo max"
)
#: A model or version after the name: "24.04", "x1 carbon", "t480", "m2", "11".
_MODEL: Final = r"(?:\s+(?:(?:x\d|t\d|m\d|[a-z]?\d[\w.]*)(?:\s+carbon|\s+pro|\s+max|\s+air)?))?"
_NAMED: Final = re.compile(
    rf"(?<![\w-])(?P<name>(?:{_MACHINES}|{_SOFTWARE}){_MODEL})(?![\w-])", re.IGNORECASE
)
_MACHINE_ONLY: Final = re.compile(rf"^(?:{_MACHINES})\b", re.IGNORECASE)
#: How a statement of one's own use opens (after fillers): use verbs take any platform; having
#: ("I have", "tenho") takes machines and systems only.
_USING: Final = re.compile(
    r"^(?:(?:i|we)(?:'m| am|'re| are)\s+(?:on|using|running|working (?:on|in))|"
    r"(?:i|we)\s+(?:use|run|work (?:on|in)|code in|develop (?:on|in))|"
    r"(?:my|our)\s+(?:stack|setup|laptop|machine|pc|computer|phone|desktop)\s+(?:is|are)|"
    r"(?:the\s+)?stack(?:'s| is)|"
    r"(?:eu\s+)?(?:uso|usamos|utilizo|rodo|programo (?:no|em))|a gente usa|"
    r"(?:eu\s+)?(?:estou|to|tô)\s+(?:no|na|usando|com o|com a)|"
    r"(?:o\s+)?(?:meu|nosso)\s+(?:stack|setup|notebook|portátil|computador|pc|celular|"
    r"telemóvel)\s+é)\b",
    re.IGNORECASE,
)
_HAVING: Final = re.compile(
    r"^(?:(?:i|we)\s+(?:have|'ve got|have got|own)|(?:eu\s+)?tenho|é um[a]?\s+.*\bque tenho)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Platform:
    """A platform the person uses, as typed ("ubuntu 24.04")."""

    name: str
    language: str


_PORTUGUESE: Final = re.compile(
    r"(?:eu|uso|usamos|utilizo|rodo|programo|a gente|estou|to|tô|o|meu|nosso|tenho|é)\b",
    re.IGNORECASE,
)


#: Where a statement of use stops: what follows a contrast or a reason is another matter
#: ("I code in Python but Django is new to me").
_END: Final = re.compile(
    r"\s+(?:but|mas|so|because|since|porque|pq|por isso|which|que|although|though|embora)\b.*$",
    re.IGNORECASE,
)
#: A place of work before the statement: "aqui na empresa a gente usa…", "at work we use…".
_WHERE: Final = re.compile(
    r"^(?:(?:aqui|lá|la|cá|ca)\s+)?(?:at work|here at work|in my (?:job|team|company)|"
    r"na empresa|no trabalho|no meu trabalho|no escritório|na firma)\s+",
    re.IGNORECASE,
)


#: "now", "agora": the time of the statement, before its opener.
_NOW: Final = re.compile(
    r"^(?:(?:and|but|e|mas)\s+)?(?:now|nowadays|these days|currently|agora|hoje|hoje em dia|"
    r"atualmente)\s+",
    re.IGNORECASE,
)


def platforms(clause: str, language: str = "en") -> list[Platform]:
    """The platforms named in `clause` when it states one's own use of them, in order (the
    language is the opener's when it is a Portuguese one, else `language`). Each part of the
    clause after a comma may state its own use ("I'm the cofounder, stack is django")."""
    found: list[Platform] = []
    for part in re.split(r",\s*", clause):
        part = _NOW.sub("", _WHERE.sub("", part.strip()))
        found.extend(_platforms(_END.sub("", part), language))
    return found


def _platforms(part: str, language: str) -> list[Platform]:
    using = _USING.match(part)
    having = None if using else _HAVING.match(part)
    opener = using or having
    if opener is None:
        return []
    if _PORTUGUESE.match(opener.group(0)):
        language = "pt"
    found: list[Platform] = []
    for match in _NAMED.finditer(part, opener.end()):
        name = " ".join(match.group("name").split())
        if having and not _MACHINE_ONLY.match(name):
            continue
        # "excel for mac": the edition of a tool, not a machine of one's own
        if re.search(r"\bfor\s+$", part[: match.start()]):
            continue
        found.append(Platform(name, language))
    return found
