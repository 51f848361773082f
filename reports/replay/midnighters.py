"""Midnighters: the location grid with the avatars, each seat's hand and traps, the Horror, the nightmares.

Rebuilt from the log alone (dreamsim/RULES.md §4), as the referee of
tests/dreamsim/test_dreamsim_log_replay.py does: it starts at the `deal` event and every later
event moves cards, avatars or locations.
"""
from __future__ import annotations

from collections import Counter


class Board:
    def __init__(self, record):
        ctx = record.context
        self.kinds, self.nb = ctx["kinds"], ctx["neighbours"]
        self.suspense = {int(k): v for k, v in ctx["suspense"].items()}
        self.star, self.town_hall = ctx["star"], ctx["town_hall"]
        n = len(record.seats)
        self.started = False
        self.hands = [Counter() for _ in range(n)]
        self.traps = [Counter() for _ in range(n)]
        self.deck, self.reserve, self.discard, self.limbo = [], [], Counter(), Counter()
        self.where, self.grid, self.rot = [-1] * n, [], []
        self.horror, self.winner, self.turn, self.seat, self.actions = -1, None, 0, 0, 0
        self.effects = []          # [nightmare, seats] in effect (cleared when the Town Hall neutralises them)
        self.paralysed, self.timed_out = None, False

    @staticmethod
    def _move(card, src, dst):
        if src[card] > 0:
            src[card] -= 1
        dst[card] += 1

    def _spring(self, seat, loc, card):
        key = (loc, card)
        if self.traps[seat][key] > 0:
            self.traps[seat][key] -= 1
        self.discard[self.suspense[loc]] += 1
        self.discard[card] += 1

    def apply(self, e):  # noqa: C901 — one branch per event kind, in the order of RULES.md
        kind, g = e["event"], e.get
        if kind == "deal":
            self.started = True
            self.hands = [Counter(self.kinds[k] for k in h) for h in e["hands"]]
            self.deck, self.reserve = list(g("deck", [])), list(g("reserve", []))
            self.where, self.grid, self.rot = list(e["where"]), list(e["grid"]), list(e["rot"])
            return
        if not self.started:
            return
        self.paralysed = None
        if kind == "nightmares_in":
            self.deck, self.reserve = list(g("order", self.deck)), []
        elif kind == "reshuffle":
            self.deck, self.discard = list(g("order", [])), Counter()
        elif kind == "draw":
            if self.deck:
                self.deck.pop()
            self.hands[e["seat"]][e["card"]] += 1
        elif kind == "turn":
            self.turn, self.seat, self.actions = e["turn"], e["seat"], e["actions"]
        elif kind == "paralysed":
            self.turn, self.seat, self.paralysed = e["turn"], e["seat"], e["seat"]
        elif kind == "card_played":
            self._move(e["card"], self.hands[e["seat"]], self.limbo)
        elif kind == "cards_settled":
            for c in e["cards"]:
                self._move(c, self.limbo, self.discard if e["to"] < 0 else self.hands[e["to"]])
        elif kind == "trap_set":
            for c in (self.suspense[e["location"]], e["card"]):
                if self.limbo[c] > 0:
                    self.limbo[c] -= 1
            self.traps[e["seat"]][(e["location"], e["card"])] += 1
        elif kind == "spring":
            self._spring(e["seat"], e["location"], e["kind"])
        elif kind == "star_trap":
            self._spring(e["seat"], e["location"], self.star)
        elif kind == "remote_town_hall":
            self._spring(e["seat"], self.town_hall, self.star)
        elif kind in ("discard_action", "surplus_discard", "th_discard"):
            self._move(e["card"], self.hands[e["seat"]], self.discard)
        elif kind in ("steal", "intercepted_hand_card"):
            self._move(e["card"], self.hands[e["victim"]], self.hands[e["seat"]])
        elif kind == "square_take":
            self._move(e["card"], self.discard, self.hands[e["seat"]])
        elif kind == "motel_take":
            self._move(e["card"], self.hands[e["target"]], self.hands[e["seat"]])
        elif kind == "give":
            self._move(e["card"], self.hands[e["seat"]], self.hands[e["target"]])
        elif kind == "restaurant_discard":
            for c in e["cards"]:
                self._move(c, self.hands[e["target"]], self.discard)
        elif kind == "mix":
            for q, h in zip(e["seats"], e["hands"]):
                self.hands[q] = Counter(h)
        elif kind == "exchange":
            seats = e["seats"]
            hands, traps = [self.hands[q] for q in seats], [self.traps[q] for q in seats]
            for i, q in enumerate(seats):
                self.hands[q], self.traps[q] = hands[(i + 1) % len(seats)], traps[(i + 1) % len(seats)]
        elif kind in ("walk", "teleport"):
            self.where[e["seat"]] = e["to"]
        elif kind == "trap_move":
            self.where[e["target"]] = e["to"]
        elif kind == "placed":
            self.where[e["seat"]] = e["to"]
        elif kind == "trap_swap":
            a, b = e["seat"], e["target"]
            self.where[a], self.where[b] = self.where[b], self.where[a]
        elif kind == "gathered":
            for q in e["seats"]:
                self.where[q] = e["to"]
        elif kind in ("vertigo", "trap_vertigo"):
            loc, op = e["location"], e["op"]
            if op < 4:
                c1 = self.grid.index(loc)
                c2 = self.nb[c1][op]
                if c2 >= 0:
                    self.grid[c1], self.grid[c2] = self.grid[c2], loc
            elif op < 7:
                self.rot[loc] = (self.rot[loc] + op - 3) % 4
        elif kind == "horror":
            self.horror = e["seat"]
        elif kind in ("wake", "horror_wins"):
            self.winner = e["winner"]
        elif kind == "nightmare_effect":
            self.effects.append([e["card"], list(g("seats", []))])
        elif kind == "neutralised":
            self.effects = []
        elif kind == "timeout":
            self.timed_out = True

    def state(self) -> dict:
        """The flat board state the page draws (key -> JSON value)."""
        out = {"grid": list(self.grid), "rot": list(self.rot), "where": list(self.where), "horror": self.horror,
               "winner": self.winner, "turn": self.turn + 1, "seat": self.seat, "actions": self.actions,
               "deck": len(self.deck), "discards": sum(self.discard.values()), "limbo": sorted((+self.limbo).elements()),
               "effects": [list(x) for x in self.effects], "paralysed": self.paralysed, "timed_out": self.timed_out}
        for i, (hand, traps) in enumerate(zip(self.hands, self.traps)):
            out[f"hand/{i}"] = sorted((+hand).elements())
            out[f"traps/{i}"] = sorted([list(k) for k in (+traps).elements()])
        return out
