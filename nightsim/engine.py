"""The Nightmarium engine: state, legal actions, and the rules that advance the state.

One decision = one step (OpenSpiel style). Everything that needs no choice (dealing,
drawing, reshuffling, activating an ability without a choice, ending a turn) runs inside
`apply_action`; the state then rests at the next decision, whose owner is
`state.current_player` — which may be a victim choosing a penalty discard out of turn.

Pending work lives on `state.stack`, a list of small frames (lists whose first item is the
frame kind). Completing a creature pushes its activation on top of whatever was running,
which gives the seed's nested completion for free: "If an ability means that you complete
another creature, you pause the activation of the abilities of the first creature ...".
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from .actions import (
    Decline,
    Devour,
    DiscardCard,
    Draw,
    PenaltyDiscard,
    Play,
    PlaySeal,
    Reactivate,
    Scavenge,
    StartDiscard,
    StopDiscard,
    Take,
)
from .cards import ABILITIES, BODY_PARTS, DEVOURER, EXECUTIONER, HERALD, LEGIONS, MOCKER, SCAVENGER, WEEPER
from .rules import Rules

# frame kinds
F_DISCARD, F_ACT, F_HERALD, F_MOCKER, F_EXEC, F_SCAV, F_DEVOUR, F_PENALTY, F_SEAL = range(9)
# an activation frame: [F_ACT, player, creature, queue (popped from the end), source, owner, started]
ACT_COMPLETION, ACT_SEAL = "completion", "seal"

DECISION_NAMES = {
    None: "turn action",
    F_DISCARD: "discard choice",
    F_HERALD: "Herald placement",
    F_MOCKER: "Mocker play",
    F_EXEC: "Executioner target",
    F_SCAV: "Scavenger target",
    F_DEVOUR: "Devourer target",
    F_PENALTY: "pure-legion penalty discard",
    F_SEAL: "seal re-activation",
}

DRAW, START_DISCARD, STOP_DISCARD, DECLINE, REACTIVATE = Draw(), StartDiscard(), StopDiscard(), Decline(), Reactivate()
STAT_NAMES = ("completed", "pure_creatures", "cards_drawn", "cards_discarded", "seals_played")


class IllegalActionError(ValueError):
    """A policy (or caller) chose an action that is not legal in the current state."""


class Creature:
    """A nightmare creature: cards in build order (legs, torso, head) and an optional seal."""

    __slots__ = ("cards", "seal")

    def __init__(self, cards: list[int], seal: int = -1):
        self.cards = cards
        self.seal = seal

    @property
    def complete(self) -> bool:
        return len(self.cards) == 3

    @property
    def incarnated(self) -> bool:
        return self.seal >= 0

    def copy(self) -> "Creature":
        return Creature(self.cards[:], self.seal)

    def __repr__(self):
        return f"Creature({self.cards}{', seal=%d' % self.seal if self.seal >= 0 else ''})"


class State:
    """Full game state. Mutable; `clone()` is a cheap structural copy.

    `creatures_view` caches the public, immutable copy of every creature that observations
    share (`observation:observe`); the engine functions that change a creature or a seal
    reset it to None (`_place`, `_play_seal`, `_resolve_target`). Code that edits
    `state.creatures` by hand must reset it too.
    """

    __slots__ = (
        "rules", "table", "n", "deck", "discard", "hands", "creatures", "turn_player",
        "current_player", "actions_left", "turn_legion", "stack", "winner", "is_terminal",
        "timed_out", "turns", "decisions", "stats", "abilities", "legion_played", "log", "creatures_view",
    )

    def clone(self) -> "State":
        s = State.__new__(State)
        s.rules, s.table, s.n = self.rules, self.table, self.n
        s.deck, s.discard = self.deck[:], self.discard[:]
        s.hands = [h[:] for h in self.hands]
        memo = {}
        s.creatures = []
        for crs in self.creatures:
            row = []
            for c in crs:
                memo[id(c)] = cc = c.copy()
                row.append(cc)
            s.creatures.append(row)
        s.stack = [_copy_frame(f, memo) for f in self.stack]
        for name in ("turn_player", "current_player", "actions_left", "turn_legion", "winner",
                     "is_terminal", "timed_out", "turns", "decisions", "creatures_view"):
            setattr(s, name, getattr(self, name))
        s.stats = {k: v[:] for k, v in self.stats.items()}
        s.abilities = [a[:] for a in self.abilities]
        s.legion_played = [a[:] for a in self.legion_played]
        s.log = None if self.log is None else self.log[:]
        return s

    def complete_count(self, player: int) -> int:
        return sum(1 for c in self.creatures[player] if len(c.cards) == 3)

    @property
    def decision(self) -> str:
        """What the current decision is about, in the rulebook's words ("game over" at the end)."""
        if self.is_terminal:
            return "game over"
        return DECISION_NAMES[_decision_kind(self)]

    def card(self, card_id: int):
        return self.table.cards[card_id]

    def all_cards(self) -> list[int]:
        """Every card id wherever it is (deck, discard, hands, creatures, seals, revealed)."""
        out = self.deck + self.discard
        for h in self.hands:
            out += h
        for crs in self.creatures:
            for c in crs:
                out += c.cards
                if c.seal >= 0:
                    out.append(c.seal)
        for f in self.stack:
            if f[0] == F_HERALD:
                out += f[2]
        return out

    def __repr__(self):
        return (f"State(turn={self.turns}, player={self.current_player}, decision={self.decision!r}, "
                f"deck={len(self.deck)}, discard={len(self.discard)}, hands={[len(h) for h in self.hands]}, "
                f"creatures={[[c.cards for c in crs] for crs in self.creatures]}, terminal={self.is_terminal})")


