"""Hypothesis strategies the tests share: arbitrary JSON, as a hostile client sends it."""

from __future__ import annotations

from hypothesis import strategies as st


def json_values(size: int = 4) -> st.SearchStrategy:
    """Any JSON value (and huge whole numbers), nested up to a few levels, ``size`` wide."""
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-(2**70), 2**70)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=3 * size)
    )
    return st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=size)
            | st.dictionaries(st.text(max_size=2 * size), inner, max_size=size)
        ),
        max_leaves=3 * size,
    )
