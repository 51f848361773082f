"""The deal and the players' turns: "On your turn you may take two actions": draw a card, discard
cards to draw half as many, or play a card (a body part, or with Legions of Horrors a seal); then
the next seat clockwise takes its turn.

The turn action is the decision of the frame at the bottom of every stack, the turn player's
`TurnActions` (one shared instance per seat, `TURN_FRAMES`); the discard action's choices are a
`Discard` frame. `new_game` deals and starts the first turn.
"""
from __future__ import annotations

from simcore.stream import chance_stream as as_stream

from ..rules import Rules
from .actions import DiscardCard, Draw, Play, StartDiscard
from .cards import ABILITIES, LEGIONS
from .creatures import _check_win, _place, _play_seal, _seal_targets
from .state import (
    DRAW,
    MAX_PLAYERS,
    START_DISCARD,
    STAT_NAMES,
    STOP_DISCARD,
    TURN_ACTION,
    Frame,
    State,
    _draw_into_hand,
    _event,
    _log_start,
    _open_entry,
    action_table,
)


class TurnActions(Frame):
    """The turn action of `seat`, the turn player (`State.turn_player`): the bottom frame of the
    stack during that seat's turn. Immutable: one shared instance per seat (`TURN_FRAMES`), which
    `_end_turn` puts at the bottom for the next turn player and `State.clone` shares."""

    __slots__ = ("seat",)
    decision = TURN_ACTION

    def __init__(self, seat: int):
        self.seat = seat

    def copy(self, memo: dict) -> "TurnActions":
        return self

    def step(self, s: State, rng) -> bool:
        """Rest at the turn player while actions are left; otherwise end the turn."""
        if s.rules.win_timing == "end_of_action" and _check_win(s, s.turn_player):
            return True
        if s.actions_left > 0:
            s.current_player = s.turn_player
            return True
        _end_turn(s)
        # the next turn's first call of this method, inlined: with the win checked at once (not after
        # each action) it rests at the new turn player (set by _end_turn) if that seat has actions
        return not s.is_terminal and s.rules.win_timing == "immediate" and s.actions_left > 0

    def legal(self, s: State) -> list:  # replaced by _turn_actions itself below (one call less)
        return _turn_actions(s)

    def apply(self, s: State, a, rng) -> bool | None:
        s.actions_left -= 1
        t = type(a)
        if t is Draw:  # Action 1 (see _draw_action), its common case inlined
            p = s.turn_player
            if s.deck and s.log is None:
                s.hands[p].append(s.deck.pop())
                s.stats["cards_drawn"][p] += 1
            else:
                _draw_action(s, rng)
            # a draw completes nothing: with the win checked at once (not after each action), what
            # TurnActions.step would do is done here (one step call less)
            return s.rules.win_timing == "immediate" and _rest_or_end_turn(s)
        elif t is StartDiscard:
            s.stack.append(Discard(s.turn_player, []))
            return True  # the turn player (the current player) goes on to choose the cards
        elif t is Play:  # _play_from_hand, inlined
            card, p = a.card, s.turn_player
            s.turn_legion = s.table.legion[card]
            s.hands[p].remove(card)
            if s.log is not None:
                _event(s, "play", p, card=card, creature=a.creature, slot=a.slot)
            _place(s, p, card, a.creature)
            # nothing completed (nothing stacked): as after a draw
            return (s.stack[-1] is self and not s.is_terminal and s.rules.win_timing == "immediate"
                    and _rest_or_end_turn(s))
        else:  # PlaySeal
            if s.rules.seal_counts_as_play:
                s.turn_legion = s.table.legion[a.card]
            s.hands[s.turn_player].remove(a.card)
            _play_seal(s, s.turn_player, a)


def _turn_actions(s: State) -> list:
    """Draw, start a discard, and every placement of every hand card (in hand order, each card's
    creatures in order, then a new creature); "the two cards you play must both belong to the
    same legion"."""
    p = s.turn_player
    hand = s.hands[p]
    rules = s.rules
    out = [DRAW, START_DISCARD] if len(hand) >= rules.min_discard else [DRAW]
    if not hand:
        return out
    table = s.table
    fits_, legion_, is_seal, plays = table.fits, table.legion, table.is_seal, s._acts.plays
    open_slots, can_start = s._open[p] or _open_entry(s, p)
    legion = s.turn_legion
    if legion < 0 and not rules.seals:  # the common case: any body card, no seal (Rules.seals: none dealt)
        for c in hand:
            fits, row = fits_[c], plays[c]
            for k, n in open_slots:
                if fits[n]:
                    out.append(row[k][n])
            if can_start and fits[0]:
                out.append(row[0][0])
        return out
    for c in hand:
        if is_seal[c]:
            if legion < 0 or legion_[c] == legion or not rules.seal_counts_as_play:
                _seal_targets(s, p, c, out)
            continue
        if legion >= 0 and legion_[c] != legion:
            continue
        fits, row = fits_[c], plays[c]
        for k, n in open_slots:
            if fits[n]:
                out.append(row[k][n])
        if can_start and fits[0]:
            out.append(row[0][0])
    return out


def _rest_or_end_turn(s: State) -> bool:
    """`TurnActions.step` after a turn action that stacked nothing and did not end the game, with the
    win checked at once (`win_timing` "immediate"): rest at the turn player while actions are left
    (True), else end the turn and rest at the next turn player (True) unless that seat has no action
    or the game timed out (False: the caller drives on from there, as after any apply)."""
    if s.actions_left > 0:
        return True  # (s.current_player is the turn player, who took the action)
    _end_turn(s)
    return not s.is_terminal and s.actions_left > 0


