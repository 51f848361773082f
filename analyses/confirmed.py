"""Confirmed rule changes: what a stored re-balancing study proved, as a table the findings can cite.

A re-balancing study (`balancelab rebalance --store DIR`, or one shipped with the package in
`analyses/data/results/`) ends with a confirmation run: fresh games of the published rules and of
the proposed change, each measure with its 95% interval and the target band it must reach.
`confirmed_table(store)` reads that run (no games are played) and returns one row per measure,
seats numbered from 1 for people (`seat 1 win rate`), with the change in words in
``table.attrs``; `with_confirmed(study, stores)` puts each confirmed change into its game's tables
and regenerates the findings, so the change is stated in Findings next to the imbalance it fixes.
"""
from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pandas as pd

from .findings import game_findings, study_findings

TITLE = "Confirmed rule change"
CONFIRM_FILE = "confirmation.json"
COLUMNS = ["measure", "seat", "before", "before_low", "before_high", "after", "after_low", "after_high", "n",
           "target_low", "target_high", "within_before", "within_after"]

#: a knob's new value in words (the designer's view of the Rules field): (one, several); {v} is the value
KNOB_WORDS = {
    "reduced_first_turn_seats": ("the first player takes one action fewer on the first turn",
                                 "the first {v} players each take one action fewer on their first turn"),
    "extra_first_turn_seats": ("the first player takes one action more on the first turn",
                               "the first {v} players each take one action more on their first turn"),
    "reduced_first_turn_last_seats": ("the last player takes one action fewer on the first turn",
                                      "the last {v} players each take one action fewer on their first turn"),
    "first_turn_fewer_actions": ("the starting player takes one action fewer on the first turn",
                                 "the starting player takes {v} actions fewer on the first turn"),
    "last_seat_extra_cards": ("the last player is dealt one extra card", "the last player is dealt {v} extra cards"),
    "hand_size": ("every player is dealt 1 card", "every player is dealt {v} cards"),
    "stager": ("who places the Midnighters after the Colourless Nightmare: {v}",) * 2,
    "start": ("starting position: {v}",) * 2,
}


def knob_words(knob: str, value) -> str:
    """'hand_size', 7 -> 'every player is dealt 7 cards' (a field without words: 'hand size = 7')."""
    shown = str(value).replace("_", " ")
    if knob not in KNOB_WORDS:
        return f"{knob.replace('_', ' ')} = {shown}"
    one, several = KNOB_WORDS[knob]
    return (one if str(value) == "1" else several).format(v=shown)


def confirmed_table(store) -> pd.DataFrame | None:
    """The confirmation run of the study stored in `store`, or None when it has none or it did not
    meet its objective (a change that failed its confirmation is not a fix)."""
    path = Path(store) / CONFIRM_FILE
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    if not data.get("meets") or data.get("confirm_seed") is None:
        return None
    changed = [p for p in data.get("proposal", []) if p.get("changed")]
    if not changed:
        return None
    rows = []
    for r in data.get("table", []):
        measure = str(r["measure"])
        seat = re.match(r"^seat (\d+) win rate$", measure)
        rows.append({"measure": f"seat {int(seat.group(1)) + 1} win rate" if seat else measure,
                     "seat": int(seat.group(1)) + 1 if seat else None,
                     **{c: r.get(c) for c in COLUMNS if c not in ("measure", "seat")}})
    table = pd.DataFrame(rows, columns=COLUMNS)
    table.attrs.update({
        "code": ", ".join(f"{p['knob']}={p['proposed']}" for p in changed),
        "words": "; ".join(knob_words(p["knob"], p["proposed"]) for p in changed),
        "published": ", ".join(f"{p['knob']}={p['published']}" for p in changed),
        "knobs": len(changed), "games": int(data.get("confirm_games") or table["n"].max()),
    })
    return table


def with_confirmed(study, stores: dict):
    """`study` with each game's confirmed changes (`stores`: game -> [(store folder, shipped entry or
    None)]) among its tables (``extra``: "Confirmed rule change: CODE") and its findings regenerated."""
    games = dict(study.games)
    for name, entries in stores.items():
        g = games.get(name)
        if g is None:
            continue
        extra, added = dict(g.extra), False
        for store, entry in sorted(entries, key=lambda e: _knobs(e[0])):
            table = confirmed_table(store)
            if table is None:
                continue
            if entry is not None:
                table.attrs["shipped"] = entry
            extra[f"{TITLE}: {table.attrs['code']}"] = table
            added = True
        if added:
            g = dataclasses.replace(g, extra=extra)
            games[name] = dataclasses.replace(g, findings=game_findings(g))
    return dataclasses.replace(study, games=games, findings=study_findings(games))


def _knobs(store) -> int:
    table = confirmed_table(store)
    return table.attrs["knobs"] if table is not None else 0
