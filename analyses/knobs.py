"""Knobs: the rule fields and data entries a re-balancing search may turn, with type, range and step.

A knob is a dotted path into a game's `Rules`: ``hand_size`` (a field), ``battle.units.dragon.cost``
(a unit's price in Nerath's unit table), ``map.realm_gold.karkoth`` (a realm's starting gold on
Nerath's loaded map). Each game declares its own in ``<game>/knobs.py`` (``nightsim.KNOBS``, ...)
as plain data; a user declares more on the command line (``--knobs hand_size=3:7:1,bias=-0.5:1:0.1``)
or in a TOML/JSON file (``[knobs.hand_size] low = 3 ...``). Every knob is checked against the
published rules before any game is played: an unknown field, a non-numeric field, a range that
does not hold the published value's type, ``low > high`` or a step that is not positive raises a
ValueError naming the knob.

Walking a path: a dataclass field is read by name (a game may map a field to the attribute that
holds its loaded value, e.g. Nerath's ``map`` name -> ``board``, through ``<game>.knobs.RESOLVE``);
an object with ``canonical``/``with_unit`` (Nerath's `UnitTable`) by unit name; a mapping by key
(Nerath's ``map.realm_units.<realm>.<unit>``, rebuilt as the same mapping type); a tuple by the
labels ``<game>.knobs.LABELS[field]`` (realms) or by its integer index. Writing a path rebuilds
every object on the way with `dataclasses.replace` (a derived-data ``cache`` field starts empty).
"""
from __future__ import annotations

import collections.abc
import dataclasses
import importlib
import math
import numbers
from pathlib import Path

from . import limits

KINDS = ("int", "float", "categorical")


@dataclasses.dataclass(frozen=True)
class Knob:
    """One tunable value: `path` into the Rules, its type and the values the search may try."""

    path: str
    kind: str                      # int | float | categorical
    low: float | None = None
    high: float | None = None
    step: float | None = None
    choices: tuple = ()
    published: object = None       # the value in the published game (the base rules)

    def values(self) -> list:
        """Every value the knob may take (a grid for int and stepped float)."""
        if self.kind == "categorical":
            return list(self.choices)
        n = int(math.floor((self.high - self.low) / self.step + 1e-9)) + 1
        vals = [self.low + i * self.step for i in range(n)]
        return [int(round(v)) for v in vals] if self.kind == "int" else [round(v, 10) for v in vals]

    def distance(self, value) -> float:
        """How far `value` is from the published value, as a share of the knob's range (0..1);
        for a categorical knob 0 or 1."""
        if value == self.published:
            return 0.0
        if self.kind == "categorical" or self.high == self.low:
            return 1.0
        return min(1.0, abs(float(value) - float(self.published)) / (self.high - self.low))

    def spec(self) -> dict:
        """Plain-value form (stored with a study, compared on resume)."""
        return {"path": self.path, "kind": self.kind, "low": self.low, "high": self.high, "step": self.step,
                "choices": list(self.choices), "published": _plain(self.published)}


def _plain(value):
    return value if isinstance(value, (int, float, str, bool, type(None))) else repr(value)


# --- declared knobs ----------------------------------------------------------------------

def game_knobs(module) -> dict:
    """The game's declared knob table (``module.KNOBS`` or ``<module>.knobs.KNOBS``; {} if none)."""
    table = getattr(module, "KNOBS", None)
    if table is None:
        extra = _knob_module(module)
        table = getattr(extra, "KNOBS", None) if extra is not None else None
    return dict(table or {})


def _knob_module(module):
    try:
        return importlib.import_module(f"{module.__name__}.knobs")
    except ImportError:
        return None


def _hooks(module) -> tuple[dict, dict]:
    extra = _knob_module(module)
    return dict(getattr(extra, "RESOLVE", {}) or {}), dict(getattr(extra, "LABELS", {}) or {})


def resolve_knobs(module, rules, knobs=None) -> list[Knob]:
    """Checked `Knob`s for `rules` (the published game of the search).

    knobs: None (every knob the game declares), a list of names (declared knobs by name, or
    ``name=lo:hi:step`` texts), a text ``"a=1:3:1,b"``, a dict {name: {type, low, high, step} or
    "lo:hi:step" or None (declared)}, or `Knob`s.
    """
    declared = game_knobs(module)
    if knobs is None:
        if not declared:
            raise ValueError(f"game {module.__name__!r} declares no knobs; give knobs=... (name=lo:hi:step)")
        entries = dict(declared)
    elif isinstance(knobs, str):
        entries = parse_knobs(knobs)
    elif isinstance(knobs, dict):
        entries = dict(knobs)
    else:
        entries = {}
        for k in knobs:
            if isinstance(k, Knob):
                entries[k.path] = k
            elif isinstance(k, str):
                entries.update(parse_knobs(k))
            else:
                raise ValueError(f"knob {k!r}: give a name, 'name=lo:hi:step' or a Knob")
    if not entries:
        raise ValueError("knobs: give at least one knob")
    out = []
    for name, entry in entries.items():
        if entry is None:
            if name not in declared:
                raise ValueError(f"knob {name!r}: not declared by {module.__name__} (declared: "
                                 f"{', '.join(declared) or 'none'}); give its range as {name}=lo:hi:step")
            entry = declared[name]
        out.append(make_knob(module, rules, name, entry))
    return out


