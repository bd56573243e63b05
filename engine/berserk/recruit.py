"""The Preliminary Phase of Berserk up to the hosts: crystals, redeals, recruitment,
placement and host assignment (101, 207.4а, 210, 211.7, 212.3, 214, 302-307).

Pure functions over plain data (frozen dataclasses and mappings); each refuses an
illegal request with ``RecruitError`` (an ``IllegalAction`` carrying the rule number and
a message in English and Russian) and never changes its input.

* Crystals [101.1, 101.3, 302.1]: ``grant_crystals`` (23 gold + 22 silver each, granted
  once, in the Deal Step: D-5), ``set_turn_order`` (+1 silver to the second player,
  moved to the other player if the order swaps).
* Redeal [302.3]: ``DealStep``, ``redeal`` (1 gold; legal while gold ≥ 1, D-34; the first
  player finishes first, 302.3а; "keep" ends a player's redeals, 302.3б), ``keep``,
  ``redeal_cards`` (the dealt cards back into the deck, the same number dealt again).
* Recruitment [304]: ``Recruit`` and ``recruit`` (at most 15 cards, 304.5; one terrain,
  212.3; flyers at most 15 crystals in all, 211.7; Uniqueness; the element adjustment,
  304.6/304.6а with D-7; payment per D-6).
* Placement [305, 207.4а]: ``placement_zone``, ``place`` (one hidden card per cell of the
  zone, which grows when full, 305.3-305.4).
* Hosts [210, 214, 306.4-306.8, 307.1]: ``Piece``, ``legal_hosts``, ``check_host``,
  ``assign_host``, ``check_skip`` (306.7), ``next_assignment``, ``unhosted``.

Cells are named as in 207.5: "A1".."E3" for the first player's half, "A1'".."E3'" for
the second player's (″′″ and ″’″ are read as the prime too).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.berserk import board
from engine.berserk.config import DEFAULT, Config
from engine.berserk.model import EQUIPMENT_CLASSES, Card
from engine.core import rng
from engine.core.errors import IllegalAction


class RecruitError(IllegalAction):
    """A Preliminary Phase request the rules refuse: ``rule`` is the rule's number (or a
    digest decision, "D-6"), ``message`` the English text, ``message_ru`` the Russian."""

    def __init__(self, rule: str, message: str, message_ru: str = ""):
        super().__init__(message, rule)
        self.message_ru = message_ru or message

    def text(self, language: str = "en") -> str:
        return self.message_ru if language.startswith("ru") else self.message


def _refuse(rule: str, en: str, ru: str) -> RecruitError:
    return RecruitError(rule, en, ru)


def _name(card: Card) -> str:
    return card.name_en or card.name_ru or card.id


def _name_ru(card: Card) -> str:
    return card.name_ru or card.name_en or card.id


# ---------------------------------------------------------------- crystals (101, 302.1)


@dataclass(frozen=True)
class Crystals:
    gold: int
    silver: int


def grant_crystals(config: Config = DEFAULT) -> tuple[Crystals, Crystals]:
    """101.1, 302.1: each player's starting crystals, granted once, in the Deal Step (D-5)."""
    return (Crystals(config.gold, config.silver), Crystals(config.gold, config.silver))


def set_turn_order(
    crystals: Sequence[Crystals],
    first: int,
    *,
    previous_first: int | None = None,
    config: Config = DEFAULT,
) -> tuple[Crystals, Crystals]:
    """101.3: the second player (the one that is not ``first``) gets 1 more silver crystal.

    ``previous_first``: the first player before the order changed; the extra crystal then
    moves from the old second player to the new one (nothing changes if the order is the
    same). Players are 0 and 1.
    """
    if first not in (0, 1) or (previous_first is not None and previous_first not in (0, 1)):
        raise ValueError("players are 0 and 1")
    extra = config.second_player_silver
    out = list(crystals)
    second = 1 - first
    if previous_first is None:
        out[second] = replace(out[second], silver=out[second].silver + extra)
    elif previous_first != first:
        old_second = 1 - previous_first
        if out[old_second].silver < extra:
            raise _refuse(
                "101.3",
                "The second player's extra silver crystal is already spent.",
                "Дополнительный серебряный кристалл второго игрока уже потрачен.",
            )
        out[old_second] = replace(out[old_second], silver=out[old_second].silver - extra)
        out[second] = replace(out[second], silver=out[second].silver + extra)
    return (out[0], out[1])


