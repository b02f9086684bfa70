"""The `memvault.exchange` package: PAM and AIMEM through the vault's public operations,
never its store, and each format loaded only when used."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import memvault.exchange


def test_the_exchange_package_goes_through_the_vault_never_the_store() -> None:
    """#16: nothing but the vault touches the store — the exchange modules name no `store`
    attribute (``vault.store``, ``self.store``) and import no concrete store."""
    package = Path(memvault.exchange.__file__).parent
    modules = sorted(package.glob("*.py"))
    assert {m.name for m in modules} >= {"__init__.py", "_shared.py", "aimem.py", "pam.py"}
    for module in modules:
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                assert node.attr not in ("store", "_store"), f"{module.name}:{node.lineno}"
            if isinstance(node, ast.ImportFrom):
                assert node.module != "memvault.store.sqlite", f"{module.name}:{node.lineno}"


def test_exchange_loads_only_the_format_a_caller_names() -> None:
    """The CLI loads only what a command needs: `export_vault` brings no AIMEM code, and
    `import_bundle` brings it."""
    code = (
        "import sys\n"
        "from memvault.exchange import export_vault, ImportRefused\n"
        "m = sys.modules\n"
        "print('memvault.exchange.aimem' in m, 'memvault.formats.mapping' in m)\n"
        "from memvault.exchange import import_bundle\n"
        "print('memvault.exchange.aimem' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False", "True"]


def test_exchange_re_exports_every_public_name() -> None:
    for name in memvault.exchange.__all__:
        assert getattr(memvault.exchange, name) is not None, name
