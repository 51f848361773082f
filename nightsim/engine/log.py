"""Render the structured event log (GameResult.log) as a game report a person can follow.

Each event is a dict with at least `event`, `turn`, `player`; the kinds and their fields are
listed in nightsim/RULES.md ("Event log"). The report has a heading per turn ("Turn N", the
same N as `GameResult.turns` for the last turn) and one line per thing that happened, in
words and card names. A `decision` event is not printed on its own: the event it causes
says what was chosen (a draw, a play, a card given up), so no action is written twice. An
`ability` event is folded into the line of what the ability did ("Weeper #46 …: seat 0
draws …"), and `herald_reveal` into the Herald's line.
"""
from __future__ import annotations

from ..rules import Rules
from .cards import ABILITIES, BODY_PARTS, LEGIONS


def format_events(events, rules: Rules, seats) -> str:
    return _Report(events, rules, seats).text()


def event_lines(events, rules: Rules, seats) -> list[list[str]]:
    """The report's lines caused by each event, one list per event (empty for a `decision` and
    the events folded into another line): the lines of `format_events`, in order, split by event.
    A replay shows them beside the board (analyses.replay)."""
    report = _Report(events, rules, seats)
    out = []
    for i, e in enumerate(report.events):
        line = report.line(i, e)
        if line is None:
            out.append([])
        elif isinstance(line, list):
            out.append(line)
        else:
            out.append([line if e["event"] == "turn_start" else f"  {line}"])
    return out