# ---------------------------------------------------------------- redeal (302.3)


@dataclass(frozen=True)
class DealStep:
    """The redeals of the Deal Step: who moves first, each player's crystals, who kept."""

    first: int
    crystals: tuple[Crystals, Crystals]
    kept: tuple[bool, bool] = (False, False)
    redeals: tuple[int, int] = (0, 0)

    def may_redeal(self, player: int) -> bool:
        try:
            _check_redeal(self, player)
        except RecruitError:
            return False
        return True

    @property
    def done(self) -> bool:
        return all(self.kept)


def _check_turn(step: DealStep, player: int) -> None:
    if player not in (0, 1):
        raise ValueError("players are 0 and 1")
    if step.kept[player]:
        raise _refuse(
            "302.3б",
            "You have kept your cards: no more redeals in this game.",
            "Вы сохранили свои карты: больше пересдач в этой игре нет.",
        )
    if player != step.first and not step.kept[step.first]:
        raise _refuse(
            "302.3а",
            "The first player takes all their redeals first; wait until they keep.",
            "Первым все пересдачи берёт первый игрок; дождитесь, пока он сохранит карты.",
        )


def _check_redeal(step: DealStep, player: int) -> None:
    _check_turn(step, player)
    if step.crystals[player].gold < 1:
        raise _refuse(
            "302.3",
            "A redeal costs 1 gold crystal and you have none.",
            "Пересдача стоит 1 золотой кристалл, а у вас их нет.",
        )


def redeal(step: DealStep, player: int) -> DealStep:
    """302.3: ``player`` pays 1 gold for a redeal (legal while gold ≥ 1: D-34). The cards
    themselves: ``redeal_cards``."""
    _check_redeal(step, player)
    crystals = list(step.crystals)
    crystals[player] = replace(crystals[player], gold=crystals[player].gold - 1)
    redeals = list(step.redeals)
    redeals[player] += 1
    return replace(step, crystals=(crystals[0], crystals[1]), redeals=(redeals[0], redeals[1]))


def keep(step: DealStep, player: int) -> DealStep:
    """302.3б: ``player`` keeps the dealt cards and so gives up redealing in this game."""
    _check_turn(step, player)
    kept = list(step.kept)
    kept[player] = True
    return replace(step, kept=(kept[0], kept[1]))


def deal(deck: Sequence[str], n: int) -> tuple[list[str], list[str]]:
    """302.1: the top ``n`` cards (the start of ``deck``) into the Deal zone:
    (the deck left, the dealt cards)."""
    n = min(n, len(deck))
    return list(deck[n:]), list(deck[:n])


def redeal_cards(
    deck: Sequence[str], dealt: Sequence[str], rng_state: MutableSequence[int]
) -> tuple[list[str], list[str]]:
    """302.3: the dealt cards are shuffled back into the deck and as many are dealt
    again: (the deck, the new dealt cards). ``rng_state`` (``engine.core.rng``) advances."""
    pile = list(deck) + list(dealt)
    rng.shuffle(rng_state, pile)
    return deal(pile, len(dealt))


# ---------------------------------------------------------------- recruitment (304)


@dataclass(frozen=True)
class Recruited:
    """A card in the Recruit zone and what was paid for it."""

    card: Card
    gold: int
    silver: int
    x: int | None = None  # cost X or N+X: the X chosen [202.4]

    @property
    def cost(self) -> int:
        return self.gold + self.silver


