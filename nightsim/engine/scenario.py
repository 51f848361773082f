"""Hand-built positions: set up exactly the cards, creatures and turn you want to look at.

    from nightsim import Rules, apply_action, legal_actions
    from nightsim.engine.scenario import build_state, card_id, find_cards

    rules = Rules(players=2)
    c = lambda n: card_id(rules, n)              # printed card number -> card id
    s = build_state(
        rules,
        hands=[[c(31)], []],                     # seat 0 holds #31 (Homunculi head, Mocker)
        creatures=[[[c(3), c(2)]], []],          # seat 0 has one creature: legs #3, torso #2
        deck=[c(70), c(61)],                     # #61 is drawn first (top of the deck is LAST)
    )

Conventions (the same as the engine's `State`):

* Cards are card ids: the index of the card in `rules.table.cards` (`card_id` finds the id of
  a printed number; for the published deck the id is the number minus one, and the seals of
  `Rules(seals=True)` follow the 108 body cards).
* `deck` is listed bottom first: the **top of the deck is the LAST item**, so `deck=[a, b]`
  draws `b` first, exactly like `state.deck`. `discard` is listed oldest first (the last item
  is the top of the discard pile).
* `creatures[p]` is seat p's list of creatures, each a list of card ids in build order
  (legs, torso, head); a creature with three cards is complete.
* `seals` maps `(owner, creature_index)` to the seal card on that creature. The creature must
  be complete, except with `Rules(immunity="opponents_only")`, where an incarnated creature
  can lose cards to its owner's Devourer and keeps its seal.

Unused cards: every card of `rules.table` that is not placed anywhere is handled by `unused`:

* `"bottom"` (default): the unused cards go to the deck UNDER the cards you pass, in
  ascending card-id order from the top down (so the lowest unused id is drawn first once your
  cards are used up). The state then holds every card exactly once, like a real game
  (`sorted(state.all_cards()) == list(range(len(rules.table.cards)))`), and the top
  `len(deck)` cards of `state.deck` are exactly `deck`.
* `"discard"`: the unused cards go to the discard pile UNDER the cards you pass (ascending
  id, bottom first); the deck is exactly `deck`. Every card is still present once.
* `"remove"`: the unused cards are out of the game; the deck and the discard pile are exactly
  what you pass. Use it to reach an exhausted deck and discard pile; `state.all_cards()` then
  lists only the cards in play.

The state rests at a turn-action decision of `turn_player` (no ability or penalty is under
way), statistics start at zero, and with `record=True` the log starts with one "deal" event
holding the whole position you built (hands, deck, discard pile, creatures, seals, whose turn)
and one "turn_start" event.
"""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from ..rules import Rules
from .cards import ABILITIES, BODY_PARTS, LEGIONS, NO_ABILITY
from .state import Creature, State, _log_start
from .turn import blank_state

_UNUSED = ("bottom", "discard", "remove")

__all__ = ["build_state", "card_id", "find_cards"]


def _index(value, names: Sequence[str], what: str) -> int:
    """A legion / body part / ability given by index or (case-insensitive) name."""
    if isinstance(value, bool):
        raise ValueError(f"{what}: expected a name or index, got {value!r}")
    if isinstance(value, int):
        if 0 <= value < len(names):
            return value
        raise ValueError(f"{what}: index {value} out of range 0..{len(names) - 1}")
    if isinstance(value, str):
        v = value.strip().lower()
        aliases = {"leg": "legs", "feet": "legs"} if names is BODY_PARTS else {}
        v = aliases.get(v, v)
        for i, name in enumerate(names):
            if name.lower() == v:
                return i
        raise ValueError(f"{what}: unknown {value!r}; allowed: {', '.join(names)}")
    raise ValueError(f"{what}: expected a name or index, got {value!r}")


def card_id(rules: Rules, number: int) -> int:
    """The card id of the card with this printed number (seals: the numbers after the deck).

    Raises ValueError if no card of `rules.table` has that number.
    """
    if isinstance(number, bool) or not isinstance(number, int):
        raise ValueError(f"card number must be an integer, got {number!r}")
    try:
        return rules.table.number.index(number)
    except ValueError:
        lo, hi = min(rules.table.number), max(rules.table.number)
        raise ValueError(f"no card with number {number} in this deck (numbers {lo}..{hi})") from None