def parse_knobs(text: str) -> dict:
    """'hand_size=3:7:1,bias=-0.5:1:0.1,stager' -> {name: 'lo:hi:step' or None (declared range)}.
    A categorical knob lists its choices with '|': 'stager=last_seat|first_seat'."""
    out = {}
    for part in (p.strip() for p in str(text).split(",")):
        if not part:
            continue
        name, sep, rng = part.partition("=")
        name = name.strip()
        if not name:
            raise ValueError(f"knob {part!r}: expected name or name=lo:hi:step")
        out[name] = rng.strip() if sep else None
    if not out:
        raise ValueError("--knobs: give at least one knob (name=lo:hi:step, comma-separated)")
    return out


def load_knobs_file(path) -> dict:
    """Knobs from a TOML or JSON file: a table ``knobs`` (or the top level) of
    name -> {type, low, high, step} / {choices = [...]} / "lo:hi:step"."""
    path = Path(path)
    data = limits.load_json_or_toml(path, "knobs file")
    data = data.get("knobs", data) if isinstance(data, dict) else data
    if not isinstance(data, dict) or not data:
        raise ValueError(f"knobs file {str(path)!r}: expected a table of knobs (name -> range)")
    return data


def make_knob(module, rules, name: str, entry) -> Knob:
    """One checked Knob; `entry` is a dict, a 'lo:hi:step' / 'a|b|c' text or a Knob."""
    label = f"knob {name!r}"
    try:
        published = get_value(module, rules, name)
    except (KeyError, AttributeError, IndexError, ValueError, TypeError) as exc:
        raise ValueError(f"{label}: unknown field of {module.__name__}.Rules ({_reason(exc)})") from None
    if isinstance(entry, Knob):
        entry = {"type": entry.kind, "low": entry.low, "high": entry.high, "step": entry.step,
                 "choices": list(entry.choices)}
    if isinstance(entry, str):
        entry = _parse_range(entry, label)
    if not isinstance(entry, dict):
        raise ValueError(f"{label}: expected a range (lo:hi:step or a table), got {entry!r}")
    unknown = set(entry) - {"type", "low", "high", "step", "choices"}
    if unknown:
        raise ValueError(f"{label}: unknown key(s) {', '.join(sorted(unknown))}; allowed: type, low, high, step, choices")
    kind = entry.get("type") or ("categorical" if entry.get("choices") else _kind_of(published, label))
    if kind not in KINDS:
        raise ValueError(f"{label}: type must be one of {', '.join(KINDS)}, got {kind!r}")
    if kind == "categorical":
        choices = tuple(entry.get("choices") or ())
        if len(choices) < 2:
            raise ValueError(f"{label}: a categorical knob needs at least two choices")
        return Knob(name, kind, choices=choices, published=_published_choice(module, rules, name, choices, published))
    if isinstance(published, bool) or not isinstance(published, numbers.Real):
        raise ValueError(f"{label}: {module.__name__}.Rules.{name} is not numeric (published value {published!r}); "
                         f"give its choices instead (name=a|b)")
    if kind == "float" and isinstance(published, numbers.Integral):
        kind = "int"             # an int field takes whole numbers only (checked below)
    if kind == "int" and not isinstance(published, numbers.Integral):
        raise ValueError(f"{label}: {module.__name__}.Rules.{name} is a float (published {published!r}); use type float")
    values = {}
    for key in ("low", "high", "step"):
        v = entry.get(key, 1 if key == "step" and kind == "int" else None)
        if v is None:
            raise ValueError(f"{label}: give {key}")
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v):
            raise ValueError(f"{label}: {key} must be a number, got {v!r}")
        if kind == "int" and v != int(v):
            raise ValueError(f"{label}: {key} must be a whole number for an int field, got {v!r}")
        values[key] = int(v) if kind == "int" else float(v)
    if values["step"] <= 0:
        raise ValueError(f"{label}: step must be positive, got {values['step']!r}")
    if values["low"] > values["high"]:
        raise ValueError(f"{label}: low {values['low']!r} is above high {values['high']!r}")
    limits.knob_range(label, values["low"], values["high"], values["step"])
    return Knob(name, kind, values["low"], values["high"], values["step"], published=published)


def _published_choice(module, rules, name: str, choices: tuple, published):
    """Check every choice of a categorical knob by setting it (a value the game refuses raises a
    ValueError naming the knob and the choice), and return the published value as the choice that
    means it: a field the game normalises (Nerath's ``turn_order`` "published" -> a tuple of realms)
    is published as that choice's name, so the published game costs nothing and is the first trial."""
    same = None
    for choice in choices:
        try:
            value = get_value(module, set_values(module, rules, {name: choice}), name)
        except (KeyError, AttributeError, IndexError, ValueError, TypeError) as exc:
            raise ValueError(f"knob {name!r}: choice {choice!r} is not a valid value of "
                             f"{module.__name__}.Rules.{name} ({_reason(exc)})") from None
        if choice == published:
            return published
        if same is None and value == published:
            same = choice
    return published if same is None else same