@dataclass(frozen=True)
class Recruit:
    """One player's Recruit zone during the Recruitment Step (304).

    ``gold``/``silver``: the crystals the player has at the start of the step (after
    redeals). The element adjustment (304.6) is not spent but read from the cards: gold
    spent + max(0, elements − 2) ≤ gold + [one element] (D-7). ``bonus_used``: the +1 of
    one element was needed, when the adjustment is checked only on entry
    (``Config.revalidate_elements`` off).
    """

    gold: int
    silver: int
    cards: tuple[Recruited, ...] = ()
    bonus_used: bool = False

    @classmethod
    def start(cls, crystals: Crystals) -> Recruit:
        return cls(gold=crystals.gold, silver=crystals.silver)

    # The sums of the cards, cached on the zone, which never changes (frozen, of frozen
    # entries): the offered recruits check every Deal card against one zone.
    @functools.cached_property
    def gold_spent(self) -> int:
        return sum(r.gold for r in self.cards)

    @functools.cached_property
    def silver_spent(self) -> int:
        return sum(r.silver for r in self.cards)

    @functools.cached_property
    def elements(self) -> frozenset[str]:
        """304.6: the elements of the recruited cards; neutral cards do not count."""
        return frozenset(r.card.element for r in self.cards if r.card.element)

    @property
    def adjustment(self) -> int:
        """304.6: −1 gold per element beyond two, +1 if all cards share one element (or,
        checked on entry only, if that +1 was already spent: ``bonus_used``)."""
        count = len(self.elements)
        return (1 if count == 1 or self.bonus_used else 0) - max(0, count - 2)

    @property
    def gold_left(self) -> int:
        return self.gold + self.adjustment - self.gold_spent

    @property
    def silver_left(self) -> int:
        return self.silver - self.silver_spent

    @property
    def flyer_crystals(self) -> int:
        """211.7: crystals spent on flyers, either eliteness."""
        return sum(r.cost for r in self.cards if r.card.is_flyer)

    def card_list(self) -> list[Card]:
        return [r.card for r in self.cards]


def card_cost(card: Card, x: int | None = None) -> int:
    """The crystals a card costs: its cost, plus X for a cost X or N+X [202.4]."""
    if card.cost_x:
        if x is None or x < 0:
            raise _refuse(
                "202.4",
                f"Choose X (0 or more) for “{_name(card)}”.",
                f"Выберите X (0 или больше) для «{_name_ru(card)}».",
            )
        return card.cost + x
    if x is not None:
        raise _refuse(
            "202.4",
            f"“{_name(card)}” has no cost X.",
            f"У «{_name_ru(card)}» нет стоимости X.",
        )
    return card.cost


def _pay(card: Card, cost: int, recruit: Recruit, config: Config) -> tuple[int, int]:
    """D-6: elite cards with gold only; ordinary ones silver first, then gold. Paying
    silver first is never worse: gold pays everything silver pays, and more."""
    silver_left = recruit.silver_left
    if card.elite and config.elite_gold_only:
        return cost, 0
    silver = min(cost, max(0, silver_left))
    return cost - silver, silver


def _affordable(recruit: Recruit, config: Config) -> bool:
    """304.6, 304.6а, D-7: the whole Recruit zone within the crystals, adjustment included."""
    return _fits(recruit, recruit.gold_spent, recruit.silver_spent, len(recruit.elements), config)


def _fits(recruit: Recruit, gold_spent: int, silver_spent: int, count: int, config: Config) -> bool:
    """``_affordable`` of ``recruit``'s crystals and bonus with these crystals spent on
    cards of ``count`` elements."""
    if silver_spent > recruit.silver:
        return False
    penalty = max(0, count - 2)
    bonus = 1 if count == 1 or (not config.revalidate_elements and recruit.bonus_used) else 0
    return gold_spent + penalty <= recruit.gold + bonus


