"""Where the tests find the official PAM artifacts: the example documents kept as fixtures in
`tests/fixtures/pam-official/`, and the JSON Schemas shipped by the official SDK's package
(`portable-ai-memory`, a development dependency). Nothing here reads outside the repository."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Final

OFFICIAL_EXAMPLES: Final = Path(__file__).resolve().parent / "fixtures" / "pam-official"
OFFICIAL_STORE: Final = OFFICIAL_EXAMPLES / "example-memory-store.json"


def _sdk_schemas() -> Path:
    # find_spec locates the package without importing it (its __init__ pulls in pydantic).
    spec = importlib.util.find_spec("portable_ai_memory")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "the official PAM schemas come from the 'portable-ai-memory' package: "
            "install the development extra (pip install -e '.[dev]')"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "schemas"


OFFICIAL_SCHEMAS: Final = _sdk_schemas()