def _reason(exc: BaseException) -> str:
    text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
    return text.splitlines()[0] if text else type(exc).__name__


def _kind_of(value, label: str) -> str:
    if isinstance(value, bool):
        return "categorical"
    if isinstance(value, numbers.Integral):
        return "int"
    if isinstance(value, numbers.Real):
        return "float"
    raise ValueError(f"{label}: the field is not numeric (published value {value!r}); give its choices (name=a|b)")


def _parse_range(text: str, label: str) -> dict:
    if "|" in text:
        return {"type": "categorical", "choices": [_literal(c.strip()) for c in text.split("|") if c.strip()]}
    parts = text.split(":")
    if len(parts) not in (2, 3):
        raise ValueError(f"{label}: expected lo:hi:step (or lo:hi, step 1), got {text!r}")
    nums = []
    for p in parts:
        try:
            nums.append(float(p) if any(c in p for c in ".eE") else int(p))
        except ValueError:
            raise ValueError(f"{label}: {p!r} in {text!r} is not a number") from None
    return {"low": nums[0], "high": nums[1], "step": nums[2] if len(nums) == 3 else 1}


def _literal(text: str):
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            continue
    return {"true": True, "false": False}.get(text.lower(), text)


# --- reading and writing a path -----------------------------------------------------------

def get_value(module, rules, path: str):
    """The value at dotted `path` of `rules`."""
    resolve, labels = _hooks(module)
    obj, parent_field = rules, None
    for seg in path.split("."):
        obj, parent_field = _child(obj, seg, parent_field, resolve, labels), seg
    return obj


def _child(obj, seg: str, parent_field, resolve, labels):
    if _is_table(obj):
        return obj[obj.canonical(seg)]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        names = {f.name for f in dataclasses.fields(obj)}
        if seg not in names:
            raise KeyError(f"{type(obj).__name__} has no field {seg!r}")
        if seg in resolve and not dataclasses.is_dataclass(getattr(obj, seg)):
            return getattr(obj, resolve[seg])
        return getattr(obj, seg)
    if isinstance(obj, collections.abc.Mapping):
        if seg not in obj:
            raise KeyError(f"{seg!r} is not a key of {parent_field} ({', '.join(map(str, obj))})")
        return obj[seg]
    if isinstance(obj, tuple):
        return obj[_index(obj, seg, parent_field, labels)]
    raise KeyError(f"{seg!r}: cannot look inside a {type(obj).__name__}")


def _is_table(obj) -> bool:
    """A table of named entries (Nerath's UnitTable): read by name, written with `with_unit`."""
    return hasattr(obj, "canonical") and hasattr(obj, "with_unit")


def _index(obj: tuple, seg: str, parent_field, labels) -> int:
    names = labels.get(parent_field)
    if names is not None and seg in names:
        return list(names).index(seg)
    if seg.lstrip("-").isdigit() and -len(obj) <= int(seg) < len(obj):
        return int(seg)
    raise KeyError(f"{seg!r} is not a position of {parent_field}" + (f" ({', '.join(names)})" if names else ""))


def set_values(module, rules, values: dict):
    """`rules` with every path in `values` set (each checked by the game's own validation)."""
    resolve, labels = _hooks(module)
    for path, value in values.items():
        rules = _set(rules, path.split("."), value, None, resolve, labels)
    return rules


def _set(obj, segs: list, value, parent_field, resolve, labels):
    if not segs:
        return value
    seg, rest = segs[0], segs[1:]
    child = _child(obj, seg, parent_field, resolve, labels)
    new = _set(child, rest, value, seg, resolve, labels)
    if _is_table(obj):
        return obj.with_unit(new)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        changes = {seg: new}
        if dataclasses.is_dataclass(new) and any(f.name == "cache" for f in dataclasses.fields(new)):
            new = dataclasses.replace(new, cache={})
            changes[seg] = new
        return dataclasses.replace(obj, **changes)
    if isinstance(obj, collections.abc.Mapping):
        return type(obj)({**obj, seg: new})
    items = list(obj)
    items[_index(obj, seg, parent_field, labels)] = new
    return tuple(items)


def describe(knobs: list[Knob]) -> str:
    """'hand_size int 3..7 step 1 (published 5); stager in {a, b}' for headers."""
    parts = []
    for k in knobs:
        if k.kind == "categorical":
            parts.append(f"{k.path} in {{{', '.join(map(str, k.choices))}}} (published {k.published})")
        else:
            parts.append(f"{k.path} {k.kind} {k.low}..{k.high} step {k.step} (published {k.published})")
    return "; ".join(parts)