TurnActions.legal = staticmethod(_turn_actions)
#: the turn frame of each seat (`TurnActions` holds nothing but its seat)
TURN_FRAMES = tuple(TurnActions(p) for p in range(MAX_PLAYERS))


def _draw_action(s: State, rng) -> None:
    """Action 1: "You draw a card from the common deck" (nothing if no card is left)."""
    p = s.turn_player
    if s.deck:  # the common case, without the reshuffle
        s.hands[p].append(s.deck.pop())
        s.stats["cards_drawn"][p] += 1
        got = 1
    else:
        got = _draw_into_hand(s, p, 1, rng)
    if s.log is not None:
        _event(s, "draw", s.turn_player, cards=s.hands[s.turn_player][-got:] if got else [])


class Discard(Frame):
    """Action 2 under way: `seat` has chosen the cards in `picked` so far."""

    __slots__ = ("seat", "picked")
    decision = "discard choice"

    def __init__(self, seat: int, picked: list):
        self.seat, self.picked = seat, picked

    def legal(self, s: State) -> list:
        discard_card = s._acts.discard
        picked = self.picked
        if picked:
            out = [discard_card[c] for c in s.hands[self.seat] if c not in picked]
        else:
            out = list(map(discard_card.__getitem__, s.hands[self.seat]))
        if len(picked) >= s.rules.min_discard:
            out.append(STOP_DISCARD)
        return out

    def apply(self, s: State, a, rng) -> bool:
        if type(a) is DiscardCard:
            self.picked.append(a.card)
            return True  # the same seat goes on choosing
        s.stack.pop()
        _discard_and_draw(s, self.seat, self.picked, rng)
        # the turn action below resumes: as after a draw, what TurnActions.step would do is done here
        return s.rules.win_timing == "immediate" and _rest_or_end_turn(s)


def _discard_and_draw(s: State, p: int, picked: list, rng) -> None:
    """Action 2: discard X cards from your hand, draw X/2 (rounded down)."""
    hand = s.hands[p]
    for c in picked:
        hand.remove(c)
    s.discard.extend(picked)
    s.stats["cards_discarded"][p] += len(picked)
    got = _draw_into_hand(s, p, len(picked) // 2, rng)
    if s.log is not None:
        _event(s, "discard_draw", p, discarded=picked[:], drew=hand[len(hand) - got:] if got else [])


def _end_turn(s: State) -> None:
    s.turns += 1
    if s.turns >= s.rules.max_turns:
        s.is_terminal = s.timed_out = True
        _event(s, "timeout")
        return
    p = s.turn_player = s.current_player = (s.turn_player + 1) % s.n
    s.stack[0] = TURN_FRAMES[p]
    s.actions_left = s.rules.actions_per_turn
    if s.turns < s.rules.reduced_first_turn_seats:      # design variant: the first round's reduced turns
        s.actions_left -= 1
    s.turn_legion = -1
    if s.log is not None:
        _event(s, "turn_start", s.turn_player, actions=s.actions_left)


# ---------------------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------------------


def blank_state(rules: Rules, record: bool, turn_player: int = 0) -> State:
    """A state with every field set and nothing dealt: no cards anywhere, the turn of `turn_player`,
    who is to act."""
    s = State.__new__(State)
    s.rules, s.table, s.n = rules, rules.table, rules.players
    s._acts = action_table(rules)
    s.deck, s.discard = [], []
    s.hands = [[] for _ in range(s.n)]
    s.creatures = [[] for _ in range(s.n)]
    s.creatures_view = s._discard_view = None
    s._seat_views = [None] * s.n
    s._open = [None] * s.n
    s.turn_player = s.current_player = turn_player
    s.actions_left = rules.actions_per_turn
    s.turn_legion = -1
    s.stack = [TURN_FRAMES[turn_player]]
    s.winner = None
    s.is_terminal = s.timed_out = False
    s.turns = s.decisions = 0
    s.stats = {k: [0] * s.n for k in STAT_NAMES}
    s.abilities = [[0] * len(ABILITIES) for _ in range(s.n)]
    s.legion_played = [[0] * len(LEGIONS) for _ in range(s.n)]
    s.log = [] if record else None
    return s


def new_game(rules: Rules, seed, record: bool = False) -> State:
    """Seed: "Shuffle all the Night Terror cards and deal five cards to each player."

    `seed` is an int or a SeedSequence (its chance stream, `as_stream`), a `simcore.stream.Stream` or a
    numpy Generator; the deck is `range(cards)` shuffled by it; seat 0 is the starting player.
    """
    rng = as_stream(seed)
    s = blank_state(rules, record)
    deck = s.deck = list(range(len(s.table.cards)))
    rng.shuffle(deck)
    for hand in s.hands:
        for _ in range(rules.hand_size):
            hand.append(deck.pop())
    for _ in range(rules.last_seat_extra_cards):        # design variant: compensate the last seat
        s.hands[s.n - 1].append(deck.pop())
    s.actions_left = rules.actions_per_turn - rules.first_turn_fewer_actions   # design variant: reduced first turn
    s.actions_left -= rules.reduced_first_turn_seats > 0                       # design variant: reduced first round
    _log_start(s)
    return s
