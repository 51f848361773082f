"""The re-balancing study on disk (`analyses.rebalance_search`): the optuna study (a journal file
beside the search's spec, so a stopped search resumes where it was), its trials as a table, the
stored confirmation, and the best settings of a stored study for reports (`suggested_fixes`: no
games played).
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from . import limits, safe_io
from .knobs import Knob
from .rebalance_games import _json

STUDY_FILE, SPEC_FILE, CONFIRM_FILE = "study.journal", "spec.json", "confirmation.json"


def _optuna():
    """optuna, imported on first use: it takes seconds to import, and every joblib worker imports
    `analyses` (which exports `rebalance`), so a module-level import would slow every run."""
    import optuna  # noqa: PLC0415 - heavy import (seconds), needed only by a search

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


#: the search's first choice when `max_knobs` is below the number of knobs: which knobs move
MOVED = "knobs moved"


def trials_frame(study, knob_list) -> pd.DataFrame:
    rows = []
    for t in study.trials:
        if t.state.name == "WAITING":        # queued settings not played yet (a resumed search plays them)
            continue
        row = {"candidate": t.number, "state": t.state.name.lower()}
        fixed = MOVED in t.params       # knobs outside the candidate's chosen few stay published
        row.update({k.path: t.params.get(k.path, k.published if fixed else None) for k in knob_list})
        row.update({"games": t.user_attrs.get("games", 0), "score": t.user_attrs.get("score"),
                    "cost": t.user_attrs.get("cost"), "value": t.value, "invalid": t.user_attrs.get("invalid", "")})
        rows.append(row)
    return pd.DataFrame(rows)


def open_study(store, resume: bool, spec: dict, seed: int, reduction_factor: int, sizes: list):
    """An in-memory study (store None), a new one in `store`, or the stored one (resume=True)."""
    optuna = _optuna()
    sampler = optuna.samplers.TPESampler(seed=seed, n_startup_trials=8, multivariate=True)
    pruner = optuna.pruners.SuccessiveHalvingPruner(min_resource=max(1, sizes[0]), reduction_factor=reduction_factor,
                                                    min_early_stopping_rate=0)
    if store is None:
        if resume:
            raise ValueError("resume=True needs store= (the folder holding the study)")
        return optuna.create_study(direction="minimize", sampler=sampler, pruner=pruner)
    folder = Path(store)
    spec_path, journal = folder / SPEC_FILE, folder / STUDY_FILE
    plain = json.loads(json.dumps(spec, default=str))
    if spec_path.exists():
        if not resume:
            raise ValueError(f"store {str(folder)!r} already holds a study; add --resume (resume=True) to continue it, "
                             f"or give another folder")
        stored = limits.load_json(spec_path, "stored study")
        if "policy_reprs" not in stored:      # stored before the spec named its policies' parameters
            plain = {k: v for k, v in plain.items() if k != "policy_reprs"}
        if stored != plain:
            diff = sorted(k for k in set(stored) | set(plain) if stored.get(k) != plain.get(k))
            raise ValueError(f"store {str(folder)!r} holds a study with other settings ({', '.join(diff)}); "
                             f"use the same settings to resume, or another folder")
    elif resume:
        raise ValueError(f"nothing to resume: {str(folder)!r} holds no study ({SPEC_FILE} missing)")
    folder.mkdir(parents=True, exist_ok=True)
    if not spec_path.exists():
        safe_io.write_text(spec_path, json.dumps(plain, indent=1))
    storage = optuna.storages.JournalStorage(optuna.storages.journal.JournalFileBackend(str(journal)))
    # a trial left RUNNING by a killed search is failed, so the resumed search does not wait for it,
    study = optuna.create_study(storage=storage, study_name="rebalance", direction="minimize", sampler=sampler,
                                pruner=pruner, load_if_exists=True)
    # and its setting is queued again (an enumerated grid would otherwise never play it)
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.RUNNING,)):
        storage.set_trial_state_values(t._trial_id, optuna.trial.TrialState.FAIL)
        fixed = t.system_attrs.get("fixed_params") or t.params
        if fixed:
            study.enqueue_trial(dict(fixed), skip_if_exists=False)
    return study


def load_stored(store) -> tuple[dict, pd.DataFrame]:
    """(spec, trials) of a stored study, for reports: no games are played."""
    folder = Path(store)
    spec_path = folder / SPEC_FILE
    if not spec_path.exists():
        raise ValueError(f"{str(folder)!r} holds no re-balancing study ({SPEC_FILE} missing)")
    spec = limits.load_json(spec_path, "stored study")
    optuna = _optuna()
    storage = optuna.storages.JournalStorage(optuna.storages.journal.JournalFileBackend(str(folder / STUDY_FILE)))
    study = optuna.load_study(study_name="rebalance", storage=storage)
    knob_list = [Knob(k["path"], k["kind"], k["low"], k["high"], k["step"], tuple(k["choices"]), k["published"])
                 for k in spec["knobs"]]
    return spec, trials_frame(study, knob_list)


def save_confirmation(store, proposal: pd.DataFrame, meets: bool, confirm_seed, confirm_games: int,
                      confirm_sizes: dict, table: pd.DataFrame, side: pd.DataFrame, timing: dict,
                      notes: tuple = ()) -> None:
    """The outcome of a search (proposal, verdict, confirmation tables, timing, and the lines on
    what no setting can meet) beside its study."""
    confirmation = {"proposal": proposal.astype(object).where(proposal.notna(), None).to_dict("records"),
                    "meets": meets, "confirm_seed": confirm_seed, "confirm_games": confirm_games,
                    "confirm_sizes": confirm_sizes,
                    "table": table.astype(object).where(table.notna(), None).to_dict("records"),
                    "side_effects": side.astype(object).where(side.notna(), None).to_dict("records"),
                    "timing": timing, "notes": list(notes)}
    safe_io.write_text(Path(store) / CONFIRM_FILE, json.dumps(confirmation, indent=1, default=_json))


def suggested_fixes(store, top: int = 5) -> pd.DataFrame:
    """The best settings of a stored study (no games played): one row per distinct setting that
    finished the last rung, best first, with its change against the published game, the search
    score (biased by selection) and, for the proposal, the confirmation run's verdict."""
    spec, trials = load_stored(store)
    done = trials[trials["state"] == "complete"].sort_values(["value", "candidate"])
    paths = [k["path"] for k in spec["knobs"]]
    published = {k["path"]: k["published"] for k in spec["knobs"]}
    confirm_path = Path(store) / CONFIRM_FILE
    confirmed = limits.load_json(confirm_path, "stored confirmation") if confirm_path.exists() else None
    proposed = {r["knob"]: r["proposed"] for r in confirmed["proposal"]} if confirmed else None
    rows, seen = [], set()
    for t in done.to_dict("records"):      # records, not itertuples: knob paths are dotted ('map.realm_gold.x')
        values = {p: t.get(p) for p in paths}
        values = {p: (v.item() if hasattr(v, "item") else v) for p, v in values.items()}
        key = tuple(values.values())
        if key in seen:
            continue
        seen.add(key)
        change = "; ".join(f"{p}: {published[p]} → {v}" for p, v in values.items() if v != published[p])
        verdict = ""
        if proposed is not None and all(proposed.get(p) == v for p, v in values.items()):
            verdict = (f"proposal; confirmation run ({confirmed['confirm_games']:,} fresh games): "
                       + ("meets the objective" if confirmed["meets"] else "does not meet the objective")
                       if confirmed["confirm_seed"] is not None else
                       "proposal; exact: " + ("meets the objective" if confirmed["meets"] else "does not meet it"))
        rows.append({"change": change or "(none: the published game)", "knobs_moved": sum(
            1 for p, v in values.items() if v != published[p]), "search_score": t["score"], "games": t["games"],
                     "verdict": verdict})
        if len(rows) >= top:
            break
    table = pd.DataFrame(rows, columns=["change", "knobs_moved", "search_score", "games", "verdict"])
    table.attrs["objective"] = spec["objective"]
    return table
