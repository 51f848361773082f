"""Render the structured event log (GameResult.log) as a game report a person can follow.

One line per event, in words: turn headers numbered like `GameResult.turns`, card and guardian
names, every roll of a battle with its dice and hits, the casualties, and each realm's luck
(explained once at the top). `decision` events are not printed: the events they cause say what
happened (they are kept in the log for replays). The event kinds and their fields are listed in
nerathsim/RULES.md (Part II, (e)).
"""
from __future__ import annotations

from .rules import Rules

LUCK_NOTE = ("(luck: in each battle, the gold a realm's dice destroyed beyond what that roll was expected to "
             "destroy, minus its own gold lost beyond expectation; 0 on average, + is good fortune)")

#: effect events printed under the card line that caused them (the engine logs them first)
_CARD_EFFECTS = ("card_units", "card_move", "card_gold", "card_vp")


def realm_name(r) -> str:
    return str(r).replace("_", " ").title() if r is not None else "nobody"


def unit_text(name: str, count: int = 1) -> str:
    words = name.replace("_", " ")
    return f"{count} {words}{'s' if count != 1 else ''}"


def a_unit(name: str) -> str:
    words = name.replace("_", " ")
    return f"{'an' if words[0] in 'aeiou' else 'a'} {words}"


def _bonus_words(effect: str) -> str:
    """'battle_bonus(unit=footsoldier, bonus=extra_dice, amount=1)' -> 'footsoldiers get extra dice +1'."""
    inside = str(effect)[str(effect).find("(") + 1:-1]
    params = dict(p.split("=", 1) for p in inside.split(", ") if "=" in p)
    unit = params.get("unit", "any")
    who = "every unit" if unit == "any" else unit.replace("_", " ") + "s"
    what = params.get("bonus", "a bonus").replace("_", " ")
    amount = f" +{params['amount']}" if params.get("amount") not in (None, "None") and what != "first strike" else ""
    return f"{who} get {what}{amount} in this battle"


def event_lines(events, rules: Rules, seats) -> list[list[str]]:
    """The report's lines of each event on its own, one list per event (empty for a decision): the
    text of `format_events`, each card effect under its own event rather than under the card's
    line. A replay shows them beside the board (analyses.replay)."""
    return [format_events([e], rules, seats).splitlines() if e["event"] != "decision" else [] for e in events]


