"""Render the structured event log (GameResult.log) as a game report a person can follow.

Each event is a dict with at least `event`, `turn`, `player`; the kinds are listed in
dreamsim/RULES.md ("Event log"). The report: the Stager's board and the hands dealt, then per
turn a heading `Turn N: seat p (policy), k actions` (N counts like `GameResult.turns`) and one
line per thing that happened, in words with card and location names. Decisions have no line of
their own (the event a decision causes says what was chosen), so no action is written twice and
no action object (`Allow()`, `To(...)`) appears; cards moving into play and back out
(`card_played`, `cards_settled`) are said by the play's own line; consecutive draws of one seat
are one line, a nightmare drawn is its own line, followed by what it did.
"""
from __future__ import annotations

from .actions import OP_NAMES
from .board import render
from .cards import DIRECTION_NAMES, KIND_NAMES, LOCATION_NAMES

L = LOCATION_NAMES

#: what each nightmare does to the seats it reaches (RULES.md §1)
NIGHTMARE_TEXT = {
    "Red Nightmare": "{seats} cannot spring traps",
    "Blue Nightmare": "{seats} may activate only the Town Hall",
    "Purple Nightmare": "{seats} have passed their hands and traps to the counter-clockwise neighbour",
    "Black Nightmare": "its drawer becomes the Midnight Horror",
    "Multicoloured Nightmare": "{seats} take 3 actions a turn",
    "Colourless Nightmare": "{seats} take 1 action a turn and are placed in Corridors",
}


def _seats(seats) -> str:
    if not seats:
        return "nobody"
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(str(q) for q in seats)


def _cards(names) -> str:
    return ", ".join(names) if names else "nothing"


def format_events(events, rules, seats) -> str:
    def who(i):
        return f"seat {i} ({seats[i]})"

    lines: list[str] = []
    before_deal: list[str] = []
    dealt = False
    draws: list = []                      # (seat, [cards]) of consecutive plain draws

    def out(text, indent="    "):
        (lines if dealt else before_deal).append(indent + text)

    def flush():
        if draws:
            seat, cards = draws[0], draws[1]
            out(f"seat {seat} draws {_cards(cards)}")
            draws.clear()

    for e in events:
        kind = e["event"]
        g = e.get
        if kind == "draw":
            if g("card") in NIGHTMARE_TEXT:
                flush()                   # the `nightmare` event that follows says it
                continue
            if draws and draws[0] == g("seat"):
                draws[1].append(g("card"))
            else:
                flush()
                draws.extend([g("seat"), [g("card")]])
            continue
        flush()
        if kind == "deal":
            dealt = True
            rows, cols = rules.board[0], rules.board[1]
            lines.append("The Stager's board (top row first):")
            lines.append(render(e["grid"], e["rot"], rows, cols, e["where"]))
            for seat, hand in enumerate(e["hands"]):
                lines.append(f"{who(seat)} starts in the {L[e['where'][seat]]} with "
                             f"{', '.join(KIND_NAMES[k] for k in hand)}")
            lines.extend(before_deal)
            continue
        if kind in ("decision", "card_played", "cards_settled"):
            continue
        if kind == "turn":
            n = e["actions"]
            lines.append(f"Turn {e['turn'] + 1}: {who(e['seat'])}, {n} action{'s' if n != 1 else ''}")
            continue
        if kind == "paralysed":
            lines.append(f"Turn {e['turn'] + 1}: {who(e['seat'])} is paralysed by the Midnight Horror "
                         f"(in its location) and skips the turn")
            continue
        text = _TEXT.get(kind)
        out(text(e) if text else f"{kind}: " + ", ".join(f"{k} {v}" for k, v in e.items()
                                                          if k not in ("event", "turn", "player")))
    flush()
    return "\n".join(lines if dealt else before_deal)


