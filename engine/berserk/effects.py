"""Static effects of card scripts that act on the actions of other cards, and
"starts the battle with": what ``engine.berserk.game`` asks before a move, before a card
gains tokens, before a card goes to the Graveyard, and when a card enters Recruit.

* **Blocking a move** (``block_move``, 410.2а, 410.5): a static blocking ability is a
  replacement effect: the move declared by an enemy creature next to the source is removed
  without its effect, but its payment stands, so the creature still gains its movement
  marker (203.3) and counts as having moved (203.11).
* **Forbidding tokens** (``no_tokens``, 103.2): "cannot" beats "can": an enemy creature
  next to the source gains no tokens, whatever effect would give them.
* **Preventing wounds** (``prevent X``, 420): see ``after_preventions``.
* **Replacing a death** (``death_to_deck``, ``death_survive``, 419): "если … должно
  погибнуть, вместо этого …". ``death_to_deck``: the creature goes into its owner's deck,
  which is shuffled (206.3а, 206.10); ``death_survive`` (once per battle for its source):
  it stays with ``amount`` current lives, only its wounds changed (204.7). The replaced
  destruction never happened (419.4): no "при гибели" trigger, no Gift of Life; cards it
  hosted get the unblockable destruction of 210.7 when it goes to the deck. One replacement
  applies, once (419.5-419.6). If one player controls every candidate, that player chooses
  (419.6а); otherwise the owner of the action does (419.6б): the destruction is the dying
  card's own property (402.3), so its controller. The engine chooses for the chooser: a
  replacement the chooser controls before one of the opponent's, then the lowest card
  number.
* **Taking control** (an activated ``take_control`` script, 200.2б): the chosen enemy
  creature joins its new controller's squad where it stands; its owner stays (206.3а),
  cards it hosts keep their controller (210.12); a hosted card is no target, nor a unique
  card whose namesake is in the squad [С: Уникальность].
* **"Начинает бой с …"** (``starts_with``, 304.4, 419.1в): the card has its tokens or
  additional lives from the moment it enters the Recruit zone (kept in its player's
  ``starts``) and keeps them when it is placed.

Only revealed cards in play act (D-21); a card never blocks, forbids or replaces for
itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.core import rng
from engine.core.errors import IllegalAction
from engine.core.protocol import Event, State

if TYPE_CHECKING:
    from engine.berserk.game import Berserk

PREVENT = "prevent"
BLOCK_MOVE = "block_move"
NO_TOKENS = "no_tokens"
DEATH_TO_DECK = "death_to_deck"
DEATH_SURVIVE = "death_survive"
REPLACEMENTS = (DEATH_TO_DECK, DEATH_SURVIVE)
STATIC_EFFECTS = (BLOCK_MOVE, NO_TOKENS, PREVENT, *REPLACEMENTS)
STARTS_WITH = ("gain_token", "add_lives")  # what "starts_with" scripts give
_BASE_DEATHS = ("210.7", "307.1", "С: Инкарнация")


def _effect_scripts(system: Berserk) -> dict[str, tuple[dict, ...]]:
    """Card id -> its static scripts of ``STATIC_EFFECTS`` (only cards that have some)."""
    known = system.__dict__.get("_effect_scripts")
    if known is None:
        known = {}
        for card in system.info.values():
            found = tuple(
                a.script
                for a in card.abilities
                if a.script is not None
                and a.script.get("when") == "static"
                and a.script.get("do") in STATIC_EFFECTS
            )
            if found:
                known[card.id] = found
        system.__dict__["_effect_scripts"] = known
    return known


def _sources(system: Berserk, s: State, iid: int, do: str) -> list[tuple[int, dict]]:
    """The revealed cards in play (but ``iid``) whose ``do`` scripts reach ``iid``, a
    creature in play: (source, script), by card number."""
    scripts = _effect_scripts(system)
    if not scripts:
        return []
    pieces, cards = s["pieces"], s["cards"]
    q = pieces.get(str(iid))
    if q is None or not system.card(s, iid).is_creature:
        return []
    out = []
    for key, sq in pieces.items():
        found = scripts.get(cards[int(key)])
        if found is None:
            continue
        src = int(key)
        if src == iid or sq["hidden"]:
            continue
        for script in found:
            if script["do"] != do:
                continue
            target = script.get("target")
            own = sq["owner"] == q["owner"]
            if (target == "all_adjacent_own") != own:
                continue
            if system._adjacent(s, src, iid):
                out.append((src, script))
    out.sort(key=lambda f: f[0])
    return out


def move_blocker(system: Berserk, s: State, iid: int) -> int | None:
    """The card whose static ability blocks a move of ``iid`` now (410.5), if any."""
    found = _sources(system, s, iid, BLOCK_MOVE)
    return found[0][0] if found else None


def token_ban(system: Berserk, s: State, iid: int) -> int | None:
    """The card forbidding ``iid`` to gain tokens (103.2), if any."""
    found = _sources(system, s, iid, NO_TOKENS)
    return found[0][0] if found else None


def gain_tokens(
    system: Berserk, s: State, iid: int, amount: int, events: list[Event], **why: Any
) -> bool:
    """Put ``amount`` tokens on ``iid`` (104.5) unless a prohibition forbids it (103.2:
    the prohibition wins over the effect that gives them). ``why`` goes into the event
    ("rule" or "chain"). Whether the tokens were gained."""
    ban = token_ban(system, s, iid)
    if ban is not None:
        events.append({"type": "no_tokens", "card": iid, "source": ban, "rule": "103.2"})
        return False
    q = s["pieces"][str(iid)]
    q["tokens"] = q.get("tokens", 0) + amount
    events.append({"type": "token", "card": iid, "tokens": q["tokens"], **why})
    return True


def _applicable(system: Berserk, s: State, iid: int, src: int, script: dict) -> bool:
    if script["do"] == DEATH_SURVIVE:
        if s["pieces"][str(src)].get("spent"):
            return False  # once per battle
        q = s["pieces"][str(iid)]
        reserve = system.card(s, iid).lives + q.get("extra", 0) - q.get("negative", 0)
        return reserve >= script["amount"]  # 103.3: else it cannot be done
    return True


def death_replacements(system: Berserk, s: State, iid: int) -> list[tuple[int, dict]]:
    """The replacement effects that could replace the destruction of ``iid`` now."""
    return [
        (src, script)
        for do in REPLACEMENTS
        for src, script in _sources(system, s, iid, do)
        if _applicable(system, s, iid, src, script)
    ]


def choose_replacement(
    s: State, candidates: list[tuple[int, dict]], action_owner: int
) -> tuple[int, int, dict]:
    """419.6а-б: who chooses, and what: (chooser, source, script)."""
    controllers = {s["pieces"][str(src)]["owner"] for src, _ in candidates}
    chooser = controllers.pop() if len(controllers) == 1 else action_owner
    src, script = min(candidates, key=lambda c: (s["pieces"][str(c[0])]["owner"] != chooser, c[0]))
    return chooser, src, script


def replace_destruction(
    system: Berserk, s: State, iid: int, events: list[Event], rule: str
) -> bool:
    """Apply one replacement to the destruction of ``iid`` (419), if any applies: whether
    the destruction was replaced. The base-effect deaths of hosted and unhosted cards
    (210.7, 307.1, С: Инкарнация) are never replaced."""
    if rule in _BASE_DEATHS:
        return False
    candidates = death_replacements(system, s, iid)
    if not candidates:
        return False
    q = s["pieces"][str(iid)]
    chooser, src, script = choose_replacement(s, candidates, q["owner"])
    event = {
        "type": "replaced",
        "card": iid,
        "source": src,
        "chooser": chooser,
        "instead": script["do"],
        "rule": "419.6б"
        if len({s["pieces"][str(c)]["owner"] for c, _ in candidates}) > 1
        else "419.6а",
    }
    if script["do"] == DEATH_SURVIVE:
        s["pieces"][str(src)]["spent"] = True
        reserve = system.card(s, iid).lives + q.get("extra", 0) - q.get("negative", 0)
        q["wounds"] = reserve - script["amount"]  # 204.7: only the wounds change
        event["lives"] = script["amount"]
        events.append(event)
        return True
    del s["pieces"][str(iid)]
    owner = s["owner"][iid]
    deck = s["players"][owner]["deck"] = [*s["players"][owner]["deck"], iid]  # 206.3а
    rng.shuffle(s["rng"], deck)  # 206.10
    events.append(event)
    for key in sorted(s["pieces"], key=int):  # 210.7: the host left the Battlefield
        other = s["pieces"].get(key)
        if other is not None and other["host"] == iid:
            system._destroy(s, int(key), events, "210.7")
    return True


def control_problem(system: Berserk, s: State, seat: int, target: int) -> IllegalAction | None:
    """Why ``seat`` cannot take control of ``target`` now, or None: a hosted card changes
    controller only with its host's own rules (210.12, 214.8), so it is no target; a
    unique card cannot join a squad holding its namesake [С: Уникальность, Г: Взять в
    отряд]."""
    q = s["pieces"][str(target)]
    if q["host"] is not None:
        return IllegalAction(
            "A symbiote, parasite or equipment cannot be taken on its own.", rule="210.12"
        )
    card = system.card(s, target)
    if card.has("uniqueness") and any(
        o["owner"] == seat and system.card(s, int(k)).name_en == card.name_en
        for k, o in s["pieces"].items()
    ):
        return IllegalAction(
            f"Your squad already has {card.name_en}: it is unique.", rule="С: Уникальность"
        )
    return None


def take_control(s: State, target: int, seat: int, events: list[Event], **why: Any) -> None:
    """``seat`` takes control of ``target`` (200.2б): it joins that player's squad where
    it stands; its owner does not change (206.3а), and the cards it hosts stay under
    their controller (210.12)."""
    s["pieces"][str(target)]["owner"] = seat
    events.append({"type": "control", "card": target, "seat": seat, "rule": "200.2б", **why})


def after_preventions(system: Berserk, s: State, iid: int, amount: int) -> int:
    """The wounds of a non-magical attack on ``iid`` left after the prevention effects
    (420), applied after every modifier (420.5): first those of the player controlling
    ``iid`` (420.3б): its Armour, then that player's ``prevent`` sources by card number
    (420.3а: the engine's order for that player), then the opponent's. A ``prevent X``
    source stops the first X such wounds to each creature it reaches in each turn; what
    is not used stays for later (420.4)."""
    amount = system._after_armour(s, iid, amount)
    if amount <= 0:
        return amount
    found = _sources(system, s, iid, PREVENT)
    if not found:
        return amount
    seat = s["pieces"][str(iid)]["owner"]
    found.sort(key=lambda f: (s["pieces"][str(f[0])]["owner"] != seat, f[0]))
    for src, script in found:
        sq = s["pieces"][str(src)]
        turn, used = sq.get("prevented", (None, {}))
        if turn != s["turn"]:
            used = {}
        stopped = min(amount, script["amount"] - used.get(str(iid), 0))
        if stopped > 0:
            sq["prevented"] = [s["turn"], {**used, str(iid): used.get(str(iid), 0) + stopped}]
            amount -= stopped
        if amount <= 0:
            break
    return amount


def note_start(system: Berserk, s: State, seat: int, iid: int) -> None:
    """304.4: a card entering the Recruit zone gets its "начинает бой с …" tokens and
    additional lives (kept in ``players[seat]["starts"]``: [tokens, additional lives])."""
    tokens = lives = 0
    for a in system.card(s, iid).abilities:
        script = a.script
        if script is None or script.get("when") != "starts_with":
            continue
        if script["do"] == "gain_token":
            tokens += script["amount"]
        else:
            lives += script["amount"]
    if not tokens and not lives:
        return
    p = s["players"][seat]
    p["starts"] = {**p.get("starts", {}), str(iid): [tokens, lives]}  # replaced, never changed


def started_with(s: State, seat: int, iid: int) -> tuple[int, int]:
    """What a card of ``seat``'s Recruit zone starts the battle with: (tokens, lives)."""
    tokens, lives = s["players"][seat].get("starts", {}).get(str(iid), (0, 0))
    return tokens, lives


def on_place(s: State, seat: int, iid: int, piece: dict) -> None:
    """A placed card keeps what it starts the battle with (304.4)."""
    tokens, lives = started_with(s, seat, iid)
    if tokens:
        piece["tokens"] = tokens
    if lives:
        piece["extra"] += lives