def check_recruit(
    recruit: Recruit, card: Card, *, x: int | None = None, config: Config = DEFAULT
) -> Recruited:
    """The entry ``card`` would make in the Recruit zone (its payment), or ``RecruitError``."""
    cards = recruit.card_list()
    name = _name(card)
    name_ru = _name_ru(card)
    if len(cards) >= config.squad_max:
        raise _refuse(
            "304.5",
            f"At most {config.squad_max} cards may be recruited.",
            f"В Набор можно поместить не больше {config.squad_max} карт.",
        )
    if card.type == "terrain" and sum(c.type == "terrain" for c in cards) >= config.terrain_max:
        raise _refuse(
            "212.3",
            f"A squad may have at most {config.terrain_max} terrain.",
            f"В отряд можно взять не больше {config.terrain_max} местности.",
        )
    # С: Уникальность: a card of the same name in the squad, either of them unique (the
    # names compared only where one is)
    key = _key(card)
    unique = card.has("uniqueness")
    if any((unique or c.has("uniqueness")) and _key(c) == key for c in cards):
        raise _refuse(
            "С: Уникальность",
            f"“{name}” is unique: the squad already has a card of that name.",
            f"«{name_ru}» — уникальная карта: в отряде уже есть карта с таким названием.",
        )
    cost = card_cost(card, x)
    if card.is_flyer and recruit.flyer_crystals + cost > config.flyers_max_crystals:
        raise _refuse(
            "211.7",
            f"At most {config.flyers_max_crystals} crystals may be spent on flying creatures; "
            f"{recruit.flyer_crystals} already are, and “{name}” costs {cost}.",
            f"На летающих существ можно потратить не больше {config.flyers_max_crystals} "
            f"кристаллов; уже потрачено {recruit.flyer_crystals}, а «{name_ru}» стоит {cost}.",
        )
    gold, silver = _pay(card, cost, recruit, config)
    entry = Recruited(card, gold, silver, x)
    # _affordable of the zone with the entry, from the zone's sums: the new zone itself
    # is built only to word a refusal (the offered recruits check every Deal card)
    elements = recruit.elements
    if card.element:
        elements = elements | {card.element}
    spent = (recruit.gold_spent + gold, recruit.silver_spent + silver)
    if _fits(recruit, *spent, len(elements), config):
        return entry
    after = type(recruit)(recruit.gold, recruit.silver, (*recruit.cards, entry), recruit.bonus_used)
    # Would it fit under the adjustment before it came? Then its element refuses it.
    before = after.gold_spent - recruit.adjustment <= recruit.gold
    before = before and after.silver_spent <= after.silver
    if before and after.elements != recruit.elements:
        if len(after.elements) > 2:
            raise _refuse(
                "304.6а",
                f"“{name}” would bring an element beyond two, and its gold crystal is lost "
                f"before the card enters: {recruit.gold_left} gold is not enough.",
                f"«{name_ru}» добавит стихию сверх двух, а золотой кристалл за неё теряется "
                f"до того, как карта попадёт в Набор: {recruit.gold_left} золотых не хватит.",
            )
        raise _refuse(
            "304.6",
            f"“{name}” would bring a second element and end the one-element bonus crystal, "
            "which is already spent.",
            f"«{name_ru}» добавит вторую стихию, и дополнительный золотой кристалл за одну "
            "стихию, уже потраченный, будет потерян.",
        )
    gold_left = recruit.gold_left
    if card.elite and config.elite_gold_only:
        raise _refuse(
            "D-6",
            f"“{name}” is elite and costs {cost} gold; you have {gold_left}.",
            f"«{name_ru}» — элитная карта и стоит {cost} золотых; у вас {gold_left}.",
        )
    silver_left = recruit.silver_left
    raise _refuse(
        "304.1",
        f"Not enough crystals for “{name}” (cost {cost}): you have {gold_left} gold "
        f"and {silver_left} silver.",
        f"Не хватает кристаллов на «{name_ru}» (стоимость {cost}): у вас "
        f"{gold_left} золотых и {silver_left} серебряных.",
    )


def recruit(
    zone: Recruit, card: Card, *, x: int | None = None, config: Config = DEFAULT
) -> Recruit:
    """304.1, 304.3: ``card`` (from the Deal zone) into the Recruit zone, paid for; the
    new zone, or ``RecruitError`` with the zone unchanged."""
    entry = check_recruit(zone, card, x=x, config=config)
    after = replace(zone, cards=(*zone.cards, entry))
    one_element = len(after.elements) == 1
    if not config.revalidate_elements and one_element and after.gold_spent > after.gold:
        after = replace(after, bonus_used=True)
    return after


@functools.lru_cache(maxsize=4096)
def _name_key(name_ru: str, name_en: str, card_id: str) -> str:
    return " ".join((name_ru or name_en or card_id).casefold().split())


def _key(card: Card) -> str:
    return _name_key(card.name_ru, card.name_en, card.id)


# ---------------------------------------------------------------- placement (305)


def normalise_cell(name: str) -> str:
    """A cell's name as the board writes it ("b2’" -> "B2'"); ``ValueError`` if none."""
    return board.cell_name(board.parse_cell(name))


