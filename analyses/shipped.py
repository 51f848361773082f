"""Results shipped with the package: stored skill ladders and re-balancing studies that take too long
for the default report to play (a ladder is 20–30 minutes a game, a re-balancing study up to an hour).

`balancelab report` renders them next to what it simulates, each with its provenance (the command,
the date, the games played; the commit in the report's appendix) and the rules version it was measured under. A result
measured under another rules version than the installed game's, or a ladder whose rungs' policies
have other parameters now (a re-tuned `tuned`), is still shown, marked STALE, so a reader never
takes an old number for a current one. `--no-stored` leaves them out.

The folder `analyses/data/results/` holds `manifest.json` (one entry per result) and the results:

    ladders/<game>.json                       written by `balancelab ladder GAME --out FILE`
    sensitivity/<game>-<policy>.json          written by `balancelab sensitivity GAME --policies P --out FILE`
    studies/<game>/rebalance-<name>/          spec.json, study.journal, confirmation.json of
                                              `balancelab rebalance GAME --store DIR` (the
                                              confirmation's per-game rows are not shipped)

To ship a new result: run its command, copy the files here, and add its manifest entry (see the
folder's README.md). Nothing here is simulated; this module only reads.
"""
from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from pathlib import Path

from .games import resolve_policies
from .ladder import Ladder
from .metadata import policy_repr
from .rebalance_search import SPEC_FILE
from .rebalance_study import CONFIRM_FILE
from .sensitivity import load as load_sensitivity

SHIPPED_DIR = Path(__file__).parent / "data" / "results"
MANIFEST = "manifest.json"
KINDS = ("ladder", "rebalance", "sensitivity")
GAMES = ("nightsim", "dreamsim", "nerathsim")
FIELDS = ("kind", "game", "path", "rules_version", "command", "commit", "date")


