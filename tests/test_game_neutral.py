"""The shell names no game: outside ``engine/``, no code holds a registered system's key
as a value, and no shared template mentions one. What the shell needs of a game it asks
the registry (docs/architecture.md, "What a game gives the platform"); a game's own
templates live under ``templates/play/<system>/``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.core import registry

ROOT = Path(__file__).resolve().parent.parent
SHELL = ("config", "tournaments", "drafting", "play", "notifications", "dashboard")
KEYS = {info.key for info in registry.all_systems()}


def shell_sources() -> list[Path]:
    return sorted(
        path
        for app in SHELL
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts  # history: rows written before the registry
    )


def test_the_scan_sees_the_shell_and_every_game():
    assert len(shell_sources()) > 60 and {"voskhozhdenie", "ascension"} <= KEYS


@pytest.mark.parametrize("path", shell_sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_shell_module_holds_a_game_key(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    named = [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in KEYS | {f"engine.{key}" for key in KEYS}
    ]
    imports = [
        (node.lineno, node.module)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and node.module
        and any(node.module.startswith(f"engine.{key}") for key in KEYS)
    ]
    assert not named and not imports, f"{path}: {named + imports}"


def test_no_shared_template_mentions_a_game():
    templates = ROOT / "templates"
    found = []
    for path in templates.rglob("*.html"):
        relative = path.relative_to(templates).parts
        if relative[0] == "play" and relative[1] in KEYS:
            continue  # the game's own table
        text = path.read_text(encoding="utf-8").lower()
        found += [(str(path), key) for key in KEYS if key in text]
    assert not found