def _copy_frame(frame: list, memo: dict) -> list:
    f = list(frame)
    for i, x in enumerate(f):
        if isinstance(x, Creature):
            f[i] = memo.get(id(x)) or x.copy()
        elif isinstance(x, list):
            f[i] = x[:]
    return f


# ---------------------------------------------------------------------------------------
# Interned action values (built once per process for a deck size and creature limit)
# ---------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def _plays(n_cards: int, limit: int) -> tuple:
    """_plays(...)[card][creature + 1][slot] -> Play; creature -1 means a new creature."""
    return tuple(
        tuple(tuple(Play(c, None if k < 0 else k, s) for s in range(3)) for k in range(-1, limit))
        for c in range(n_cards)
    )


@lru_cache(maxsize=None)
def _card_actions(n_cards: int) -> tuple:
    return (tuple(DiscardCard(c) for c in range(n_cards)), tuple(PenaltyDiscard(c) for c in range(n_cards)))


# ---------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------
def as_generator(seed) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    return np.random.default_rng(seed)


def new_game(rules: Rules, seed, record: bool = False) -> State:
    """Seed: "Shuffle all the Night Terror cards and deal five cards to each player."

    `seed` is an int, a SeedSequence or a Generator; seat 0 is the starting player.
    """
    rng = as_generator(seed)
    table = rules.table
    s = State.__new__(State)
    s.rules, s.table, s.n = rules, table, rules.players
    s.deck = [int(i) for i in rng.permutation(len(table.cards))]
    s.discard = []
    s.hands = [[] for _ in range(s.n)]
    for p in range(s.n):
        for _ in range(rules.hand_size):
            s.hands[p].append(s.deck.pop())
    for _ in range(rules.last_seat_extra_cards):        # design variant: compensate the last seat
        s.hands[s.n - 1].append(s.deck.pop())
    s.creatures = [[] for _ in range(s.n)]
    s.creatures_view = None
    s.turn_player = s.current_player = 0
    s.actions_left = rules.actions_per_turn - rules.first_turn_fewer_actions   # design variant: reduced first turn
    s.turn_legion = -1
    s.stack = []
    s.winner = None
    s.is_terminal = s.timed_out = False
    s.turns = s.decisions = 0
    s.stats = {k: [0] * s.n for k in STAT_NAMES}
    s.abilities = [[0] * 6 for _ in range(s.n)]
    s.legion_played = [[0] * 4 for _ in range(s.n)]
    s.log = [] if record else None
    _log_start(s)
    return s


def _event(s: State, kind: str, player: int | None = None, **data) -> None:
    """Append an event; `player` is the seat that acts (default: the current player)."""
    if s.log is not None:
        data.update(event=kind, turn=s.turns, player=s.current_player if player is None else player)
        s.log.append(data)