class _Report:
    def __init__(self, events, rules: Rules, seats):
        self.events = list(events)
        self.cards = rules.table.cards
        self.rules = rules
        self.seats = seats
        self.creatures = [[] for _ in seats]  # card ids per creature, kept up to date while reading
        self.source = {}                      # seat -> "Mocker #31 …" for the next line it explains

    # -------------------------------------------------------------- naming
    def c(self, i) -> str:
        return repr(self.cards[i])

    def ab(self, i) -> str:
        """An ability with its card: 'Weeper (#46 Homunculi head)'."""
        card = self.cards[i]
        parts = "|".join(BODY_PARTS[x] for x in card.slots)
        return f"{ABILITIES[card.ability]} (#{card.number} {LEGIONS[card.legion]} {parts})"

    def cs(self, ids) -> str:
        return ", ".join(self.c(i) for i in ids) or "nothing"

    def who(self, p) -> str:
        return f"seat {p} ({self.seats[p]})" if 0 <= p < len(self.seats) else f"seat {p}"

    def creature(self, owner, k) -> str:
        """A creature named by its cards' numbers, e.g. 'creature [#38 #34]'."""
        try:
            cards = self.creatures[owner][k]
        except (IndexError, TypeError):
            return f"creature {k}"
        return "creature [" + " ".join(f"#{self.cards[c].number}" for c in cards) + "]"

    def whose(self, p, owner, k) -> str:
        return f"its {self.creature(owner, k)}" if owner == p else f"seat {owner}'s {self.creature(owner, k)}"

    def ability_at(self, i, p) -> str:
        """'Weeper #46 …' from the next `ability` event of seat p (it is logged after the effect starts)."""
        for e in self.events[i + 1:i + 6]:
            if e["event"] == "ability" and e["player"] == p:
                return self.ab(e["card"])
        return ""

    def by(self, p) -> str:
        src = self.source.pop(p, "")
        return f"{src}: " if src else ""

    # -------------------------------------------------------------- tracking creatures
    def place(self, owner, k, card):
        crs = self.creatures[owner]
        if k is None:
            crs.append([card])
        else:
            crs[k].append(card)

    def pop_top(self, owner, k):
        crs = self.creatures[owner]
        crs[k].pop()
        if not crs[k]:
            del crs[k]

    # -------------------------------------------------------------- the report
    def text(self) -> str:
        lines = []
        for i, e in enumerate(self.events):
            line = self.line(i, e)
            if line is None:
                continue
            if isinstance(line, list):
                lines += line
            else:
                lines.append(line if e["event"] == "turn_start" else f"  {line}")
        return "\n".join(lines)

    def line(self, i, e):  # noqa: C901 — one branch per event kind, in the order of RULES.md
        kind, p = e["event"], e["player"]
        if kind == "deal":
            self.creatures = [[list(cr) for cr in crs] for crs in e.get("creatures", [[] for _ in e["hands"]])]
            deck = f"{len(e['deck'])} cards stay in the deck" if "deck" in e else ""
            out = [f"Deal: {deck}" if deck else "Deal:"]
            for seat, hand in enumerate(e["hands"]):
                have = ""
                if self.creatures[seat]:
                    have = "; in play: " + ", ".join(self.creature(seat, k) for k in range(len(self.creatures[seat])))
                out.append(f"  {self.who(seat)} holds {self.cs(hand)}{have}")
            return out
        if kind == "turn_start":
            return f"Turn {e['turn'] + 1}: {self.who(p)}, {e['actions']} actions"
        if kind in ("decision", "herald_reveal"):
            return None  # what was chosen / turned over is said by the event that follows
        if kind == "ability":
            if e["ability"] in ("Mocker", "Executioner", "Scavenger", "Devourer"):
                self.source[p] = self.ab(e["card"])
            return None  # Weeper and Herald lines were written from weeper_draw / herald_turn
        if kind == "draw":
            return f"seat {p} draws {self.c(e['cards'][0])}" if e["cards"] else \
                f"seat {p} draws nothing (the deck and the discard pile are empty)"
        if kind == "discard_draw":
            return f"seat {p} discards {self.cs(e['discarded'])} and draws {self.cs(e['drew'])}"
        if kind == "play":
            src = self.by(p)
            where = self.target(p, e["creature"], e["slot"])
            self.place(p, e["creature"], e["card"])
            return f"{src}seat {p} plays {self.c(e['card'])} {where}"
        if kind == "herald_place":
            if e.get("slot") is None and "slot" in e:
                self.source[p] = "Herald"
                return None  # a turned-over seal: the `seal` line follows
            where = self.target(p, e.get("creature"), e.get("slot", 0))
            self.place(p, e.get("creature"), e["card"])
            return f"Herald: seat {p} places {self.c(e['card'])} {where}"
        if kind == "complete":
            cards = e["cards"]
            pure = ""
            if e["pure"]:
                lg = LEGIONS[self.cards[cards[0]].legion]
                pure = f" — pure {lg}: each opponent discards a {lg} card, or two cards without one"
            return f"seat {p} completes a creature: {self.cs(cards)}{pure}"
        if kind == "activation_start":
            abil = ", ".join(self.ab(c) for c in e["abilities"]) or "no abilities"
            name = self.whose(p, e["owner"], e["creature"])
            if e["source"] == "seal":
                lg = LEGIONS[self.cards[e["abilities"][0]].legion] if e["abilities"] else ""
                return f"seat {p} activates the {lg} parts of {name} again: {abil}"
            return f"{name} activates, head to legs: {abil}"
        if kind == "activation_end":
            return f"end of the activation{' (stopped)' if e['stopped'] else ''}"
        if kind == "weeper_draw":
            return f"{self.ability_at(i, p) or 'Weeper'}: seat {p} draws {self.cs(e['cards'])}"
        if kind == "herald_turn":
            return f"{self.ability_at(i, p) or 'Herald'}: seat {p} turns over {self.cs(e['cards'])}"
        if kind == "herald_discard":
            return f"Herald: {self.cs(e['cards'])} cannot be placed and {'is' if len(e['cards']) == 1 else 'are'} discarded"
        if kind == "ability_failed":
            return f"{self.ab(e['card'])} cannot be carried out: the rest of the activation stops"
        if kind == "executioner":
            src = self.by(p)
            k = e.get("creature")
            name = self.whose(p, e["victim"], k)
            if k is not None:
                self.pop_top(e["victim"], k)
            return f"{src}seat {p} takes {self.c(e['card'])} from the top of {name} into its hand"
        if kind == "scavenger":
            src = self.by(p)
            k = e.get("creature")
            if k is not None:
                del self.creatures[e["victim"]][k]
            return f"{src}seat {p} discards seat {e['victim']}'s uncompleted creature {self.cs(e['cards'])}"
        if kind == "scavenger_declined":
            return f"{self.by(p)}seat {p} declines to discard a creature"
        if kind == "devourer":
            src = self.by(p)
            k = e.get("creature")
            name = self.whose(p, p, k)
            if k is not None:
                self.pop_top(p, k)
            return f"{src}seat {p} discards {self.c(e['card'])} from the top of {name}"
        if kind == "penalty_discard":
            return f"seat {e['victim']} discards {self.c(e['card'])} to the pure-legion penalty"
        if kind == "seal":
            src = self.by(p)
            return (f"{src}seat {p} puts {self.c(e['card'])} on {self.whose(p, e['owner'], e['creature'])}: "
                    f"it is incarnated and immune")
        if kind == "reactivation_declined":
            return f"seat {p} does not activate {self.whose(p, e['owner'], e['creature'])} again"
        if kind == "reshuffle":
            return f"the deck is empty: the discard pile is shuffled into a new deck of {e['cards']} cards"
        if kind == "win":
            return (f"{self.who(e['winner'])} has {self.rules.creatures_to_win} complete creatures and WINS "
                    f"in turn {e['turn'] + 1}")
        if kind == "timeout":
            return f"the turn cap of {e['turn']} turns is reached: the game ends without a winner"
        return f"{kind}: " + ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("event", "turn", "player"))

    def target(self, p, k, slot) -> str:
        part = ("legs", "torso", "head")[slot]
        if k is None:
            return "as the legs of a new creature"
        return f"as the {part} of its {self.creature(p, k)}"
