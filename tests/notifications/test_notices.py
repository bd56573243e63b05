"""Notices: a round published, a result to confirm, a decklist due; on the site and by
e-mail, once each, to the right people, in their language, never to those who opted out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

from engine.core import registry
from notifications import services, tasks
from notifications.models import Notice, Preferences
from tests.tournaments.factories import make_event
from tournaments.models import Decklist, Match, Registration
from tournaments.services.events import create_event
from tournaments.services.pairing import pair_next_round, publish_round
from tournaments.services.players import drop, register
from tournaments.services.results import confirm_result, report_result

pytestmark = pytest.mark.django_db

User = get_user_model()


def with_emails(regs) -> list:
    users = [reg.user for reg in regs]
    for user in users:
        user.email = f"{user.username}@example.test"
        user.save(update_fields=["email"])
    return users


def published(alice, event, capture):
    with capture(execute=True):
        return publish_round(alice, pair_next_round(alice, event))


def notices(kind=None, **filters):
    found = Notice.objects.filter(**filters)
    return found.filter(kind=kind) if kind else found


# ---------------------------------------------------------------- a round is published


def test_every_player_hears_their_table_and_opponent_once(
    alice, worker, django_capture_on_commit_callbacks
):
    event, regs = make_event(alice, players=5)
    users = with_emails(regs)
    rnd = published(alice, event, django_capture_on_commit_callbacks)

    made = notices(Notice.Kind.ROUND_PUBLISHED)
    assert sorted(n.user_id for n in made) == sorted(u.pk for u in users)
    assert not notices(user=alice).exists()  # the organiser does not play
    for match in rnd.matches.prefetch_related("seats__registration"):
        seats = list(match.seats.all())
        for seat in seats:
            notice = made.get(user=seat.registration.user)
            assert notice.data["table"] == match.table
            assert notice.url == f"/events/{event.slug}/my-match/"
            if match.is_bye:
                assert notice.data["bye"] is True
                assert services.as_dict(notice)["body"] == "You have a bye this round."
            else:
                (other,) = [s for s in seats if s.pk != seat.pk]
                assert notice.data["opponents"] == [other.registration.display_name]
                body = services.as_dict(notice)["body"]
                assert body == f"Table {match.table}, against {other.registration.display_name}."
    # One e-mail each, to their own address, naming the round and the event.
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in users)
    assert all("Round 1 of Test Open is published" in m.subject for m in mail.outbox)
    assert made.filter(mail=Notice.Mail.SENT).count() == 5

    # The task again (a retry, a redelivery): no second notice, no second mail.
    assert tasks.notify_round_published.apply(args=(rnd.pk,)).get() == 0
    assert notices(Notice.Kind.ROUND_PUBLISHED).count() == 5
    assert len(mail.outbox) == 5


def test_a_draft_round_tells_nobody(alice, worker, django_capture_on_commit_callbacks):
    event, _regs = make_event(alice, players=4)
    with django_capture_on_commit_callbacks(execute=True):
        rnd = pair_next_round(alice, event)
    assert tasks.notify_round_published.apply(args=(rnd.pk,)).get() == 0
    assert not Notice.objects.exists() and not mail.outbox


def test_opted_out_players_do_not_hear_on_that_channel(
    alice, worker, django_capture_on_commit_callbacks
):
    event, regs = make_event(alice, players=4)
    no_mail, no_site, nothing, everything = with_emails(regs)
    services.save_preferences(no_mail, ["round_published:email"], "")
    services.save_preferences(no_site, ["round_published:browser"], "")
    services.save_preferences(nothing, ["round_published:browser", "round_published:email"], "")
    published(alice, event, django_capture_on_commit_callbacks)

    assert notices(user=no_mail).get().mail == Notice.Mail.NONE
    assert notices(user=no_mail).get().in_browser
    assert not notices(user=no_site).get().in_browser
    assert not services.visible(no_site).exists()  # e-mail only: not on the site's list
    assert not notices(user=nothing).exists()
    assert sorted(m.to[0] for m in mail.outbox) == sorted([no_site.email, everything.email])


def test_a_player_without_an_address_hears_on_the_site_only(
    alice, worker, django_capture_on_commit_callbacks
):
    event, _regs = make_event(alice, players=2)
    published(alice, event, django_capture_on_commit_callbacks)
    assert notices().count() == 2
    assert set(notices().values_list("mail", flat=True)) == {Notice.Mail.NONE}
    assert not mail.outbox


def test_the_mail_comes_in_the_readers_language(alice, worker, django_capture_on_commit_callbacks):
    event, regs = make_event(alice, players=4)
    chose_ru, used_ru, chose_en, site_default = with_emails(regs)
    services.save_preferences(chose_ru, [], "ru")
    services.record_language(used_ru.pk, "ru-RU")  # last used the site in Russian
    services.save_preferences(chose_en, [], "en")
    services.record_language(chose_en.pk, "ru")  # a chosen language wins over the last used
    published(alice, event, django_capture_on_commit_callbacks)

    by_address = {m.to[0]: m for m in mail.outbox}
    for user in (chose_ru, used_ru):
        message = by_address[user.email]
        assert "Раунд 1" in message.subject and "Round 1" not in message.subject
        assert "Раунд 1" in message.alternatives[0][0]
    for user in (chose_en, site_default):
        assert "Round 1" in by_address[user.email].subject
    # Links in the mail lead back to the site.
    assert "http://localhost:8000/events/" in by_address[chose_en.email].body
    assert "/notifications/settings/" in by_address[chose_en.email].body


def test_the_language_falls_back_to_the_site_language(settings):
    assert services.language_for(None) == "en"
    settings.LANGUAGE_CODE = "ru"
    assert services.language_for(Preferences(language="", last_language="")) == "ru"
    assert services.language_for(Preferences(language="", last_language="en")) == "en"
    assert services.language_for(Preferences(language="xx", last_language="")) == "ru"


# ---------------------------------------------------------------- a result to confirm


def test_the_opponent_is_asked_to_confirm_a_reported_result(
    alice, worker, django_capture_on_commit_callbacks
):
    event, regs = make_event(alice, players=2)
    users = with_emails(regs)
    rnd = published(alice, event, django_capture_on_commit_callbacks)
    mail.outbox.clear()
    match = rnd.matches.get()
    first, second = [s.registration.user for s in match.seats.order_by("seat")]

    with django_capture_on_commit_callbacks(execute=True):
        report_result(first, match, [0, 0])
    confirm = notices(Notice.Kind.RESULT_TO_CONFIRM)
    assert [n.user_id for n in confirm] == [second.pk]
    first_name = match.seats.get(registration__user=first).registration.display_name
    assert services.as_dict(confirm.get())["title"] == (
        f"{first_name} reported the result of your match"
    )
    assert [m.to for m in mail.outbox] == [[second.email]]

    # The same report again is the same notice; the confirmation settles it, and nobody
    # is asked again.
    with django_capture_on_commit_callbacks(execute=True):
        report_result(first, match, [0, 0])
        confirm_result(second, Match.objects.get(pk=match.pk))
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINAL
    assert notices(Notice.Kind.RESULT_TO_CONFIRM).count() == 1
    assert len(mail.outbox) == 1
    assert tasks.notify_result_reported.apply(args=(match.pk,)).get() == 0
    assert set(users) == {first, second}


def test_a_changed_report_asks_again_and_a_dispute_asks_nobody(
    alice, worker, django_capture_on_commit_callbacks
):
    event, _regs = make_event(alice, players=2)
    rnd = published(alice, event, django_capture_on_commit_callbacks)
    match = rnd.matches.get()
    first, second = [s.registration.user for s in match.seats.order_by("seat")]
    with django_capture_on_commit_callbacks(execute=True):
        report_result(first, match, [0, 0])
    with django_capture_on_commit_callbacks(execute=True):
        report_result(first, match, [0, 1, 0])
    assert notices(Notice.Kind.RESULT_TO_CONFIRM, user=second).count() == 2
    with django_capture_on_commit_callbacks(execute=True):
        report_result(second, match, [1, 1])
    assert Match.objects.get(pk=match.pk).status == Match.Status.DISPUTED
    assert notices(Notice.Kind.RESULT_TO_CONFIRM).count() == 2
    assert not notices(Notice.Kind.RESULT_TO_CONFIRM, user=first).exists()


# ---------------------------------------------------------------- a decklist is due


def _system_with_decklists() -> registry.GameSystemInfo:
    for info in registry.all_systems():
        if info.needs_decklists and info.formats and not info.formats[0].limited:
            return info
    raise AssertionError("no game takes decklists")


def decklist_event(alice, players: int, prefix: str = "d", **fields):
    info = _system_with_decklists()
    event = create_event(
        alice, name="Deck Cup", game_system=info.key, swiss_rounds=3, best_of=3, **fields
    )
    regs = []
    for n in range(1, players + 1):
        user = User.objects.create_user(f"{prefix}{n}", email=f"{prefix}{n}@example.test")
        regs.append(register(event, user=user, display_name=f"Deck {n}"))
    return event, regs


def test_players_without_a_list_hear_the_deadline_is_near(
    alice, worker, django_capture_on_commit_callbacks
):
    now = timezone.now()
    event, (listed, unlisted, dropped, late) = decklist_event(
        alice, 4, decklist_deadline=now + timedelta(minutes=45)
    )
    Decklist.objects.create(registration=listed, text="a list")
    drop(dropped.user, dropped)
    bot = register(event, user=User.objects.create_user("botty"), display_name="Bot", is_bot=True)

    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.remind_decklists.apply().get() == 2
    told = notices(Notice.Kind.DECKLIST_DUE)
    assert sorted(n.user_id for n in told) == sorted([unlisted.user_id, late.user_id])
    assert not told.filter(user=bot.user).exists()
    notice = told.get(user=unlisted.user)
    assert notice.url == f"/events/{event.slug}/decklist/"
    assert services.as_dict(notice)["title"] == "Your decklist for Deck Cup is due soon"
    assert sorted(m.to[0] for m in mail.outbox) == ["d2@example.test", "d4@example.test"]

    # The beat comes again: nobody hears twice.
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.remind_decklists.apply().get() == 0
    assert len(mail.outbox) == 2


def test_no_reminder_far_from_the_deadline_nor_after_it_nor_once_locked(alice, worker):
    now = timezone.now()
    decklist_event(alice, 1, "far", decklist_deadline=now + timedelta(hours=3))
    decklist_event(alice, 1, "past", decklist_deadline=now - timedelta(minutes=5))
    locked, _regs = decklist_event(
        alice, 1, "locked", decklist_deadline=now + timedelta(minutes=10)
    )
    locked.decklists_locked = True
    locked.save(update_fields=["decklists_locked"])
    assert services.decklist_reminders(now) == []
    # The control: the same event unlocked is reminded of.
    locked.decklists_locked = False
    locked.save(update_fields=["decklists_locked"])
    assert len(services.decklist_reminders(now)) == 1


def test_without_a_deadline_the_lists_are_due_at_the_start(alice, worker):
    now = timezone.now()
    event, (reg,) = decklist_event(alice, 1, starts_at=now + timedelta(minutes=30))
    assert event.decklist_deadline is None
    (notice,) = services.decklist_reminders(now)
    assert notice.user_id == reg.user_id
    assert notice.data["due"] == event.starts_at.isoformat()


def test_a_moved_deadline_is_a_new_reminder(alice, worker):
    now = timezone.now()
    event, (reg,) = decklist_event(alice, 1, decklist_deadline=now + timedelta(minutes=50))
    assert len(services.decklist_reminders(now)) == 1
    event.decklist_deadline = now + timedelta(minutes=55)
    event.save(update_fields=["decklist_deadline"])
    assert len(services.decklist_reminders(now)) == 1
    assert len(services.decklist_reminders(now)) == 0
    assert Registration.objects.get(pk=reg.pk).user.notices.count() == 2


# ---------------------------------------------------------------- e-mail, once


def test_a_mail_is_sent_once_and_a_failed_one_is_tried_again(alice, bob, monkeypatch):
    bob.email = "bob@example.test"
    bob.save()
    notice = Notice.objects.create(
        user=bob,
        kind=Notice.Kind.ROUND_PUBLISHED,
        key="round:1",
        data={"event": "X", "round": 1, "table": 1, "opponents": ["Y"]},
        mail=Notice.Mail.PENDING,
    )
    from django.core.mail import EmailMultiAlternatives

    real_send = EmailMultiAlternatives.send

    def refuse(self, fail_silently=False):
        raise OSError("the mail server is down")

    monkeypatch.setattr(EmailMultiAlternatives, "send", refuse)
    assert services.mail_notice(notice.pk) is False
    notice.refresh_from_db()
    assert (notice.mail, notice.mail_attempts) == (Notice.Mail.PENDING, 1)
    assert services.lost_mails(timezone.now() + timedelta(seconds=1), 10) == [notice.pk]

    monkeypatch.setattr(EmailMultiAlternatives, "send", real_send)
    assert services.mail_notice(notice.pk) is True
    assert services.mail_notice(notice.pk) is False
    assert len(mail.outbox) == 1
    notice.refresh_from_db()
    assert notice.mail == Notice.Mail.SENT and notice.mailed_at is not None
    assert services.lost_mails(timezone.now() + timedelta(seconds=1), 10) == []


def test_a_mail_that_keeps_failing_is_given_up(bob, monkeypatch):
    bob.email = "bob@example.test"
    bob.save()
    notice = Notice.objects.create(
        user=bob, kind=Notice.Kind.DECKLIST_DUE, key="event:1:due:1", mail=Notice.Mail.PENDING
    )
    from django.core.mail import EmailMultiAlternatives

    monkeypatch.setattr(EmailMultiAlternatives, "send", lambda self, fail_silently=False: 1 / 0)
    for _ in range(services.MAX_MAIL_ATTEMPTS):
        services.mail_notice(notice.pk)
    notice.refresh_from_db()
    assert notice.mail == Notice.Mail.FAILED
    assert services.lost_mails(timezone.now() + timedelta(seconds=1), 10) == []


def test_a_reader_who_opts_out_before_the_mail_goes_gets_none(bob):
    bob.email = "bob@example.test"
    bob.save()
    notice = Notice.objects.create(
        user=bob, kind=Notice.Kind.DECKLIST_DUE, key="event:1:due:1", mail=Notice.Mail.PENDING
    )
    services.save_preferences(bob, ["decklist_due:email"], "")
    assert services.mail_notice(notice.pk) is False
    notice.refresh_from_db()
    assert notice.mail == Notice.Mail.NONE and not mail.outbox


def test_unknown_preferences_are_refused_and_change_nothing(bob):
    services.save_preferences(bob, ["round_published:email"], "ru")
    for muted, language in ((["round_published:pigeon"], ""), ([], "xx")):
        with pytest.raises(services.NoticeError):
            services.save_preferences(bob, muted, language)
    prefs = Preferences.objects.get(user=bob)
    assert (prefs.muted, prefs.language) == (["round_published:email"], "ru")


def test_the_sweep_queues_lost_mails_again(bob, worker, settings):
    from tournaments import sweeps

    settings.EMBEDDED = False
    bob.email = "bob@example.test"
    bob.save()
    notice = Notice.objects.create(
        user=bob, kind=Notice.Kind.DECKLIST_DUE, key="event:1:due:1", mail=Notice.Mail.PENDING
    )
    Notice.objects.filter(pk=notice.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    found = sweeps.sweep()
    assert found["notices"] == 1
    assert ("send_notice_email", (notice.pk,)) in worker
    assert len(mail.outbox) == 1
    assert sweeps.sweep()["notices"] == 0


# ---------------------------------------------------------------- pods and teams


def test_a_pod_tells_each_player_the_others_and_asks_those_yet_to_report(
    alice, worker, django_capture_on_commit_callbacks
):
    from tests.tournaments.test_pod_events import pod_event
    from tournaments.services.placements import report_placements

    event, _regs = pod_event(alice, players=4, size=4)
    rnd = published(alice, event, django_capture_on_commit_callbacks)
    match = rnd.matches.get()
    seats = list(match.seats.order_by("seat").select_related("registration__user"))
    for seat in seats:
        notice = notices(Notice.Kind.ROUND_PUBLISHED).get(user=seat.registration.user)
        assert sorted(notice.data["opponents"]) == sorted(
            s.registration.display_name for s in seats if s.pk != seat.pk
        )
    with django_capture_on_commit_callbacks(execute=True):
        report_placements(seats[0].registration.user, match, [1, 2, 3, 4])
    with django_capture_on_commit_callbacks(execute=True):
        report_placements(seats[1].registration.user, match, [1, 2, 3, 4])
    # After the first report the three others are asked; the second player agreeing asks
    # nobody again (the same result), and nobody is asked twice.
    asked = notices(Notice.Kind.RESULT_TO_CONFIRM)
    assert sorted(n.user_id for n in asked) == sorted(s.registration.user_id for s in seats[1:])


def test_every_member_of_a_team_hears(alice, make_user, worker, django_capture_on_commit_callbacks):
    from tournaments.services.starting import start_event
    from tournaments.services.teams import register_team

    event = create_event(alice, name="Pairs Cup", format="team_standard", swiss_rounds=2, best_of=1)
    people = [make_user(f"t{n}") for n in range(1, 5)]
    register_team(event, name="Red", members=people[:2], actor=people[0])
    register_team(event, name="Blue", members=people[2:], actor=people[2])
    start_event(alice, event)
    published(alice, event, django_capture_on_commit_callbacks)
    told = notices(Notice.Kind.ROUND_PUBLISHED)
    assert sorted(n.user_id for n in told) == sorted(p.pk for p in people)
    assert told.get(user=people[0]).data["opponents"] == ["Blue"]