def _log_start(s: State) -> None:
    """The first events of a log: the whole starting position, then the first turn's start."""
    if s.log is None:
        return
    _event(s, "deal", player=s.turn_player, hands=[h[:] for h in s.hands], deck=s.deck[:],
           discard=s.discard[:], creatures=[[cr.cards[:] for cr in crs] for crs in s.creatures],
           seals=[[cr.seal for cr in crs] for crs in s.creatures], turn_player=s.turn_player,
           actions_left=s.actions_left, turn_legion=s.turn_legion)
    _event(s, "turn_start", player=s.turn_player, actions=s.actions_left)


# ---------------------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------------------
def _decision_kind(s: State):
    return s.stack[-1][0] if s.stack else None


def _placements(s: State, p: int, card: int, out: list) -> None:
    """Seed: start with the legs, then the torso, finally the head; anatomically correct;
    no more creatures than the number needed to win."""
    fits = s.table.fits[card]
    row = _plays(len(s.table.cards), s.rules.limit)[card]
    crs = s.creatures[p]
    for k, cr in enumerate(crs):
        n = len(cr.cards)
        if n < 3 and fits[n]:
            out.append(row[k + 1][n])
    if fits[0] and len(crs) < s.rules.limit:
        out.append(row[0][0])


def _seal_targets(s: State, p: int, card: int, out: list) -> None:
    """Seal: "placed on a completed nightmare creature, which is now incarnated"."""
    owners = range(s.n) if s.rules.seal_target == "any" else (p,)
    for o in owners:
        for k, cr in enumerate(s.creatures[o]):
            if len(cr.cards) == 3 and cr.seal < 0:
                out.append(PlaySeal(card, o, k))


def _turn_actions(s: State) -> list:
    p = s.turn_player
    hand = s.hands[p]
    table = s.table
    out = [DRAW]
    if len(hand) >= s.rules.min_discard:
        out.append(START_DISCARD)
    legion = s.turn_legion
    seal_restricted = s.rules.seal_counts_as_play
    for c in hand:
        seal = table.is_seal[c]
        if legion >= 0 and table.legion[c] != legion and (seal_restricted or not seal):
            continue  # "the two cards you play must both belong to the same legion"
        if seal:
            _seal_targets(s, p, c, out)
        else:
            _placements(s, p, c, out)
    return out


def _immune(s: State, target: Creature, target_owner: int, source_owner: int) -> bool:
    """Seal: "the incarnated creature is immune, so that it cannot be affected by other creatures"."""
    if target.seal < 0:
        return False
    return s.rules.immunity == "all_other_creatures" or target_owner != source_owner


def _exec_targets(s: State, p: int) -> list:
    """Executioner: the top card of another player's creature (complete or not)."""
    return [Take(o, k) for o in range(s.n) if o != p
            for k, cr in enumerate(s.creatures[o]) if not _immune(s, cr, o, p)]


def _scav_targets(s: State, p: int) -> list:
    """Scavenger: an uncompleted creature belonging to an opponent."""
    return [Scavenge(o, k) for o in range(s.n) if o != p
            for k, cr in enumerate(s.creatures[o]) if len(cr.cards) < 3 and not _immune(s, cr, o, p)]


def _devour_targets(s: State, p: int, source: Creature) -> list:
    """Devourer: the top card of one of your *other* creatures."""
    return [Devour(k) for k, cr in enumerate(s.creatures[p])
            if cr is not source and not _immune(s, cr, p, p)]


def _hand_placements(s: State, p: int, allow_seals: bool) -> list:
    out = []
    for c in s.hands[p]:
        if s.table.is_seal[c]:
            if allow_seals:
                _seal_targets(s, p, c, out)
        else:
            _placements(s, p, c, out)
    return out


def _herald_placements(s: State, frame: list) -> list:
    p, out = frame[1], []
    for c in frame[2]:
        if s.table.is_seal[c]:
            _seal_targets(s, p, c, out)
        else:
            _placements(s, p, c, out)
    return out