@dataclass(frozen=True)
class Shipped:
    """One shipped result and where it came from."""

    kind: str            # "ladder", "rebalance" or "sensitivity"
    game: str            # module name: nightsim, dreamsim, nerathsim
    path: Path           # the ladder file or the study folder
    rules_version: str   # RULES_VERSION it was measured under
    command: str         # the command that produced it
    commit: str          # the balancelab commit it ran on
    date: str            # when (ISO date)
    note: str = ""       # anything a reader must know (e.g. the machine's load)

    @property
    def current_version(self) -> str:
        return str(importlib.import_module(self.game).RULES_VERSION)

    def changes(self, rungs=(), policy_reprs=None) -> list[str]:
        """What differs between the installed game and the one this was measured on: the rules version,
        and (given a ladder's rung labels and its stored policy reprs; for a re-balancing study, read from its
        spec.json) every policy that resolves to other parameters now."""
        out = []
        if self.rules_version != self.current_version:
            out.append(f"the installed game is rules version {self.current_version}")
        module = importlib.import_module(self.game)
        if self.kind == "rebalance" and not rungs:
            rungs, policy_reprs = self._study_policies()
        stored = set((policy_reprs or {}).values())
        for label in rungs:
            try:
                now = policy_repr(module, resolve_policies(module, [label], 1)[0])
            except ValueError:
                now = None
            if now not in stored:
                out.append(f"policy {label!r} " + ("no longer exists" if now is None else "has other parameters now"))
        return out

    def _study_policies(self) -> tuple:
        """(the policy names of a re-balancing study's line-up, their reprs when it was run) from its spec.json;
        ((), None) for a study stored without the reprs (its policies cannot be checked). A line-up entry that
        is no policy name or spec (a policy object, stored as its repr) is left out: it cannot be re-resolved."""
        try:
            spec = json.loads((self.path / SPEC_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return (), None
        reprs = spec.get("policy_reprs")
        if not isinstance(reprs, list):
            return (), None
        module = importlib.import_module(self.game)
        names = []
        for p in dict.fromkeys(spec.get("policies", ())):
            try:                          # a policy object given by value is stored as its repr: not a name
                resolve_policies(module, [p], 1)
            except (TypeError, ValueError):
                continue
            names.append(p)
        return names, dict(enumerate(reprs))

    @property
    def stale(self) -> bool:
        """Measured under another rules version than the installed game's, or with policies that have other
        parameters now."""
        return bool(self.changes())

    @property
    def games_played(self) -> int | None:
        """The games the result rests on (a ladder's games, a study's search and confirmation games)."""
        try:
            if self.kind == "ladder":
                return int(json.loads(self.path.read_text(encoding="utf-8"))["metadata"]["games_played"])
            if self.kind == "sensitivity":
                table = load_sensitivity(self.path)
                arms = table[["decision", "alternative"]].drop_duplicates()
                return int(table.attrs["games"]) * (len(arms) + len(table.attrs.get("baselines", [1])))
            timing = json.loads((self.path / CONFIRM_FILE).read_text(encoding="utf-8"))["timing"]
            return int(timing["games"])
        except (OSError, KeyError, TypeError, ValueError):
            return None

    def provenance(self, changes=None) -> str:
        """One sentence for the report in plain words: what this is, the command that made it, when, the
        games it rests on, and whether it is current. The manifest's `note` is for maintainers (how and
        where it was run) and is not shown; the commit is listed in the report's appendix (`details`)."""
        changes = self.changes() if changes is None else changes
        games = self.games_played
        played = f", {games:,} games played" if games else ""
        text = (f"Stored result shipped with balancelab (not simulated by this report): made by `{self.command}` "
                f"on {self.date}{played}, rules version {self.rules_version}.")
        if changes:
            text += f" STALE: {'; '.join(changes)}; re-run the command to measure the current game."
        return text

    def details(self) -> dict:
        """Where it came from, for the report's appendix: command, commit, date, rules version, games."""
        kind = {"ladder": "skill ladder", "sensitivity": "assumption sensitivity"}.get(self.kind, "re-balancing study")
        return {"kind": kind, "game": self.game,
                "command": self.command, "commit": self.commit, "date": self.date,
                "rules_version": self.rules_version, "games": self.games_played}


def manifest(folder=None) -> list[Shipped]:
    """The entries of `folder`'s manifest.json (default: the package's), checked; [] when there is none."""
    folder = Path(folder) if folder is not None else SHIPPED_DIR
    path = folder / MANIFEST
    if not path.exists():
        return []
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise ValueError(f"{str(path)!r} is not valid JSON: {e}") from e
    if not isinstance(entries, list):
        raise ValueError(f"{str(path)!r} must hold a list of entries, got {type(entries).__name__}")
    out = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ValueError(f"{str(path)!r} entry {i} must be an object, got {type(entry).__name__}")
        missing = [f for f in FIELDS if not isinstance(entry.get(f), str) or not entry.get(f)]
        if missing:
            raise ValueError(f"{str(path)!r} entry {i} lacks {', '.join(missing)} (each a non-empty string)")
        unknown = sorted(set(entry) - set(FIELDS) - {"note"})
        if unknown:
            raise ValueError(f"{str(path)!r} entry {i} has unknown field(s) {', '.join(unknown)}")
        if entry["game"] not in GAMES:
            raise ValueError(f"{str(path)!r} entry {i}: game must be one of {', '.join(GAMES)}, got {entry['game']!r}")
        if entry["kind"] not in KINDS:
            raise ValueError(f"{str(path)!r} entry {i}: kind must be one of {', '.join(KINDS)}, got {entry['kind']!r}")
        target = folder / entry["path"]
        if not target.exists():
            raise ValueError(f"{str(path)!r} entry {i}: {str(target)!r} does not exist")
        out.append(Shipped(entry["kind"], entry["game"], target, entry["rules_version"], entry["command"],
                           entry["commit"], entry["date"], entry.get("note", "")))
    return out


def shipped_ladders(games=None, folder=None) -> dict:
    """{game: Ladder} of the shipped ladders (of `games`, default all), each with its `Shipped` entry
    in `ladder.metadata["shipped"]` (provenance sentence and stale flag, for the report)."""
    out = {}
    for s in manifest(folder):
        if s.kind != "ladder" or (games is not None and s.game not in games):
            continue
        ladder = Ladder.load(s.path)
        changes = s.changes(ladder.metadata.get("ladder", ()), ladder.metadata.get("policy_reprs"))
        ladder.metadata["shipped"] = {"provenance": s.provenance(changes), "stale": bool(changes),
                                      "details": s.details()}
        out[s.game] = ladder
    return out


def shipped_sensitivity(games=None, folder=None) -> dict:
    """{game: {policy: table}} of the shipped sensitivity runs (`analyses.sensitivity.load`), each table with
    its provenance sentence, stale flag and details in ``attrs["shipped"]``. A run's policy is its first
    seat's (the runs put one policy in every seat); it is stale when that policy has other parameters now."""
    out = {}
    for s in manifest(folder):
        if s.kind != "sensitivity" or (games is not None and s.game not in games):
            continue
        table = load_sensitivity(s.path)
        policies = list(table.attrs.get("policies", []))
        policy = policies[0] if policies else ""
        changes = s.changes([policy] if policy else (), dict(enumerate(table.attrs.get("policy_reprs", []))))
        table.attrs["shipped"] = {"provenance": s.provenance(changes), "stale": bool(changes), "details": s.details()}
        out.setdefault(s.game, {})[policy] = table
    return out


def shipped_studies(game: str, folder=None) -> list[Shipped]:
    """The shipped re-balancing studies of `game` (folders holding a study's spec.json)."""
    studies = [s for s in manifest(folder) if s.kind == "rebalance" and s.game == game]
    for s in studies:
        if not (s.path / SPEC_FILE).exists():
            raise ValueError(f"shipped study {str(s.path)!r} holds no {SPEC_FILE}")
    return studies
