import pytest

from drafting.services import messages


@pytest.fixture(autouse=True)
def progress_every_pick(monkeypatch):
    """In tests a pod's progress goes out after every pick: no throttling, so no timer
    thread outlives a test (the interval is covered by its own test)."""
    monkeypatch.setattr(messages, "PROGRESS_EVERY", 0.0)