def _names(cells: Iterable[board.Cell]) -> tuple[str, ...]:
    return tuple(board.cell_name(c) for c in sorted(cells, key=lambda c: (c[1], c[0])))


def _seat(first: bool) -> int:
    return board.FIRST if first else board.SECOND


# 207.4а, 305.3-305.4 (``engine.berserk.board``): the zone and the cells added to it.
PLACEMENT_STAGES: Mapping[bool, tuple[tuple[str, ...], ...]] = {
    first: tuple(_names(stage) for stage in board.PLACEMENT_STAGES[_seat(first)])
    for first in (True, False)
}


def placement_zone(first: bool, occupied: Iterable[str] = ()) -> tuple[str, ...]:
    """207.4а, 305.3-305.4: the cells the first (``first``) or second player may place on
    now, given their ``occupied`` cells (``engine.berserk.board.placement_zone``)."""
    filled = [board.parse_cell(c) for c in occupied]
    return _names(board.placement_zone(_seat(first), filled))


@dataclass(frozen=True)
class Placed:
    """A card placed on the Battlefield in the Placement Step: hidden [305.2]."""

    card: Card
    owner: int
    hidden: bool = True


def place(
    board: Mapping[str, Placed],
    card: Card,
    cell_name: str,
    *,
    owner: int,
    first: bool,
) -> dict[str, Placed]:
    """305.1-305.2: ``owner`` (the first player if ``first``) places ``card`` hidden on
    ``cell_name`` of their placement zone; the new board (cell -> ``Placed``)."""
    try:
        target = normalise_cell(cell_name)
    except ValueError:
        raise _refuse(
            "207.5", f"“{cell_name}” is not a cell.", f"«{cell_name}» — не клетка."
        ) from None
    if target in board:
        raise _refuse(
            "305.2",
            f"{target} already holds a card: one card per cell.",
            f"На клетке {target} уже есть карта: на клетку — не больше одной карты.",
        )
    own = [c for c, p in board.items() if p.owner == owner]
    zone = placement_zone(first, own)
    if target not in zone:
        stages = PLACEMENT_STAGES[first]
        rule = "305.3" if target in stages[1] else "305.4" if target in stages[2] else "207.4а"
        raise _refuse(
            rule,
            f"{target} is not in your placement zone now: {', '.join(_free(zone, board))}.",
            f"Клетки {target} сейчас нет в вашей зоне расстановки: "
            f"{', '.join(_free(zone, board))}.",
        )
    out = dict(board)
    out[target] = Placed(card, owner, hidden=True)
    return out


def _free(zone: Iterable[str], board: Mapping[str, Any]) -> list[str]:
    return [c for c in zone if c not in board]


def free_cells(board: Mapping[str, Placed], *, owner: int, first: bool) -> list[str]:
    """The cells ``owner`` may place their next card on."""
    own = [c for c, p in board.items() if p.owner == owner]
    return _free(placement_zone(first, own), board)


# ---------------------------------------------------------------- hosts (306.4-306.8)


@dataclass(frozen=True)
class Piece:
    """A card in a squad during the Reveal Step. ``cell``: its Battlefield cell, None in
    the Additional Zone; ``host``: the key of the card it is attached to."""

    card: Card
    owner: int
    cell: str | None = None
    hidden: bool = False
    host: str | None = None
    controller: int | None = None  # None: the owner

    @property
    def holder(self) -> int:
        return self.owner if self.controller is None else self.controller

    @property
    def kind(self) -> str:
        """ "equipment", "symbiote", "parasite", or "" for a card that takes no host."""
        if self.card.type == "equipment":
            return "equipment"
        if self.card.type == "creature" and self.card.subtype in ("symbiote", "parasite"):
            return self.card.subtype
        return ""


HOST_ORDER = ("equipment", "symbiote", "parasite")  # 306.4, 306.5, 306.6


def gives_host_stealth(card: Card) -> bool:
    """Whether the card's text gives its host Stealth (С: Скрытность, a static "grant" to
    "host"): such an equipment or symbiote may take a hidden host, an exception to D-23
    (decision 0053: Stealth acts only while its card is hidden, 415.2б, 415.5)."""
    return any(
        a.script is not None
        and a.script.get("do") == "grant"
        and a.script.get("target") == "host"
        and a.script["ability"].get("name") == "stealth"
        for a in card.abilities
    )


