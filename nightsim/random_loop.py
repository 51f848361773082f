"""`play_random`: `play_game`'s loop when every seat is the built-in `RandomPolicy` and nothing is
recorded — the same game from the same streams, in one fused loop.

A random seat's choice is `legal[int(u * len(legal))]`, `u` its generator's next `random()`. At a
turn action of a game without seals the loop needs only the list's length and its i-th item, not
the list (`turn._turn_actions`: Draw, StartDiscard if the hand is large enough, then every placement
of every hand card in hand order, each card's open creatures in order, then a new creature). A
card's placements depend only on the body parts it fits (`CardTable.fit_masks`, cards of another
legion than the turn's fitting nothing) and on the seat's open slots (`State._open`), so
`_placements(open slots)` gives, per fit mask, the creatures a card goes to, in the listing's
order; the turn action is then counted and picked without listing and applied as
`TurnActions.apply` applies it. A discard action (StartDiscard, then one seat's choices of the
`Discard` frame: the hand cards not yet picked in hand order, then StopDiscard once enough are
picked) runs to its end in place, without the frame. Every other decision (abilities, penalty,
and every turn action of a game with seals) is the frame's own `legal` and `apply`.
`tests/nightsim/test_nightsim_random_loop.py` holds the loop to the plain one, seed for seed.
"""
from __future__ import annotations

from functools import lru_cache

from .creatures import _place
from .state import _draw_into_hand, _open_entry
from .turn import TURN, _draw_action, _turn_actions

UNIFORM_BLOCK = 128  # uniforms drawn at a time from a seat's generator (the stream is unchanged)


@lru_cache(maxsize=None)
def _placements(entry: tuple) -> tuple:
    """(counts, targets) for a seat's `State._open` entry ((creature + 1, cards on it), ...), can_start):
    `targets[mask]` the creatures (index, None for a new one) a card fitting the body parts of `mask`
    (bit 1 legs, 2 torso, 4 head) is placed on, in `_turn_actions`' order; `counts[mask]` their number."""
    open_slots, can_start = entry
    targets = []
    for mask in range(8):
        row = [k - 1 for k, n in open_slots if mask >> n & 1]
        if can_start and mask & 1:
            row.append(None)
        targets.append(tuple(row))
    return tuple(map(len, targets)), tuple(targets)


def play_random(s, chance, gens) -> None:
    """Play the game in state `s` to its end with every seat the built-in `RandomPolicy`, seat p's
    uniforms from `gens[p]` (`UNIFORM_BLOCK` at a time), chance from `chance`, nothing logged."""
    assert s.log is None
    stack, hands, opens = s.stack, s.hands, s._open
    rules = s.rules
    min_discard, seals, immediate = rules.min_discard, rules.seals, rules.win_timing == "immediate"
    masks, legion_of = s.table.fit_masks, s.table.legion
    max_turns, players, per_turn, reduced_seats = rules.max_turns, s.n, rules.actions_per_turn, rules.reduced_first_turn_seats
    drawn, discarded = s.stats["cards_drawn"], s.stats["cards_discarded"]
    seen, tables = [None] * len(gens), [None] * len(gens)  # per seat: the open-slot entry last looked up, its _placements
    bufs = [[] for _ in gens]  # per seat: its uniforms still to use, the next one last
    decisions = s.decisions
    while not s.is_terminal:
        p = s.current_player
        buf = bufs[p]
        if not buf:
            buf += gens[p].random(UNIFORM_BLOCK).tolist()[::-1]
        decisions += 1
        if stack:  # an ability's, a penalty's or a discard's decision: the frame's own list
            top = stack[-1]
            legal = top.legal(s)
            if top.apply(s, legal[int(buf.pop() * len(legal))], chance):
                continue
        elif seals:  # a turn action with seals: the listing (seal targets) and TurnActions.apply
            legal = _turn_actions(s)
            if TURN.apply(s, legal[int(buf.pop() * len(legal))], chance):
                continue
        else:  # a turn action (p is the turn player): counted and picked without the list
            hand = hands[p]
            mask = masks[s.turn_legion + 1]
            entry = opens[p] or _open_entry(s, p)
            if entry is seen[p]:  # the seat's open slots unchanged since its last turn action
                counts, targets = tables[p]
            else:
                seen[p] = entry
                counts, targets = tables[p] = _placements(entry)
            fixed = 2 if len(hand) >= min_discard else 1  # Draw, and StartDiscard if allowed
            n = fixed
            for card in hand:
                n += counts[mask[card]]
            i = int(buf.pop() * n)
            s.actions_left -= 1
            if i >= fixed:  # Play: the (i - fixed)-th placement
                i -= fixed
                for card in hand:
                    row = targets[mask[card]]
                    if i < len(row):
                        break
                    i -= len(row)
                s.turn_legion = legion_of[card]  # TurnActions.apply's Play
                hand.remove(card)
                _place(s, p, card, row[i])
                if stack or s.is_terminal or not immediate:
                    while not s.is_terminal and not (stack[-1] if stack else TURN).advance(s, chance):
                        pass
                    continue
            elif i == 0:  # Draw: TurnActions.apply's
                deck = s.deck
                if deck:
                    hand.append(deck.pop())
                    drawn[p] += 1
                else:
                    _draw_action(s, chance)
                if not immediate:
                    while not s.is_terminal and not (stack[-1] if stack else TURN).advance(s, chance):
                        pass
                    continue
            else:  # StartDiscard, then the Discard frame's decisions, all seat p's, in place
                rest, picked = hand[:], []
                while True:
                    if not buf:
                        buf += gens[p].random(UNIFORM_BLOCK).tolist()[::-1]
                    decisions += 1
                    j = int(buf.pop() * (len(rest) + (len(picked) >= min_discard)))
                    if j == len(rest):  # StopDiscard
                        break
                    picked.append(rest.pop(j))
                # turn._discard_and_draw: the hand keeps the cards not picked, in order
                hand[:] = rest
                s.discard.extend(picked)
                discarded[p] += len(picked)
                deck, k = s.deck, len(picked) // 2
                if k <= len(deck):  # the common case, without the reshuffle (state._draw_into_hand)
                    for _ in range(k):
                        hand.append(deck.pop())
                    drawn[p] += k
                else:
                    _draw_into_hand(s, p, k, chance)
                if not immediate:
                    while not s.is_terminal and not (stack[-1] if stack else TURN).advance(s, chance):
                        pass
                    continue
            # turn._rest_or_end_turn: nothing stacked, the game not over, the win checked at once
            if s.actions_left > 0:
                continue
            # turn._end_turn, without the log
            turns = s.turns = s.turns + 1
            if turns >= max_turns:
                s.is_terminal = s.timed_out = True
                break
            s.turn_player = s.current_player = (p + 1) % players
            s.turn_legion = -1
            s.actions_left = per_turn - 1 if turns < reduced_seats else per_turn
            if s.actions_left > 0:
                continue
        while not s.is_terminal and not (stack[-1] if stack else TURN).advance(s, chance):
            pass
    s.decisions = decisions
