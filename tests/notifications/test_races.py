"""Two tasks for the same notice at once: the database settles it, one notice and one mail."""

from __future__ import annotations

import pytest
from django.core import mail

from notifications import services, tasks
from notifications.models import Notice
from tests.races import run_together
from tests.tournaments.factories import make_event
from tournaments.services.pairing import pair_next_round, publish_round

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_mail_tasks_for_one_notice_send_one_mail(bob):
    bob.email = "bob@example.test"
    bob.save()
    notice = Notice.objects.create(
        user=bob,
        kind=Notice.Kind.ROUND_PUBLISHED,
        key="round:1",
        data={"event": "Race Cup", "round": 1, "table": 3, "opponents": ["Someone"]},
        mail=Notice.Mail.PENDING,
    )
    outcomes = run_together(
        lambda: tasks.send_notice_email.apply(args=(notice.pk,)).get(),
        lambda: tasks.send_notice_email.apply(args=(notice.pk,)).get(),
    )
    assert sorted(outcomes) == [("ok", False), ("ok", True)]
    assert [m.to for m in mail.outbox] == [["bob@example.test"]]
    notice.refresh_from_db()
    assert notice.mail == Notice.Mail.SENT and notice.mail_attempts == 1


def test_two_round_tasks_at_once_make_each_notice_and_mail_once(alice, worker):
    event, regs = make_event(alice, players=4)
    for reg in regs:
        reg.user.email = f"{reg.user.username}@example.test"
        reg.user.save(update_fields=["email"])
    rnd = publish_round(alice, pair_next_round(alice, event))  # its notices go out on commit
    assert Notice.objects.count() == 4 and len(mail.outbox) == 4
    Notice.objects.all().delete()
    mail.outbox.clear()

    outcomes = run_together(
        lambda: services.round_published(rnd.pk), lambda: services.round_published(rnd.pk)
    )
    assert [kind for kind, _value in outcomes] == ["ok", "ok"]
    assert Notice.objects.count() == 4
    assert sorted(m.to[0] for m in mail.outbox) == sorted(r.user.email for r in regs)