def _attached(pieces: Mapping[str, Piece], host: str, kind: str) -> list[Piece]:
    return [p for p in pieces.values() if p.host == host and p.kind == kind]


def _host_problem(
    pieces: Mapping[str, Piece], key: str, host_key: str, first_player: int
) -> RecruitError | None:
    piece = pieces[key]
    host = pieces.get(host_key)
    card = piece.card
    kind = piece.kind
    if host is None or host_key == key:
        return _refuse("306.4", "Choose a card in play as the host.", "Выберите хозяина в игре.")
    h = host.card
    hname, hname_ru = _name(h), _name_ru(h)
    if not h.is_creature:
        rule = "214.4" if kind == "equipment" else "210.3"
        return _refuse(
            rule,
            f"“{hname}” is not a creature and cannot be a host.",
            f"«{hname_ru}» — не существо и не может быть хозяином.",
        )
    if h.subtype or host.host is not None:
        if kind == "equipment":
            return _refuse(
                "214.6",
                f"“{hname}” cannot wear equipment: symbiotes, parasites and flying "
                "creatures never do.",
                f"«{hname_ru}» не может носить экипировку: симбиоты, паразиты и летающие "
                "существа её не носят.",
            )
        return _refuse(
            "210.3",
            f"“{hname}” has a subtype and cannot be a host: only a creature with no subtype can.",
            f"«{hname_ru}» имеет подтип и не может быть хозяином: им может быть только "
            "существо без подтипа.",
        )
    if host.cell is None:
        return _refuse(
            "210.3",
            f"“{hname}” is not on the Battlefield.",
            f"«{hname_ru}» не на Поле Боя.",
        )
    if host.hidden and not gives_host_stealth(card):  # D-23, save a Stealth giver (0053)
        return _refuse(
            "D-23",
            f"“{host.cell}” holds a hidden card, and a hidden card cannot be a host.",
            f"На {host.cell} скрытая карта, а скрытая карта не может быть хозяином.",
        )
    if kind == "parasite":
        if host.holder == piece.owner:
            return _refuse(
                "210.14",
                "A parasite's host is one of the opponent's cards.",
                "Хозяин паразита назначается среди карт противника.",
            )
        holder_seat = board.FIRST if host.holder == first_player else board.SECOND
        if not board.is_first_row(board.parse_cell(host.cell), holder_seat):
            return _refuse(
                "210.14",
                f"A parasite's host stands in the opponent's first row; {host.cell} is not.",
                f"Хозяин паразита должен стоять в первом ряду противника; {host.cell} — нет.",
            )
    elif host.holder != piece.owner:
        rule = "214.4" if kind == "equipment" else "210.2"
        return _refuse(
            rule,
            f"The host must be a creature of your own squad; “{hname}” is not.",
            f"Хозяином может быть только существо вашего отряда; «{hname_ru}» — нет.",
        )
    incorporeal = h.has("incorporeal")
    if kind == "equipment":
        if incorporeal:
            return _refuse(
                "214.6",
                f"“{hname}” is incorporeal and cannot wear equipment.",
                f"«{hname_ru}» бестелесно и не может носить экипировку.",
            )
        if not h.classes:
            return _refuse(
                "214.4а",
                f"“{hname}” has no class; only a creature with a class can wear equipment.",
                f"У «{hname_ru}» нет класса; носить экипировку может только существо с классом.",
            )
        mine = _equipment_classes(card)
        worn = {
            c for p in _attached(pieces, host_key, "equipment") for c in _equipment_classes(p.card)
        }
        clash = sorted(mine & worn)
        if clash:
            return _refuse(
                "214.5",
                f"“{hname}” already wears equipment of class {', '.join(clash)}.",
                f"«{hname_ru}» уже носит экипировку класса {', '.join(clash)}.",
            )
        return None
    if _attached(pieces, host_key, kind):
        return _refuse(
            "210.4",
            f"“{hname}” already has a {kind}: one per host.",
            f"У «{hname_ru}» уже есть {'симбиот' if kind == 'symbiote' else 'паразит'}: "
            "только один на хозяина.",
        )
    if incorporeal and not card.has("incorporeal"):
        return _refuse(
            "210.5",
            f"“{hname}” is incorporeal and can host only an incorporeal {kind}.",
            f"«{hname_ru}» бестелесно: его хозяином может быть только бестелесный "
            f"{'симбиот' if kind == 'symbiote' else 'паразит'}.",
        )
    return None


