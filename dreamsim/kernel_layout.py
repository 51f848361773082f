"""Named fields of the Midnighters batch kernel (issue 16 item 2): where every value of a game
lives in the kernel's one int64 array `M`, the frame kinds and fields of its stack, and the
action codes of its legal-action buffer.

The kernel (`kernel_core`, `kernel_frames`, `kernel_play`) mirrors `engine.py` frame by frame;
the names below are the engine's (`F_TURN`, `P_WALK`, `S_ANY` ...) so a reader can put the two
side by side. Hands, the discard pile and prepared traps are multisets (counts per card kind):
cards of a kind are interchangeable, and the built-in random policy chooses uniformly among the
*distinct* legal actions, so the order of a hand never matters. The deck keeps its order.

Module-level integers are compile-time constants for numba.
"""
from __future__ import annotations

from .engine import STAT_NAMES

# --- the engine's frame kinds, play types and surplus modes (same numbers as engine.py) -------
(F_TURN, F_VOP, F_PARTNER, F_REACT, F_STARTRAP, F_FOREST, F_SQUARE, F_MOTEL_T, F_MOTEL_TAKE, F_SURPLUS,
 F_REST, F_REST_N, F_TH, F_TRAPS, F_WTRAP_T, F_WTRAP_TO, F_VTRAP, F_DTRAP, F_NIGHT, F_PLACE,
 F_NEXT, F_RESOLVE, F_PLAYDONE, F_ACT, F_REFILL) = range(25)
P_WALK, P_VERT, P_STAR, P_TRAP, P_DEXTRA, P_DREDUCE, P_STEAL = range(7)
S_ANY, S_GIVE, S_PLAIN = range(3)

MAX_SEATS = 6
MAX_CELLS = 64          # layouts up to 64 cells (Rules.layout); kernel.supports refuses larger ones
N_KINDS = 17
N_LOC = 12
N_PARTNERS = 5          # trap partner kinds 0..4 (Dreamwalk, Vertigo, Midnight Star, Dutch Angle, Dreamcatcher)
DECK_CAP = 102
STACK_CAP = 48
FRAME_W = 14
CHAIN_CAP = 24          # a reaction chain: each answer costs a Dutch Angle or a Dreamcatcher (18 in the game)
ACTS_CAP = 64           # legal actions of one decision (a turn offers at most ~40)
N_STATS = len(STAT_NAMES)

# --- stat rows (engine.STAT_NAMES order) ----------------------------------------------------
(ST_DREAMWALK, ST_VERTIGO, ST_STAR, ST_DUTCH, ST_CATCHER, ST_TRAPS_SET, ST_TRAPS_SPRUNG, ST_NIGHTMARES,
 ST_SKIPPED, ST_CANCELS, ST_INTERCEPTS, ST_ACTIVATIONS, ST_ACTIONS, ST_DISCARDS) = range(14)
assert STAT_NAMES == ("played_dreamwalk", "played_vertigo", "played_star", "played_dutch", "played_catcher",
                      "traps_set", "traps_sprung", "nightmares_drawn", "turns_skipped", "cancels", "intercepts",
                      "activations", "actions", "discards")

# --- scalars of M: the game state, then the rule parameters the kernel takes as numbers ------
(G_N, G_TP, G_CTRL, G_CUR, G_AL, G_HORROR, G_RED, G_BLUE, G_MULTI, G_SLOW, G_WINNER, G_WOKE, G_HWON, G_TERM,
 G_TIMEOUT, G_TURNS, G_DECS, G_DECK_N, G_DISC_N, G_NTRAPS, G_SP, G_CHAIN_N, G_ROWS, G_COLS, G_NCELLS,
 G_RNG_CALLS) = range(26)
(R_MAX_TURNS, R_HAND, R_APT, R_MULTI_A, R_SLOW_A, R_TRAP_A, R_DUTCH_A, R_STEAL_A, R_CANCEL_DEBT, R_DEBT_CARRY,
 R_DISCARD_ACTION, R_START_CELL) = range(26, 38)
G_ERROR = 38            # set when the frame stack overflowed (the game stops; kernel.py raises)
N_SCALARS = 39

