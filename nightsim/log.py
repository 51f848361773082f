"""Render the structured event log (GameResult.log) as text a person can follow.

Each event is a dict with at least `event`, `turn`, `player`; the kinds and their fields are
listed in nightsim/RULES.md ("Event log").
"""
from __future__ import annotations

from .rules import Rules


def format_events(events, rules: Rules, seats) -> str:
    cards = rules.table.cards

    def c(i):
        return repr(cards[i])

    def cs(ids):
        return ", ".join(c(i) for i in ids) or "nothing"

    lines = []
    last_turn = None
    for e in events:
        kind, p = e["event"], e["player"]
        if kind == "deal":
            for seat, hand in enumerate(e["hands"]):
                lines.append(f"Seat {seat} ({seats[seat]}) is dealt {cs(hand)}")
            continue
        if kind == "decision":
            if e["turn"] != last_turn and e["decision"] == "turn action":
                last_turn = e["turn"]
                lines.append(f"-- turn {e['turn'] + 1}: seat {p} ({seats[p]}) --")
            lines.append(f"  seat {p} [{e['decision']}]: {e['text']}")
            continue
        text = {
            "draw": lambda: f"draws {cs(e['cards'])}",
            "discard_draw": lambda: f"discards {cs(e['discarded'])} and draws {cs(e['drew'])}",
            "play": lambda: f"places {c(e['card'])}",
            "complete": lambda: f"completes a {'PURE ' if e['pure'] else ''}creature: {cs(e['cards'])}",
            "ability": lambda: f"{e['ability']} activates ({c(e['card'])})",
            "ability_failed": lambda: f"{e['ability']} cannot be carried out ({c(e['card'])}); activation stops",
            "herald_reveal": lambda: f"Herald turns over {cs(e['cards'])}",
            "herald_place": lambda: f"Herald places {c(e['card'])}",
            "herald_discard": lambda: f"Herald discards {cs(e['cards'])}",
            "executioner": lambda: f"Executioner takes {c(e['card'])} from seat {e['victim']}",
            "scavenger": lambda: f"Scavenger discards seat {e['victim']}'s creature {cs(e['cards'])}",
            "scavenger_declined": lambda: "Scavenger declined",
            "devourer": lambda: f"Devourer discards {c(e['card'])}",
            "penalty_discard": lambda: f"seat {e['victim']} gives up {c(e['card'])} to the pure-legion penalty",
            "seal": lambda: f"seals creature {e['creature']} of seat {e['owner']} with {c(e['card'])}",
            "reshuffle": lambda: f"the discard pile is shuffled into a new deck ({e['cards']} cards)",
            "win": lambda: f"seat {e['winner']} ({seats[e['winner']]}) WINS",
            "timeout": lambda: "the turn cap is reached: the game ends without a winner",
        }.get(kind, lambda: f"{kind} {e}")()
        lines.append(f"    {text}")
    return "\n".join(lines)