def format_events(events, rules: Rules, seats) -> str:
    names = rules.board.names
    unit_names = rules.units.names
    cs = rules.cards if (rules.events or rules.dungeons) else None
    card_names = {c.key: c.name for c in cs.cards} if cs is not None else {}
    guardian_names = {g.key: g.name for g in cs.guardians} if cs is not None else {}

    def reg(i):
        return names[i] if isinstance(i, int) and 0 <= i < len(names) else str(i)

    def units(d):
        return ", ".join(unit_text(u, c) for u, c in d.items() if c) or "nothing"

    def cargo(lst):
        counts: dict = {}
        for u in lst:
            n = unit_names[u] if isinstance(u, int) else u
            counts[n] = counts.get(n, 0) + 1
        return units(counts)

    def card(key):
        return card_names.get(key, str(key).replace("_", " "))

    def rn(r):
        return realm_name(r)

    def dice(d):
        return ", ".join(f"{n} {u.replace('_', ' ')} {'die' if n == 1 else 'dice'}" for u, n in d.items()) or "no dice"

    def side(k):
        return "the guardians" if k == "guardians" else rn(k)

    def hit(e):
        who = rn(e["realm"]) if e["realm"] != "guardians" else "the guardians"
        u = e["unit"]
        if u.startswith("damage:"):
            text = f"      {who}'s {u[len('damage:'):].replace('_', ' ')} is wounded"
        else:
            text = f"      {who} loses {a_unit(u)}"
        if e["drowned"]:
            text += f"; {units(e['drowned'])} drown{'s' if sum(e['drowned'].values()) == 1 else ''} with it"
        return text + (" (its choice)" if e["chosen"] else "")

    def capture(e):
        text = f"  {rn(e['realm'])} takes {reg(e['region'])} from {rn(e['from_realm'])}"
        if e["to_realm"] != e["realm"]:
            text += f" for its ally {rn(e['to_realm'])}"
        how = {"battle": "", "walk_in": " (walked in)", "amok": " (a monster ran amok)"}.get(e["how"], "")
        return text + how + (f", +{e['vp']} VP" if e["vp"] else "")

    def battle_end(e):
        outcome = {"attacker_wins": "the attacker wins", "defender_wins": "the defender holds",
                   "draw": "both sides are wiped out"}.get(e["outcome"], e["outcome"])
        rounds = f"{e['rounds']} round{'s' if e['rounds'] != 1 else ''}"
        lucks = e.get("lucks") or {e["realm"]: e["luck"]}
        luck = ", ".join(f"{rn(k)} {v:+.2f}" for k, v in lucks.items())
        left = f"; the attacker keeps {units(e['attacker'])}" if e["attacker"] else ""
        return f"    -> {outcome} after {rounds}{left}; luck {luck} gold"

    def card_line(e):
        where = f" at {reg(e['target'])}" if e["target"] >= 0 else ""
        src = f" (from {reg(e['source'])})" if e["source"] >= 0 else ""
        weak = f", weakened by {e['weakened']}" if e["weakened"] else ""
        none = ": no effect" if not e["effects"] else ""
        bonus = [_bonus_words(x) for x in e["effects"] if str(x).startswith("battle_bonus")]
        bonus = f": {'; '.join(bonus)}" if bonus else ""
        return f"  {rn(e['realm'])} plays {card(e['card'])}{where}{src}{weak}{none}{bonus}"

    def reaction(e):
        what = "cancels it" if str(e["effect"]).startswith("cancel") else "weakens it"
        return f"  {rn(e['realm'])} answers {card(e['against'])} with {card(e['card'])} ({what})"

    def setup(e):
        gold = ", ".join(f"{rn(r)} {g}" for r, g in zip(("karkoth", "vailin", "iron_circle", "nerath"), e["gold"]))
        tokens = e.get("guardians", {})
        text = f"Setup: gold {gold}; {e['hands'][0]} event cards each"
        if tokens:
            text += f"; a face-down guardian on each of {len(tokens)} dungeons"
        return text

    def draw(e):
        why = {"start": " (starting hand)", "card": ""}.get(e.get("source"), "")
        return f"{'    ' if e.get('source') == 'card' else '  '}{rn(e['realm'])} draws {card(e['card'])}{why}"

    text_of = {
        "setup": setup,
        "turn": lambda e: (f"== Turn {e['turn']} (round {e['round']}): {rn(e['realm'])}, {e['gold']} gold, {e['vp']} VP =="
                           if "turn" in e else f"== Round {e['round']}: {rn(e['realm'])}, {e['gold']} gold, {e['vp']} VP =="),
        "draw": draw,
        "reshuffle": lambda e: f"  {rn(e['realm'])} shuffles its {e['cards']} used event cards into a new deck",
        "move": lambda e: f"  {units({e['unit']: e['count']})} move {reg(e['src'])} -> {reg(e['dst'])}",
        "embark": lambda e: f"  {a_unit(e['unit'])} at {reg(e['src'])} boards warship {e['ship']} in {reg(e['sea'])}",
        "sail": lambda e: f"  warship {e['ship']} sails {reg(e['src'])} -> {reg(e['dst'])}",
        "unload": lambda e: (f"  warship {e['ship']} lands {cargo(e['units'])} from {reg(e['sea'])} on {reg(e['dst'])}"
                             f"{' after the sea battle' if e.get('landing') else ''}"),
        "landing_declared": lambda e: (f"  warship {e['ship']} will land {cargo(e['units'])} on {reg(e['dst'])} "
                                       f"if the sea battle in {reg(e['sea'])} is won"),
        "end_movement": lambda e: "  (movement ends)",
        "dungeon": lambda e: (f"  DUNGEON {reg(e['region'])}: {units(e['heroes'])} turn the tokens over and fight "
                              f"{', '.join(guardian_names.get(g, g) for g in e['guardians'])}"),
        "dungeon_empty": lambda e: f"  the heroes in {reg(e['region'])} find no guardian",
        "dungeon_won": lambda e: (f"    -> the guardians are defeated after {e['rounds']} round(s)"
                                  f"{', +%d gold' % e['gold'] if e['gold'] else ''}; heroes left: {units(e['heroes'])}"),
        "dungeon_lost": lambda e: (f"    -> the guardians hold {reg(e['region'])} after {e['rounds']} round(s); "
                                   f"heroes left: {units(e['heroes'])}"),
        "dungeon_fled": lambda e: f"    -> {units(e['units'])} flee to {reg(e['dst'])}; the guardians stay",
        "dungeon_closed": lambda e: f"  {reg(e['region'])} has given {e['treasures']} treasures and is closed",
        "guardians_placed": lambda e: f"  {len(e['tokens'])} face-down guardian(s) now wait in {reg(e['region'])}",
        "treasure": lambda e: f"    {rn(e['realm'])} draws the treasure {card(e['card'])}{' (%d VP)' % e['vp'] if e['vp'] else ''}",
        "no_treasure": lambda e: f"    the treasure deck is empty: {rn(e['realm'])} draws nothing",
        "card": card_line,
        "card_cancelled": lambda e: f"  {rn(e['realm'])}'s {card(e['card'])} is cancelled",
        "reaction": reaction,
        "card_units": lambda e: f"    {units({e['unit']: e['count']})} appear{'s' if e['count'] == 1 else ''} at {reg(e['region'])}",
        "card_move": lambda e: f"    {units(e['units'])} move {reg(e['src'])} -> {reg(e['dst'])} (not a move)",
        "card_gold": lambda e: f"    {rn(e['realm'])} gains {e['gold']} gold (now {e['total']})",
        "card_vp": lambda e: f"    {rn(e['realm'])} gains {e['vp']} VP (now {e['total']})",
        "pass": lambda e: f"  {rn(e['realm'])} keeps its cards ({e['window']})",
        "battle": lambda e: (f"  BATTLE at {reg(e['region'])}{' (sea)' if e['at_sea'] else ''}: {rn(e['realm'])} "
                             f"with {units(e['attacker'])} against "
                             + "; ".join(f"{rn(k)} with {units(v)}" for k, v in e['defenders'].items())),
        "roll": lambda e: (f"    round {e['battle_round']}{', first strike' if e['step'] == 'first_strike' else ''}: "
                           + "; ".join(f"{side(k)} roll{'s' if k != 'guardians' else ''} {dice(e['dice'][k])} -> "
                                       f"{h} hit{'s' if h != 1 else ''}" for k, h in e["hits"].items())
                           + ("" if "hits_by_wound" not in e else " (heroes' hits by wound value reached: "
                              + ", ".join(f"{n} on {w}+" for w, n in e["hits_by_wound"].items()) + ")")),
        "hit": hit,
        "casualty_order": lambda e: f"    {rn(e['realm'])} will take casualties in the order '{e['order']}'",
        "press_on": lambda e: "    the attacker presses on",
        "retreat": lambda e: f"    {rn(e['realm'])} retreats {units(e['units'])} to {reg(e['dst'])}",
        "battle_end": battle_end,
        "capture": capture,
        "amok": lambda e: f"  {a_unit(e['unit'])} runs amok from {reg(e['src'])} into {reg(e['dst'])}",
        "amok_declined": lambda e: "  no (more) running amok",
        "flyers_lost": lambda e: (f"  {units({e['unit']: e['count']})} at {reg(e['region'])} find no friendly land "
                                  f"and are lost"),
        "end_regroup": lambda e: "  (regroup ends)",
        "buy": lambda e: f"  buys {a_unit(e['unit'])} at {reg(e['at'])} (gold left {e['gold']})",
        "cargo_lost": lambda e: f"  land units left aboard at {reg(e['region'])} are lost: {cargo(e['units'])}",
        "income": lambda e: f"  {rn(e['realm'])} collects {e['gold']} gold (now {e['total']})",
        "tie": lambda e: (f"-- tie on victory points between {' and '.join('+'.join(rn(x) for x in g) for g in e['vp'])}: "
                          f"one more full round --" if "vp" in e else
                          f"-- tie on treasures between {' and '.join('+'.join(rn(x) for x in g) for g in e['treasures'])}: "
                          f"one more full round --"),
        "win": lambda e: (f"== {' + '.join(rn(r) for r in e['realms'])} (seat {'+'.join(map(str, e['seats']))}) "
                          f"win with {' + '.join(map(str, e['vp']))} VP =="),
        "timeout": lambda e: f"== the round cap ({e['rounds']} rounds) is reached: no winner ==",
    }

    lines = []
    pending: list = []          # effect lines of the card being resolved, printed under it
    for e in events:
        kind = e["event"]
        if kind == "decision":
            continue
        fn = text_of.get(kind)
        if fn is None:
            line = f"  {kind.replace('_', ' ')}: " + ", ".join(f"{k} {v}" for k, v in e.items()
                                                                if k not in ("event", "round", "turn_realm"))
        else:
            line = fn(e)
        if kind in _CARD_EFFECTS or (kind == "draw" and e.get("source") == "card"):
            pending.append(line)
            continue
        if kind == "card":
            lines.append(line)
            lines += pending
            pending = []
            continue
        lines += pending
        pending = []
        lines.append(line)
        if kind == "setup":
            lines.append(LUCK_NOTE)
    lines += pending
    return "\n".join(lines)
