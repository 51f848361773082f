"""The HTML report: structure, escaping, headline numbers, and a real browser."""
import dataclasses
import html
import os
import re
import shutil
from html.parser import HTMLParser

import pytest

import nerathsim
import nightsim
import reports
from analyses.confirmed import with_confirmed
from analyses.findings import formatted_numbers, p_text, source_table
from analyses.shipped import shipped_studies
from analyses.study import analyse_study, load_study_runs, setup_note, simulate_study


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    runs_dir = tmp_path_factory.mktemp("runs")
    runs, skipped = simulate_study(n_games=80, games=["nightsim"], seed=3, out_dir=runs_dir, progress=False)
    return analyse_study(runs, skipped, command="balancelab report --games 80 --seed 3", seed=3, n_games=80), runs_dir


@pytest.fixture(scope="module")
def report(study, tmp_path_factory):
    path = tmp_path_factory.mktemp("report") / "report.html"
    reports.build(study[0], path)
    return path


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.imgs, self.urls, self.keys, self._key = [], [], {}, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            self.imgs.append(a)
        for name in ("src", "href"):
            if name in a:
                self.urls.append(a[name])
        self._key = a.get("data-key")

    def handle_data(self, data):
        if self._key:
            self.keys.setdefault(self._key, []).append(data.strip())
            self._key = None


def parse(path):
    p = _Collect()
    p.feed(path.read_text(encoding="utf-8"))
    return p


def test_report_is_self_contained(report):
    p = parse(report)
    assert len(p.imgs) >= 6
    assert all(img["src"].startswith("data:image/png;base64,") for img in p.imgs)
    assert all(img.get("alt") for img in p.imgs)
    external = [u for u in p.urls if re.match(r"^(https?:)?//", u)]
    assert external == []
    assert "<script" not in report.read_text(encoding="utf-8")


def test_headline_numbers_equal_the_dataframes(study, report):
    g = study[0].games["nightsim"]
    h = reports.headline(g)
    seats = g.fpa_seats
    worst = seats.loc[seats["effect_pp"].abs().idxmax()]       # the headline shows the largest seat gap
    assert h["effect_pp"] == pytest.approx(worst["effect_pp"])
    assert h["unit"].startswith(f"seat {int(worst['seat']) + 1}")
    keys = parse(report).keys
    assert keys["fpa"] == [f"{worst['effect_pp']:+.1f} points"]
    assert keys["fpa_p"] == [h["p_text"]]           # the family-adjusted p-value, labelled with its adjustment and test
    assert h["p_text"].startswith(p_text(worst["p_family"]) + ", Holm-adjusted over the ")
    assert keys["balance"] == [f"{100 * g.fpa_summary.iloc[0]['balance']:.1f}%"]
    assert keys["games"] == [f"{g.runs['main']:,}"]


def test_every_finding_shows_the_values_of_its_source_row(study):
    """Each finding's numbers, formatted as the finding declares, appear in its sentence and come from
    the row of the analysis table it names."""
    g = study[0].games["nightsim"]
    checked = 0
    for _, f in g.findings.iterrows():
        if not f["source"]:
            continue
        row = source_table(g, f["source"]).loc[f["row"]]
        for shown in formatted_numbers(row, f["numbers"]):
            assert shown in f["text"]
            checked += 1
    assert checked >= 10
    kinds = list(g.findings["kind"])
    assert kinds[-1] == "trust" and "not_found" in kinds or any(g.findings["significant"])


def test_methodology_and_reproduce_sections(study, report):
    text = report.read_text(encoding="utf-8")
    assert "balancelab report --games 80 --seed 3" in text
    assert nightsim.RULES_VERSION in text
    assert "G2" in text and "Immediately" in text  # a RULES.md decision is listed
    assert study[0].git_commit in text


def test_rebuild_from_stored_runs_gives_the_same_numbers(study, tmp_path):
    runs = load_study_runs(study[1])
    again = analyse_study(runs, command="x")
    assert reports.headline(again.games["nightsim"]) == reports.headline(study[0].games["nightsim"])