def event_lines(events, rules, seats) -> list[list[str]]:
    """The report's lines of each event on its own, one list per event (empty for a decision and
    the cards moving into and out of play): the text of `format_events`, except that each draw is
    its own line. A replay shows them beside the board (analyses.replay)."""
    events = list(events)
    deal = next((e for e in events if e["event"] == "deal"), None)
    head = [deal] if deal is not None else []
    skip = len(format_events(head, rules, seats).splitlines()) if head else 0
    out = []
    for e in events:
        if e is deal:
            out.append(format_events(head, rules, seats).splitlines())
            continue
        out.append(format_events(head + [e], rules, seats).splitlines()[skip:])
    return out


def _play(e) -> str:
    what, arg = e["play"], e.get("arg")
    if what == "Dreamwalk":
        return f"seat {e['actor']} plays a Dreamwalk ({DIRECTION_NAMES[arg]})"
    if what == "Vertigo":
        return f"seat {e['actor']} plays a Vertigo on the {L[arg]}"
    if what == "Midnight Star":
        return f"seat {e['actor']} plays a Midnight Star in the {L[arg]}"
    if what == "trap setting":
        return f"seat {e['actor']} plays a Suspense ({L[arg]}) with a face-down partner card"
    if what == "Dutch Angle (reduce)":
        return f"seat {e['actor']} plays a Dutch Angle against seat {arg}"
    if what == "Dutch Angle (extra action)":
        return f"seat {e['actor']} plays a Dutch Angle for an extra action"
    if what == "Dreamcatcher (steal)":
        return f"seat {e['actor']} plays a Dreamcatcher against seat {arg}"
    return f"seat {e['actor']} plays {what}"


def _turned(loc: int, op: int) -> str:
    """What a Vertigo operation did to a location."""
    if op < 4:
        return f"the {L[loc]} moves {OP_NAMES[op].split()[1]}"
    if op < 7:
        return f"the {L[loc]} rotates {OP_NAMES[op].split(' ', 1)[1]}"
    return f"the {L[loc]} stays where it is" if op == 7 else f"the {L[loc]} keeps its orientation"


def _nightmare_effect(e) -> str:
    card = e["card"]
    text = NIGHTMARE_TEXT.get(card, "takes effect")
    return f"the {card}: " + text.format(seats=_seats(e.get("seats", [])))