def find_cards(rules: Rules, legion=None, slot=None, ability=..., seal: bool | None = None,
               slots: Iterable | None = None) -> list[int]:
    """Card ids (ascending) of the cards matching every filter given.

    legion:  name ("Insektoids") or index; None = any.
    slot:    a body part ("legs", "torso", "head" or 0/1/2) the card can fill; None = any.
    slots:   the exact set of body parts the card can fill, e.g. ("torso", "head").
    ability: a name ("Herald") or index; None = cards WITHOUT an ability; omitted = any.
    seal:    True = seal cards only, False = body cards only, None = both.
    """
    t = rules.table
    lg = None if legion is None else _index(legion, LEGIONS, "legion")
    sl = None if slot is None else _index(slot, BODY_PARTS, "slot")
    exact = None if slots is None else tuple(sorted({_index(x, BODY_PARTS, "slots") for x in slots}))
    if ability is ...:
        ab = ...
    elif ability is None:
        ab = NO_ABILITY
    else:
        ab = _index(ability, ABILITIES, "ability")
    out = []
    for i, card in enumerate(t.cards):
        if lg is not None and card.legion != lg:
            continue
        if sl is not None and sl not in card.slots:
            continue
        if exact is not None and card.slots != exact:
            continue
        if ab is not ... and card.ability != ab:
            continue
        if seal is not None and card.seal != seal:
            continue
        out.append(i)
    return out


