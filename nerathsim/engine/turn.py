"""Turn start and income: seed phase 1 (draw an event card) and the set-up of phase 2 with the turn's
plan on the frame stack (`turn_plan`), then phase 6 (`Income`: income, the next realm, and the victory
check after each full round)."""
from __future__ import annotations

from ..maps import REALMS
from .combat import BattleOrder
from .common import _event
from .movement import Movement, Regroup, Reinforcements, _turn_windows
from .reinforce import BuyUnits
from .state import M_MOVE, PH_MOVE, PH_OVER, Frame, State
from .terrain import _mob_add, _refresh_terrain
from .windows import _draw_event


class Income(Frame):
    """Seed phase 6, the bottom of a turn's stack: when it begins (`enter`) the realm collects its
    income, the next realm's turn starts (or, after a full round, the victory check may end the game).
    No decision rests here."""

    __slots__ = ()

    def enter(self, s: State, rng) -> None:
        _end_turn(s, rng)


def turn_plan(p: int, seat: int) -> list:
    """The frame stack at the start of realm p's turn (played by `seat`): its parts, the first on top.
    Each part's EndPhase (or the end of the combat phase) pops it, and the part beneath it begins
    (`Frame.enter`)."""
    return [Income(p, seat), Reinforcements(p, seat), BuyUnits(p, seat), Regroup(p, seat), BattleOrder(p, seat),
            Movement(p, seat)]


def _start_turn(s: State, rng) -> None:
    """Phase 1 (draw an event card) and the set-up of phase 2 for the next realm."""
    p = s.realm
    _turn_start_marks(s, p)
    s.win_done = set()
    s.current_player, s.decider = s.seat_of[p], p
    _event(s, "turn", realm=REALMS[p], gold=s.gold[p], vp=s.vp[p], turn=s.turns + 1)
    # phase 1
    if s.rules.events:
        _draw_event(s, p, rng, "turn")
    # phase 2
    s.stack = turn_plan(p, s.seat_of[p])
    s.phase, s.mode = PH_MOVE, M_MOVE
    _ready_to_move(s, p)
    _turn_windows(s)


def _turn_start_marks(s: State, p: int) -> None:
    """What the turn remembers of its start: realm p's castles, capital and the owners; nothing placed yet."""
    b, t = s.board, s.tab
    s.turn_castles = {r for r in range(b.n) if s.owner[r] == p and s.units[r][p][t.castle_u] > 0}
    s.n_castles_start = len(s.turn_castles)
    s.capital_held_start = s.owner[b.capitals[p]] == p
    s.owner_start = s.owner[:]
    s.placed, s.spots, s.explored = {}, None, set()


def _ready_to_move(s: State, p: int) -> None:
    """The terrain, and the full moves of realm p's mobile units and warships, for its movement phase."""
    b, t = s.board, s.tab
    _refresh_terrain(s)
    s.mob = {}
    nobody = [0] * t.U                      # a row of counts with no unit
    for r in range(b.n):
        row = s.units[r][p]
        if row == nobody:                   # the realm has nothing here (most regions; compared in C)
            continue
        for u in range(t.U):
            if row[u] and t.mobile[u]:
                _mob_add(s, r, u, row[u], t.move[u])
    for sh in s.ships:
        if sh.owner == p:
            sh.moves, sh.unloaded, sh.landing, sh.new = t.move[sh.utype], False, -1, False


def _end_turn(s: State, rng) -> None:
    """Phase 6 (income), then the next realm; after the last realm, the victory check."""
    p = s.realm
    inc = income(s, p)
    s.gold[p] += inc
    s.stats["gold_earned"][p] += inc
    _event(s, "income", realm=REALMS[p], gold=inc, total=s.gold[p])
    if not s.rules.cargo_may_stay_aboard:
        for sh in s.ships:
            if sh.owner == p and sh.cargo:
                for u in sh.cargo:
                    s.stats["units_lost"][p] += 1
                    s.stats["gold_lost"][p] += s.tab.cost[u]
                _event(s, "cargo_lost", realm=REALMS[p], region=sh.region, units=list(sh.cargo), ship=sh.id)
                sh.cargo = []
    for sh in s.ships:
        sh.new = False
    s.mob = {}
    s.turns += 1
    s.turn_pos += 1
    if s.turn_pos == len(s.rules.order):
        s.turn_pos = 0
        s.round += 1
        if _victory_check(s):
            return
        if s.round >= s.rules.max_rounds:
            s.is_terminal, s.timed_out, s.phase = True, True, PH_OVER
            _event(s, "timeout", realm=-1, rounds=s.round)
            return
    s.realm = s.rules.order[s.turn_pos]
    _start_turn(s, rng)


def income(s: State, p: int) -> int:
    """Seed phase 6: base income + regions taken from others − original regions lost; halved
    (rounded up) without your capital. Rules.income_mode 'value' counts region gold values."""
    b = s.board
    by_value = s.rules.income_mode == "value"
    gained = lost = 0
    for r in range(b.n):
        o0 = b.owner[r]
        if o0 < 0:
            continue
        w = b.gold[r] if by_value else 1
        if s.owner[r] == p and o0 != p:
            gained += w
        elif o0 == p and s.owner[r] != p:
            lost += w
    inc = max(0, b.realm_income[p] + gained - lost)
    if s.owner[b.capitals[p]] != p:
        inc = (inc + 1) // 2
    return inc


def group_vp(s: State) -> dict:
    """VP per side: per team in alliance play (the partners add their VP), per realm otherwise."""
    if s.rules.alliance:
        out = {}
        for p in range(4):
            team = s.team_of(p)
            out[team] = sum(s.vp[q] for q in team)
        return out
    return {(p,): s.vp[p] for p in range(4)}


def _victory_check(s: State) -> bool:
    """Seed "Sådan vinder du spillet": after each full round, whoever reached the VP needed wins;
    two sides over the line: most VP wins; tied: play one more full round. Long game: all capitals."""
    rules, b = s.rules, s.board
    groups = group_vp(s)
    target = rules.vp_target
    winner = None
    if target is not None:
        # every side measured against its own target (Rules.team_vp_to_win; the same for all in the published game):
        # over the line by the most wins, which with one target is the most VP
        over = [(v - rules.vp_target_of(g), g) for g, v in groups.items() if v >= rules.vp_target_of(g)]
        if over:
            over.sort(reverse=True)
            (best, side), *others = over
            if not others or best > max(v for v, _g in others):
                winner = side
            else:
                _event(s, "tie", realm=-1, vp=[list(g) for _, g in over[:2]])
    else:
        for g in groups:
            if all(s.owner[c] in g for c in b.capitals):
                winner = g
                break
        if winner is None and rules.treasure_win and rules.dungeons:
            # seed: "Alle hovedstæder eller otte skatte (12 i alliance)"; partners count together
            need = rules.treasure_target
            over = sorted(((sum(s.stats["treasures"][p] for p in g), g) for g in groups), reverse=True)
            over = [(v, g) for v, g in over if v >= need]
            if over:
                (best, side), *others = over
                if not others or best > max(v for v, _g in others):
                    winner = side
                else:
                    _event(s, "tie", realm=-1, treasures=[list(g) for _, g in over[:2]])
    if winner is None:
        return False
    seats = tuple(sorted({s.seat_of[p] for p in winner}))
    s.winner = seats[0] if len(seats) == 1 else seats
    s.is_terminal, s.phase = True, PH_OVER
    _event(s, "win", realm=-1, realms=[REALMS[p] for p in winner], seats=list(seats), vp=[s.vp[p] for p in winner])
    return True