_TEXT = {
    "nightmares_in": lambda e: f"the six nightmares are shuffled into the deck ({e['deck']} cards)",
    "pass": lambda e: "ends the turn",
    "discard_action": lambda e: f"seat {e['seat']} discards a {e['card']} (an action)",
    "play": _play,
    "cancel": lambda e: f"seat {e['seat']} answers seat {e['against']} with a Dutch Angle (cancel)",
    "intercept": lambda e: f"seat {e['seat']} answers seat {e['against']} with a Dreamcatcher (intercept)",
    "cancelled": lambda e: f"seat {e['victim']}'s play is cancelled; its cards go to the discard pile",
    "intercepted": lambda e: f"seat {e['seat']} intercepts seat {e['victim']}'s {e['card']} into its hand",
    "intercepted_hand_card": lambda e: (f"seat {e['seat']} takes a card blindly from seat {e['victim']}'s hand"
                                        + (f": a {e['card']}" if "card" in e else "")),
    "walk": lambda e: f"seat {e['seat']} dreamwalks to the {L[e['to']]}",
    "vertigo": lambda e: _turned(e["location"], e["op"]),
    "trap_set": lambda e: (f"seat {e['seat']}'s trap is set face down"
                           + (f" on the {L[e['location']]} (the partner card: {e['card']})" if "card" in e else "")),
    "extra_action": lambda e: f"seat {e['seat']} gains an extra action now (one fewer next turn)",
    "reduce": lambda e: f"seat {e['target']} will have one action fewer next turn (and seat {e['seat']} too)",
    "steal": lambda e: (f"seat {e['seat']} takes a card blindly from seat {e['victim']}"
                        + (f": a {e['card']}" if "card" in e else "")),
    "activate": lambda e: f"the {L[e['location']]} is activated for seat {e['seat']}",
    "star_trap": lambda e: (f"seat {e['seat']}'s Midnight Star trap takes seat {e['victim']}'s activation "
                            f"of the {L[e['location']]}"),
    "teleport": lambda e: f"seat {e['seat']} goes through the Forest to the {L[e['to']]}",
    "square_take": lambda e: f"seat {e['seat']} takes a {e['card']} from the discard pile",
    "motel_look": lambda e: (f"seat {e['seat']} looks at seat {e['target']}'s cards: "
                             f"{_cards([KIND_NAMES[k] for k in e['hand']])}"),
    "motel_take": lambda e: f"seat {e['seat']} takes a {e['card']} from seat {e['target']}",
    "give": lambda e: f"seat {e['seat']} gives a {e['card']} to seat {e['target']}",
    "surplus_discard": lambda e: f"seat {e['seat']} discards a surplus {e['card']}",
    "mix": lambda e: (f"the Restaurant mixes the hands of {_seats(e['seats'])}"
                      + ("" if "hands" not in e else ": now " + "; ".join(
                          f"seat {q} holds {_cards(h)}" for q, h in zip(e["seats"], e["hands"])))),
    "restaurant_discard": lambda e: (f"the Restaurant discards {_cards(e['cards'])} blindly "
                                     f"from seat {e['target']}'s hand"),
    "th_discard": lambda e: f"seat {e['seat']} gets rid of the {e['card']}",
    "neutralised": lambda e: "the nightmares' effects are neutralised (the Black Nightmare's stays)",
    "no_wake": lambda e: f"seat {e['seat']} cannot wake up (a nightmare in hand, or the Horror)",
    "wake": lambda e: f"seat {e['winner']} WAKES UP on the Bridge and WINS",
    "horror_wins": lambda e: (f"the Midnight Horror, seat {e['winner']}, activates the Town Hall: "
                              f"every Midnighter loses; the Horror WINS"),
    "spring": lambda e: f"seat {e['seat']} springs its {e['kind']} trap on the {L[e['location']]}",
    "captured": lambda e: f"seat {e['seat']} plays seat {e['victim']}'s turn (Dreamcatcher trap)",
    "trap_move": lambda e: f"the Dreamwalk trap moves seat {e['target']} to the {L[e['to']]}",
    "trap_vertigo": lambda e: "the Vertigo trap: " + _turned(e["location"], e["op"]),
    "trap_swap": lambda e: f"seat {e['seat']} swaps places with seat {e['target']} (Dutch Angle trap)",
    "nightmare": lambda e: f"seat {e['seat']} draws the {e['card']}",
    "nightmare_blocked": lambda e: f"seat {e['seat']} is in the Town Hall: the nightmare does not take effect",
    "paralysed_now": lambda e: (f"seat {e['seat']} stands with the Midnight Horror: sleep paralysis ends the turn "
                                f"({e['actions_lost']} action{'s' if e['actions_lost'] != 1 else ''} lost)"),
    "nightmare_effect": _nightmare_effect,
    "exchange": lambda e: ("hands and traps pass counter-clockwise: " + "; ".join(
        f"seat {q} now holds {_cards(h)}" for q, h in zip(e["seats"], e["hands"]))),
    "gathered": lambda e: f"{_seats(e['seats'])} gather in the {L[e['to']]} (the drawer's location)",
    "remote_town_hall": lambda e: (f"seat {e['seat']}'s Midnight Star trap in the Town Hall neutralises "
                                   f"the {e['card']} seat {e['drawer']} drew"),
    "horror": lambda e: f"seat {e['seat']} becomes the MIDNIGHT HORROR",
    "placed": lambda e: (f"seat {e['seat']} is placed in the {L[e['to']]}"
                         + (f" by seat {e['by']}" if e.get("by", -1) >= 0 else " by chance")),
    "reshuffle": lambda e: f"the discard pile is shuffled into a new deck ({e['cards']} cards)",
    "timeout": lambda e: "the turn cap is reached: the game ends without a winner",
}
