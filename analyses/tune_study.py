"""The stored side of `analyses.tune_policy`: the optuna study (in memory, or in an optuna storage
a stopped search resumes from, refused when its settings differ), its trials as a table, and the
provenance a `tuned` data file carries (`check_provenance` lists what a stored file lacks).
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pandas as pd

from . import safe_io
from .tune_space import _label

PROVENANCE_KEYS = ("start", "pool", "players", "design", "rules", "rules_version", "search", "confirmation",
                   "optuna_version", "date", "command", "note")
SEARCH_KEYS = ("sampler", "pruner", "trials", "complete", "pruned", "games_per_trial", "rungs", "seed", "engine",
               "best_trial", "best_score", "start_score")
CONFIRM_KEYS = ("opponent", "seed", "games", "deals", "engine", "win_rate", "ci_low", "ci_high", "confidence",
                "unit", "target", "meets_target")


SQLITE_MAGIC = b"SQLite format 3\x00"


def check_storage(storage, flag: str = "storage") -> None:
    """A search storage we can open and write: sqlite:///FILE (a new file or an SQLite database) or a
    journal FILE (a new file or a journal: JSON lines); ValueError naming `flag` otherwise, before any work."""
    if not isinstance(storage, str) or not storage.strip():
        raise ValueError(f"{flag} must be sqlite:///FILE.db or a FILE.journal path, got {storage!r}")
    if "://" in storage:
        if not storage.startswith("sqlite:///") or not storage[len("sqlite:///"):]:
            raise ValueError(f"{flag} {storage}: only sqlite:///FILE.db or a FILE.journal path are supported "
                             f"(no database server)")
        path, magic, kind = Path(storage[len("sqlite:///"):]), SQLITE_MAGIC, "an SQLite database"
    else:
        path, magic, kind = Path(storage), b"{", "an optuna journal (JSON lines)"
    safe_io.check_writable(path, flag)
    if path.exists():
        if not path.is_file():
            raise ValueError(f"{flag} {path}: not a file")
        try:
            with open(path, "rb") as f:
                head = f.read(len(magic))
        except OSError as exc:
            raise ValueError(f"{flag} {path}: {exc.strerror or exc}") from None
        if head and head != magic:
            raise ValueError(f"{flag} {path}: exists and is not {kind}; give a new file or the storage of a search")


def _open_study(optuna, storage, spec: dict, seed: int, reduction_factor: int, min_resource: int):
    sampler = optuna.samplers.TPESampler(seed=seed, n_startup_trials=8, multivariate=True)
    pruner = optuna.pruners.SuccessiveHalvingPruner(min_resource=max(1, min_resource),
                                                    reduction_factor=reduction_factor, min_early_stopping_rate=0)
    if storage is None:
        return optuna.create_study(direction="maximize", sampler=sampler, pruner=pruner)
    check_storage(storage)
    if "://" not in storage:
        backend = optuna.storages.journal.JournalFileBackend(str(Path(storage)))
        storage = optuna.storages.JournalStorage(backend)
    name = f"tune-{spec['game']}-{spec['start']}-seed{seed}"
    study = optuna.create_study(storage=storage, study_name=name, direction="maximize", sampler=sampler,
                                pruner=pruner, load_if_exists=True)
    plain = json.loads(json.dumps(spec, default=_plain))
    stored = study.user_attrs.get("spec")
    if stored is None:
        study.set_user_attr("spec", plain)
    elif stored != plain:
        diff = sorted(k for k in set(stored) | set(plain) if stored.get(k) != plain.get(k))
        raise ValueError(f"storage holds study {name!r} with other settings ({', '.join(diff)}); use the same "
                         f"settings to resume it, or another storage")
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        study._storage.set_trial_state_values(t._trial_id, optuna.trial.TrialState.FAIL)   # killed mid-trial
    return study


def _trials_frame(study, dims) -> pd.DataFrame:
    rows = []
    for t in study.trials:
        if t.state.name == "WAITING":
            continue
        row = {"trial": t.number, "state": t.state.name.lower(), "games": t.user_attrs.get("games", 0),
               "score": t.user_attrs.get("score")}
        row.update({d.name: t.params.get(d.name) for d in dims})
        rows.append(row)
    return pd.DataFrame(rows)


def _rules_changes(module, rules) -> dict:
    published = module.Rules()
    return {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)
            if getattr(rules, f.name) != getattr(published, f.name)}


def _command_text(module, start, pool, budget, games_per_trial, seed, n_jobs, players, rungs, rf, confirm, engine,
                  radius):
    return (f"analyses.tune_policy({module.__name__!r}, start={start!r}, pool={[_label(p) for p in pool]!r}, "
            f"budget={budget!r}, games_per_trial={games_per_trial}, seed={seed}, n_jobs={n_jobs}, players={players}, "
            f"rungs={rungs}, reduction_factor={rf}, confirm_games={confirm}, engine={engine!r}, radius={radius!r})")


def check_provenance(data: dict) -> list[str]:
    """The keys missing (or empty) in a stored `tuned` data file; [] when it is complete."""
    missing = [k for k in ("name", "game", "start", "params", "provenance") if data.get(k) in (None, "", {})]
    prov = data.get("provenance") or {}
    missing += [f"provenance.{k}" for k in PROVENANCE_KEYS if k not in prov or prov[k] in (None, "")]
    missing += [f"provenance.search.{k}" for k in SEARCH_KEYS if k not in (prov.get("search") or {})]
    missing += [f"provenance.confirmation.{k}" for k in CONFIRM_KEYS if k not in (prov.get("confirmation") or {})]
    return missing


def _plain(value):
    if isinstance(value, (np.bool_,)):
        return bool(value)
    return value.item() if hasattr(value, "item") else str(value)
