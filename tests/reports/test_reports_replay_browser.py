"""Replay pages in headless Chromium: no network, stepping changes the board, the last step shows the
engine's final state (read from the data attributes the page draws)."""
import re

import pytest
from test_reports_build import BROWSER, BROWSER_ARGS, REQUIRED, _browser
from test_reports_replay import _loop

import dreamsim
import nerathsim
import nightsim
from analyses.replay import record_game
from nerathsim import engine as nerath_engine
from nerathsim.game import LegalActions
from nerathsim.maps import REALMS
from reports.replay import Replay

SEATS_JS = """Array.from(document.querySelectorAll('#board .seat')).map(d => [d.dataset.seat, d.dataset.score || '',
    d.dataset.hand, d.dataset.loc || ''])"""
REGIONS_JS = """Array.from(document.querySelectorAll('#board g.region')).map(g => [g.dataset.region, g.dataset.units,
    g.dataset.owner])"""


def _walk(page_path):
    """Open the page, press Right twice (past the first turn's heading) and Last; return what the board
    showed at each point."""
    sync_api = _browser()
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=BROWSER, args=BROWSER_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        problems = []
        page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("request", lambda r: problems.append(f"request: {r.url}") if not r.url.startswith("file:") else None)
        page.goto(page_path.as_uri())
        page.wait_for_load_state("load")
        first = page.inner_html("#board")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        second = page.inner_html("#board"), page.get_attribute("#board", "data-step")
        page.click("#last")
        last = {"step": page.get_attribute("#board", "data-step"), "seats": page.evaluate(SEATS_JS),
                "regions": page.evaluate(REGIONS_JS), "current": page.inner_text("#log .step.current"),
                "board": page.inner_text("#board"), "log": page.inner_text("#log"),
                "steps": page.evaluate("document.querySelectorAll('#log .step').length")}
        page.fill("#search", "zzz-no-such-event")
        visible = page.evaluate("document.querySelectorAll('#log .step:not(.hidden)').length")
        browser.close()
    return problems, first, second, last, visible


def assert_seats_from_one(last, players):
    """What the page shows numbers the seats 1..players (its data attributes keep the logs' 0..players-1)."""
    for text in (last["board"], last["log"]):
        assert not re.search(r"\b[Ss]eats? 0\b", text)
    assert all(f"seat {q} (" in last["board"] for q in range(1, players + 1))
    assert f"seat {players + 1} (" not in last["board"]


needs_browser = pytest.mark.skipif(not BROWSER and not REQUIRED,
                                   reason="no chromium here (CI installs it and requires this test)")


@needs_browser
def test_nightmarium_replay_steps_and_ends_with_the_engines_final_state(tmp_path):
    rules, lineup, seed = nightsim.Rules(players=3), ["greedy", "random", "purist"], 4
    s = _loop(nightsim, nightsim.new_game, nightsim.apply_action, nightsim.legal_actions, rules, lineup, seed)
    path = Replay(record_game("nightsim", seed, lineup, rules)).write(tmp_path / "n.html")
    problems, first, (second, step), last, visible = _walk(path)
    assert problems == [] and second != first and step == "2"
    assert int(last["step"]) == last["steps"] - 1 and visible == 0
    scores = [sum(len(cr.cards) == 3 for cr in crs) for crs in s.creatures]
    assert [(int(seat), int(score), hand) for seat, score, hand, _ in last["seats"]] == \
        [(i, scores[i], ",".join(map(str, s.hands[i]))) for i in range(3)]
    assert f"seat {s.winner + 1} " in last["current"] and "WINS" in last["current"]
    assert_seats_from_one(last, 3)


@needs_browser
def test_midnighters_replay_ends_with_the_engines_positions_and_hands(tmp_path):
    rules, lineup, seed = dreamsim.Rules(players=4), ["random"] * 4, 512
    s = _loop(dreamsim, dreamsim.new_game, dreamsim.engine.engine.apply_action, dreamsim.engine.engine.legal_actions, rules,
              lineup, seed)
    path = Replay(record_game("dreamsim", seed, lineup, rules)).write(tmp_path / "d.html")
    problems, first, (second, _), last, _ = _walk(path)
    assert problems == [] and second != first
    names = dreamsim.engine.cards.KIND_NAMES
    assert [(int(seat), hand, int(loc)) for seat, _, hand, loc in last["seats"]] == \
        [(i, "|".join(sorted(names[k] for k in s.hands[i])), s.where[i]) for i in range(4)]
    assert_seats_from_one(last, 4)


@needs_browser
def test_nerath_replay_ends_with_the_engines_units_and_owners(tmp_path):
    rules, lineup, seed = nerathsim.Rules(players=2, max_rounds=6), ["aggressive", "random"], 4
    s = _loop(nerathsim, nerath_engine.new_game, nerath_engine.apply_action, LegalActions, rules, lineup, seed)
    path = Replay(record_game("nerathsim", seed, lineup, rules)).write(tmp_path / "m.html")
    problems, first, (second, _), last, _ = _walk(path)
    assert problems == [] and second != first
    t = s.tab
    want = []
    for r in range(s.board.n):
        parts = []
        for q in range(4):
            counts = {t.names[u]: c for u, c in enumerate(s.units[r][q]) if c}
            if counts:
                parts.append(f"{REALMS[q]}:" + ",".join(f"{u}={n}" for u, n in sorted(counts.items())))
        want.append([str(r), ";".join(sorted(parts)), REALMS[s.owner[r]] if s.owner[r] >= 0 else ""])
    got = [[r, ";".join(sorted(u.split(";"))) if u else "", owner] for r, u, owner in last["regions"]]
    assert got == want