def test_user_text_is_escaped(study, tmp_path):
    g = study[0].games["nightsim"]
    evil = dataclasses.replace(g, policy_reprs={"<b>x</b>": "<script>alert(1)</script>"},
                               rules={**g.rules, "note": "<img src=x onerror=alert(1)>"})
    s = dataclasses.replace(study[0], games={"nightsim": evil}, command="<script>bad()</script>")
    text = reports.build(s, tmp_path / "r.html").read_text(encoding="utf-8")
    assert "<script" not in text and "<img src=x" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text


BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
REQUIRED = os.environ.get("BALANCELAB_REQUIRE_BROWSER") == "1"


def _browser():
    if REQUIRED:
        from playwright import sync_api  # noqa: PLC0415  # lazy: optional dependency (a browser), needed by these tests only
    else:
        sync_api = pytest.importorskip("playwright.sync_api")
    return sync_api


BROWSER_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"]
FINDINGS_JS = """Array.from(document.querySelectorAll('li[data-source]')).map(li => ({
    game: li.dataset.game, kind: li.dataset.kind, source: li.dataset.source, row: Number(li.dataset.row),
    numbers: li.dataset.numbers, text: (li.querySelector('.text') || li).innerText}))"""
FIRST_JS = """(() => { const h1 = document.querySelector('h1'); const next = h1.nextElementSibling;
    return [next.id, next.querySelector('h2').innerText, next.getBoundingClientRect().top,
            document.querySelectorAll('h1 ~ section, h1 ~ div, h1 ~ p, h1 ~ nav')[0].id]; })()"""


@pytest.mark.skipif(not BROWSER and not REQUIRED, reason="no chromium here (CI installs it and requires this test)")
def test_report_in_headless_chromium(study, report, tmp_path):
    """In a real browser: Findings is the first thing under the title, every finding's numbers are the
    values of the DataFrame row it cites, the page is no wider than the window, every figure loads."""
    sync_api = _browser()
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=BROWSER, args=BROWSER_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        problems = []
        page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
        page.goto(report.as_uri())
        page.wait_for_load_state("load")
        sizes = page.evaluate("Array.from(document.images).map(i => [i.complete, i.naturalWidth, "
                              "i.getBoundingClientRect().width, i.getBoundingClientRect().height])")
        first = page.evaluate(FIRST_JS)
        items = page.evaluate(FINDINGS_JS)
        widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        shown = page.evaluate("document.querySelector('[data-key=fpa]').innerText")
        page.screenshot(path=str(tmp_path / "first-screen.png"))
        browser.close()
    assert problems == []
    assert sizes and all(done and nat > 0 and w > 0 and h > 0 for done, nat, w, h in sizes)
    assert first[0] == "findings" and first[1] == "Findings" and first[2] < 200 and first[3] == "findings"
    assert widths[0] <= widths[1]
    s = study[0]
    top = [f for f in s.findings.itertuples()]
    assert len(items) == len(s.findings) + sum(len(g.findings) for g in s.games.values())
    checked = 0
    for item in items:
        if not item["source"]:
            continue
        g = s.games[item["game"]]
        row = source_table(g, item["source"]).loc[item["row"]]
        numbers = formatted_numbers(row, item["numbers"])
        assert numbers and all(n in item["text"] for n in numbers), (item, numbers)
        checked += len(numbers)
    assert checked >= 10 and top
    seats = s.games["nightsim"].fpa_seats
    worst = seats.loc[seats["effect_pp"].abs().idxmax()]
    assert shown == f"{worst['effect_pp']:+.1f} points"
    assert (tmp_path / "first-screen.png").stat().st_size > 10_000


BROKEN_WORDS_JS = """(() => {
  const out = [];
  for (const cell of document.querySelectorAll('table td, table th')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    let node;
    while ((node = walker.nextNode())) {
      const re = /\\S+/g; let m;
      while ((m = re.exec(node.textContent))) {
        const r = document.createRange(); r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
        const tops = new Set(Array.from(r.getClientRects()).filter(b => b.width > 0).map(b => Math.round(b.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
})()"""
DESIGNER_TEXT_JS = """(() => { const body = document.body.cloneNode(true);
    body.querySelectorAll('#stored-results, #reproduce').forEach(e => e.remove());
    return body.innerText; })()"""
