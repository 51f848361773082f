"""Replay pages: one self-contained HTML file per game, stepping through its event log with the board drawn.

    from analyses.replay import record_game
    from reports.replay import Replay
    Replay(record_game("nightsim", seed=3))          # Jupyter shows the page inline (_repr_html_)
    Replay(record).write("game.html")

Renders only: the board after each event is rebuilt from the `analyses.replay.GameRecord` (its log
and static tables) by the game's reducer (`nightmarium`, `midnighters`, `nerath`: a `Board` with
`apply(event)` and `state()`); the page gets the first state and, per step, the keys that changed.
Seats are numbered from 1 on the page, as everywhere for people: the engines' prose and logs count
them from 0 (the logs are a contract and stay so), so `people_seats` renumbers the prose's seats and
the page's script adds 1 to every seat it labels (its data attributes keep the logs' numbers).
"""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

import jinja2
from markupsafe import Markup

from analyses import safe_io

from . import geometry, midnighters, nerath, nightmarium

BOARDS = {"nightsim": nightmarium.Board, "dreamsim": midnighters.Board, "nerathsim": nerath.Board}
#: events that are not steps of their own: what was chosen is said by the event that follows
SILENT = frozenset({"decision"})
#: seat numbers in the engines' prose: "seat 0", "seat 0's", Nerath's alliance "seat 1+3", a list "seats 0, 2"
SEAT_WORDS = re.compile(r"\b(?P<word>[Ss]eats) (?P<list>\d+(?:, \d+)*)\b|\b(?P<one>[Ss]eat) (?P<seats>\d+(?:\+\d+)*)\b")
#: event fields that hold a seat (as the logs number them, from 0), for the line of an event without prose
SEAT_FIELDS = frozenset({"seat", "victim", "target", "against", "winner", "actor", "owner"})

_ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("reports", "templates"),
    autoescape=jinja2.select_autoescape(["html", "j2"], default=True),
    undefined=jinja2.StrictUndefined,
)


def final_board(record):
    """The game's `Board` after the last event (what the tests compare with the engine's state)."""
    board = _board(record)
    for e in record.log:
        board.apply(e)
    return board


def _board(record):
    try:
        return BOARDS[record.game](record)
    except KeyError:
        raise ValueError(f"no replay board for game {record.game!r}; boards exist for {', '.join(BOARDS)}") from None


def page_data(record) -> dict:
    """What the page's script reads: the steps (event index, turn, kind, report lines), the first
    state and each step's changes ([changed keys and values, removed keys])."""
    board = _board(record)
    steps, diffs, first, before, waiting = [], [], None, {}, []
    for i, (e, lines) in enumerate(zip(record.log, record.lines)):
        board.apply(e)
        lines = [people_seats(line) for line in lines]
        if e["event"] in SILENT:
            continue
        if not getattr(board, "started", True):      # before the deal (Nerath's starting hands): said with it
            waiting += lines or [_plain(e)]
            continue
        lines, waiting = waiting + list(lines), []
        now = board.state()
        if first is None:
            first = now
        else:
            changed = {k: v for k, v in now.items() if before.get(k, _MISSING) != v}
            diffs.append([changed, [k for k in before if k not in now]])
        before = now
        steps.append({"i": i, "kind": e["event"], "turn": now.get("turn", 0),
                      "lines": lines or [_plain(e)]})
    return {"game": record.game, "title": record.title, "seats": record.seats, "source": record.source,
            "result": record.result, "context": _page_context(record), "steps": steps, "first": first or {},
            "diffs": diffs}


_MISSING = object()


def people_seats(text: str) -> str:
    """`text` of an engine's prose with its seats numbered from 1 ("seat 0 draws" -> "seat 1 draws")."""
    def renumber(m) -> str:
        word, numbers = (m["word"], m["list"]) if m["word"] else (m["one"], m["seats"])
        return f"{word} " + re.sub(r"\d+", lambda n: str(int(n.group()) + 1), numbers)
    return SEAT_WORDS.sub(renumber, text)


def _plain(e) -> str:
    """A one-line stand-in for an event the report folds into another line (e.g. a card moving into play);
    its seats numbered from 1 like the prose."""
    fields = ", ".join(_field(e, k, v) for k, v in e.items()
                       if k not in ("event", "turn", "player", "round", "turn_realm"))
    return f"  ({e['event'].replace('_', ' ')}{': ' + fields if fields else ''})"


def _field(e, key: str, value) -> str:
    seat = key in SEAT_FIELDS or (key == "to" and e["event"] == "cards_settled")   # Midnighters: to a seat, or -1
    if not seat or isinstance(value, bool) or not isinstance(value, int):
        return f"{key} {value}"
    if value < 0:
        return f"{key} the discard pile" if key == "to" else f"{key} none"
    return f"seat {value + 1}" if key == "seat" else f"{key} seat {value + 1}"


def _page_context(record) -> dict:
    ctx = dict(record.context)
    if record.game == "nerathsim":
        ctx["geometry"] = geometry.map_geometry(ctx)
    return ctx


def render(record) -> str:
    """The replay page of `record` as one self-contained HTML document (inline CSS, JS and SVG)."""
    data = json.dumps(page_data(record), separators=(",", ":")).replace("</", "<\\/")
    return _ENV.get_template("replay.html.j2").render(
        title=f"{record.title}: {record.source}", record=record, data=Markup(data))


class Replay:
    """A recorded game as a replay page: `write(path)`, and shown inline by Jupyter."""

    def __init__(self, record):
        self.record = record

    def html(self) -> str:
        return render(self.record)

    def write(self, path) -> Path:
        out = Path(path)
        out.parent.mkdir(parents=True, exist_ok=True)
        return safe_io.write_text(out, self.html())  # an exclusive temporary file, renamed: no link followed

    def _repr_html_(self) -> str:
        # an iframe keeps the page's script and keyboard handling apart from the notebook's
        return (f'<iframe srcdoc="{html.escape(self.html(), quote=True)}" style="width:100%;height:760px;'
                f'border:1px solid #ccc" title="replay"></iframe>')


def write_replays(records: dict, folder) -> dict:
    """Write one page per record into `folder` (`<game>.html`); returns {game: path}."""
    return {game: Replay(record).write(Path(folder) / f"{game}.html") for game, record in records.items()}
