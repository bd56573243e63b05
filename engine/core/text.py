"""Text pasted or uploaded by players (decklists), read the same way by every system."""

from __future__ import annotations

BOM = "\ufeff"


def text_lines(text: str | None) -> list[str]:
    """The lines of ``text``: a byte-order mark (Windows editors save one) dropped, and
    any line end (``\\n``, ``\\r\\n``, ``\\r``) accepted."""
    return (text or "").replace(BOM, "").splitlines()