SEAT_CELLS_JS = """Array.from(document.querySelectorAll('table')).flatMap(t => {
    const heads = Array.from(t.querySelectorAll('th')).map(th => th.innerText.trim());
    const k = heads.indexOf('seat');
    return k < 0 ? [] : Array.from(t.querySelectorAll('tbody tr')).map(tr => tr.children[k].innerText.trim()); })"""


@pytest.fixture(scope="module")
def confirmed_report(study, tmp_path_factory):
    """The small study with the shipped Nightmarium re-balancing study's confirmed change."""
    stores = {"nightsim": [(s.path, s.details()) for s in shipped_studies("nightsim")]}
    assert stores["nightsim"], "the package ships a Nightmarium re-balancing study"
    confirmed = with_confirmed(study[0], stores)
    path = tmp_path_factory.mktemp("confirmed") / "report.html"
    reports.build(confirmed, path)
    return confirmed, path


@pytest.mark.skipif(not BROWSER and not REQUIRED, reason="no chromium here (CI installs it and requires this test)")
def test_report_reads_well_in_headless_chromium(confirmed_report):
    """Findings carry every confirmed rule change, no table splits a word across lines (wide and narrow
    windows), the designer-facing text holds no development history, and seats are numbered from 1."""
    s, path = confirmed_report
    codes = [t.attrs["code"] for g in s.games.values() for title, t in g.extra.items()
             if title.startswith("Confirmed rule change")]
    assert "reduced_first_turn_seats=3, hand_size=7" in codes
    sync_api = _browser()
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=BROWSER, args=BROWSER_ARGS)
        broken = {}
        for width in (1280, 760):
            page = browser.new_page(viewport={"width": width, "height": 900})
            page.goto(path.as_uri())
            page.wait_for_load_state("load")
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            broken[width] = page.evaluate(BROKEN_WORDS_JS)
        top = page.evaluate("document.querySelector('#findings').innerText")
        game = page.evaluate("document.querySelector('.game-findings[data-game=nightsim]').innerText")
        text = page.evaluate(DESIGNER_TEXT_JS)
        seat_cells = page.evaluate(SEAT_CELLS_JS)
        css = page.evaluate("Array.from(document.querySelectorAll('td, th')).map(c => "
                            "[getComputedStyle(c).wordBreak, getComputedStyle(c).overflowWrap])")
        browser.close()
    assert broken == {1280: [], 760: []}
    assert {tuple(c) for c in css} == {("normal", "normal")}
    for code in codes:
        assert "Confirmed rule change" in top and code in top and code in game
    for pattern in (r"\b[Ii]ssue \d+", r"\b[Ss]ession \d+", r"\bbranch\b", r"\bCPU\b", r"\bnice -?\d+", r"#\d{2,}\b"):
        assert not re.search(pattern, text), (pattern, re.search(pattern, text))
    assert not re.search(r"\b[Ss]eats? 0\b|\bseat0", text)
    assert seat_cells and min(int(c) for c in seat_cells) == 1


def test_nerath_section_has_factions_and_unit_costs(tmp_path):
    runs, skipped = simulate_study(n_games=20, games=["nerathsim"], seed=1, progress=False)
    study = analyse_study(runs, skipped, command="x")
    g = study.games["nerathsim"]
    assert set(g.by_faction["faction"]) == {"karkoth", "vailin", "iron_circle", "nerath"}
    eff = g.extra["Unit efficiency (exact)"].set_index("unit")
    assert eff.loc["footsoldier", "attack_hits_per_gold"] == pytest.approx(1 / 6)  # d6, hit on 6, 1 gold
    text = reports.build(study, tmp_path / "n.html").read_text(encoding="utf-8")
    assert any(title.startswith("Purchase mix") for title in g.extra)
    for alt in ("win rate by faction", "unit efficiency", "equal-budget duels"):
        assert f'alt="{alt}"' in text
    # the first thing the section says: the board and the starting forces are a reconstruction
    assert g.setup_note == nerathsim.SETUP_NOTE and "reconstruction" in g.setup_note
    section = html.unescape(text[text.index('<section id="nerathsim">'):])
    assert section.index(nerathsim.SETUP_NOTE) < section.index("<h3>Findings</h3>")


def test_only_a_game_with_a_setup_note_shows_one():
    assert setup_note("nerathsim") == nerathsim.SETUP_NOTE
    assert setup_note("nightsim") == "" and setup_note("no_such_game") == ""
