"""Reactions: a Dutch Angle cancels a card play, a Dreamcatcher intercepts it, and every
answer can be answered in turn (the reaction window of `turn._start_play`).
"""
from __future__ import annotations

from bisect import insort

from .actions import ALLOW, CANCEL, INTERCEPT, Allow, Cancel
from .activations import Surplus
from .cards import CATCHER, DUTCH, KIND_NAMES
from .state import (
    CANCELLED,
    INTERCEPTED,
    P_TRAP,
    S_PLAIN,
    Frame,
    State,
    _dec,
    _event,
    _names,
    _play_card,
    _takeable,
    _to_discard,
)

#: who may answer p's play: the others, clockwise from the one after p
_ASK = {n: tuple(tuple((p + i) % n for i in range(1, n)) for p in range(n)) for n in range(1, 7)}


class ReactionWindow(Frame):
    """A card `play` (a `turn.Play` frame) waits for answers. `chain` holds the answers so far
    as (seat, card kind), the last one on top; `ask` are the seats that may answer the top of
    the chain (the one asked now at `pos`). When nobody answers any more, `finish` settles
    the chain and marks the play cancelled or intercepted (`Play.outcome`)."""

    __slots__ = ("seat", "chain", "ask", "pos", "play")
    decision = "reaction"
    out_of_turn = True

    def __init__(self, ask: tuple, play: Frame):
        self.seat, self.chain, self.ask, self.pos, self.play = -1, [], ask, 0, play

    def legal(self, s: State) -> list:
        chain, ask, hands = self.chain, self.ask, s.hands
        if chain:
            top_kind = chain[-1][1]
            act = CANCEL if top_kind == DUTCH else INTERCEPT
            # a Dreamcatcher intercepts "не в свой ход" (not on your turn): the turn player may not
            # answer an interception with one (Rules.intercept_own_turn); a Dutch Angle may answer
            barred = -1 if act is CANCEL or s.rules.intercept_own_turn else s.turn_player
            while self.pos < len(ask):
                q = ask[self.pos]
                if top_kind in hands[q] and q != barred:
                    self.seat = q
                    return [act, ALLOW]
                self.pos += 1
            return []
        while self.pos < len(ask):
            q = ask[self.pos]
            h = hands[q]
            da, dc = DUTCH in h, CATCHER in h
            if da or dc:
                self.seat = q
                if da and dc:
                    return [CANCEL, INTERCEPT, ALLOW]
                return [CANCEL, ALLOW] if da else [INTERCEPT, ALLOW]
            self.pos += 1
        return []

    def apply(self, s: State, a, rng) -> None:
        if type(a) is Allow:
            self.pos += 1
            return
        q = self.seat
        kind = DUTCH if type(a) is Cancel else CATCHER
        _play_card(s, q, kind)
        if kind == DUTCH:
            s.debt[q] += s.rules.cancel_debt
            s.stats["cancels"][q] += 1
        else:
            s.debt[q] += 1
            s.stats["intercepts"][q] += 1
        target = self.chain[-1][0] if self.chain else self.play.actor
        s.log is None or _event(s, "cancel" if kind == DUTCH else "intercept", seat=q, against=target)
        self.chain.append((q, kind))
        self.ask = _ASK[s.n][q]
        self.pos = 0

    def finish(self, s: State, rng) -> None:
        """Resolve the chain from its top: an answer that is not itself neutralised neutralises
        what it answers — a Dutch Angle cancels it (its cards are discarded), a Dreamcatcher
        intercepts it (takes its card into hand)."""
        s.stack.pop()
        chain, play = self.chain, self.play
        if not chain:
            return
        m = len(chain)
        neutral = [False] * (m + 1)
        takes = {}
        hand_mode = s.rules.intercept_takes == "hand"
        for i in range(m, 0, -1):
            if neutral[i]:
                continue
            seat, kind = chain[i - 1]
            if kind == CATCHER:
                if i == 1 and hand_mode:
                    takes[0] = seat  # takes a card from the hand; the play itself goes ahead
                    continue
                takes[i - 1] = seat
            neutral[i - 1] = True
        limbo, hands = s.limbo, s.hands
        takers = []
        for i in range(1, m + 1):
            seat, kind = chain[i - 1]
            limbo.remove(kind)
            if i in takes:
                insort(hands[takes[i]], kind)
                takers.append(takes[i])
            else:
                _to_discard(s, kind)
            s.log is None or _event(s, "cards_settled", cards=[KIND_NAMES[kind]], to=takes.get(i, -1))
        if neutral[0]:
            cards = play.cards
            for c in cards:
                limbo.remove(c)
            if 0 in takes:
                play.outcome = INTERCEPTED
                insort(hands[takes[0]], cards[-1])  # the played card; of a trap, the partner card
                for c in cards[:-1]:
                    _to_discard(s, c)
                takers.append(takes[0])
                if s.log is not None:
                    cards[:-1] and _event(s, "cards_settled", cards=_names(cards[:-1]), to=-1)
                    _event(s, "cards_settled", cards=[KIND_NAMES[cards[-1]]], to=takes[0])
                s.log is None or _event(s, "intercepted", seat=takes[0], victim=play.actor,
                                        card=KIND_NAMES[cards[-1]])
            else:
                play.outcome = CANCELLED
                for c in cards:
                    _to_discard(s, c)
                s.log is None or _event(s, "cards_settled", cards=_names(cards), to=-1)
                s.log is None or _event(s, "cancelled", victim=play.actor)
        elif 0 in takes:
            victim, seat = play.actor, takes[0]
            pool = _takeable(hands[victim])
            if pool:
                card = pool[int(rng.integers(len(pool)))]
                hands[victim].remove(card)
                insort(hands[seat], card)
                takers.append(seat)
                s.log is None or _event(s, "intercepted_hand_card", seat=seat, victim=victim, card=KIND_NAMES[card])
        for seat in dict.fromkeys(takers):
            s.stack.append(Surplus(_dec(s, seat), seat, S_PLAIN, -1))

    def context(self, player: int) -> dict:
        play = self.play
        ctx = {"actor": play.actor, "play": play.kind, "responses": tuple(self.chain)}
        if play.kind != P_TRAP:
            ctx.update(arg=play.arg, arg2=play.arg2)
        return ctx
