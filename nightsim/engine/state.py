"""The game state, the pending-decision frames it stacks, the event log and the draws.

`State.stack` holds the pending work as `Frame` objects (`simcore.frames.Frame`), the newest on
top. Each frame class names who decides (`seat`), what is legal (`legal`), how a choice applies
(`apply`) and what it does when it reaches the top of the stack (`step`: rest at its decision,
or run what needs no choice and pop itself, so the frame below resumes). The bottom frame is
always the turn player's turn action (`turn.TurnActions`). The frames live beside the rules
they carry out: `turn.py` (the turn actions, the discard action, the deal), `creatures.py`
(activations, abilities, seals) and `penalty.py` (the pure-legion penalty); `engine.py`
dispatches to them and `simcore.frames.drive` steps them.
"""
from __future__ import annotations

from functools import lru_cache

from simcore import frames
from simcore.actions import IllegalActionError  # noqa: F401  (the engine's error, exported here)

from ..rules import Rules
from .actions import (
    Decline,
    Devour,
    DiscardCard,
    Draw,
    PenaltyDiscard,
    Play,
    Reactivate,
    Scavenge,
    StartDiscard,
    StopDiscard,
    Take,
)

DRAW, START_DISCARD, STOP_DISCARD, DECLINE, REACTIVATE = Draw(), StartDiscard(), StopDiscard(), Decline(), Reactivate()
STAT_NAMES = ("completed", "pure_creatures", "cards_drawn", "cards_discarded", "seals_played")
TURN_ACTION = "turn action"
MAX_PLAYERS = 5  # Rules.players is 2..5


class Creature:
    """A nightmare creature: cards in build order (legs, torso, head) and an optional seal."""

    __slots__ = ("cards", "seal")

    def __init__(self, cards: list[int], seal: int = -1):
        self.cards = cards
        self.seal = seal

    @property
    def complete(self) -> bool:
        return len(self.cards) == 3

    def copy(self) -> "Creature":
        return Creature(self.cards[:], self.seal)

    def __repr__(self):
        return f"Creature({self.cards}{', seal=%d' % self.seal if self.seal >= 0 else ''})"


class Frame(frames.Frame):
    """One pending piece of work on `State.stack` (the protocol of `simcore.frames.Frame`).

    `seat` is the seat that decides at this frame. `decision` names the decision in the
    rulebook's words (None: the frame never rests, it only runs). `step(s, rng)` is called
    while the frame is on top: it returns True to rest at its decision (having set
    `s.current_player`), or runs what needs no choice and returns False (popping itself when
    it is done, so the frame below resumes). `legal(s)` lists the actions of its decision and
    `apply(s, a, rng)` carries one out; it returns True only when the game rests at a decision
    afterwards (`s.current_player` set), so that `engine.apply_legal` need not drive: the same
    seat's next choice (a discard pick, the discard action's first), or after a turn action that
    stacked nothing, the turn player's next action or the next turn player's first.
    """

    __slots__ = ()

    def held_cards(self) -> list:
        """Cards that are held by this frame and nowhere else (a Herald's turned-over cards)."""
        return []

    def copy(self, memo: dict) -> "Frame":
        """An independent copy for `State.clone`; `memo` maps id(creature) to its clone."""
        f = object.__new__(type(self))
        for cls in type(self).__mro__:
            for name in getattr(cls, "__slots__", ()):
                x = getattr(self, name)
                if isinstance(x, Creature):
                    x = memo.get(id(x)) or x.copy()
                elif isinstance(x, list):
                    x = x[:]
                setattr(f, name, x)
        return f

    def fields(self) -> dict:
        return {name: getattr(self, name) for cls in reversed(type(self).__mro__)
                for name in getattr(cls, "__slots__", ())}

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.fields().items())})"


