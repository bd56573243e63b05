"""Every statement of the rules digest's conformance checklist (Part 3, CK-001..CK-146)
is named by at least one ``@pytest.mark.rule(..., "CK-nnn")`` in the test tree."""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[2]
DIGEST = Path(
    os.environ.get(
        "VOSKHOZHDENIE_DIGEST", TESTS.parent.parent / "shared" / "rules" / "voskhozhdenie.md"
    )
)
CHECKLIST = [f"CK-{n:03d}" for n in range(1, 147)]


def _digest_ids(text: str) -> list[str]:
    """The checklist ids of Part 3, in order (``- CK-nnn [rules] ...`` items)."""
    part3 = text[text.index("## Part 3") :]
    return re.findall(r"^- (CK-\d{3})\b", part3, re.M)


def _marked_ids(root: Path) -> dict[str, list[str]]:
    """Every string argument of a ``pytest.mark.rule(...)`` call in the test sources, with
    the files that name it."""
    found: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            if not (
                isinstance(func, ast.Attribute)
                and func.attr == "rule"
                and isinstance(func.value, ast.Attribute)
                and func.value.attr == "mark"
            ):
                continue
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.setdefault(arg.value, []).append(str(path.relative_to(root)))
    return found


def test_the_digest_checklist_is_ck001_to_ck146():
    if not DIGEST.exists():
        pytest.skip(f"the rules digest is not at {DIGEST} (set VOSKHOZHDENIE_DIGEST)")
    assert _digest_ids(DIGEST.read_text(encoding="utf-8")) == CHECKLIST


def test_every_checklist_statement_is_named_by_a_rule_marker():
    marked = _marked_ids(TESTS)
    missing = [ck for ck in CHECKLIST if ck not in marked]
    assert not missing, f"checklist statements no test names with @pytest.mark.rule: {missing}"


def test_the_scan_sees_markers_in_every_kind_of_place(tmp_path):
    (tmp_path / "test_x.py").write_text(
        "import pytest\n"
        "pytestmark = pytest.mark.rule('1.1', 'CK-900')\n"
        "@pytest.mark.rule('2.2', 'CK-901')\n"
        "@pytest.mark.parametrize('a', [1])\n"
        "def test_a(a):\n    pass\n"
        "# @pytest.mark.rule('CK-902') in a comment does not count\n",
        encoding="utf-8",
    )
    marked = _marked_ids(tmp_path)
    assert {"CK-900", "CK-901"} <= set(marked) and "CK-902" not in marked
