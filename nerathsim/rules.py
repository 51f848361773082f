"""`Rules`: every rule knob of the full Conquest of Nerath game; the defaults are the published game.

Fields that settle a gap of the seed name the gap in their comment; nerathsim/RULES.md (Part II)
gives the reasoning. Change a field with ``dataclasses.replace(Rules(), mode="free_for_all")``.
The battle rules (unit table, hit threshold, castle mode) are the embedded `BattleRules`
of the battles module: ``Rules(battle=BattleRules(units=UnitTable.published().replace("dragon", cost=6)))``.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, fields
from functools import cached_property

from simcore.rules import bool_fields, choice_fields, int_field

from .battle.rules import BattleRules
from .cards import load_cards, read_text
from .maps import REALMS, Board, load_map
from .setups import KARKOTH_STARTS, SetupError, apply_setup, normalise_gold

#: the four realms (factions) in the order of the seed's four-player table = turn order
FACTIONS = REALMS
PUBLISHED_TURN_ORDER = ("karkoth", "vailin", "iron_circle", "nerath")   # facts §3.3 (RSO, SCIFI, DAE)
TURN_ORDERS = {
    "published": PUBLISHED_TURN_ORDER,
    "nerath_first": ("nerath", "karkoth", "vailin", "iron_circle"),      # fan wiki W: "let Nerath move first"
    "reversed": ("nerath", "iron_circle", "vailin", "karkoth"),          # Enhanced variant WE
}
#: a turn order spelled as text: the realms in order joined by this ("karkoth-vailin-iron_circle-nerath")
ORDER_SEPARATOR = "-"
#: the seed's table "Antal spillere / Spiller 1..4": which realms each seat controls
SEATING = {
    2: (("karkoth", "iron_circle"), ("vailin", "nerath")),
    3: (("vailin", "nerath"), ("karkoth",), ("iron_circle",)),
    4: (("karkoth",), ("vailin",), ("iron_circle",), ("nerath",)),
}
#: the seed's alliances: "Karkoth og Iron Circle udgør den ene alliance, mens Vallin og Nerath udgør den anden"
TEAMS = (("karkoth", "iron_circle"), ("vailin", "nerath"))
#: the seed's table "Spillængde": (free-for-all, alliance) VP to win; long = all capitals (or treasures)
VP_TABLE = {"short": (13, 20), "medium": (20, 30)}
TREASURE_TABLE = (8, 12)

_CHOICES = {
    "mode": ("alliance", "free_for_all"),
    "game_length": ("short", "medium", "long"),
    "dungeon_entry": ("heroes", "all_land"),
    "regroup_move": ("full", "remaining"),
    "income_mode": ("count", "value"),
    "castle_placement": ("any_held", "next_to_castle"),
    "ally_damage_split": ("equal", "region_owner_first"),
    "treasure_vp": ("vp", "gold", "none"),
    "casualty_choice": ("each_hit", "order"),
    "drowning": ("per_ship", "pooled"),
    "karkoth_start": KARKOTH_STARTS,
}


@dataclass(frozen=True)
class Rules:
    # --- the published game -----------------------------------------------------------------
    players: int = 4                      # 2, 3 or 4 seats (seed's seating table)
    mode: str = "alliance"                # seed: "Som udgangspunkt spiller man med en alliance"; free_for_all: 4 players
    game_length: str = "short"            # seed's table: short 13/20 VP, medium 20/30 VP, long all capitals
    vp_to_win: int | None = None          # None = the seed's table for game_length and mode
    map: str | Board = "nerath"           # shipped map name, path to a JSON map, or a maps.Board
    turn_order: tuple | str = PUBLISHED_TURN_ORDER   # facts §3.3; or a TURN_ORDERS name ("nerath_first", "reversed")
                                          #   or spelled out, "nerath-karkoth-vailin-iron_circle" (ORDER_SEPARATOR)
    battle: BattleRules = field(default_factory=BattleRules)   # unit table, hit threshold, castle mode
    event_deck_size: int | None = 20      # seed: "sin nations 20 event-kort"; checked against the event file (None: any size)
    starting_hand: int = 2                # seed: "trækker hver spiller to kort"
    region_vp: int = 1                    # seed: one VP for a space in an opponent's starting area
    capital_vp: int = 5                   # seed: five VP for an opponent's capital
    placement_limit: int = 4              # seed: "højst placere fire nye tropper" at castles other than the capital
    max_rounds: int = 30                  # round cap: reaching it ends the game as a timeout (not a rule of the game)
    # --- gaps in the seed, decided (see RULES.md (Part II)) ---------------------------------------
    capital_vp_stacks: bool = False       # [TN] capital: 5 VP instead of (False) or on top of (True) the 1 VP
    vp_once_per_region: bool = False      # gap: VP each time a region is conquered (False) or once per region
    amok_scores_vp: bool = True           # gap: a run-amok conquest scores VP like any conquest
    flyer_coast_cost: int = 1             # [TN] extra move for a flyer crossing land<->sea (only flyers cross by themselves)
    flyers_capture: bool = True           # seed: the attacker wins with "mindst en trop tilbage", and flyers are
                                          #   troops ("tre typer af tropper ... flyvende enheder"): a flyer alone
                                          #   conquers (False: the Axis & Allies reading, air cannot take land)
    flyers_ending_at_sea: tuple = ("storm_elemental",)   # facts W: dragons must end on land, storm elementals may end at sea
    dungeon_entry: str = "heroes"         # facts §3.3: only heroes may move onto a dungeon space ("all_land": any land unit)
    board_after_move: bool = False        # gap: may a land unit that moved this turn still board? seed: "skal stå på et kystfelt"
    cargo_may_stay_aboard: bool = False   # seed: land units "skal slutte deres tur på et landfelt" — still aboard
                                          #   when the turn ends, they are lost (True: they may stay aboard, nerath-game-1.2)
    walk_in_attack: bool = True           # seed: entering an empty enemy region "Det er et angreb": taken in the combat
                                          #   phase in the attacker's order, and its monsters may run amok (False: taken
                                          #   at once before the land battles, no amok, nerath-game-1.3)
    dungeon_fights_last: bool = False     # seed: "Angriberen vælger, i hvilken rækkefølge kampene afvikles" — dungeon fights
                                          #   are land fights in that order (True: after every land battle, nerath-game-1.3)
    drowning: str = "per_ship"            # seed: "Enheder om bord på et warship, der udslettes, drukner": a sunk warship's
                                          #   cargo drowns with it ("pooled": survives if another ship has room, nerath-game-1.2)
    regroup_move: str = "full"            # [TN] regroup range: full move value, or what is left after the movement phase
    income_mode: str = "count"            # seed: ±1 per space ("count"), or ± the region's gold value ("value")
    castle_placement: str = "any_held"    # gap: a bought castle goes on a castle-less land region held since the turn began
                                          #   ("next_to_castle": such a region next to a castle it may place at)
    casualty_choice: str = "each_hit"     # seed: "Du bestemmer, hvilken af dine tropper, der rammes" — the owner places
                                          #   each hit (decision Hit); "order": one casualty order per battle (faster)
    ally_damage_split: str = "equal"      # seed fallback when allies do not agree: equal split, odd hit to the bigger army
    treasures_to_win: int | None = None   # long game: None = seed's 8 / 12 ("alle hovedstæder eller otte skatte")
    team_vp_to_win: tuple | str | None = None   # re-balancing variant, not the seed: VP each alliance needs in alliance
                                          #   play, (Karkoth + Iron Circle, Vailin + Nerath) in TEAMS order, or spelled out
                                          #   "20-24"; None ("table") = vp_target for both (acts on the alliance game only)
    # --- the reconstructed board's setup choices (nerathsim/setups.py; RULES.md §1, gaps G38b, G42-G44) ------
    starting_gold: tuple | str = "map"    # "map": the map's realm gold (nerath: 10/12/10/14, evil 20 v good 26, not
                                          #   public); "equal": every realm the mean; or "10-12-10-14" in realm order
    karkoth_start: str = "front"          # rulebook "aggressive starting position": the map's front stacks
                                          #   ("capital": one footsoldier per region, the rest on the capital)
    iron_circle_extra_monsters: bool = True   # the map's monsters at Hobgoblin March and Warcamp (no text gives them)
    footsoldier_box_cap: bool = True      # facts §1.2: the box holds 20 footsoldiers a realm (False: the 25-27 of
                                          #   the nerath_uncapped board, region by region)
    # --- events, dungeons and treasures (switches for designers; see RULES.md Part III) -------------
    events: bool = True                   # the realms' event decks in play (False: no decks, no draws)
    dungeons: bool = True                 # dungeon guardians and treasures in play (False: heroes find nothing)
    treasure_win: bool = True             # long game: "eller otte skatte" wins (False: fan variant W, capitals only)
    treasures_per_dungeon: int | None = None   # None: unlimited (seed); 2: fan variant W "at most 2 treasures per dungeon"
    treasure_vp: str = "vp"               # a treasure's VP count as VP (seed), as gold (Enhanced variant WE), or "none"
    starting_guardians: int = 1           # seed: "én brik – med bagsiden opad – på hver dungeon-indgang"
    new_guardians: int = 2                # seed: "Placér to Dungeon Guardian-brikker på feltet"
    event_file: str | None = None         # None: the shipped decks (data/cards/events.json); or a path to your own
    treasure_file: str | None = None      # None: data/cards/treasures.json; or a path
    guardian_file: str | None = None      # None: data/cards/guardians.json; or a path

    def __post_init__(self):
        _validate(self)

    # --- derived --------------------------------------------------------------------------------
    def __getstate__(self):
        """Only the fields travel (to joblib workers): the board and the engine's tables are rebuilt."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __setstate__(self, state):
        for k, v in state.items():
            object.__setattr__(self, k, v)

    @cached_property
    def board(self) -> Board:
        """The map: a Board as given, else the map loaded by name or path with the setup fields applied."""
        if isinstance(self.map, Board):
            return self.map
        return apply_setup(load_map(self.map, self.battle.units), self)

    @property
    def cards(self):
        """The event decks, treasures and guardians (nerathsim.cards.CardSet), loaded and validated once."""
        got = self.__dict__.get("_cards")
        if got is None:
            got = load_cards(self.event_file, self.treasure_file, self.guardian_file, self.battle.units,
                             self.event_deck_size)
            self.__dict__["_cards"] = got
        return got

    @property
    def units(self):
        """The unit table (from the embedded BattleRules)."""
        return self.battle.units

    @property
    def seating(self) -> tuple[tuple[int, ...], ...]:
        """Realm indices controlled by each seat (the seed's table; worked out once per Rules)."""
        got = self.__dict__.get("_seating")
        if got is None:
            got = self.__dict__["_seating"] = tuple(tuple(REALMS.index(r) for r in seat)
                                                    for seat in SEATING[self.players])
        return got

    @property
    def order(self) -> tuple[int, ...]:
        """Realm indices in turn order."""
        return tuple(REALMS.index(r) for r in self.turn_order)

    @property
    def alliance(self) -> bool:
        return self.mode == "alliance"

    @property
    def vp_target(self) -> int | None:
        """VP needed to win (None for the long game: all capitals or treasures)."""
        if self.vp_to_win is not None:
            return self.vp_to_win
        if self.game_length == "long":
            return None
        ffa, ally = VP_TABLE[self.game_length]
        return ally if self.alliance else ffa

    def vp_target_of(self, realms) -> int | None:
        """VP the side of these realm indices needs: `team_vp_to_win` for an alliance in alliance play
        (the team holding Karkoth is the first entry), else `vp_target`."""
        target = self.vp_target
        if target is None or self.team_vp_to_win is None or not self.alliance or len(realms) < 2:
            return target
        evil = REALMS.index(TEAMS[0][0]) in realms
        return self.team_vp_to_win[0 if evil else 1]

    @property
    def treasure_target(self) -> int:
        if self.treasures_to_win is not None:
            return self.treasures_to_win
        return TREASURE_TABLE[1] if self.alliance else TREASURE_TABLE[0]

    def data_hashes(self) -> dict:
        """Content hash (sha256) of every data input, for run metadata: the map (its regions,
        owners, gold, adjacency and starting units as loaded), the unit table, and the event,
        treasure and guardian files (shipped or given; only when events or dungeons are in play)."""
        b = self.board
        board = (b.names, b.is_sea, b.is_dungeon, b.owner, b.start_area, b.capital_of, b.castle, b.gold, b.adj,
                 b.units, b.realm_gold, b.realm_income)
        out = {"map": _sha256(repr(board)), "units": _sha256(repr(self.battle.units.units))}
        if self.events or self.dungeons:
            for kind, path in (("events", self.event_file), ("treasures", self.treasure_file),
                               ("guardians", self.guardian_file)):
                out[kind] = _sha256(read_text(path, kind))
        return out

    def to_dict(self) -> dict:
        """Plain-value view for metadata (file contents: `data_hashes`)."""
        out = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "battle":
                v = v.to_dict()
            elif f.name == "map":
                v = v.name if isinstance(v, Board) else str(v)
            elif isinstance(v, tuple):
                v = list(v)
            out[f.name] = v
        return out


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _validate(rules: Rules) -> None:
    int_field(rules, "players", 2, 4)
    choice_fields(rules, _CHOICES)
    if rules.mode == "free_for_all" and rules.players != 4:
        raise ValueError(f"Rules.mode='free_for_all' needs players=4 (seed: 'I et fire player-spil kan man dog vælge "
                         f"at spille alle mod alle'); with {rules.players} players a seat plays a whole alliance")
    int_field(rules, "vp_to_win", 1, none_ok=True)
    int_field(rules, "treasures_to_win", 1, none_ok=True)
    team = given_team = rules.team_vp_to_win
    if isinstance(team, str):              # spelled out, as the re-balancing knob gives it: "20-24"; "table" = None
        parts = team.split(ORDER_SEPARATOR)
        team = None if team == "table" else tuple(int(v) if v.isdigit() else v for v in parts)
        object.__setattr__(rules, "team_vp_to_win", team)
    if isinstance(team, list):
        object.__setattr__(rules, "team_vp_to_win", tuple(team))
        team = rules.team_vp_to_win
    if team is not None and (not isinstance(team, tuple) or len(team) != 2
                             or any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in team)):
        raise ValueError(f"Rules.team_vp_to_win must be None or two positive whole numbers (VP for Karkoth + Iron Circle, "
                         f"VP for Vailin + Nerath; spelled out '20{ORDER_SEPARATOR}24', or 'table' for None), "
                         f"got {given_team!r}")
    int_field(rules, "event_deck_size", 1, none_ok=True)
    int_field(rules, "treasures_per_dungeon", 1, none_ok=True)
    for name in ("starting_guardians", "new_guardians"):
        int_field(rules, name, 0)
    for name in ("event_file", "treasure_file", "guardian_file"):
        v = getattr(rules, name)
        if hasattr(v, "__fspath__"):
            object.__setattr__(rules, name, str(v))
        elif v is not None and not isinstance(v, str):
            raise ValueError(f"Rules.{name} must be a path or None, got {v!r}")
    for name in ("starting_hand", "region_vp", "capital_vp", "flyer_coast_cost"):
        int_field(rules, name, 0)
    int_field(rules, "placement_limit", 1)
    int_field(rules, "max_rounds", 1)
    bool_fields(rules, ("capital_vp_stacks", "vp_once_per_region", "amok_scores_vp", "flyers_capture",
                        "board_after_move", "cargo_may_stay_aboard", "walk_in_attack", "dungeon_fights_last", "events",
                        "dungeons", "treasure_win", "iron_circle_extra_monsters", "footsoldier_box_cap"))
    if not isinstance(rules.battle, BattleRules):
        raise ValueError(f"Rules.battle must be a nerathsim.BattleRules, got {type(rules.battle).__name__}")
    order = given_order = rules.turn_order
    if isinstance(order, str) and order in TURN_ORDERS:
        object.__setattr__(rules, "turn_order", TURN_ORDERS[order])
        order = rules.turn_order
    elif isinstance(order, str) and ORDER_SEPARATOR in order:     # spelled out: "karkoth-nerath-iron_circle-vailin"
        order = tuple(order.split(ORDER_SEPARATOR))
        object.__setattr__(rules, "turn_order", order)
    if isinstance(order, list):
        object.__setattr__(rules, "turn_order", tuple(order))
        order = rules.turn_order
    if not isinstance(order, tuple) or sorted(order) != sorted(REALMS):
        raise ValueError(f"Rules.turn_order must name each realm once ({', '.join(REALMS)}; as a tuple or spelled "
                         f"'{ORDER_SEPARATOR.join(REALMS)}') or be one of {', '.join(TURN_ORDERS)}, "
                         f"got {given_order!r}")
    sea = rules.flyers_ending_at_sea
    if isinstance(sea, list):
        object.__setattr__(rules, "flyers_ending_at_sea", tuple(sea))
        sea = rules.flyers_ending_at_sea
    if not isinstance(sea, tuple):
        raise ValueError(f"Rules.flyers_ending_at_sea must be a tuple of unit names, got {sea!r}")
    units = rules.battle.units
    for name in sea:
        try:
            key = units.canonical(name)
        except ValueError as exc:
            raise ValueError(f"Rules.flyers_ending_at_sea: {exc}") from None
        if units[key].domain != "flying":
            raise ValueError(f"Rules.flyers_ending_at_sea: {key} is not a flying unit")
    if not isinstance(rules.map, (str, Board)) and not hasattr(rules.map, "__fspath__"):
        raise ValueError(f"Rules.map must be a map name ('nerath', 'small'), a path or a Board, got {rules.map!r}")
    if hasattr(rules.map, "__fspath__"):
        object.__setattr__(rules, "map", str(rules.map))
    object.__setattr__(rules, "starting_gold", normalise_gold(rules.starting_gold))
    try:
        board = rules.board
    except SetupError:
        raise
    except ValueError as exc:
        raise ValueError(f"Rules.map: {exc}") from None
    _check_board_units(board, rules)
    _check_unit_table(units)
    if rules.events or rules.dungeons:
        try:
            rules.cards
        except ValueError as exc:
            raise ValueError(f"Rules: {exc}") from None


def _check_board_units(board: Board, rules: Rules) -> None:
    units = rules.battle.units
    for r in range(board.n):
        for p, name, _ in board.units[r]:
            if name not in units:
                raise ValueError(f"Rules.map: map {board.name!r}, region {board.names[r]!r}: unit {name!r} is not in "
                                 f"the unit table")
            u = units[name]
            if board.is_sea[r] and u.domain == "flying" and name not in rules.flyers_ending_at_sea:
                raise ValueError(f"Rules.map: map {board.name!r}, region {board.names[r]!r} (sea): {name} must end its "
                                 f"turn on land (Rules.flyers_ending_at_sea)")


def _check_unit_table(units) -> None:
    """The full game needs a castle type (placement) and a transport type among the units."""
    if not any(u.places_units for u in units.units):
        raise ValueError("Rules.battle.units: the full game needs a unit with places_units=True (the castle)")
