"""Render the structured event log (GameResult.log) as text a person can follow.

Each event is a dict with at least `event`, `round`, `turn_realm`; the kinds and their fields
are listed in nerathsim/RULES.md (Part II) ("Event log").
"""
from __future__ import annotations

from .game_rules import Rules


def format_events(events, rules: Rules, seats) -> str:
    names = rules.board.names

    def reg(i):
        return names[i] if isinstance(i, int) and i >= 0 else str(i)

    def units(d):
        return ", ".join(f"{c} {u}" for u, c in d.items()) or "nothing"

    unit_names = rules.units.names

    def cargo(lst):
        return ", ".join(unit_names[u] for u in lst) or "nothing"

    lines = []
    for e in events:
        kind = e["event"]
        if kind == "decision":
            continue   # the engine events below say what happened; decisions are kept for replays
        text = {
            "setup": lambda: (f"setup: gold {e['gold']}, event cards in hand {e['hands']}, guardian tokens "
                              f"{e.get('guardians', {})}"),
            "turn": lambda: f"== round {e['round']}: {e['realm']} (gold {e['gold']}, {e['vp']} VP) ==",
            "draw": lambda: f"{e['realm']} draws event card {e['card']}",
            "reshuffle": lambda: f"{e['realm']} shuffles {e['cards']} used event cards into a new deck",
            "move": lambda: f"  move {e['count']} {e['unit']}: {reg(e['src'])} -> {reg(e['dst'])}",
            "embark": lambda: f"  {e['unit']} at {reg(e['src'])} boards warship {e['ship']} in {reg(e['sea'])}",
            "sail": lambda: f"  warship {e['ship']} sails {reg(e['src'])} -> {reg(e['dst'])}",
            "unload": lambda: (f"  warship {e['ship']} lands {cargo(e['units'])} from {reg(e['sea'])} on "
                               f"{reg(e['dst'])}{' (after the sea battle)' if e.get('landing') else ''}"),
            "landing_declared": lambda: (f"  warship {e['ship']} will land {cargo(e['units'])} on {reg(e['dst'])} "
                                         f"if the sea battle in {reg(e['sea'])} is won"),
            "end_movement": lambda: "  (movement ends)",
            "dungeon": lambda: (f"  DUNGEON {reg(e['region'])}: {units(e['heroes'])} turn over and fight "
                                f"{', '.join(e['guardians'])}"),
            "dungeon_empty": lambda: f"  heroes in {reg(e['region'])} find no guardian",
            "dungeon_won": lambda: (f"    -> the guardians are defeated after {e['rounds']} round(s)"
                                    f"{', +%d gold' % e['gold'] if e['gold'] else ''}; heroes left: {units(e['heroes'])}"),
            "dungeon_lost": lambda: (f"    -> the guardians hold {reg(e['region'])} after {e['rounds']} round(s); "
                                     f"heroes left: {units(e['heroes'])}"),
            "dungeon_fled": lambda: f"    -> {units(e['units'])} flee to {reg(e['dst'])}; the guardians stay",
            "dungeon_closed": lambda: f"  {reg(e['region'])} has given {e['treasures']} treasures and is closed",
            "treasure": lambda: f"    {e['realm']} draws treasure {e['card']}{' (%d VP)' % e['vp'] if e['vp'] else ''}",
            "no_treasure": lambda: f"    the treasure deck is empty: {e['realm']} draws nothing",
            "card": lambda: (f"  {e['realm']} plays {e['card']}"
                             f"{' at ' + reg(e['target']) if e['target'] >= 0 else ''}"
                             f"{' from ' + reg(e['source']) if e['source'] >= 0 else ''}: "
                             f"{'; '.join(e['effects']) or 'no effect'}"
                             f"{' (weakened by %d)' % e['weakened'] if e['weakened'] else ''}"),
            "card_cancelled": lambda: f"  {e['realm']}'s {e['card']} is cancelled",
            "reaction": lambda: f"  {e['realm']} answers {e['against']} with {e['card']} ({e['effect']})",
            "card_units": lambda: f"    {e['count']} {e['unit']} appear at {reg(e['region'])}",
            "card_move": lambda: f"    {units(e['units'])} move {reg(e['src'])} -> {reg(e['dst'])} (not a move)",
            "pass": lambda: f"  {e['realm']} keeps its cards ({e['window']})",
            "battle": lambda: (f"  BATTLE at {reg(e['region'])}{' (sea)' if e['at_sea'] else ''}: "
                               f"{units(e['attacker'])} against "
                               + "; ".join(f"{k}: {units(v)}" for k, v in e['defenders'].items())),
            "casualty_order": lambda: f"    {e['realm']} takes casualties {e['order']} first",
            "press_on": lambda: "    the attacker presses on",
            "retreat": lambda: f"    {e['realm']} retreats {units(e['units'])} to {reg(e['dst'])}",
            "battle_end": lambda: (f"    -> {e['outcome'].replace('_', ' ')} after {e['rounds']} round(s); "
                                   f"attacker left: {units(e['attacker'])}; luck {e['luck']:+.2f} gold"),
            "capture": lambda: (f"  {e['realm']} takes {reg(e['region'])} from {e['from_realm']}"
                                f"{' for ' + e['to_realm'] if e['to_realm'] != e['realm'] else ''}"
                                f" ({e['how'].replace('_', ' ')}){', +%d VP' % e['vp'] if e['vp'] else ''}"),
            "amok": lambda: f"  a {e['unit']} runs amok from {reg(e['src'])} into {reg(e['dst'])}",
            "amok_declined": lambda: "  no (more) running amok",
            "flyers_lost": lambda: f"  {e['count']} {e['unit']} at {reg(e['region'])} find no friendly land and are lost",
            "end_regroup": lambda: "  (regroup ends)",
            "buy": lambda: f"  buys a {e['unit']} at {reg(e['at'])} (gold left {e['gold']})",
            "cargo_lost": lambda: f"  land units aboard at {reg(e['region'])} are lost: {cargo(e['units'])}",
            "income": lambda: f"  {e['realm']} collects {e['gold']} gold (now {e['total']})",
            "tie": lambda: (f"-- tie on victory points between {e['vp']}: one more full round --" if "vp" in e else
                            f"-- tie on treasures between {e['treasures']}: one more full round --"),
            "win": lambda: f"== {' + '.join(e['realms'])} (seat {'+'.join(map(str, e['seats']))}) WIN with VP {e['vp']} ==",
            "timeout": lambda: f"== the round cap ({e['rounds']} rounds) is reached: no winner ==",
        }.get(kind, lambda: f"{kind} {e}")()
        lines.append(text)
    return "\n".join(lines)
