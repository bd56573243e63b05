"""What one player (or a spectator) may see of a state (1.4.2.5-1.4.2.7).

* Main Decks are hidden from everyone, their owner included: counts only (1.4.2.6,
  CK-045).
* Hands are private: their owner sees the cards, everyone else the count (1.4.2.7,
  CK-047); a spectator (``player=None``) sees counts only.
* Cards a player looked at with a "look_at_top" effect are shown to that player only
  (``looked_at``, top first, while they are still in the Main Deck); everyone else sees
  ``None``.
* Reinforcement Decks, Graveyards, Oblivion, the Battlefield and the Queue are open
  (1.4.5.3-1.4.5.8). A triggered ability in the Queue whose source card is in a Hand
  (cards in a Hand trigger, 6.3.9, AMB-29) shows everyone but that Hand's owner only
  its controller: ``source``, ``card`` and ``ability`` are None.
* A pending choice among replacement abilities (AMB-31) shows its chooser the event, the
  affected card and the sources, each only if that player may see it; everyone else
  sees who is choosing and for which event.
* The random generator's state is never shown (it would reveal every deck's order), and
  a pending decision's options are shown only to the player who decides.
"""

from __future__ import annotations

from typing import Any

from engine.core.protocol import State
from engine.voskhozhdenie.rules import Rules


def _card(game, iid: int) -> dict[str, Any]:
    c = game.s["cards"][iid]
    out = {"iid": iid, "card": c["card"], "owner": c["owner"]}
    if c["zone"] == "battlefield":
        out.update(
            strength=game.strength(iid),
            wounded=c["wounded"],
            ruined=c["ruined"],
            entered=c["entered"],
            tactic=c["tactic"],
            side=c["side"],
        )
    return out


def _visible(game, iid: int | None, player: int | None) -> bool:
    """May ``player`` see instance ``iid``? Not in a Main Deck, nor in another's hand."""
    if iid is None:
        return False
    c = game.s["cards"][iid]
    if c["zone"] == "main":
        return False
    return c["zone"] != "hand" or c["owner"] == player


def _replacement_view(game, pending: dict, player: int | None) -> dict[str, Any]:
    """AMB-31: the chooser sees the event, the affected card and each replacement's source
    (as far as they may see them: a card being drawn is still in the Main Deck); everyone
    else sees who is choosing, and for which event."""
    shown: dict[str, Any] = {
        "player": pending["player"],
        "kind": "replacement",
        "event": pending["event"],
    }
    if player != pending["player"]:
        return shown
    shown.update(id=pending["id"], options=list(pending["options"]), count=pending["count"])
    iid = pending["iid"]
    shown["affected"] = _card(game, iid) if _visible(game, iid, player) else None
    shown["replacements"] = [
        {
            "option": k,
            "source": _card(game, r["source"]) if _visible(game, r["source"], player) else None,
            "ability": r["ability"],
        }
        for k, r in enumerate(pending["replacements"])
    ]
    return shown


def build_view(system, state: State, player: int | None) -> dict[str, Any]:
    g = Rules(system, state, readonly=True)
    players = []
    for p in state["players"]:
        seat = p["seat"]
        mine = player is not None and player == seat
        players.append(
            {
                "seat": seat,
                "team": p["team"],
                "coins": p["coins"],
                "supply": g.supply(seat),
                "eliminated": p["eliminated"],
                "mulligans": p["mulligans"],
                "passed": p["passed"],
                "main_count": len(p["main"]),
                "hand_count": len(p["hand"]),
                "hand": [_card(g, i) for i in p["hand"]] if mine else None,
                "looked_at": (
                    [_card(g, i) for i in p.get("looked", ()) if i in p["main"]] if mine else None
                ),
                "reinforcement": [_card(g, i) for i in p["reinforcement"]],
                "graveyard": [_card(g, i) for i in p["graveyard"]],
                "oblivion": [_card(g, i) for i in p["oblivion"]],
            }
        )
    queue = []
    for obj in state["queue"]:
        if obj["kind"] == "card":
            entry = _card(g, obj["iid"])
            entry.update(kind="card", controller=obj["controller"], defender=obj["defender"])
        elif _visible(g, obj["source"], player):
            entry = {
                "kind": "ability",
                "source": obj["source"],
                "card": state["cards"][obj["source"]]["card"],
                "ability": obj["ab"],
                "controller": obj["controller"],
            }
        else:
            # A card in a Hand triggers too (6.3.9, AMB-29); its ability is in the open
            # Queue, but the card stays private (1.4.2.7): who it belongs to, not what.
            entry = {
                "kind": "ability",
                "source": None,
                "card": None,
                "ability": None,
                "controller": obj["controller"],
            }
        queue.append(entry)
    pending = state["pending"]
    if pending is not None and pending["kind"] == "replacement":
        pending = _replacement_view(g, pending, player)
    elif pending is not None:
        if player == pending["player"]:
            shown = {k: v for k, v in pending.items() if k not in ("op", "ctx")}
            if "op" in pending:
                shown["effect"] = pending["op"]["op"]  # what the choice is for
                shown["source"] = pending["ctx"].get("source")
            pending = shown
        else:
            pending = {"player": pending["player"], "kind": pending["kind"]}
    return {
        "system": "voskhozhdenie",
        "you": player,
        "stage": state["stage"],
        "round": state["round"],
        "step": state["step"],
        "turn_order": list(state["turn_order"]),
        "initiative": [list(map(list, rolls)) for rolls in state["initiative"]],
        "active": state["active"],
        "players": players,
        "battlefield": [_card(g, i) for i in state["battlefield"]],
        "queue": queue,
        "tactics": [
            {
                "id": t["id"],
                "iid": t["iid"],
                "card": state["cards"][t["iid"]]["card"] if t["iid"] is not None else None,
                "direct_attack": t["iid"] is None,
                "declarer": t["declarer"],
                "defender": t["defender"],
                "ready": t["ready"],
                "attack": list(t["attack"]),
                "defence": list(t["defence"]),
            }
            for t in state["tactics"]
        ],
        "pending": pending,
        "finished": state["finished"],
        "winners": list(state["winners"]),
        "draw": state["draw"],
        "eliminated": list(state["elim"]),
    }