def build_state(
    rules: Rules,
    hands: Sequence[Sequence[int]] | None = None,
    creatures: Sequence[Sequence[Sequence[int]]] | None = None,
    deck: Sequence[int] = (),
    discard: Sequence[int] = (),
    turn_player: int = 0,
    actions_left: int | None = None,
    seals: Mapping[tuple[int, int], int] | None = None,
    turn_legion=None,
    turns: int = 0,
    unused: str = "bottom",
    record: bool = False,
) -> State:
    """A valid `State` holding exactly the given position (see the module docstring).

    hands[p]:       card ids in seat p's hand (default: every hand empty).
    creatures[p]:   seat p's creatures, each a list of card ids in build order.
    deck:           card ids, bottom first — the top of the deck is the LAST item.
    discard:        card ids, oldest first.
    turn_player:    whose turn it is; they are also the current player.
    actions_left:   actions the turn player still has (default: rules.actions_per_turn).
    seals:          {(owner, creature_index): seal card id}, on complete creatures (see above).
    turn_legion:    legion (name or index) of the card already played as an action this turn,
                    which binds a second play to the same legion; None = no play yet.
    turns:          completed turns so far (the turn cap `rules.max_turns` counts these).
    unused:         "bottom" | "discard" | "remove": where cards not placed anywhere go.
    record:         keep an event log in `state.log`.

    Raises ValueError if a card is used twice, a card id is unknown, a creature is not
    anatomically valid (the card in build position i must fit body-part slot i; seals are
    not body parts), a seat has more creatures than `rules.limit`, a seat already has
    `rules.creatures_to_win` complete creatures (the game would be over), or any other
    argument is out of range.
    """
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a nightsim.Rules, got {type(rules).__name__}")
    if unused not in _UNUSED:
        raise ValueError(f"unused={unused!r} is not allowed; allowed: {', '.join(_UNUSED)}")
    table = rules.table
    n_cards, n = len(table.cards), rules.players
    hands = [[] for _ in range(n)] if hands is None else hands
    creatures = [[] for _ in range(n)] if creatures is None else creatures
    seals = {} if seals is None else seals
    if len(hands) != n:
        raise ValueError(f"hands: {len(hands)} given for {n} players; give one list per seat")
    if len(creatures) != n:
        raise ValueError(f"creatures: {len(creatures)} given for {n} players; give one list per seat")

    used: dict[int, str] = {}

    def take(card, where: str) -> int:
        if isinstance(card, bool) or not isinstance(card, int):
            raise ValueError(f"{where}: card ids are integers, got {card!r}")
        if not 0 <= card < n_cards:
            raise ValueError(f"{where}: card id {card} out of range 0..{n_cards - 1}")
        if card in used:
            raise ValueError(f"{where}: card {card} ({table.cards[card]!r}) is used twice "
                             f"(already in {used[card]})")
        used[card] = where
        return int(card)

    new_hands = [[take(c, f"hands[{p}]") for c in h] for p, h in enumerate(hands)]
    new_creatures = []
    for p, crs in enumerate(creatures):
        if len(crs) > rules.limit:
            raise ValueError(f"creatures[{p}]: {len(crs)} creatures, but the creature limit is {rules.limit}")
        row = []
        for k, cards in enumerate(crs):
            where = f"creatures[{p}][{k}]"
            if not 1 <= len(cards) <= 3:
                raise ValueError(f"{where}: a creature has 1 to 3 cards, got {len(cards)}")
            ids = []
            for slot, c in enumerate(cards):
                c = take(c, where)
                if table.is_seal[c]:
                    raise ValueError(f"{where}: {table.cards[c]!r} is a seal, not a body part")
                if not table.fits[c][slot]:
                    raise ValueError(f"{where}: {table.cards[c]!r} cannot be the {BODY_PARTS[slot]} "
                                     f"(build position {slot})")
                ids.append(c)
            row.append(Creature(ids))
        new_creatures.append(row)
    for key, seal in dict(seals).items():
        try:
            owner, k = key
        except (TypeError, ValueError):
            raise ValueError(f"seals: keys are (owner, creature_index) pairs, got {key!r}") from None
        if not (isinstance(owner, int) and 0 <= owner < n and isinstance(k, int)
                and 0 <= k < len(new_creatures[owner])):
            raise ValueError(f"seals: no creature {key!r}")
        seal = take(seal, f"seals[{key!r}]")
        if not table.is_seal[seal]:
            raise ValueError(f"seals[{key!r}]: {table.cards[seal]!r} is not a seal card")
        cr = new_creatures[owner][k]
        if not cr.complete and rules.immunity != "opponents_only":
            # only reachable with immunity="opponents_only": the owner's Devourer ate a card
            raise ValueError(f"seals[{key!r}]: a seal goes on a complete creature only")
        cr.seal = seal
    new_deck = [take(c, "deck") for c in deck]
    new_discard = [take(c, "discard") for c in discard]
    rest = [c for c in range(n_cards) if c not in used]
    if unused == "bottom":
        new_deck = rest[::-1] + new_deck  # lowest unused id nearest the top
    elif unused == "discard":
        new_discard = rest + new_discard

    for p in range(n):
        if sum(1 for cr in new_creatures[p] if cr.complete) >= rules.creatures_to_win:
            raise ValueError(f"creatures[{p}]: {rules.creatures_to_win} complete creatures — "
                             f"the game would already be over")
    if isinstance(turn_player, bool) or not isinstance(turn_player, int) or not 0 <= turn_player < n:
        raise ValueError(f"turn_player={turn_player!r} is not a seat 0..{n - 1}")
    if actions_left is None:
        actions_left = rules.actions_per_turn
    if (isinstance(actions_left, bool) or not isinstance(actions_left, int)
            or not 1 <= actions_left <= rules.actions_per_turn):
        raise ValueError(f"actions_left={actions_left!r} is not allowed; allowed: 1..{rules.actions_per_turn}")
    legion = -1 if turn_legion is None else _index(turn_legion, LEGIONS, "turn_legion")
    if isinstance(turns, bool) or not isinstance(turns, int) or not 0 <= turns < rules.max_turns:
        raise ValueError(f"turns={turns!r} is not allowed; allowed: 0..{rules.max_turns - 1}")

    s = blank_state(rules, record, turn_player)
    s.deck, s.discard = new_deck, new_discard
    s.hands, s.creatures = new_hands, new_creatures
    s.actions_left = actions_left
    s.turn_legion = legion
    s.turns = turns
    _log_start(s)
    missing = [name for name in State.__slots__ if not hasattr(s, name)]
    if missing:  # the engine grew a field this helper does not know about yet
        raise RuntimeError(f"nightsim.engine.scenario.build_state does not set State.{', '.join(missing)}")
    return s
