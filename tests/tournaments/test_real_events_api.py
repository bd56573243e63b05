"""A real event replayed through the REST API reproduces its published standings.

``sooner_state_18`` (see ``/work/shared/data/standings/README.md``) is run as an organiser
would run it: 18 players added, five Swiss rounds paired by hand exactly as they were played
(``PUT .../pairings/``), every result entered, the players who left dropped, a top 4 made by
the platform from its own standings, and a final the two finalists split 0-0-3 (allowed by
the event's ``allow_split_finals``). The standings the API then serves must equal the ones
melee.gg published: every rank, points, W/L/D and OMW/GW/OGW to the 8 published decimals,
and both finalists sharing first place.

The pure module is checked on the same file in ``test_standings_real_events.py``; this test
adds everything between the organiser and the snapshot: pairing, results, drops, the
bracket, the split and the snapshot served by the API.

Two facts of the file shape the replay:

* Round 4 records one match as 3-0. A best-of-3 refuses that score as impossible, so the
  event is created best-of-5, which accepts every score of the file (the tiebreakers only
  use the game counts).
* P005 finished fourth on tiebreakers after the Swiss but did not play the top 4 (P004, fifth,
  did). The organiser drops the players who do not take their place in the cut before the
  last Swiss result is in, so the cut made from the standings is the published one.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from rest_framework.test import APIClient

from tournaments.results import games_from_counts
from tournaments.standings import compute_standings

from .test_standings_real_events import DATA_DIR, load_event

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        not DATA_DIR.is_dir(),
        reason=f"real-event standings data not found at {DATA_DIR} (it is kept outside the repo)",
    ),
]

FIGURES = ("omw", "gw", "ogw")
RECORD = ("rank", "points", "wins", "losses", "draws")


class Organiser:
    """The organiser's API calls, each checked for its expected status."""

    def __init__(self, client: APIClient, slug: str):
        self.client = client
        self.slug = slug

    def url(self, tail: str) -> str:
        return f"/api/events/{self.slug}/{tail}"

    def call(self, method: str, tail: str, expected: int, data=None):
        response = getattr(self.client, method)(self.url(tail), data, format="json")
        assert response.status_code == expected, (method, tail, response.content)
        return response.json() if response.content else None


def _swiss_matches(event: dict) -> dict[int, list[dict]]:
    rounds = {rnd["round"]: list(rnd["matches"]) for rnd in event["rounds"]}
    for match in event.get("inferred_missing_matches", []):
        rounds[match["round"]].append(match)
    return rounds


def _players_in(matches: list[dict]) -> set[str]:
    return {m["p1"] for m in matches} | {m["p2"] for m in matches if m["p2"] is not None}


def _enter_results(organiser: Organiser, number: int, matches: list[dict], ids: dict, before_last):
    """Enter a round's results; ``before_last`` runs before the last one goes in."""
    pairings = organiser.call("get", f"rounds/{number}/pairings/", 200)
    by_players = {frozenset(s["registration"] for s in m["seats"]): m for m in pairings}
    played = [m for m in matches if m["p2"] is not None]
    for index, match in enumerate(played):
        a, b = ids[match["p1"]], ids[match["p2"]]
        row = by_players[frozenset((a, b))]
        wins = {a: match["p1_wins"], b: match["p2_wins"]}
        seat0, seat1 = (s["registration"] for s in row["seats"])
        games = games_from_counts(wins[seat0], wins[seat1], match["draws"])
        if index == len(played) - 1:
            before_last()
        organiser.call("post", f"matches/{row['id']}/result/", 200, {"games": games})