class State:
    """Full game state. Mutable; `clone()` is a cheap structural copy.

    `creatures_view` caches the public, immutable copy of every creature that observations
    share (`observation:observe`), built from one copy per seat (`_seat_views`); the engine
    functions that change a creature or a seal call `creatures_changed(seat)`. Code that edits
    `state.creatures` by hand must call `state.creatures_changed()` too. `_discard_view` caches
    the discard pile as a tuple (valid while the pile is the same list, of the same length: the
    engine only appends to it, and a reshuffle starts a new list); `_open` caches `open_slots`.
    `_acts` is the deck's `ActionTable`, shared by clones.
    """

    __slots__ = (
        "rules", "table", "n", "deck", "discard", "hands", "creatures", "turn_player",
        "current_player", "actions_left", "turn_legion", "stack", "winner", "is_terminal",
        "timed_out", "turns", "decisions", "stats", "abilities", "legion_played", "log", "creatures_view",
        "_acts", "_seat_views", "_discard_view", "_open",
    )

    def clone(self) -> "State":
        s = State.__new__(State)
        s.rules, s.table, s.n, s._acts = self.rules, self.table, self.n, self._acts
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
        s.stack = [f.copy(memo) for f in self.stack]
        for name in ("turn_player", "current_player", "actions_left", "turn_legion", "winner",
                     "is_terminal", "timed_out", "turns", "decisions", "creatures_view"):
            setattr(s, name, getattr(self, name))
        s._seat_views, s._open = self._seat_views[:], self._open[:]
        s._discard_view = None
        s.stats = {k: v[:] for k, v in self.stats.items()}
        s.abilities = [a[:] for a in self.abilities]
        s.legion_played = [a[:] for a in self.legion_played]
        s.log = None if self.log is None else self.log[:]
        return s

    def creatures_changed(self, seat: int | None = None) -> None:
        """The creatures or seals of `seat` (None: of any seat) have changed: drop their cached copies."""
        self.creatures_view = None
        if seat is None:
            self._seat_views = [None] * self.n
            self._open = [None] * self.n
        else:
            self._seat_views[seat] = self._open[seat] = None

    def open_slots(self, p: int) -> tuple:
        """((creature index + 1, the body part it needs next), ...) of seat p's uncompleted creatures,
        and whether p may start a new creature (cached until p's creatures change)."""
        return self._open[p] or _open_entry(self, p)

    def complete_count(self, player: int) -> int:
        return [len(c.cards) for c in self.creatures[player]].count(3)

    @property
    def decision(self) -> str:
        """What the current decision is about, in the rulebook's words ("game over" at the end)."""
        if self.is_terminal:
            return "game over"
        return self.stack[-1].decision

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
            out += f.held_cards()
        return out

    def __repr__(self):
        return (f"State(turn={self.turns}, player={self.current_player}, decision={self.decision!r}, "
                f"deck={len(self.deck)}, discard={len(self.discard)}, hands={[len(h) for h in self.hands]}, "
                f"creatures={[[c.cards for c in crs] for crs in self.creatures]}, terminal={self.is_terminal})")


def _open_entry(s: State, p: int) -> tuple:
    """`State._open[p]`, rebuilt: `State.open_slots(p)` (`creatures._place` updates it itself)."""
    crs = s.creatures[p]
    slots = []
    for k, cr in enumerate(crs, 1):
        n = len(cr.cards)
        if n < 3:
            slots.append((k, n))
    o = s._open[p] = (tuple(slots), len(crs) < s._acts.limit)
    return o


# ---------------------------------------------------------------------------------------
# Interned action values (built once per process for a deck size and creature limit)
# ---------------------------------------------------------------------------------------
class ActionTable:
    """The interned action values of a deck, so legal lists are built without allocation:
    `plays[card][creature + 1][slot]` (creature -1: a new creature), `discard[card]`,
    `penalty[card]`, `take[owner][creature]`, `scavenge[owner][creature]`, `devour[creature]`;
    `limit` is the creature limit (`Rules.limit`)."""

    __slots__ = ("plays", "discard", "penalty", "take", "scavenge", "devour", "limit")

    def __init__(self, n_cards: int, limit: int):
        self.limit = limit
        self.plays = tuple(
            tuple(tuple(Play(c, None if k < 0 else k, s) for s in range(3)) for k in range(-1, limit))
            for c in range(n_cards)
        )
        self.discard = tuple(DiscardCard(c) for c in range(n_cards))
        self.penalty = tuple(PenaltyDiscard(c) for c in range(n_cards))
        self.take = tuple(tuple(Take(o, k) for k in range(limit)) for o in range(MAX_PLAYERS))
        self.scavenge = tuple(tuple(Scavenge(o, k) for k in range(limit)) for o in range(MAX_PLAYERS))
        self.devour = tuple(Devour(k) for k in range(limit))

    def __repr__(self):
        return f"ActionTable({len(self.discard)} cards)"


@lru_cache(maxsize=None)
def _action_table(n_cards: int, limit: int) -> ActionTable:
    return ActionTable(n_cards, limit)


def action_table(rules: Rules) -> ActionTable:
    """The interned actions of `rules`' deck and creature limit (built once per process)."""
    return _action_table(len(rules.table.cards), rules.limit)


# ---------------------------------------------------------------------------------------
# The event log
# ---------------------------------------------------------------------------------------
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
# Drawing
# ---------------------------------------------------------------------------------------
def _draw_card(s: State, rng, p: int) -> int:
    """Draw the top card; "when the deck runs out the discard pile is shuffled into a new
    deck" (publisher's rules). -1 when deck and discard are both empty."""
    if not s.deck:
        if not s.discard:
            return -1
        s.deck, s.discard = s.discard, []
        rng.shuffle(s.deck)   # the pile in its discard order, shuffled
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


def _index_of(crs: list, cr: Creature):
    """Position of creature `cr` in a seat's list (by identity), None if it is gone."""
    for k, x in enumerate(crs):
        if x is cr:
            return k
    return None
