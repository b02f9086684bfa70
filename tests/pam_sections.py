"""The numbered sections of PAM v1.0 (its `##` and `###` headings), kept here as the index that
tests check section citations against, so no test reads the specification's text."""

from __future__ import annotations

from typing import Final

_TOP: Final = {
    1: 4,
    2: 0,
    3: 2,
    4: 3,
    5: 1,
    6: 3,
    7: 1,
    8: 1,
    9: 1,
    10: 0,
    11: 4,
    12: 3,
    13: 2,
    14: 2,
    15: 4,
    16: 3,
    17: 3,
    18: 5,
    19: 4,
    20: 2,
    21: 4,
    22: 3,
    23: 0,
    24: 0,
    25: 5,
    26: 2,
}  # section number → how many numbered subsections it has

#: "1", "1.1", … "26.2", then the appendices "Appendix A" … "Appendix F".
PAM_SECTIONS: Final = frozenset(
    [str(n) for n in _TOP]
    + [f"{n}.{k}" for n, count in _TOP.items() for k in range(1, count + 1)]
    + [f"Appendix {letter}" for letter in "ABCDEF"]
)
