"""What the play app does when the tournament announces something (``tournaments.announce``),
connected in ``PlayConfig.ready()``."""

from __future__ import annotations

from play.models import GameSession
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


class OnlineGames:
    """The games of a match being played online, as the tournament reaches them
    (``announce.OnlineGames``)."""

    OPEN = (GameSession.Status.WAITING, GameSession.Status.RUNNING)

    def _open(self, match_id: int):
        return GameSession.objects.filter(match_id=match_id, status__in=self.OPEN).order_by("pk")

    def lock_open(self, match_id: int) -> list[tuple[int, int | None]]:
        return list(self._open(match_id).select_for_update().values_list("pk", "game_number"))

    def open_games(self, match_id: int) -> list[tuple[int, int | None]]:
        return list(self._open(match_id).values_list("pk", "game_number"))

    def renumber(self, match_id: int, number: int) -> None:
        from play.services.payloads import push_on_commit
        from play.services.sessions import session_seats

        for session in self._open(match_id):
            if session.game_number == number:
                continue
            session.game_number = number
            session.save(update_fields=["game_number", "updated_at"])
            push_on_commit(session, session_seats(session))  # the players see the new number


def connect() -> None:
    announce.answer_online_games(OnlineGames())
    announce.round_published.connect(deal_round, dispatch_uid="play.deal_round")
    announce.match_settled.connect(end_settled_match, dispatch_uid="play.end_settled_match")