def legal_actions(s: State) -> list:
    """Every legal action of the current decision (empty only when the game is over)."""
    if s.is_terminal:
        return []
    if not s.stack:
        return _turn_actions(s)
    f = s.stack[-1]
    kind = f[0]
    if kind == F_DISCARD:
        discard_card = _card_actions(len(s.table.cards))[0]
        picked = f[2]
        out = [discard_card[c] for c in s.hands[f[1]] if c not in picked]
        if len(picked) >= s.rules.min_discard:
            out.append(STOP_DISCARD)
        return out
    if kind == F_PENALTY:
        penalty = _card_actions(len(s.table.cards))[1]
        hand = s.hands[f[2][0]]
        if f[4]:
            legion, leg = f[1], s.table.legion
            return [penalty[c] for c in hand if leg[c] == legion]
        return [penalty[c] for c in hand]
    if kind == F_HERALD:
        return _herald_placements(s, f)
    if kind == F_MOCKER:
        return _hand_placements(s, f[1], s.rules.mocker_plays_seals)
    if kind == F_EXEC:
        return _exec_targets(s, f[1])
    if kind == F_SCAV:
        out = _scav_targets(s, f[1])
        if s.rules.scavenger_optional:
            out.append(DECLINE)
        return out
    if kind == F_DEVOUR:
        return _devour_targets(s, f[1], f[2])
    if kind == F_SEAL:
        return [REACTIVATE, DECLINE]
    raise AssertionError(f"no decision at frame {f!r}")  # F_ACT never rests on top


# ---------------------------------------------------------------------------------------
# Applying an action
# ---------------------------------------------------------------------------------------
def apply_action(s: State, action, rng) -> None:
    """Validate `action` against the legal actions, apply it, and advance to the next decision."""
    legal = legal_actions(s)
    if action not in legal:
        raise IllegalActionError(
            f"illegal action {action!r} for player {s.current_player} at decision "
            f"{s.decision!r}; legal: {legal!r}"
        )
    apply_legal(s, action, as_generator(rng))


def apply_legal(s: State, a, rng: np.random.Generator) -> None:
    """Apply an action already known to be legal (the game loop's fast path)."""
    if s.log is not None:
        s.log.append({"event": "decision", "turn": s.turns, "player": s.current_player, "decision": s.decision,
                      "action": repr(a), "text": describe_action(s, a), "action_type": type(a).__name__,
                      "action_args": a._asdict()})
    s.decisions += 1
    t = type(a)
    if not s.stack:
        s.actions_left -= 1
        if t is Draw:
            _draw_action(s, rng)
        elif t is StartDiscard:
            s.stack.append([F_DISCARD, s.turn_player, []])
        elif t is Play:
            s.turn_legion = s.table.legion[a.card]
            _play_from_hand(s, s.turn_player, a)
        else:  # PlaySeal
            if s.rules.seal_counts_as_play:
                s.turn_legion = s.table.legion[a.card]
            s.hands[s.turn_player].remove(a.card)
            _play_seal(s, s.turn_player, a)
    else:
        f = s.stack[-1]
        kind = f[0]
        if kind == F_DISCARD:
            if t is DiscardCard:
                f[2].append(a.card)
            else:
                s.stack.pop()
                _discard_and_draw(s, f[1], f[2], rng)
        elif kind == F_PENALTY:
            _penalty_discard(s, f, a.card)
        elif kind == F_HERALD:
            f[2].remove(a.card)
            if t is PlaySeal:
                _event(s, "herald_place", f[1], card=a.card, action=repr(a), owner=a.owner, creature=a.creature,
                       slot=None)
                _play_seal(s, f[1], a)
            else:
                _event(s, "herald_place", f[1], card=a.card, action=repr(a), owner=f[1], creature=a.creature,
                       slot=a.slot)
                _place(s, f[1], a.card, a.creature)
        elif kind == F_SEAL:
            s.stack.pop()
            if t is Reactivate:
                s.stack.append([F_ACT, f[1], f[2], f[3], ACT_SEAL, f[4], False])
            else:
                _event(s, "reactivation_declined", f[1], card=f[2].seal, owner=f[4],
                       creature=_index_of(s.creatures[f[4]], f[2]))
        elif kind == F_MOCKER:
            s.stack.pop()
            if t is PlaySeal:
                s.hands[f[1]].remove(a.card)
                _play_seal(s, f[1], a)
            else:
                _play_from_hand(s, f[1], a)
        else:
            s.stack.pop()
            _resolve_target(s, f, a)
    _advance(s, rng)


def _draw_card(s: State, rng, p: int) -> int:
    """Draw the top card; "when the deck runs out the discard pile is shuffled into a new
    deck" (publisher's rules). -1 when deck and discard are both empty."""
    if not s.deck:
        if not s.discard:
            return -1
        pile = s.discard
        s.deck = [pile[i] for i in rng.permutation(len(pile))]
        s.discard = []
        if s.log is not None:
            _event(s, "reshuffle", p, cards=len(s.deck), deck=s.deck[:])
    return s.deck.pop()