def test_sooner_state_18_published_standings_are_reproduced_through_the_api(alice):
    event, players, records = load_event("sooner_state_18.json")
    swiss = _swiss_matches(event)
    last_swiss = max(swiss)
    client = APIClient()
    client.force_authenticate(alice)

    created = client.post(
        "/api/events/",
        {
            "name": event["name"],
            "swiss_rounds": event["swiss_rounds"],
            "top_cut": 4,
            "best_of": 5,
            "tiebreaks": "melee",
            "allow_split_finals": True,
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    assert created.json()["allow_split_finals"] is True
    organiser = Organiser(client, created.json()["slug"])
    ids = {
        name: organiser.call("post", "registrations/add/", 201, {"display_name": name})["id"]
        for name in players
    }
    names = {pk: name for name, pk in ids.items()}
    organiser.call("post", "start/", 200)

    # Who leaves when: after their last Swiss round, or (declining the cut) before it is made.
    cut = _players_in(event["playoff_rounds"][0]["matches"])
    swiss_rows = compute_standings(players, [r for r in records if r.phase == "swiss"], "melee")
    lowest_cut_rank = max(row.rank for row in swiss_rows if row.player in cut)
    declined = [r.player for r in swiss_rows if r.rank < lowest_cut_rank and r.player not in cut]
    assert declined == ["P005"]

    def drop(name: str) -> None:
        organiser.call("post", f"registrations/{ids[name]}/drop/", 200, {"reason": "left"})

    for number in sorted(swiss):
        matches = swiss[number]
        organiser.call("post", "rounds/", 201)
        tables = [
            {"players": [ids[m["p1"]]] + ([ids[m["p2"]]] if m["p2"] else []), "table": table}
            for table, m in enumerate(matches, start=1)
        ]
        organiser.call("put", f"rounds/{number}/pairings/", 200, {"tables": tables})
        organiser.call("post", f"rounds/{number}/publish/", 200)
        if number == last_swiss:
            _enter_results(organiser, number, matches, ids, lambda: [drop(p) for p in declined])
        else:
            _enter_results(organiser, number, matches, ids, lambda: None)
            later = set().union(*(_players_in(swiss[n]) for n in swiss if n > number))
            for name in sorted(_players_in(matches) - later):
                drop(name)

    # The top cut is made from the platform's own standings: the published semifinals follow.
    for number, playoff in enumerate(event["playoff_rounds"], start=last_swiss + 1):
        organiser.call("post", "rounds/", 201)
        pairings = organiser.call("get", f"rounds/{number}/pairings/", 200)
        paired = {frozenset(names[s["registration"]] for s in m["seats"]) for m in pairings}
        assert paired == {frozenset((m["p1"], m["p2"])) for m in playoff["matches"]}
        organiser.call("post", f"rounds/{number}/publish/", 200)
        _enter_results(organiser, number, playoff["matches"], ids, lambda: None)

    assert organiser.call("get", "", 200)["status"] == "finished"
    standings = organiser.call("get", "standings/", 200)
    rows = {names[row["player"]]: row for row in standings["rows"]}
    problems = []
    for published in event["published_standings"]:
        row = rows[published["player"]]
        for key in RECORD:
            if row[key] != published[key]:
                problems.append(f"{published['player']} {key}: {row[key]} != {published[key]}")
        for key in FIGURES:
            error = abs(Fraction(repr(row[key])) - Fraction(repr(published[key])))
            if error > Fraction(1, 2 * 10**8):
                problems.append(f"{published['player']} {key}: {row[key]} != {published[key]}")
    assert not problems, "\n".join(problems)
    finishes = {name: row["playoff_finish"] for name, row in rows.items() if row["playoff_finish"]}
    assert finishes == {"P001": 1, "P002": 1, "P003": 3, "P004": 3}


def test_the_same_final_is_refused_as_a_draw_when_the_event_does_not_allow_a_split(alice):
    """Off by default: an elimination match must have a winner (the error of old)."""
    from tournaments.services.events import create_event
    from tournaments.services.players import register
    from tournaments.services.starting import start_event

    event = create_event(alice, name="No Splits", structure="single_elim", best_of=3)
    for name in ("Ann", "Ben"):
        register(event, display_name=name, actor=alice)
    start_event(alice, event)
    organiser = Organiser(APIClient(), event.slug)
    organiser.client.force_authenticate(alice)
    organiser.call("post", "rounds/", 201)
    organiser.call("post", "rounds/1/publish/", 200)
    final = organiser.call("get", "rounds/1/pairings/", 200)[0]

    refused = organiser.call("post", f"matches/{final['id']}/result/", 400, {"games": [None] * 3})

    assert "cannot end in a draw" in refused["detail"]
    assert organiser.call("get", f"matches/{final['id']}/", 200)["status"] == "pending"
