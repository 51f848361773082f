"""Render the structured event log (GameResult.log) as text a person can follow.

Each event is a dict with at least `event`, `turn`, `player`; the kinds are listed in
dreamsim/RULES.md ("Event log").
"""
from __future__ import annotations

from .board import render
from .cards import KIND_NAMES, LOCATION_NAMES
from .actions import OP_NAMES


def format_events(events, rules, seats) -> str:
    L = LOCATION_NAMES

    def who(i):
        return f"seat {i} ({seats[i]})"

    lines = []
    for e in events:
        kind = e["event"]
        if kind == "deal":
            rows, cols = rules.board[0], rules.board[1]
            lines.append("The Stager's board (top row first):")
            lines.append(render(e["grid"], e["rot"], rows, cols, e["where"]))
            for seat, hand in enumerate(e["hands"]):
                lines.append(f"{who(seat)} starts in the {L[e['where'][seat]]} with "
                             f"{', '.join(KIND_NAMES[k] for k in hand)}")
            continue
        if kind == "decision":
            lines.append(f"    seat {e['player']} [{e['decision']}]: {e['text']}")
            continue
        if kind == "turn":
            lines.append(f"-- turn {e['turn'] + 1}: {who(e['seat'])}, {e['actions']} action(s) --")
            continue
        g = e.get
        text = {
            "nightmares_in": lambda: f"the six nightmares are shuffled into the deck ({g('deck')} cards)",
            "pass": lambda: "ends the turn",
            "discard_action": lambda: f"seat {g('seat')} discards {g('card')} (an action)",
            "play": lambda: f"seat {g('actor')} plays {g('play')}",
            "cancel": lambda: f"seat {g('seat')} answers with a Dutch Angle (cancel) against seat {g('against')}",
            "intercept": lambda: f"seat {g('seat')} answers with a Dreamcatcher (intercept) against seat {g('against')}",
            "cancelled": lambda: f"seat {g('victim')}'s card is cancelled and discarded",
            "intercepted": lambda: f"seat {g('seat')} intercepts seat {g('victim')}'s {g('card')}",
            "intercepted_hand_card": lambda: f"seat {g('seat')} takes a card from seat {g('victim')}'s hand",
            "walk": lambda: f"seat {g('seat')} dreamwalks to the {L[g('to')]}",
            "vertigo": lambda: f"Vertigo: the {L[g('location')]} — {OP_NAMES[g('op')]}",
            "trap_set": lambda: f"seat {g('seat')} prepares a trap (face down)",
            "extra_action": lambda: f"seat {g('seat')} takes an extra action (one fewer next turn)",
            "reduce": lambda: f"seat {g('seat')} costs seat {g('target')} an action next turn (and itself one)",
            "steal": lambda: f"seat {g('seat')} blindly takes a card from seat {g('victim')}",
            "activate": lambda: f"the {L[g('location')]} is activated for seat {g('seat')}",
            "star_trap": lambda: f"seat {g('seat')}'s Midnight Star trap steals seat {g('victim')}'s activation",
            "teleport": lambda: f"seat {g('seat')} goes through the Forest to the {L[g('to')]}",
            "square_take": lambda: f"seat {g('seat')} takes {g('card')} from the discard pile",
            "motel_look": lambda: f"seat {g('seat')} looks at seat {g('target')}'s cards",
            "motel_take": lambda: f"seat {g('seat')} takes {g('card')} from seat {g('target')}",
            "give": lambda: f"seat {g('seat')} gives {g('card')} to seat {g('target')}",
            "surplus_discard": lambda: f"seat {g('seat')} discards surplus {g('card')}",
            "mix": lambda: f"the Restaurant mixes the hands of seats {g('seats')}",
            "restaurant_discard": lambda: f"the Restaurant discards {g('cards')} from seat {g('target')}",
            "th_discard": lambda: f"seat {g('seat')} gets rid of the {g('card')}",
            "neutralised": lambda: "the nightmares' effects are neutralised (the Black Nightmare stays)",
            "no_wake": lambda: f"seat {g('seat')} cannot wake (a nightmare in hand, or the Horror)",
            "wake": lambda: f"{who(g('winner'))} WAKES UP on the Bridge and WINS",
            "horror_wins": lambda: f"the Midnight Horror, {who(g('winner'))}, activates the Town Hall: every Midnighter loses; the Horror WINS",
            "spring": lambda: f"seat {g('seat')} springs a trap on the {L[g('location')]}: {g('kind')}",
            "captured": lambda: f"seat {g('seat')} plays seat {g('victim')}'s turn (Dreamcatcher trap)",
            "trap_move": lambda: f"seat {g('seat')}'s Dreamwalk trap moves seat {g('target')} to the {L[g('to')]}",
            "trap_vertigo": lambda: f"seat {g('seat')}'s Vertigo trap: the {L[g('location')]} — {OP_NAMES[g('op')]}",
            "trap_swap": lambda: f"seat {g('seat')} swaps places with seat {g('target')} (Dutch Angle trap)",
            "nightmare": lambda: f"seat {g('seat')} draws the {g('card')}",
            "nightmare_blocked": lambda: f"seat {g('seat')} is in the Town Hall: the nightmare does not trigger",
            "nightmare_effect": lambda: f"the {g('card')} takes effect",
            "remote_town_hall": lambda: f"seat {g('seat')}'s Midnight Star trap in the Town Hall neutralises the {g('card')}",
            "horror": lambda: f"{who(g('seat'))} becomes the MIDNIGHT HORROR",
            "placed": lambda: f"seat {g('by')} places seat {g('seat')} in the {L[g('to')]}",
            "paralysed": lambda: f"seat {g('seat')} is paralysed by the Horror and skips the turn",
            "reshuffle": lambda: f"the discard pile is shuffled into a new deck ({g('cards')} cards)",
            "timeout": lambda: "the turn cap is reached: the game ends without a winner",
        }.get(kind, lambda: f"{kind} {e}")()
        lines.append(f"      {text}")
    return "\n".join(lines)