def _draw_into_hand(s: State, p: int, k: int, rng) -> int:
    got = 0
    hand = s.hands[p]
    for _ in range(k):
        c = _draw_card(s, rng, p)
        if c < 0:
            break
        hand.append(c)
        got += 1
    s.stats["cards_drawn"][p] += got
    return got


def _draw_action(s: State, rng) -> None:
    """Action 1: "You draw a card from the common deck" (nothing if no card is left)."""
    got = _draw_into_hand(s, s.turn_player, 1, rng)
    _event(s, "draw", s.turn_player, cards=s.hands[s.turn_player][-got:] if got else [])


def _discard_and_draw(s: State, p: int, picked: list, rng) -> None:
    """Action 2: discard X cards from your hand, draw X/2 (rounded down)."""
    hand = s.hands[p]
    for c in picked:
        hand.remove(c)
    s.discard.extend(picked)
    s.stats["cards_discarded"][p] += len(picked)
    got = _draw_into_hand(s, p, len(picked) // 2, rng)
    _event(s, "discard_draw", p, discarded=picked[:], drew=hand[len(hand) - got:] if got else [])


def _play_from_hand(s: State, p: int, a: Play) -> None:
    s.hands[p].remove(a.card)
    _event(s, "play", p, card=a.card, creature=a.creature, slot=a.slot)
    _place(s, p, a.card, a.creature)


def _place(s: State, p: int, card: int, k) -> None:
    """Put a body card on creature k of player p (None: a new creature), then check completion."""
    s.creatures_view = None
    crs = s.creatures[p]
    if k is None:
        cr = Creature([card])
        crs.append(cr)
    else:
        cr = crs[k]
        cr.cards.append(card)
    s.legion_played[p][s.table.legion[card]] += 1
    if len(cr.cards) == 3:
        _complete(s, p, cr)


def _complete(s: State, p: int, cr: Creature) -> None:
    """Seed: "As soon as you complete a creature, i.e. add the head, you activate the
    creature's abilities ... first the head, then the torso and finally the feet", and
    a pure-legion creature makes the opponents discard."""
    s.stats["completed"][p] += 1
    leg = s.table.legion
    a, b, c = cr.cards
    pure = leg[a] == leg[b] == leg[c]
    if pure:
        s.stats["pure_creatures"][p] += 1
    if s.log is not None:
        _event(s, "complete", p, owner=p, cards=cr.cards[:], pure=pure, creature=_index_of(s.creatures[p], cr))
    if s.rules.win_timing == "immediate" and _check_win(s, p):
        return
    act = [F_ACT, p, cr, [a, b, c], ACT_COMPLETION, p, False]  # queue popped from the end: head, torso, legs
    if pure:
        pen = [F_PENALTY, leg[a], [(p + i) % s.n for i in range(1, s.n)], 0, False]
        if s.rules.penalty_timing == "before_abilities":
            s.stack += (act, pen)
        else:
            s.stack += (pen, act)
    else:
        s.stack.append(act)


def _check_win(s: State, p: int) -> bool:
    """"The first player to build five complete creatures wins." """
    if s.complete_count(p) >= s.rules.creatures_to_win:
        s.winner = p
        s.is_terminal = True
        _event(s, "win", p, winner=p)
        return True
    return False


def _play_seal(s: State, p: int, a: PlaySeal) -> None:
    """Seal: the creature is incarnated; "Du må aktivere mareridtsvæsnets egenskaber en gang til"
    for its parts of the seal's legion: a decision (Reactivate / Decline) by default, at once
    with `seal_reactivation_optional=False`. Parts without an ability have nothing to activate."""
    cr = s.creatures[a.owner][a.creature]
    cr.seal = a.card
    s.creatures_view = None
    s.stats["seals_played"][p] += 1
    table = s.table
    legion = table.legion[a.card]
    _event(s, "seal", p, card=a.card, owner=a.owner, creature=a.creature)
    queue = [c for c in cr.cards if table.legion[c] == legion and table.ability[c] >= 0]
    if queue:
        if s.rules.seal_reactivation_optional:
            s.stack.append([F_SEAL, p, cr, queue, a.owner])
        else:
            s.stack.append([F_ACT, p, cr, queue, ACT_SEAL, a.owner, False])


def _penalty_discard(s: State, f: list, card: int) -> None:
    victim = f[2][0]
    s.hands[victim].remove(card)
    s.discard.append(card)
    s.stats["cards_discarded"][victim] += 1
    _event(s, "penalty_discard", victim, victim=victim, card=card)
    f[3] -= 1
    if f[3] == 0:
        f[2].pop(0)


def _resolve_target(s: State, f: list, a) -> None:
    """Executioner / Scavenger / Devourer, after the target is chosen."""
    p, kind = f[1], f[0]
    s.creatures_view = None
    if kind == F_EXEC:
        crs = s.creatures[a.owner]
        cr = crs[a.creature]
        card = cr.cards.pop()
        s.hands[p].append(card)
        _drop_if_empty(s, crs, cr)
        _event(s, "executioner", p, victim=a.owner, card=card, creature=a.creature)
    elif kind == F_SCAV:
        if type(a) is Decline:
            _event(s, "scavenger_declined", p)
            return
        crs = s.creatures[a.owner]
        cr = crs.pop(a.creature)
        s.discard.extend(cr.cards)
        if cr.seal >= 0:
            s.discard.append(cr.seal)
        _event(s, "scavenger", p, victim=a.owner, cards=cr.cards[:], creature=a.creature, seal=cr.seal)
        cr.cards.clear()
    else:
        crs = s.creatures[p]
        cr = crs[a.creature]
        card = cr.cards.pop()
        s.discard.append(card)
        _drop_if_empty(s, crs, cr)
        _event(s, "devourer", p, card=card, creature=a.creature)


def _drop_if_empty(s: State, crs: list, cr: Creature) -> None:
    if not cr.cards:
        crs.remove(cr)
        if cr.seal >= 0:
            s.discard.append(cr.seal)
            cr.seal = -1


# ---------------------------------------------------------------------------------------
# Advancing to the next decision
# ---------------------------------------------------------------------------------------
def _advance(s: State, rng) -> None:
    """Run everything that needs no decision; stop at the next decision or the game's end."""
    stack = s.stack
    while not s.is_terminal:
        if not stack:
            if s.rules.win_timing == "end_of_action" and _check_win(s, s.turn_player):
                return
            if s.actions_left > 0:
                s.current_player = s.turn_player
                return
            _end_turn(s)
            continue
        f = stack[-1]
        kind = f[0]
        if kind == F_ACT:
            _activation_step(s, f, rng)
        elif kind == F_PENALTY:
            if _penalty_pending(s, f):
                s.current_player = f[2][0]
                return
            stack.pop()
        elif kind == F_HERALD:
            if _herald_placements(s, f):
                s.current_player = f[1]
                return
            stack.pop()
            if f[2]:
                s.discard.extend(f[2])
                _event(s, "herald_discard", f[1], cards=f[2][:])
        else:
            s.current_player = f[1]
            return


def _end_turn(s: State) -> None:
    s.turns += 1
    if s.turns >= s.rules.max_turns:
        s.is_terminal = s.timed_out = True
        _event(s, "timeout")
        return
    s.turn_player = s.current_player = (s.turn_player + 1) % s.n
    s.actions_left = s.rules.actions_per_turn
    s.turn_legion = -1
    _event(s, "turn_start", s.turn_player, actions=s.actions_left)


def _penalty_pending(s: State, f: list) -> bool:
    """Seed: "the opponents must discard a card of that legion from their hand. If they do
    not have a card of that legion, they must discard two cards." Victims go clockwise."""
    if f[3] > 0:
        return True
    victims, legion, leg = f[2], f[1], s.table.legion
    while victims:
        hand = s.hands[victims[0]]
        if any(leg[c] == legion for c in hand):
            f[3], f[4] = 1, True
            return True
        if hand:
            f[3], f[4] = min(2, len(hand)), False
            return True
        victims.pop(0)
    return False


def _activation_step(s: State, f: list, rng) -> None:
    """Activate the next ability of the creature on frame f (head, torso, legs in turn).

    Seed: "If it is not possible to activate an ability, this immediately stops the
    activation of the rest of the creature's abilities." A card that has left the creature
    meanwhile (a nested Devourer ate it) has no ability to activate and is skipped.
    """
    p, cr, queue = f[1], f[2], f[3]
    ability = s.table.ability
    if not f[6]:
        f[6] = True
        if s.log is not None:
            _event(s, "activation_start", p, owner=f[5], creature=_index_of(s.creatures[f[5]], cr),
                   cards=cr.cards[:], abilities=[c for c in reversed(queue) if ability[c] >= 0], source=f[4])
    stopped = False
    while queue:
        card = queue.pop()
        ab = ability[card]
        if ab < 0 or card not in cr.cards:
            continue
        ok = _start_ability(s, p, cr, ab, rng)
        if ok:
            s.abilities[p][ab] += 1
            _event(s, "ability", p, ability=ABILITIES[ab], card=card)
            if s.stack[-1] is not f:
                return  # a decision frame was pushed above this activation
        else:
            _event(s, "ability_failed", p, ability=ABILITIES[ab], card=card)
            queue.clear()
            stopped = True
    if s.stack and s.stack[-1] is f:
        s.stack.pop()
        if s.log is not None:
            _event(s, "activation_end", p, owner=f[5], creature=_index_of(s.creatures[f[5]], cr),
                   source=f[4], stopped=stopped)


def _index_of(crs: list, cr: Creature):
    """Position of creature `cr` in a seat's list (by identity), None if it is gone."""
    for k, x in enumerate(crs):
        if x is cr:
            return k
    return None


def _start_ability(s: State, p: int, cr: Creature, ab: int, rng) -> bool:
    """Carry out an ability, or push the decision it needs. False if it cannot be carried out."""
    if ab == WEEPER:  # "Draw two cards from the deck."
        got = _draw_into_hand(s, p, 2, rng)
        if got and s.log is not None:
            hand = s.hands[p]
            _event(s, "weeper_draw", p, cards=hand[len(hand) - got:])
        return got > 0
    if ab == HERALD:  # "Turn over the top two cards of the common deck and play them"
        revealed = []
        for _ in range(2):
            c = _draw_card(s, rng, p)
            if c < 0:
                break
            revealed.append(c)
        if not revealed:
            return False
        _event(s, "herald_turn", p, cards=revealed[:])
        if not s.rules.herald_plays_seals:  # a seal is no body part: it cannot be played
            seals = [c for c in revealed if s.table.is_seal[c]]
            if seals:
                revealed = [c for c in revealed if not s.table.is_seal[c]]
                s.discard.extend(seals)
                _event(s, "herald_discard", p, cards=seals)
        _event(s, "herald_reveal", p, cards=revealed[:])
        s.stack.append([F_HERALD, p, revealed])
        return True
    if ab == MOCKER:  # "Play a card from your hand."
        if not _hand_placements(s, p, s.rules.mocker_plays_seals):
            return False
        s.stack.append([F_MOCKER, p])
        return True
    if ab == EXECUTIONER:
        if not _exec_targets(s, p):
            return False
        s.stack.append([F_EXEC, p])
        return True
    if ab == SCAVENGER:
        if not _scav_targets(s, p):
            return False
        s.stack.append([F_SCAV, p])
        return True
    if ab == DEVOURER:
        if not _devour_targets(s, p, cr):
            return False
        s.stack.append([F_DEVOUR, p, cr])
        return True
    raise AssertionError(ab)


def describe_action(s: State, a) -> str:
    """A rulebook-like sentence for an action in state s (for logs and errors)."""
    t = type(a)
    cards = s.table.cards
    if t is Play:
        where = "a new creature" if a.creature is None else f"creature {a.creature}"
        return f"play {cards[a.card]!r} as {BODY_PARTS[a.slot]} on {where}"
    if t is PlaySeal:
        return f"seal creature {a.creature} of player {a.owner} with {cards[a.card]!r}"
    if t in (DiscardCard, PenaltyDiscard):
        return f"{'discard' if t is DiscardCard else 'give up'} {cards[a.card]!r}"
    if t is Take:
        return f"take the top card of creature {a.creature} of player {a.owner}"
    if t is Scavenge:
        return f"discard the uncompleted creature {a.creature} of player {a.owner}"
    if t is Devour:
        return f"discard the top card of own creature {a.creature}"
    if t is Reactivate:
        return "activate the sealed creature's parts of the seal's legion again"
    if t is Decline:
        return "decline the seal's re-activation" if s.stack and s.stack[-1][0] == F_SEAL else "decline the Scavenger"
    return {Draw: "draw a card", StartDiscard: "start discarding cards",
            StopDiscard: "stop choosing: discard them and draw half"}.get(t, repr(a))


__all__ = [
    "State", "Creature", "IllegalActionError", "new_game", "legal_actions", "apply_action",
    "apply_legal", "describe_action", "LEGIONS",
]