def _equipment_classes(card: Card) -> set[str]:
    return {c for c in card.classes if c in EQUIPMENT_CLASSES}


def _check_attachable(pieces: Mapping[str, Piece], key: str) -> Piece:
    if key not in pieces:
        raise _refuse("306.4", "No such card in play.", "Такой карты нет в игре.")
    piece = pieces[key]
    if not piece.kind:
        raise _refuse(
            "306.4",
            f"“{_name(piece.card)}” takes no host: only equipment, symbiotes and parasites do.",
            f"«{_name_ru(piece.card)}» не получает хозяина: его назначают только экипировке, "
            "симбиотам и паразитам.",
        )
    if piece.host is not None:
        raise _refuse(
            "306.8",
            f"“{_name(piece.card)}” already has a host.",
            f"У «{_name_ru(piece.card)}» уже есть хозяин.",
        )
    if piece.cell is None or piece.hidden:
        raise _refuse(
            "306.2",
            f"“{_name(piece.card)}” is not revealed on the Battlefield.",
            f"«{_name_ru(piece.card)}» не вскрыта на Поле Боя.",
        )
    return piece


def check_host(
    pieces: Mapping[str, Piece], key: str, host_key: str, *, first_player: int = 0
) -> None:
    """210.2-210.5, 210.13-210.14, 214.4-214.6, D-23: may the card ``key`` get the card
    ``host_key`` as its host? ``RecruitError`` if not. ``first_player``: which player (0 or
    1) moves first, whose half has the unprimed rows."""
    _check_attachable(pieces, key)
    problem = _host_problem(pieces, key, host_key, first_player)
    if problem is not None:
        raise problem


def legal_hosts(pieces: Mapping[str, Piece], key: str, *, first_player: int = 0) -> list[str]:
    """The keys of every legal host for the card ``key`` ([] if it takes none now)."""
    try:
        _check_attachable(pieces, key)
    except RecruitError:
        return []
    return [h for h in pieces if _host_problem(pieces, key, h, first_player) is None]


def assign_host(
    pieces: Mapping[str, Piece], key: str, host_key: str, *, first_player: int = 0
) -> dict[str, Piece]:
    """210.2, 214.4: the card ``key`` gets its host and moves onto the host's cell (its
    own cell is left empty); the new pieces."""
    check_host(pieces, key, host_key, first_player=first_player)
    out = dict(pieces)
    out[key] = replace(pieces[key], host=host_key, cell=pieces[host_key].cell)
    return out


def check_skip(pieces: Mapping[str, Piece], key: str, *, first_player: int = 0) -> None:
    """306.7: a player may not leave the card ``key`` without a host while it has a
    legal one."""
    hosts = legal_hosts(pieces, key, first_player=first_player)
    if hosts:
        card = pieces[key].card
        cells = ", ".join(sorted({pieces[h].cell or "" for h in hosts}))
        raise _refuse(
            "306.7",
            f"“{_name(card)}” must get a host while one is possible ({cells}).",
            f"Нельзя отказаться от назначения хозяина «{_name_ru(card)}», пока это возможно "
            f"({cells}).",
        )


def next_assignment(pieces: Mapping[str, Piece], *, first_player: int = 0) -> str | None:
    """306.4-306.8: the card that must get a host next (equipment, then symbiotes, then
    parasites; each time the first player's first), or None when the Reveal Step's
    assignments are over."""
    order = (first_player, 1 - first_player)
    for kind in HOST_ORDER:
        for player in order:
            for key, piece in pieces.items():
                if (
                    piece.kind == kind
                    and piece.owner == player
                    and legal_hosts(pieces, key, first_player=first_player)
                ):
                    return key
    return None


def unhosted(pieces: Mapping[str, Piece]) -> list[str]:
    """307.1: the equipment, symbiotes and parasites without a host, which die at the
    start of the Start of Battle Step."""
    return [k for k, p in pieces.items() if p.kind and p.host is None]