# --- arrays of M (offsets; sizes in the comments) -------------------------------------------
O_GRID = N_SCALARS                          # location per cell (-1: a gap)
O_CELL_OF = O_GRID + MAX_CELLS              # cell per location
O_ROT = O_CELL_OF + N_LOC                   # rotation per location
O_NB = O_ROT + N_LOC                        # [cell][direction] -> neighbour cell or -1
O_WHERE = O_NB + MAX_CELLS * 4              # location per seat
O_DECK = O_WHERE + MAX_SEATS                # the deck, bottom first (the next card drawn last)
O_DISC = O_DECK + DECK_CAP                  # discard pile: count per kind
O_HAND = O_DISC + N_KINDS                   # [seat][kind] -> count
O_HSIZE = O_HAND + MAX_SEATS * N_KINDS      # cards per hand
O_TRAPS = O_HSIZE + MAX_SEATS               # [seat][location][partner kind] -> prepared traps
O_TRAPN = O_TRAPS + MAX_SEATS * N_LOC * N_PARTNERS  # prepared traps per seat
O_DEBT = O_TRAPN + MAX_SEATS                # actions owed to later turns
O_OWED = O_DEBT + MAX_SEATS                 # cards played and not yet replaced
O_STATS = O_OWED + MAX_SEATS                # [stat][seat]
O_STACK = O_STATS + N_STATS * MAX_SEATS     # [depth][field]
O_CHAIN = O_STACK + STACK_CAP * FRAME_W     # the reaction chain: (seat, kind) per answer
O_ACTS = O_CHAIN + CHAIN_CAP * 2            # the legal actions of the current decision: (code, a, b)
O_INIT_GRID = O_ACTS + ACTS_CAP * 3         # the layout's grid and rotations (Rules.layout)
O_INIT_ROT = O_INIT_GRID + MAX_CELLS
O_TMP = O_INIT_ROT + N_LOC                  # scratch (reshuffles, mixes)
O_TMP2 = O_TMP + 160                        # scratch (a Purple exchange of traps)
M_SIZE = O_TMP2 + MAX_SEATS * N_LOC * N_PARTNERS

# --- frame fields (index 0 is the frame kind) ------------------------------------------------
FR_DEC = 1        # who decides (the engine's f[1])
FR_ASK_N = 7      # reaction / trap / Star trap / Town Hall trap windows: how many seats are asked
FR_ASK = 8        # ... and the seats, at FR_ASK .. FR_ASK + 5
# F_VOP, F_PARTNER: p at 2, loc at 3.  F_FOREST/F_MOTEL_T/F_REST/F_TH: b at 2.  F_SQUARE: b 2, taken 3.
# F_MOTEL_TAKE: b 2, target 3, taken 4.  F_SURPLUS: p 2, mode 3, target 4.  F_REST_N: b 2, target 3.
# F_REACT: idx 4.  F_STARTRAP: loc 2, p 3, idx 5.  F_TRAPS: built 2, idx 3, turnstart 4.
# F_WTRAP_T: loc 2.  F_WTRAP_TO: target 2, loc 3.  F_VTRAP: loc 2, phase 3.  F_DTRAP: loc 2.
# F_NIGHT: drawer 2, kind 3, idx 5, affected 6.  F_PLACE: victims (bit set) 2.
# F_RESOLVE: p 1, ptype 2, a1 3, a2 4, ncards 5, status 6, cards 7..8.  F_PLAYDONE/F_REFILL: p 1.
# F_ACT: loc 1, beneficiary 2, remote 3.
RES_P, RES_TYPE, RES_A1, RES_A2, RES_NC, RES_STATUS, RES_C0 = 1, 2, 3, 4, 5, 6, 7
ACT_LOC, ACT_B, ACT_REMOTE = 1, 2, 3

# --- action codes of the legal buffer: (code, a, b) ------------------------------------------
(A_WALK, A_VERT, A_STAR, A_SETTRAP, A_DEXTRA, A_DREDUCE, A_DISCARD, A_STEAL, A_PASS, A_VOP, A_PARTNER, A_CANCEL,
 A_INTERCEPT, A_ALLOW, A_SPRING, A_HOLD, A_TARGET, A_TO, A_TAKE, A_STOP, A_GIVE, A_MIX, A_COUNT) = range(23)
