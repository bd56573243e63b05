from __future__ import annotations

import pytest


@pytest.fixture
def staff(make_user):
    return make_user("sam", is_staff=True)


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client
