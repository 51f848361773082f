"""Nightmarium: each seat's hand and creatures (with seals), the deck and discard pile, abilities firing.

Rebuilt from the log alone (nightsim/RULES.md "Event log"), as the referee of
tests/nightsim/test_nightsim_log.py does: the `deal` event gives the whole position and every
later event moves cards.
"""
from __future__ import annotations


class Board:
    def __init__(self, record):
        self.seats = len(record.seats)
        self.hands = [[] for _ in range(self.seats)]
        self.creatures = [[] for _ in range(self.seats)]      # [cards, seal] per creature
        self.deck, self.discard, self.revealed, self.reshuffles = [], [], [], []
        self.herald_seal = None
        self.turn, self.player, self.actions, self.winner, self.timed_out = 0, 0, 0, None, False
        self.active = []          # [owner, creature] of the activations under way (nested ones last)
        self.firing = None        # the ability just carried out or failed: {ability, card, player, failed}

    # -- moving cards
    def _draw(self):
        if not self.deck and self.reshuffles:
            self.deck, self.discard = list(self.reshuffles.pop(0)), []
        return self.deck.pop() if self.deck else None

    def _draw_into(self, cards, into):
        for c in cards:
            self._draw()
            into.append(c)

    def _place(self, owner, k, card):
        if k is None:
            self.creatures[owner].append([[card], -1])
        else:
            self.creatures[owner][k][0].append(card)

    def _take_top(self, owner, k, card):
        cr = self.creatures[owner][k]
        if card in cr[0]:
            cr[0].remove(card)
        if not cr[0]:
            del self.creatures[owner][k]
            if cr[1] >= 0:
                self.discard.append(cr[1])

    def apply(self, e):
        kind, p = e["event"], e.get("player")
        self.firing = None if kind not in ("ability", "ability_failed") else self.firing
        if kind == "deal":
            self.hands = [list(h) for h in e["hands"]]
            self.deck, self.discard = list(e.get("deck", [])), list(e.get("discard", []))
            seals = e.get("seals") or [[-1] * len(c) for c in e.get("creatures", [[]] * self.seats)]
            self.creatures = [[[list(cr), s] for cr, s in zip(crs, ss)]
                              for crs, ss in zip(e.get("creatures", [[]] * self.seats), seals)]
            self.player, self.actions, self.turn = e.get("turn_player", 0), e.get("actions_left", 0), e.get("turn", 0)
        elif kind == "turn_start":
            self.turn, self.player, self.actions = e["turn"], p, e["actions"]
        elif kind == "draw":
            self._draw_into(e["cards"], self.hands[p])
        elif kind == "discard_draw":
            for c in e["discarded"]:
                self.hands[p].remove(c)
            self.discard += e["discarded"]
            self._draw_into(e["drew"], self.hands[p])
        elif kind == "play":
            self.hands[p].remove(e["card"])
            self._place(p, e["creature"], e["card"])
        elif kind == "weeper_draw":
            self._draw_into(e["cards"], self.hands[p])
        elif kind == "herald_turn":
            self._draw_into(e["cards"], self.revealed)
        elif kind == "herald_discard":
            for c in e["cards"]:
                self.revealed.remove(c)
            self.discard += e["cards"]
        elif kind == "herald_place":
            self.revealed.remove(e["card"])
            if e.get("slot") is None:
                self.herald_seal = e["card"]
            else:
                self._place(e["owner"], e["creature"], e["card"])
        elif kind == "seal":
            if self.herald_seal == e["card"]:
                self.herald_seal = None
            else:
                self.hands[p].remove(e["card"])
            self.creatures[e["owner"]][e["creature"]][1] = e["card"]
        elif kind == "activation_start":
            self.active.append([e["owner"], e["creature"]])
        elif kind == "activation_end":
            if self.active:
                self.active.pop()
        elif kind in ("ability", "ability_failed"):
            self.firing = {"ability": e["ability"], "card": e["card"], "player": p, "failed": kind == "ability_failed"}
        elif kind == "executioner":
            self._take_top(e["victim"], e["creature"], e["card"])
            self.hands[p].append(e["card"])
        elif kind == "scavenger":
            cards, seal = self.creatures[e["victim"]].pop(e["creature"])
            self.discard += cards + ([seal] if seal >= 0 else [])
        elif kind == "devourer":
            self._take_top(p, e["creature"], e["card"])
            self.discard.append(e["card"])
        elif kind == "penalty_discard":
            self.hands[e["victim"]].remove(e["card"])
            self.discard.append(e["card"])
        elif kind == "reshuffle":
            self.reshuffles.append(list(e["deck"]))
            if not self.deck:
                self.deck, self.discard = list(self.reshuffles.pop(0)), []
        elif kind == "win":
            self.winner = e["winner"]
            self.active = []
        elif kind == "timeout":
            self.timed_out, self.active = True, []

    def state(self) -> dict:
        """The flat board state the page draws (key -> JSON value)."""
        out = {"turn": self.turn + 1, "player": self.player, "actions": self.actions, "deck": len(self.deck),
               "discard": self.discard[-1] if self.discard else -1, "discards": len(self.discard),
               "revealed": list(self.revealed), "active": [list(a) for a in self.active], "firing": self.firing,
               "winner": self.winner, "timed_out": self.timed_out}
        for i in range(self.seats):
            out[f"hand/{i}"] = list(self.hands[i])
            out[f"creatures/{i}"] = [[list(c), s] for c, s in self.creatures[i]]
            out[f"score/{i}"] = sum(len(c) == 3 for c, _ in self.creatures[i])
        return out
