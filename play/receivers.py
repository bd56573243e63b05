"""What the play app does when the tournament announces something (``tournaments.announce``),
connected in ``PlayConfig.ready()``."""

from __future__ import annotations

from tournaments import announce
from tournaments.models import Event, Match, Round


def deal_round(sender, round_id: int, **kwargs) -> None:
    """A round of an online event was published: a task deals game 1 of every match."""
    from play.tasks import start_round_games

    online = Round.objects.filter(pk=round_id, event__play_online=True).exists()
    if online:
        start_round_games.delay(round_id)


def end_settled_match(sender, match_id: int, source: str, **kwargs) -> None:
    """A match settled without the engine: its games still being played end."""
    from play.services.ending import end_match_sessions

    if source in (Match.Source.ENGINE, Match.Source.BYE):
        return
    if Event.objects.filter(rounds__matches__pk=match_id, play_online=True).exists():
        end_match_sessions(match_id)


def connect() -> None:
    announce.round_published.connect(deal_round, dispatch_uid="play.deal_round")
    announce.match_settled.connect(end_settled_match, dispatch_uid="play.end_settled_match")
