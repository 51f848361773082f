"""Every rule of the seed (shared/seeds/nightmarium.da.txt) and every decided gap (the `Rules`
fields), each shown on a hand-built position with the EXACT state after the action(s).

Positions are built with `nightsim.engine.scenario.build_state(..., unused="remove")`, so the deck and
the discard pile are exactly the cards a test lists (top of the deck = LAST item). Card names
below say legion, slot(s) and ability; `test_card_constants_are_what_their_names_say` checks
them against the deck. nightsim/RULES.md maps each rule sentence to these tests.
"""
from __future__ import annotations

import pathlib
import re

import numpy as np
import pytest

import nightsim
from nightsim import (
    Decline,
    Devour,
    DiscardCard,
    Draw,
    PenaltyDiscard,
    Play,
    PlaySeal,
    Reactivate,
    Rules,
    Scavenge,
    StartDiscard,
    StopDiscard,
    Take,
    apply_action,
    legal_actions,
)
from nightsim.engine.scenario import build_state, card_id, find_cards

BASE = Rules()


def c(number: int) -> int:
    """Card id of a printed card number (the same id with or without seals)."""
    return card_id(BASE, number)


# ------------------------------------------------------------------ named cards (printed number)
N_LEGS, N_LEGS_B, N_LEGS_C = c(3), c(6), c(15)
N_TORSO = c(2)
N_HEAD, N_HEAD_B = c(4), c(13)
N_LEGS_WEEPER = c(12)
N_LEGS_TORSO_WEEPER = c(11)
N_TORSO_HEAD_WEEPER = c(5)
N_HEAD_SCAVENGER = c(1)
N_HEAD_DEVOURER = c(25)
H_LEGS, H_LEGS_B, H_LEGS_C = c(30), c(33), c(36)
H_TORSO = c(35)
H_HEAD = c(37)
H_HEAD_MOCKER = c(31)
H_HEAD_DEVOURER = c(28)
H_TORSO_DEVOURER = c(53)
H_HEAD_WEEPER = c(46)
H_TORSO_WEEPER = c(47)
H_LEGS_WEEPER = c(54)
I_LEGS, I_LEGS_B = c(66), c(69)
I_TORSO = c(71)
I_HEAD = c(67)
I_HEAD_HERALD = c(55)
I_HEAD_WEEPER = c(61)
I_ANY_MOCKER = c(59)
C_LEGS, C_LEGS_B = c(87), c(99)
C_TORSO, C_TORSO_B = c(86), c(98)
C_HEAD, C_HEAD_B = c(85), c(97)
C_HEAD_EXECUTIONER = c(82)
C_TORSO_EXECUTIONER = c(95)
C_TORSO_MOCKER = c(89)
C_LEGS_MOCKER = c(90)

# fillers for decks (plain cards no test names): D[0] is at the bottom
D = [c(39), c(48), c(51), c(52), c(26), c(27)]
# four complete creatures for the win tests
K1 = [c(18), c(20), c(19)]   # Necronauts legs/torso/head, Scavengers
K2 = [c(24), c(23), c(16)]   # Necronauts, Scavengers
K3 = [c(42), c(32), c(40)]   # Homunculi Devourer, Mocker, Devourer
K4 = [c(72), c(80), c(70)]   # Insektoids, no abilities

R2 = Rules(players=2)
R3 = Rules(players=3)
R4 = Rules(players=4)
RS = Rules(players=2, seals=True)
SEAL_N, SEAL_H, SEAL_I, SEAL_C = (find_cards(RS, legion=lg, seal=True)[0] for lg in nightsim.LEGIONS)


# ------------------------------------------------------------------ helpers
def pos(rules, hands=None, creatures=None, deck=(), discard=(), **kw):
    """A hand-built position whose deck and discard pile are exactly what is passed."""
    n = rules.players
    return build_state(rules, hands=hands or [[] for _ in range(n)],
                       creatures=creatures or [[] for _ in range(n)],
                       deck=list(deck), discard=list(discard), unused="remove", record=True, **kw)


def do(s, *actions):
    """Apply actions in turn with a fresh default_rng(0) each (each is checked for legality)."""
    for a in actions:
        apply_action(s, a, np.random.default_rng(0))
    return s


def legal(s) -> set:
    la = legal_actions(s)
    assert len(la) == len(set(la)), f"duplicate legal actions: {la}"
    return set(la)


def check(s, *, hands, creatures, deck, discard, player, actions_left, decision="turn action",
          turn_player=None, winner=None, seals=None):
    """The exact state: every hand, creature, the deck, the discard pile, whose decision it is."""
    assert [list(h) for h in s.hands] == hands
    assert [[cr.cards for cr in crs] for crs in s.creatures] == creatures
    assert s.deck == deck
    assert s.discard == discard
    assert s.current_player == player
    assert s.turn_player == (player if turn_player is None else turn_player)
    assert s.actions_left == actions_left
    assert s.winner == winner
    assert s.is_terminal == (winner is not None)
    if not s.is_terminal:
        assert s.decision == decision
    expected_seals = seals if seals is not None else [[-1] * len(crs) for crs in creatures]
    assert [[cr.seal for cr in crs] for crs in s.creatures] == expected_seals
    assert len(s.stack) == 1 or decision != "turn action"   # the turn frame alone


def reactivate(s):
    """Accept the seal's re-activation, after checking that it is offered as a decision."""
    assert s.decision == "seal re-activation" and legal(s) == {Reactivate(), Decline()}
    return do(s, Reactivate())


def ability_log(s) -> list:
    """(ability, card) of every activation, with "failed" for the ones not carried out."""
    return [(e["ability"], e["card"]) if e["event"] == "ability" else ("failed", e["ability"], e["card"])
            for e in s.log if e["event"] in ("ability", "ability_failed")]


def kinds(s) -> list:
    return [e["event"] for e in s.log]


# ------------------------------------------------------------------ the card constants
def test_card_constants_are_what_their_names_say():
    named = {k: v for k, v in globals().items() if k[:2] in ("N_", "H_", "I_", "C_") and isinstance(v, int)}
    legion = {"N": "Necronauts", "H": "Homunculi", "I": "Insektoids", "C": "Chimeridae"}
    for name, cid in named.items():
        card = BASE.table.cards[cid]
        parts = name.split("_")
        assert nightsim.LEGIONS[card.legion] == legion[parts[0]], name
        words = [p.lower() for p in parts[1:] if p not in ("B", "C")]
        slots = [w for w in words if w in ("legs", "torso", "head", "any")]
        abilities = [w for w in words if w.capitalize() in nightsim.ABILITIES]
        expected = (0, 1, 2) if slots == ["any"] else tuple(nightsim.BODY_PARTS.index(w) for w in slots)
        assert card.slots == expected, name
        assert (nightsim.ABILITIES[card.ability] if card.ability >= 0 else None) == (
            abilities[0].capitalize() if abilities else None), name
    used = list(named.values()) + D + K1 + K2 + K3 + K4
    assert len(used) == len(set(used))
    for k in (K1, K2, K3, K4):
        assert [BASE.table.fits[x][i] for i, x in enumerate(k)] == [True] * 3
    assert [RS.table.cards[x].legion for x in (SEAL_N, SEAL_H, SEAL_I, SEAL_C)] == [0, 1, 2, 3]
    assert all(RS.table.is_seal[x] for x in (SEAL_N, SEAL_H, SEAL_I, SEAL_C))


# ================================================================== the scenario helper
def test_scenario_card_id_and_find_cards():
    assert card_id(BASE, 64) == 63 and BASE.table.cards[63].number == 64
    assert card_id(RS, 109) == SEAL_N
    with pytest.raises(ValueError, match="no card with number 200"):
        card_id(BASE, 200)
    heralds = find_cards(BASE, legion="Insektoids", slot="head", ability="Herald")
    assert [BASE.table.number[i] for i in heralds] == [55, 64, 65, 73, 74, 76]
    plain_c_heads = find_cards(BASE, legion="Chimeridae", slots=["head"], ability=None)
    assert [BASE.table.number[i] for i in plain_c_heads] == [85, 97]
    assert len(find_cards(RS, seal=True)) == 12 and find_cards(BASE, seal=True) == []


def test_scenario_unused_cards_go_to_the_bottom_of_the_deck():
    s = build_state(R2, hands=[[N_LEGS], []], creatures=[[[H_LEGS, H_TORSO]], []], deck=[D[0], D[1]],
                    discard=[C_HEAD])
    assert sorted(s.all_cards()) == list(range(108))      # every card exactly once
    assert s.deck[-2:] == [D[0], D[1]]                      # the passed deck is the top, D[1] drawn first
    rest = sorted(set(range(108)) - {N_LEGS, H_LEGS, H_TORSO, D[0], D[1], C_HEAD})
    assert s.deck[:-2] == rest[::-1]                        # lowest unused id drawn next
    assert s.discard == [C_HEAD]
    s2 = build_state(R2, deck=[D[0]], unused="discard")
    assert s2.deck == [D[0]] and s2.discard == [x for x in range(108) if x != D[0]]
    s3 = build_state(R2, deck=[D[0]], unused="remove")
    assert s3.deck == [D[0]] and s3.discard == [] and s3.all_cards() == [D[0]]
    assert (s.turn_player, s.current_player, s.actions_left, s.winner) == (0, 0, 2, None)
    assert [type(f).__name__ for f in s.stack] == ["TurnActions"] and s.stack[0].seat == 0


def test_scenario_rejects_a_card_used_twice_and_invalid_creatures():
    with pytest.raises(ValueError, match="used twice"):
        build_state(R2, hands=[[N_LEGS], [N_LEGS]])
    with pytest.raises(ValueError, match="used twice"):
        build_state(R2, creatures=[[[N_LEGS]], []], deck=[N_LEGS])
    with pytest.raises(ValueError, match="cannot be the legs"):
        build_state(R2, creatures=[[[N_HEAD]], []])               # a head is not legs
    with pytest.raises(ValueError, match="cannot be the head"):
        build_state(R2, creatures=[[[N_LEGS, N_TORSO, N_LEGS_B]], []])
    with pytest.raises(ValueError, match="creature limit is 5"):
        build_state(R2, creatures=[[[x] for x in (N_LEGS, N_LEGS_B, N_LEGS_C, H_LEGS, H_LEGS_B, H_LEGS_C)], []])
    with pytest.raises(ValueError, match="already be over"):
        build_state(R2, creatures=[[K1, K2, K3, K4, [C_LEGS, C_TORSO, C_HEAD]], []])
    with pytest.raises(ValueError, match="complete creature only"):
        build_state(RS, creatures=[[[N_LEGS]], []], seals={(0, 0): SEAL_N})
    with pytest.raises(ValueError, match="not a seal"):
        build_state(RS, creatures=[[K1], []], seals={(0, 0): N_LEGS})


# ================================================================== setup
@pytest.mark.parametrize("players, hand_size", [(2, 5), (3, 5), (4, 5), (5, 5), (3, 7), (4, 1)])
def test_setup_deals_five_cards_each_and_seat_0_starts(players, hand_size):
    """'Bland alle Night Terror-kortene, og giv fem kort til hver spiller' — and the starting
    player ('den sidste person, der havde et mareridt') is seat 0."""
    s = nightsim.new_game(Rules(players=players, hand_size=hand_size), 0, record=True)
    assert [len(h) for h in s.hands] == [hand_size] * players
    assert len(s.deck) == 108 - players * hand_size and s.discard == []
    assert s.creatures == [[] for _ in range(players)]
    assert (s.turn_player, s.current_player, s.actions_left, s.decision) == (0, 0, 2, "turn action")
    assert sorted(s.all_cards()) == list(range(108))
    assert s.log[0]["event"] == "deal" and s.log[0]["hands"] == s.hands


# ================================================================== the three actions
def test_draw_action_draws_the_top_card_of_the_deck():
    s = pos(R2, hands=[[N_LEGS], []], deck=[N_HEAD, N_TORSO])
    do(s, Draw())
    check(s, hands=[[N_LEGS, N_TORSO], []], creatures=[[], []], deck=[N_HEAD], discard=[],
          player=0, actions_left=1)
    assert s.log[-1]["event"] == "draw" and s.log[-1]["cards"] == [N_TORSO]


@pytest.mark.parametrize("x, drawn", [(1, 0), (2, 1), (3, 1), (4, 2), (5, 2)])
def test_discard_x_cards_draws_x_over_2_rounded_down(x, drawn):
    hand = [N_LEGS, N_TORSO, N_HEAD, H_LEGS, H_TORSO]
    s = pos(R2, hands=[hand, []], deck=D[:3])
    do(s, StartDiscard(), *[DiscardCard(card) for card in hand[:x]], StopDiscard())
    check(s, hands=[hand[x:] + [D[2], D[1]][:drawn], []], creatures=[[], []], deck=D[:3 - drawn],
          discard=hand[:x], player=0, actions_left=1)
    assert s.stats["cards_discarded"][0] == x and s.stats["cards_drawn"][0] == drawn


def test_discard_cards_are_chosen_one_by_one_then_stop():
    s = pos(R2, hands=[[N_LEGS, N_TORSO, N_HEAD], []], deck=[D[0]])
    do(s, StartDiscard())
    # the action is under way: choose the cards; nothing leaves the hand until StopDiscard
    check(s, hands=[[N_LEGS, N_TORSO, N_HEAD], []], creatures=[[], []], deck=[D[0]], discard=[],
          player=0, actions_left=1, decision="discard choice")
    assert legal(s) == {DiscardCard(N_LEGS), DiscardCard(N_TORSO), DiscardCard(N_HEAD)}  # no X=0
    do(s, DiscardCard(N_TORSO))
    assert legal(s) == {DiscardCard(N_LEGS), DiscardCard(N_HEAD), StopDiscard()}
    do(s, DiscardCard(N_HEAD), StopDiscard())
    check(s, hands=[[N_LEGS, D[0]], []], creatures=[[], []], deck=[], discard=[N_TORSO, N_HEAD],
          player=0, actions_left=1)


def test_discard_action_needs_at_least_one_card_in_hand():
    s = pos(R2)
    assert legal_actions(s) == [Draw()]   # X=0 is not a discard action; an empty hand can only draw


def test_min_discard_variant_requires_that_many_cards():
    rules = Rules(players=2, min_discard=2)
    s = pos(rules, hands=[[N_HEAD], []])
    assert legal(s) == {Draw()}
    s = pos(rules, hands=[[N_HEAD, N_HEAD_B], []], deck=[D[0]])
    assert legal(s) == {Draw(), StartDiscard()}
    do(s, StartDiscard(), DiscardCard(N_HEAD))
    assert legal(s) == {DiscardCard(N_HEAD_B)}
    do(s, DiscardCard(N_HEAD_B))
    assert legal(s) == {StopDiscard()}
    do(s, StopDiscard())
    check(s, hands=[[D[0]], []], creatures=[[], []], deck=[], discard=[N_HEAD, N_HEAD_B], player=0,
          actions_left=1)


# ================================================================== turns
def test_two_actions_per_turn_then_the_turn_passes_clockwise():
    s = pos(R3, deck=D)
    do(s, Draw())
    check(s, hands=[[D[5]], [], []], creatures=[[], [], []], deck=D[:5], discard=[], player=0, actions_left=1)
    do(s, Draw())
    check(s, hands=[[D[5], D[4]], [], []], creatures=[[], [], []], deck=D[:4], discard=[], player=1,
          actions_left=2)
    assert s.turns == 1
    do(s, Draw(), Draw())
    check(s, hands=[[D[5], D[4]], [D[3], D[2]], []], creatures=[[], [], []], deck=D[:2], discard=[],
          player=2, actions_left=2)
    do(s, Draw(), Draw())      # the last seat passes to seat 0
    check(s, hands=[[D[5], D[4]], [D[3], D[2]], [D[1], D[0]]], creatures=[[], [], []], deck=[], discard=[],
          player=0, actions_left=2)
    assert s.turns == 3


def test_same_action_may_be_taken_twice():
    s = pos(R2, hands=[[N_LEGS, N_LEGS_B, H_LEGS], []], deck=[D[0], D[1], D[2]])
    do(s, StartDiscard(), DiscardCard(H_LEGS), StopDiscard(), StartDiscard(), DiscardCard(N_LEGS_B),
       StopDiscard())
    check(s, hands=[[N_LEGS], []], creatures=[[], []], deck=[D[0], D[1], D[2]], discard=[H_LEGS, N_LEGS_B],
          player=1, actions_left=2)


def test_actions_per_turn_variant():
    s = pos(Rules(players=2, actions_per_turn=3), deck=D[:4])
    do(s, Draw(), Draw())
    assert (s.turn_player, s.actions_left) == (0, 1)
    do(s, Draw())
    check(s, hands=[[D[3], D[2], D[1]], []], creatures=[[], []], deck=[D[0]], discard=[], player=1,
          actions_left=3)


# ================================================================== playing cards
def test_play_builds_legs_then_torso_then_head():
    s = pos(R2, hands=[[N_HEAD, N_TORSO, N_LEGS], []])
    assert legal(s) == {Draw(), StartDiscard(), Play(N_LEGS, None, 0)}   # a new creature starts with legs
    do(s, Play(N_LEGS, None, 0))
    check(s, hands=[[N_HEAD, N_TORSO], []], creatures=[[[N_LEGS]], []], deck=[], discard=[], player=0,
          actions_left=1)
    assert legal(s) == {Draw(), StartDiscard(), Play(N_TORSO, 0, 1)}    # then the torso, not the head
    do(s, Play(N_TORSO, 0, 1))
    check(s, hands=[[N_HEAD], []], creatures=[[[N_LEGS, N_TORSO]], []], deck=[], discard=[], player=1,
          actions_left=2)
    do(s, Draw(), Draw())                                                # seat 1: nothing left to draw
    assert legal(s) == {Draw(), StartDiscard(), Play(N_HEAD, 0, 2)}     # finally the head
    do(s, Play(N_HEAD, 0, 2))
    check(s, hands=[[], []], creatures=[[[N_LEGS, N_TORSO, N_HEAD]], []], deck=[], discard=[], player=0,
          actions_left=1)
    assert s.complete_count(0) == 1


def test_each_card_is_placed_anatomically_correctly():
    s = pos(R2, hands=[[N_HEAD, H_TORSO, H_LEGS], []], creatures=[[[N_LEGS], [N_LEGS_B, N_TORSO]], []])
    assert legal(s) == {Draw(), StartDiscard(), Play(N_HEAD, 1, 2), Play(H_TORSO, 0, 1), Play(H_LEGS, None, 0)}


def test_cards_with_several_body_parts_fill_any_of_them():
    s = pos(R2, hands=[[I_ANY_MOCKER, N_TORSO_HEAD_WEEPER, N_LEGS_TORSO_WEEPER], []],
            creatures=[[[I_LEGS], [I_LEGS_B, I_TORSO]], []])
    assert legal(s) == {
        Draw(), StartDiscard(),
        Play(I_ANY_MOCKER, 0, 1), Play(I_ANY_MOCKER, 1, 2), Play(I_ANY_MOCKER, None, 0),
        Play(N_TORSO_HEAD_WEEPER, 0, 1), Play(N_TORSO_HEAD_WEEPER, 1, 2),
        Play(N_LEGS_TORSO_WEEPER, 0, 1), Play(N_LEGS_TORSO_WEEPER, None, 0),
    }
    do(s, Play(I_ANY_MOCKER, None, 0))
    check(s, hands=[[N_TORSO_HEAD_WEEPER, N_LEGS_TORSO_WEEPER], []],
          creatures=[[[I_LEGS], [I_LEGS_B, I_TORSO], [I_ANY_MOCKER]], []], deck=[], discard=[], player=0,
          actions_left=1)


def test_creature_limit_is_five_creatures_complete_or_not():
    five = [K1, K2, [N_LEGS], [H_LEGS], [I_LEGS]]
    s = pos(R2, hands=[[C_LEGS, C_TORSO], []], creatures=[five, []])
    assert legal(s) == {Draw(), StartDiscard(), Play(C_TORSO, 2, 1), Play(C_TORSO, 3, 1), Play(C_TORSO, 4, 1)}
    s = pos(R2, hands=[[C_LEGS, C_TORSO], []], creatures=[five[:4], []])
    assert Play(C_LEGS, None, 0) in legal(s)
    assert R2.limit == 5


def test_creature_limit_variant():
    five = [K1, K2, [N_LEGS], [H_LEGS], [I_LEGS]]
    for rules in (Rules(players=2, creature_limit=6), Rules(players=2, creatures_to_win=6)):
        assert rules.limit == 6
        s = pos(rules, hands=[[C_LEGS], []], creatures=[five, []])
        assert legal(s) == {Draw(), StartDiscard(), Play(C_LEGS, None, 0)}
        do(s, Play(C_LEGS, None, 0))
        assert [cr.cards for cr in s.creatures[0]] == five + [[C_LEGS]]


# ================================================================== the legion restriction
def test_two_plays_in_one_turn_must_be_of_the_same_legion():
    s = pos(R2, hands=[[N_LEGS, H_LEGS, N_LEGS_B, C_LEGS], []])
    do(s, Play(N_LEGS, None, 0))
    assert legal(s) == {Draw(), StartDiscard(), Play(N_LEGS_B, None, 0)}
    do(s, Play(N_LEGS_B, None, 0))
    check(s, hands=[[H_LEGS, C_LEGS], []], creatures=[[[N_LEGS], [N_LEGS_B]], []], deck=[], discard=[],
          player=1, actions_left=2)


def test_legion_restriction_does_not_apply_when_one_action_is_not_a_play():
    s = pos(R2, hands=[[N_LEGS, H_LEGS], []], deck=[C_LEGS])
    do(s, Draw())
    assert legal(s) == {Draw(), StartDiscard(), Play(N_LEGS, None, 0), Play(H_LEGS, None, 0),
                        Play(C_LEGS, None, 0)}
    # play first, then draw; the next turn is free again
    s = pos(R2, hands=[[N_LEGS, H_LEGS], []], deck=[D[0], D[1]])
    do(s, Play(N_LEGS, None, 0))
    assert Draw() in legal(s) and Play(H_LEGS, None, 0) not in legal(s)
    do(s, Draw(), Draw(), Draw())          # seat 0 draws, seat 1 draws twice (one card left, then none)
    check(s, hands=[[H_LEGS, D[1]], [D[0]]], creatures=[[[N_LEGS]], []], deck=[], discard=[], player=0,
          actions_left=2)
    assert Play(H_LEGS, None, 0) in legal(s)


def test_mocker_play_ignores_the_legion_restriction_and_does_not_count_as_an_action():
    s = pos(R2, hands=[[H_HEAD_MOCKER, N_LEGS, I_LEGS, H_LEGS], []], creatures=[[[C_LEGS, C_TORSO]], []])
    do(s, Play(H_HEAD_MOCKER, 0, 2))
    check(s, hands=[[N_LEGS, I_LEGS, H_LEGS], []], creatures=[[[C_LEGS, C_TORSO, H_HEAD_MOCKER]], []],
          deck=[], discard=[], player=0, actions_left=1, decision="Mocker play")
    assert legal(s) == {Play(N_LEGS, None, 0), Play(I_LEGS, None, 0), Play(H_LEGS, None, 0)}
    do(s, Play(N_LEGS, None, 0))
    check(s, hands=[[I_LEGS, H_LEGS], []], creatures=[[[C_LEGS, C_TORSO, H_HEAD_MOCKER], [N_LEGS]], []],
          deck=[], discard=[], player=0, actions_left=1)
    # the second action is still bound to the legion of the first (Homunculi), not the Mocker's card
    assert legal(s) == {Draw(), StartDiscard(), Play(H_LEGS, None, 0)}


def test_herald_placement_ignores_the_legion_restriction():
    s = pos(R2, hands=[[I_HEAD_HERALD, N_LEGS_B], []], creatures=[[[C_LEGS, C_TORSO]], []],
            deck=[H_LEGS, N_LEGS])
    do(s, Play(I_HEAD_HERALD, 0, 2))
    check(s, hands=[[N_LEGS_B], []], creatures=[[[C_LEGS, C_TORSO, I_HEAD_HERALD]], []], deck=[], discard=[],
          player=0, actions_left=1, decision="Herald placement")
    assert legal(s) == {Play(N_LEGS, None, 0), Play(H_LEGS, None, 0)}
    do(s, Play(H_LEGS, None, 0), Play(N_LEGS, None, 0))
    check(s, hands=[[N_LEGS_B], []], creatures=[[[C_LEGS, C_TORSO, I_HEAD_HERALD], [H_LEGS], [N_LEGS]], []],
          deck=[], discard=[], player=0, actions_left=1)
    assert legal(s) == {Draw(), StartDiscard()}        # N_LEGS_B is not an Insektoid


# ================================================================== completing a creature
def test_completion_activates_head_then_torso_then_legs():
    # head Weeper draws two; the torso Mocker can only play what the head drew; then the legs Weeper
    s = pos(R2, hands=[[I_HEAD_WEEPER], []], creatures=[[[N_LEGS_WEEPER, C_TORSO_MOCKER]], []],
            deck=[D[0], D[1], N_HEAD, C_LEGS_B])
    do(s, Play(I_HEAD_WEEPER, 0, 2))
    check(s, hands=[[C_LEGS_B, N_HEAD], []], creatures=[[[N_LEGS_WEEPER, C_TORSO_MOCKER, I_HEAD_WEEPER]], []],
          deck=[D[0], D[1]], discard=[], player=0, actions_left=1, decision="Mocker play")
    assert legal(s) == {Play(C_LEGS_B, None, 0)}
    do(s, Play(C_LEGS_B, None, 0))
    check(s, hands=[[N_HEAD, D[1], D[0]], []],
          creatures=[[[N_LEGS_WEEPER, C_TORSO_MOCKER, I_HEAD_WEEPER], [C_LEGS_B]], []],
          deck=[], discard=[], player=0, actions_left=1)
    assert ability_log(s) == [("Weeper", I_HEAD_WEEPER), ("Mocker", C_TORSO_MOCKER), ("Weeper", N_LEGS_WEEPER)]


def test_abilities_must_be_carried_out_even_when_harmful():
    s = pos(R2, hands=[[N_HEAD_DEVOURER], []], creatures=[[[H_LEGS, H_TORSO, H_HEAD], [C_LEGS, C_TORSO]], []])
    do(s, Play(N_HEAD_DEVOURER, 1, 2))
    assert s.decision == "Devourer target"
    assert legal_actions(s) == [Devour(0)]              # no way to decline
    do(s, Devour(0))
    check(s, hands=[[], []], creatures=[[[H_LEGS, H_TORSO], [C_LEGS, C_TORSO, N_HEAD_DEVOURER]], []],
          deck=[], discard=[H_HEAD], player=0, actions_left=1)
    assert s.complete_count(0) == 1


def test_ability_that_cannot_be_carried_out_stops_the_rest_of_the_activation():
    # the head Executioner has no target (the opponent has no creature): torso and legs Weepers never draw
    s = pos(R2, hands=[[C_HEAD_EXECUTIONER], []], creatures=[[[N_LEGS_WEEPER, H_TORSO_WEEPER]], []], deck=D[:4])
    do(s, Play(C_HEAD_EXECUTIONER, 0, 2))
    check(s, hands=[[], []], creatures=[[[N_LEGS_WEEPER, H_TORSO_WEEPER, C_HEAD_EXECUTIONER]], []],
          deck=D[:4], discard=[], player=0, actions_left=1)
    assert ability_log(s) == [("failed", "Executioner", C_HEAD_EXECUTIONER)]


def test_activation_stops_at_the_failed_ability_after_earlier_ones_resolved():
    s = pos(R2, hands=[[I_HEAD_WEEPER], []], creatures=[[[N_LEGS_WEEPER, C_TORSO_EXECUTIONER]], []], deck=D[:4])
    do(s, Play(I_HEAD_WEEPER, 0, 2))
    check(s, hands=[[D[3], D[2]], []], creatures=[[[N_LEGS_WEEPER, C_TORSO_EXECUTIONER, I_HEAD_WEEPER]], []],
          deck=D[:2], discard=[], player=0, actions_left=1)
    assert ability_log(s) == [("Weeper", I_HEAD_WEEPER), ("failed", "Executioner", C_TORSO_EXECUTIONER)]


def test_nested_completion_resolves_fully_before_the_first_creature_continues():
    # A = legs Weeper, torso plain, head Mocker. The Mocker completes B (head Weeper): B's Weeper
    # draws the top two cards before A's legs Weeper draws the next two.
    s = pos(R2, hands=[[H_HEAD_MOCKER, I_HEAD_WEEPER], []],
            creatures=[[[N_LEGS_WEEPER, C_TORSO], [N_LEGS_B, H_TORSO]], []], deck=D[:4])
    do(s, Play(H_HEAD_MOCKER, 0, 2))
    assert s.decision == "Mocker play" and legal(s) == {Play(I_HEAD_WEEPER, 1, 2)}
    do(s, Play(I_HEAD_WEEPER, 1, 2))
    check(s, hands=[[D[3], D[2], D[1], D[0]], []],
          creatures=[[[N_LEGS_WEEPER, C_TORSO, H_HEAD_MOCKER], [N_LEGS_B, H_TORSO, I_HEAD_WEEPER]], []],
          deck=[], discard=[], player=0, actions_left=1)
    assert ability_log(s) == [("Mocker", H_HEAD_MOCKER), ("Weeper", I_HEAD_WEEPER), ("Weeper", N_LEGS_WEEPER)]
    completes = [e["cards"] for e in s.log if e["event"] == "complete"]
    assert completes == [[N_LEGS_WEEPER, C_TORSO, H_HEAD_MOCKER], [N_LEGS_B, H_TORSO, I_HEAD_WEEPER]]


def test_card_that_left_during_a_paused_activation_is_skipped():
    # A = legs Weeper, torso Weeper, head Mocker; the Mocker completes B whose two Devourers eat
    # A's head and torso. A then resumes: its torso is gone (skipped), its legs Weeper draws.
    s = pos(R2, hands=[[H_HEAD_MOCKER, H_HEAD_DEVOURER], []],
            creatures=[[[N_LEGS_WEEPER, H_TORSO_WEEPER], [N_LEGS, H_TORSO_DEVOURER]], []], deck=D[:4])
    do(s, Play(H_HEAD_MOCKER, 0, 2))
    assert legal(s) == {Play(H_HEAD_DEVOURER, 1, 2)}
    do(s, Play(H_HEAD_DEVOURER, 1, 2))
    assert s.decision == "Devourer target" and legal(s) == {Devour(0)}    # never B itself
    do(s, Devour(0))
    assert legal(s) == {Devour(0)}
    do(s, Devour(0))
    check(s, hands=[[D[3], D[2]], []],
          creatures=[[[N_LEGS_WEEPER], [N_LEGS, H_TORSO_DEVOURER, H_HEAD_DEVOURER]], []],
          deck=D[:2], discard=[H_HEAD_MOCKER, H_TORSO_WEEPER], player=0, actions_left=1)
    assert ability_log(s) == [("Mocker", H_HEAD_MOCKER), ("Devourer", H_HEAD_DEVOURER),
                              ("Devourer", H_TORSO_DEVOURER), ("Weeper", N_LEGS_WEEPER)]


def test_a_creature_completed_again_activates_again():
    # seat 0 completes a creature (legs Weeper draws); seat 1's Executioner takes its head; seat 0
    # puts another head on it: it is complete again and its abilities activate again
    s = pos(R2, hands=[[H_HEAD, N_HEAD], []], creatures=[[[N_LEGS_WEEPER, C_TORSO]], [[N_LEGS_B, C_TORSO_B]]],
            deck=[D[0], D[1], D[2], D[3], C_HEAD_EXECUTIONER])
    do(s, Play(H_HEAD, 0, 2))                  # draws C_HEAD_EXECUTIONER and D[3]
    do(s, StartDiscard(), DiscardCard(C_HEAD_EXECUTIONER), StopDiscard())
    s.hands[1].append(s.discard.pop())         # (hand it to seat 1 for the next turn)
    do(s, Play(C_HEAD_EXECUTIONER, 0, 2), Take(0, 0), Draw())
    check(s, hands=[[N_HEAD, D[3]], [H_HEAD, D[2]]],
          creatures=[[[N_LEGS_WEEPER, C_TORSO]], [[N_LEGS_B, C_TORSO_B, C_HEAD_EXECUTIONER]]],
          deck=[D[0], D[1]], discard=[], player=0, actions_left=2)
    do(s, Play(N_HEAD, 0, 2))
    check(s, hands=[[D[3], D[1], D[0]], [H_HEAD, D[2]]],
          creatures=[[[N_LEGS_WEEPER, C_TORSO, N_HEAD]], [[N_LEGS_B, C_TORSO_B, C_HEAD_EXECUTIONER]]],
          deck=[], discard=[], player=0, actions_left=1)
    assert s.stats["completed"] == [2, 1]
    assert ability_log(s) == [("Weeper", N_LEGS_WEEPER), ("Executioner", C_HEAD_EXECUTIONER),
                              ("Weeper", N_LEGS_WEEPER)]


# ================================================================== the pure-legion penalty
def test_pure_creature_makes_each_opponent_discard_a_card_of_its_legion_clockwise():
    s = pos(R4, turn_player=1,
            hands=[[N_LEGS_C, C_LEGS], [N_HEAD], [N_LEGS_B, H_LEGS], [H_LEGS_B, N_TORSO_HEAD_WEEPER, N_HEAD_B]],
            creatures=[[], [[N_LEGS, N_TORSO]], [], []])
    do(s, Play(N_HEAD, 0, 2))
    # seat 2 (next clockwise) chooses out of turn; seat 1's turn is paused
    check(s, hands=[[N_LEGS_C, C_LEGS], [], [N_LEGS_B, H_LEGS], [H_LEGS_B, N_TORSO_HEAD_WEEPER, N_HEAD_B]],
          creatures=[[], [[N_LEGS, N_TORSO, N_HEAD]], [], []], deck=[], discard=[], player=2, turn_player=1,
          actions_left=1, decision="pure-legion penalty discard")
    assert legal(s) == {PenaltyDiscard(N_LEGS_B)}
    do(s, PenaltyDiscard(N_LEGS_B))
    assert s.current_player == 3
    assert legal(s) == {PenaltyDiscard(N_TORSO_HEAD_WEEPER), PenaltyDiscard(N_HEAD_B)}   # their choice
    do(s, PenaltyDiscard(N_HEAD_B))
    assert s.current_player == 0 and legal(s) == {PenaltyDiscard(N_LEGS_C)}
    do(s, PenaltyDiscard(N_LEGS_C))
    check(s, hands=[[C_LEGS], [], [H_LEGS], [H_LEGS_B, N_TORSO_HEAD_WEEPER]],
          creatures=[[], [[N_LEGS, N_TORSO, N_HEAD]], [], []], deck=[], discard=[N_LEGS_B, N_HEAD_B, N_LEGS_C],
          player=1, actions_left=1)
    assert [(e["victim"], e["card"]) for e in s.log if e["event"] == "penalty_discard"] == [
        (2, N_LEGS_B), (3, N_HEAD_B), (0, N_LEGS_C)]


def test_pure_penalty_without_a_card_of_that_legion_discards_two_cards():
    s = pos(R2, hands=[[N_HEAD], [H_LEGS, C_LEGS, I_LEGS]], creatures=[[[N_LEGS, N_TORSO]], []])
    do(s, Play(N_HEAD, 0, 2))
    assert s.current_player == 1 and legal(s) == {PenaltyDiscard(H_LEGS), PenaltyDiscard(C_LEGS),
                                                  PenaltyDiscard(I_LEGS)}
    do(s, PenaltyDiscard(C_LEGS))
    assert s.current_player == 1 and legal(s) == {PenaltyDiscard(H_LEGS), PenaltyDiscard(I_LEGS)}
    do(s, PenaltyDiscard(H_LEGS))
    check(s, hands=[[], [I_LEGS]], creatures=[[[N_LEGS, N_TORSO, N_HEAD]], []], deck=[],
          discard=[C_LEGS, H_LEGS], player=0, actions_left=1)


def test_pure_penalty_with_a_hand_of_one_or_no_cards():
    s = pos(R3, hands=[[N_HEAD], [H_LEGS], []], creatures=[[[N_LEGS, N_TORSO]], [], []])
    do(s, Play(N_HEAD, 0, 2))
    assert s.current_player == 1 and legal(s) == {PenaltyDiscard(H_LEGS)}   # only one card to give
    do(s, PenaltyDiscard(H_LEGS))
    # seat 2 has nothing to discard: the penalty is over
    check(s, hands=[[], [], []], creatures=[[[N_LEGS, N_TORSO, N_HEAD]], [], []], deck=[], discard=[H_LEGS],
          player=0, actions_left=1)


def test_mixed_creature_brings_no_penalty():
    s = pos(R2, hands=[[H_HEAD], [N_LEGS_B, H_LEGS]], creatures=[[[N_LEGS, N_TORSO]], []])
    do(s, Play(H_HEAD, 0, 2))
    check(s, hands=[[], [N_LEGS_B, H_LEGS]], creatures=[[[N_LEGS, N_TORSO, H_HEAD]], []], deck=[], discard=[],
          player=0, actions_left=1)
    assert s.stats["pure_creatures"] == [0, 0]


def test_penalty_timing_before_abilities():
    s = pos(R2, hands=[[I_HEAD_WEEPER], [I_LEGS_B, C_LEGS]], creatures=[[[I_LEGS, I_TORSO]], []], deck=D[:2])
    do(s, Play(I_HEAD_WEEPER, 0, 2))
    # the penalty comes first: the Weeper has not drawn yet
    check(s, hands=[[], [I_LEGS_B, C_LEGS]], creatures=[[[I_LEGS, I_TORSO, I_HEAD_WEEPER]], []], deck=D[:2],
          discard=[], player=1, turn_player=0, actions_left=1, decision="pure-legion penalty discard")
    do(s, PenaltyDiscard(I_LEGS_B))
    check(s, hands=[[D[1], D[0]], [C_LEGS]], creatures=[[[I_LEGS, I_TORSO, I_HEAD_WEEPER]], []], deck=[],
          discard=[I_LEGS_B], player=0, actions_left=1)


def test_penalty_timing_after_abilities():
    rules = Rules(players=2, penalty_timing="after_abilities")
    s = pos(rules, hands=[[I_HEAD_WEEPER], [I_LEGS_B, C_LEGS]], creatures=[[[I_LEGS, I_TORSO]], []], deck=D[:2])
    do(s, Play(I_HEAD_WEEPER, 0, 2))
    # the Weeper has drawn before the opponent discards
    check(s, hands=[[D[1], D[0]], [I_LEGS_B, C_LEGS]], creatures=[[[I_LEGS, I_TORSO, I_HEAD_WEEPER]], []],
          deck=[], discard=[], player=1, turn_player=0, actions_left=1, decision="pure-legion penalty discard")
    do(s, PenaltyDiscard(I_LEGS_B))
    check(s, hands=[[D[1], D[0]], [C_LEGS]], creatures=[[[I_LEGS, I_TORSO, I_HEAD_WEEPER]], []], deck=[],
          discard=[I_LEGS_B], player=0, actions_left=1)


# ================================================================== Herald
def test_herald_turns_over_the_top_two_cards_and_plays_them():
    s = pos(R2, hands=[[I_HEAD_HERALD], []], creatures=[[[C_LEGS, C_TORSO], [N_LEGS_B]], []],
            deck=[D[0], N_TORSO, H_LEGS])
    do(s, Play(I_HEAD_HERALD, 0, 2))
    check(s, hands=[[], []], creatures=[[[C_LEGS, C_TORSO, I_HEAD_HERALD], [N_LEGS_B]], []], deck=[D[0]],
          discard=[], player=0, actions_left=1, decision="Herald placement")
    assert s.stack[-1].revealed == [H_LEGS, N_TORSO]          # turned over, waiting to be placed
    assert legal(s) == {Play(H_LEGS, None, 0), Play(N_TORSO, 1, 1)}
    do(s, Play(N_TORSO, 1, 1))
    assert legal(s) == {Play(H_LEGS, None, 0)}
    do(s, Play(H_LEGS, None, 0))
    check(s, hands=[[], []], creatures=[[[C_LEGS, C_TORSO, I_HEAD_HERALD], [N_LEGS_B, N_TORSO], [H_LEGS]], []],
          deck=[D[0]], discard=[], player=0, actions_left=1)


def test_herald_discards_the_cards_that_cannot_be_played():
    s = pos(R2, hands=[[I_HEAD_HERALD], []], creatures=[[[C_LEGS, C_TORSO]], []], deck=[D[0], H_TORSO, N_HEAD])
    do(s, Play(I_HEAD_HERALD, 0, 2))
    check(s, hands=[[], []], creatures=[[[C_LEGS, C_TORSO, I_HEAD_HERALD]], []], deck=[D[0]],
          discard=[N_HEAD, H_TORSO], player=0, actions_left=1)
    # one playable, one not: the playable one must be placed, the other is discarded
    s = pos(R2, hands=[[I_HEAD_HERALD], []], creatures=[[[C_LEGS, C_TORSO]], []], deck=[H_LEGS, N_HEAD])
    do(s, Play(I_HEAD_HERALD, 0, 2))
    assert legal(s) == {Play(H_LEGS, None, 0)}
    do(s, Play(H_LEGS, None, 0))
    check(s, hands=[[], []], creatures=[[[C_LEGS, C_TORSO, I_HEAD_HERALD], [H_LEGS]], []], deck=[],
          discard=[N_HEAD], player=0, actions_left=1)


def test_herald_placement_can_complete_a_creature_whose_abilities_resolve_first():
    # A = legs Weeper, torso plain + Herald head. The Herald turns over I_HEAD_WEEPER and C_HEAD;
    # placing the Weeper head completes B, whose Weeper draws before the Herald's second card is
    # dealt with (discarded: no head slot left) and before A's legs Weeper.
    s = pos(R2, hands=[[I_HEAD_HERALD], []], creatures=[[[N_LEGS_WEEPER, C_TORSO], [N_LEGS_B, H_TORSO]], []],
            deck=[D[3], D[2], D[1], D[0], C_HEAD, I_HEAD_WEEPER])
    do(s, Play(I_HEAD_HERALD, 0, 2))
    assert legal(s) == {Play(I_HEAD_WEEPER, 1, 2), Play(C_HEAD, 1, 2)}
    do(s, Play(I_HEAD_WEEPER, 1, 2))
    check(s, hands=[[D[0], D[1], D[2], D[3]], []],
          creatures=[[[N_LEGS_WEEPER, C_TORSO, I_HEAD_HERALD], [N_LEGS_B, H_TORSO, I_HEAD_WEEPER]], []],
          deck=[], discard=[C_HEAD], player=0, actions_left=1)
    order = [(e["event"], e.get("card", e.get("cards"))) for e in s.log
             if e["event"] in ("herald_place", "ability", "herald_discard")]
    assert order == [("ability", I_HEAD_HERALD), ("herald_place", I_HEAD_WEEPER), ("ability", I_HEAD_WEEPER),
                     ("herald_discard", [C_HEAD]), ("ability", N_LEGS_WEEPER)]


def test_herald_with_one_card_left_turns_over_that_card():
    s = pos(R2, hands=[[I_HEAD_HERALD], []], creatures=[[[C_LEGS, C_TORSO]], []], deck=[H_LEGS])
    do(s, Play(I_HEAD_HERALD, 0, 2))
    assert legal(s) == {Play(H_LEGS, None, 0)}
    assert ability_log(s) == [("Herald", I_HEAD_HERALD)]


def test_herald_cannot_be_carried_out_when_deck_and_discard_are_empty():
    s = pos(R2, hands=[[I_HEAD_HERALD, N_LEGS], []], creatures=[[[C_LEGS, C_TORSO_MOCKER]], []])
    do(s, Play(I_HEAD_HERALD, 0, 2))
    # nothing to turn over: the torso Mocker is not activated either
    check(s, hands=[[N_LEGS], []], creatures=[[[C_LEGS, C_TORSO_MOCKER, I_HEAD_HERALD]], []], deck=[], discard=[],
          player=0, actions_left=1)
    assert ability_log(s) == [("failed", "Herald", I_HEAD_HERALD)]


# ================================================================== Weeper
def test_weeper_draws_two_cards():
    s = pos(R2, hands=[[H_HEAD_WEEPER], []], creatures=[[[C_LEGS, C_TORSO]], []], deck=D[:3])
    do(s, Play(H_HEAD_WEEPER, 0, 2))
    check(s, hands=[[D[2], D[1]], []], creatures=[[[C_LEGS, C_TORSO, H_HEAD_WEEPER]], []], deck=[D[0]],
          discard=[], player=0, actions_left=1)
    assert s.abilities[0][nightsim.ABILITIES.index("Weeper")] == 1


def test_weeper_draws_what_is_left_and_fails_on_nothing():
    # one card left: the head Weeper draws it (carried out); the legs Weeper finds nothing (fails)
    s = pos(R2, hands=[[H_HEAD_WEEPER], []], creatures=[[[N_LEGS_WEEPER, C_TORSO]], []], deck=[D[0]])
    do(s, Play(H_HEAD_WEEPER, 0, 2))
    check(s, hands=[[D[0]], []], creatures=[[[N_LEGS_WEEPER, C_TORSO, H_HEAD_WEEPER]], []], deck=[], discard=[],
          player=0, actions_left=1)
    assert ability_log(s) == [("Weeper", H_HEAD_WEEPER), ("failed", "Weeper", N_LEGS_WEEPER)]


def test_weeper_cannot_be_carried_out_when_deck_and_discard_are_empty():
    s = pos(R2, hands=[[H_HEAD_WEEPER, N_LEGS], []], creatures=[[[C_LEGS_MOCKER, C_TORSO]], []])
    do(s, Play(H_HEAD_WEEPER, 0, 2))
    check(s, hands=[[N_LEGS], []], creatures=[[[C_LEGS_MOCKER, C_TORSO, H_HEAD_WEEPER]], []], deck=[], discard=[],
          player=0, actions_left=1)
    assert ability_log(s) == [("failed", "Weeper", H_HEAD_WEEPER)]


# ================================================================== Mocker
def test_mocker_plays_a_card_from_hand():
    s = pos(R2, hands=[[H_HEAD_MOCKER, N_HEAD, N_TORSO], []], creatures=[[[C_LEGS, C_TORSO], [I_LEGS]], []])
    do(s, Play(H_HEAD_MOCKER, 0, 2))
    assert s.decision == "Mocker play" and legal(s) == {Play(N_TORSO, 1, 1)}   # N_HEAD fits nowhere
    do(s, Play(N_TORSO, 1, 1))
    check(s, hands=[[N_HEAD], []], creatures=[[[C_LEGS, C_TORSO, H_HEAD_MOCKER], [I_LEGS, N_TORSO]], []],
          deck=[], discard=[], player=0, actions_left=1)


def test_mocker_without_a_playable_card_stops_the_activation():
    s = pos(R2, hands=[[H_HEAD_MOCKER, N_HEAD], []], creatures=[[[N_LEGS_WEEPER, C_TORSO]], []], deck=D[:2])
    do(s, Play(H_HEAD_MOCKER, 0, 2))
    check(s, hands=[[N_HEAD], []], creatures=[[[N_LEGS_WEEPER, C_TORSO, H_HEAD_MOCKER]], []], deck=D[:2],
          discard=[], player=0, actions_left=1)
    assert ability_log(s) == [("failed", "Mocker", H_HEAD_MOCKER)]


# ================================================================== Executioner
def test_executioner_takes_the_top_card_of_an_opponents_creature():
    s = pos(R3, hands=[[C_HEAD_EXECUTIONER], [], []],
            creatures=[[[N_LEGS, C_TORSO], [N_LEGS_B]], [[H_LEGS, H_TORSO]], [[I_LEGS]]])
    do(s, Play(C_HEAD_EXECUTIONER, 0, 2))
    assert s.decision == "Executioner target"
    assert legal(s) == {Take(1, 0), Take(2, 0)}                      # never your own creatures
    do(s, Take(1, 0))
    check(s, hands=[[H_TORSO], [], []],
          creatures=[[[N_LEGS, C_TORSO, C_HEAD_EXECUTIONER], [N_LEGS_B]], [[H_LEGS]], [[I_LEGS]]],
          deck=[], discard=[], player=0, actions_left=1)


def test_executioner_may_take_from_a_complete_creature_which_becomes_incomplete():
    s = pos(R2, hands=[[C_HEAD_EXECUTIONER], []], creatures=[[[N_LEGS, C_TORSO]], [[H_LEGS, H_TORSO, H_HEAD]]])
    assert s.complete_count(1) == 1
    do(s, Play(C_HEAD_EXECUTIONER, 0, 2))
    assert legal(s) == {Take(1, 0)}
    do(s, Take(1, 0))
    check(s, hands=[[H_HEAD], []], creatures=[[[N_LEGS, C_TORSO, C_HEAD_EXECUTIONER]], [[H_LEGS, H_TORSO]]],
          deck=[], discard=[], player=0, actions_left=1)
    assert s.complete_count(1) == 0


def test_executioner_taking_the_last_card_removes_the_creature():
    s = pos(R2, hands=[[C_HEAD_EXECUTIONER], []], creatures=[[[N_LEGS, C_TORSO]], [[I_LEGS], [H_LEGS, H_TORSO]]])
    do(s, Play(C_HEAD_EXECUTIONER, 0, 2), Take(1, 0))
    check(s, hands=[[I_LEGS], []], creatures=[[[N_LEGS, C_TORSO, C_HEAD_EXECUTIONER]], [[H_LEGS, H_TORSO]]],
          deck=[], discard=[], player=0, actions_left=1)


# ================================================================== Scavenger
def test_scavenger_discards_an_opponents_uncompleted_creature():
    s = pos(R3, hands=[[N_HEAD_SCAVENGER], [], []],
            creatures=[[[C_LEGS, C_TORSO], [N_LEGS_C]], [[H_LEGS, H_TORSO, H_HEAD], [I_LEGS, I_TORSO]], [[N_LEGS_B]]])
    do(s, Play(N_HEAD_SCAVENGER, 0, 2))
    assert s.decision == "Scavenger target"
    # not a complete creature, not your own, and no Decline (scavenger_optional=False)
    assert legal(s) == {Scavenge(1, 1), Scavenge(2, 0)}
    do(s, Scavenge(1, 1))
    check(s, hands=[[], [], []],
          creatures=[[[C_LEGS, C_TORSO, N_HEAD_SCAVENGER], [N_LEGS_C]], [[H_LEGS, H_TORSO, H_HEAD]], [[N_LEGS_B]]],
          deck=[], discard=[I_LEGS, I_TORSO], player=0, actions_left=1)


def test_scavenger_optional_variant_allows_declining():
    rules = Rules(players=2, scavenger_optional=True)
    s = pos(rules, hands=[[N_HEAD_SCAVENGER], []], creatures=[[[N_LEGS_WEEPER, C_TORSO]], [[H_LEGS]]], deck=D[:2])
    do(s, Play(N_HEAD_SCAVENGER, 0, 2))
    assert legal(s) == {Scavenge(1, 0), Decline()}
    do(s, Decline())
    # declined: the creature stays, and the activation goes on (the legs Weeper draws)
    check(s, hands=[[D[1], D[0]], []], creatures=[[[N_LEGS_WEEPER, C_TORSO, N_HEAD_SCAVENGER]], [[H_LEGS]]],
          deck=[], discard=[], player=0, actions_left=1)
    assert "scavenger_declined" in kinds(s)


@pytest.mark.parametrize("optional", [False, True])
def test_scavenger_without_a_target_stops_the_activation(optional):
    rules = Rules(players=2, scavenger_optional=optional)
    s = pos(rules, hands=[[N_HEAD_SCAVENGER], []], creatures=[[[N_LEGS_WEEPER, C_TORSO]], [[H_LEGS, H_TORSO, H_HEAD]]],
            deck=D[:2])
    do(s, Play(N_HEAD_SCAVENGER, 0, 2))
    check(s, hands=[[], []], creatures=[[[N_LEGS_WEEPER, C_TORSO, N_HEAD_SCAVENGER]], [[H_LEGS, H_TORSO, H_HEAD]]],
          deck=D[:2], discard=[], player=0, actions_left=1)
    assert ability_log(s) == [("failed", "Scavenger", N_HEAD_SCAVENGER)]


# ================================================================== Devourer
def test_devourer_discards_the_top_card_of_one_of_your_other_creatures():
    s = pos(R2, hands=[[N_HEAD_DEVOURER], []],
            creatures=[[[C_LEGS, C_TORSO], [H_LEGS, H_TORSO], [I_LEGS]], [[N_LEGS_B]]])
    do(s, Play(N_HEAD_DEVOURER, 0, 2))
    assert s.decision == "Devourer target"
    assert legal(s) == {Devour(1), Devour(2)}       # not the activating creature, not an opponent's
    do(s, Devour(1))
    check(s, hands=[[], []], creatures=[[[C_LEGS, C_TORSO, N_HEAD_DEVOURER], [H_LEGS], [I_LEGS]], [[N_LEGS_B]]],
          deck=[], discard=[H_TORSO], player=0, actions_left=1)


def test_devourer_emptying_a_creature_removes_it():
    s = pos(R2, hands=[[N_HEAD_DEVOURER], []], creatures=[[[C_LEGS, C_TORSO], [I_LEGS], [H_LEGS, H_TORSO]], []])
    do(s, Play(N_HEAD_DEVOURER, 0, 2), Devour(1))
    check(s, hands=[[], []], creatures=[[[C_LEGS, C_TORSO, N_HEAD_DEVOURER], [H_LEGS, H_TORSO]], []],
          deck=[], discard=[I_LEGS], player=0, actions_left=1)


def test_devourer_never_targets_the_activating_creature():
    # the only creature is the one activating: the Devourer cannot be carried out
    s = pos(R2, hands=[[N_HEAD_DEVOURER], []], creatures=[[[N_LEGS_WEEPER, C_TORSO]], [[H_LEGS]]], deck=D[:2])
    do(s, Play(N_HEAD_DEVOURER, 0, 2))
    check(s, hands=[[], []], creatures=[[[N_LEGS_WEEPER, C_TORSO, N_HEAD_DEVOURER]], [[H_LEGS]]], deck=D[:2],
          discard=[], player=0, actions_left=1)
    assert ability_log(s) == [("failed", "Devourer", N_HEAD_DEVOURER)]


# ================================================================== winning
def test_fifth_complete_creature_wins_immediately():
    # the 5th creature is pure Homunculi with a Weeper head: neither the penalty nor the Weeper happen
    s = pos(R2, hands=[[H_HEAD_WEEPER], [H_LEGS_B]], creatures=[[K1, K2, K3, K4, [H_LEGS, H_TORSO]], []],
            deck=D[:2])
    do(s, Play(H_HEAD_WEEPER, 4, 2))
    check(s, hands=[[], [H_LEGS_B]], creatures=[[K1, K2, K3, K4, [H_LEGS, H_TORSO, H_HEAD_WEEPER]], []],
          deck=D[:2], discard=[], player=0, actions_left=1, winner=0)
    assert legal_actions(s) == []
    assert s.log[-1]["event"] == "win" and s.log[-1]["winner"] == 0


def test_four_complete_creatures_and_an_incomplete_one_do_not_win():
    s = pos(R2, hands=[[C_TORSO], []], creatures=[[K1, K2, K3, K4, [C_LEGS]], []])
    do(s, Play(C_TORSO, 4, 1))
    check(s, hands=[[], []], creatures=[[K1, K2, K3, K4, [C_LEGS, C_TORSO]], []], deck=[], discard=[],
          player=0, actions_left=1)


def test_win_timing_end_of_action_resolves_the_abilities_first():
    rules = Rules(players=2, win_timing="end_of_action")
    s = pos(rules, hands=[[H_HEAD_WEEPER], []], creatures=[[K1, K2, K3, K4, [C_LEGS, C_TORSO]], []], deck=D[:2])
    do(s, Play(H_HEAD_WEEPER, 4, 2))
    check(s, hands=[[D[1], D[0]], []], creatures=[[K1, K2, K3, K4, [C_LEGS, C_TORSO, H_HEAD_WEEPER]], []],
          deck=[], discard=[], player=0, actions_left=1, winner=0)


@pytest.mark.parametrize("win_timing", ["immediate", "end_of_action"])
def test_win_timing_decides_whether_the_fifth_creatures_own_devourer_can_cost_the_win(win_timing):
    rules = Rules(players=2, win_timing=win_timing)
    s = pos(rules, hands=[[N_HEAD_DEVOURER], []], creatures=[[K1, K2, K3, K4, [C_LEGS, C_TORSO]], []])
    do(s, Play(N_HEAD_DEVOURER, 4, 2))
    fifth = [C_LEGS, C_TORSO, N_HEAD_DEVOURER]
    if win_timing == "immediate":
        check(s, hands=[[], []], creatures=[[K1, K2, K3, K4, fifth], []], deck=[], discard=[], player=0,
              actions_left=1, winner=0)
        return
    # the mandatory Devourer eats the head of another complete creature first: 4 complete, no win
    assert s.decision == "Devourer target" and legal(s) == {Devour(0), Devour(1), Devour(2), Devour(3)}
    do(s, Devour(0))
    check(s, hands=[[], []], creatures=[[K1[:2], K2, K3, K4, fifth], []], deck=[], discard=[K1[2]], player=0,
          actions_left=1)


def test_creatures_to_win_variant():
    rules = Rules(players=2, creatures_to_win=6)
    s = pos(rules, hands=[[C_HEAD], []], creatures=[[K1, K2, K3, K4, [C_LEGS, C_TORSO]], []])
    do(s, Play(C_HEAD, 4, 2))
    assert s.winner is None and s.complete_count(0) == 5 and not s.is_terminal
    rules = Rules(players=2, creatures_to_win=3)
    s = pos(rules, hands=[[C_HEAD], []], creatures=[[K1, K2, [C_LEGS, C_TORSO]], []])
    do(s, Play(C_HEAD, 2, 2))
    check(s, hands=[[], []], creatures=[[K1, K2, [C_LEGS, C_TORSO, C_HEAD]], []], deck=[], discard=[], player=0,
          actions_left=1, winner=0)


# ================================================================== the deck
def test_the_discard_pile_is_shuffled_into_a_new_deck_when_the_deck_runs_out():
    pile = [N_LEGS, H_LEGS, C_LEGS]
    s = pos(R2, discard=pile)
    do(s, Draw())
    new_deck = [pile[i] for i in np.random.default_rng(0).permutation(3)]   # the engine's shuffle
    top = new_deck.pop()
    check(s, hands=[[top], []], creatures=[[], []], deck=new_deck, discard=[], player=0, actions_left=1)
    assert [e["cards"] for e in s.log if e["event"] == "reshuffle"] == [3]


def test_discarded_cards_can_be_reshuffled_into_the_draw_at_once():
    s = pos(R2, hands=[[N_LEGS, H_LEGS], []])
    do(s, StartDiscard(), DiscardCard(N_LEGS), DiscardCard(H_LEGS), StopDiscard())
    new_deck = [[N_LEGS, H_LEGS][i] for i in np.random.default_rng(0).permutation(2)]
    top = new_deck.pop()
    check(s, hands=[[top], []], creatures=[[], []], deck=new_deck, discard=[], player=0, actions_left=1)


def test_weeper_reshuffles_the_discard_pile_when_the_deck_runs_out_midway():
    s = pos(R2, hands=[[H_HEAD_WEEPER], []], creatures=[[[C_LEGS, C_TORSO]], []], deck=[D[0]], discard=[D[1], D[2]])
    do(s, Play(H_HEAD_WEEPER, 0, 2))
    new_deck = [[D[1], D[2]][i] for i in np.random.default_rng(0).permutation(2)]
    top = new_deck.pop()
    check(s, hands=[[D[0], top], []], creatures=[[[C_LEGS, C_TORSO, H_HEAD_WEEPER]], []], deck=new_deck,
          discard=[], player=0, actions_left=1)


def test_draw_with_empty_deck_and_discard_gives_nothing_but_uses_the_action():
    s = pos(R2, hands=[[N_HEAD], []])
    do(s, Draw())
    check(s, hands=[[N_HEAD], []], creatures=[[], []], deck=[], discard=[], player=0, actions_left=1)
    assert s.log[-1]["event"] == "draw" and s.log[-1]["cards"] == []


# ================================================================== the turn cap
def test_turn_cap_ends_the_game_as_a_timeout():
    rules = Rules(players=2, max_turns=3)
    s = pos(rules, turns=2, deck=D[:2])
    do(s, Draw())
    assert not s.is_terminal
    do(s, Draw())
    assert (s.is_terminal, s.timed_out, s.winner, s.turns) == (True, True, None, 3)
    assert legal_actions(s) == [] and s.log[-1]["event"] == "timeout"
    r = nightsim.play_game(Rules(players=2, max_turns=1), ["random", "random"], seed=0)
    assert (r.winner, r.timed_out, r.turns) == (None, True, 1)


# ================================================================== Legions of Horrors (seals)
def test_seal_expansion_adds_twelve_seal_cards_three_per_legion():
    assert len(RS.table.cards) == 120 and sum(RS.table.is_seal) == 12
    for lg in range(4):
        assert len(find_cards(RS, legion=lg, seal=True)) == 3
    s = nightsim.new_game(RS, 0)
    assert sorted(s.all_cards()) == list(range(120))
    assert not any(Rules().table.is_seal)
    assert sum(Rules(seals=True, seals_per_legion=1).table.is_seal) == 4


def test_playing_a_seal_is_an_action_on_a_completed_creature():
    s = pos(RS, hands=[[SEAL_C], []], creatures=[[[C_LEGS, C_TORSO, C_HEAD], [N_LEGS]], [[H_LEGS, H_TORSO, H_HEAD]]])
    assert legal(s) == {Draw(), StartDiscard(), PlaySeal(SEAL_C, 0, 0)}   # own completed creature only
    do(s, PlaySeal(SEAL_C, 0, 0))
    check(s, hands=[[], []], creatures=[[[C_LEGS, C_TORSO, C_HEAD], [N_LEGS]], [[H_LEGS, H_TORSO, H_HEAD]]],
          deck=[], discard=[], player=0, actions_left=1, seals=[[SEAL_C, -1], [-1]])
    assert s.stats["seals_played"] == [1, 0]


def test_seal_reactivates_only_the_parts_of_its_legion():
    # Homunculi legs Weeper, Necronauts torso Weeper, Homunculi head Weeper; a Homunculi seal
    # re-activates the head then the legs (4 cards), not the Necronauts torso
    creature = [H_LEGS_WEEPER, N_LEGS_TORSO_WEEPER, H_HEAD_WEEPER]
    s = pos(RS, hands=[[SEAL_H], []], creatures=[[creature], []], deck=D[:5])
    reactivate(do(s, PlaySeal(SEAL_H, 0, 0)))
    check(s, hands=[[D[4], D[3], D[2], D[1]], []], creatures=[[creature], []], deck=[D[0]], discard=[], player=0,
          actions_left=1, seals=[[SEAL_H], []])
    assert ability_log(s) == [("Weeper", H_HEAD_WEEPER), ("Weeper", H_LEGS_WEEPER)]


def test_seal_reactivation_stops_at_an_ability_that_cannot_be_carried_out():
    creature = [H_LEGS_WEEPER, C_TORSO, H_HEAD_MOCKER]
    s = pos(RS, hands=[[SEAL_H], []], creatures=[[creature], []], deck=D[:2])
    reactivate(do(s, PlaySeal(SEAL_H, 0, 0)))  # the Mocker has nothing to play: the legs Weeper does not draw
    check(s, hands=[[], []], creatures=[[creature], []], deck=D[:2], discard=[], player=0, actions_left=1,
          seals=[[SEAL_H], []])
    assert ability_log(s) == [("failed", "Mocker", H_HEAD_MOCKER)]


def test_seal_reactivation_is_offered_and_may_be_declined():
    # "Du må aktivere mareridtsvæsnets egenskaber en gang til": the seal's player decides
    creature = [H_LEGS_WEEPER, N_LEGS_TORSO_WEEPER, H_HEAD_WEEPER]
    s = pos(RS, hands=[[SEAL_H, N_LEGS], []], creatures=[[creature], []], deck=D[:5])
    do(s, PlaySeal(SEAL_H, 0, 0))
    assert (s.decision, s.current_player, legal(s)) == ("seal re-activation", 0, {Reactivate(), Decline()})
    assert nightsim.observe(s, 0).reactivation == (H_HEAD_WEEPER, H_LEGS_WEEPER)
    do(s, Decline())
    check(s, hands=[[N_LEGS], []], creatures=[[creature], []], deck=D[:5], discard=[], player=0, actions_left=1,
          seals=[[SEAL_H], []])
    assert ability_log(s) == []
    assert [e["event"] for e in s.log[-2:]] == ["decision", "reactivation_declined"]
    assert {k: s.log[-1][k] for k in ("player", "card", "owner", "creature")} == {
        "player": 0, "card": SEAL_H, "owner": 0, "creature": 0}
    assert s.stats["seals_played"] == [1, 0] and s.abilities[0] == [0] * 6


def test_seal_reactivation_forced_variant_activates_at_once():
    rules = Rules(players=2, seals=True, seal_reactivation_optional=False)
    creature = [H_LEGS_WEEPER, N_LEGS_TORSO_WEEPER, H_HEAD_WEEPER]
    s = pos(rules, hands=[[SEAL_H], []], creatures=[[creature], []], deck=D[:5])
    do(s, PlaySeal(SEAL_H, 0, 0))
    check(s, hands=[[D[4], D[3], D[2], D[1]], []], creatures=[[creature], []], deck=[D[0]], discard=[], player=0,
          actions_left=1, seals=[[SEAL_H], []])
    assert ability_log(s) == [("Weeper", H_HEAD_WEEPER), ("Weeper", H_LEGS_WEEPER)]
    assert "decision" not in kinds(s)[kinds(s).index("seal"):]


def test_seal_on_parts_without_abilities_offers_no_reactivation():
    s = pos(RS, hands=[[SEAL_C], []], creatures=[[[C_LEGS, C_TORSO, C_HEAD_EXECUTIONER]], [[I_LEGS]]])
    do(s, PlaySeal(SEAL_C, 0, 0))       # only the head has an ability: the re-activation is offered
    assert s.decision == "seal re-activation" and nightsim.observe(s, 0).reactivation == (C_HEAD_EXECUTIONER,)
    s = pos(RS, hands=[[SEAL_C], []], creatures=[[[C_LEGS, C_TORSO, C_HEAD]], []])
    do(s, PlaySeal(SEAL_C, 0, 0))       # no Chimeridae part has an ability: nothing to decide
    check(s, hands=[[], []], creatures=[[[C_LEGS, C_TORSO, C_HEAD]], []], deck=[], discard=[], player=0,
          actions_left=1, seals=[[SEAL_C], []])


def test_seal_of_a_legion_the_creature_lacks_reactivates_nothing():
    creature = [H_LEGS_WEEPER, N_LEGS_TORSO_WEEPER, H_HEAD_WEEPER]
    s = pos(RS, hands=[[SEAL_I], []], creatures=[[creature], []], deck=D[:2])
    do(s, PlaySeal(SEAL_I, 0, 0))
    check(s, hands=[[], []], creatures=[[creature], []], deck=D[:2], discard=[], player=0, actions_left=1,
          seals=[[SEAL_I], []])


def test_a_creature_takes_one_seal_only():
    s = pos(RS, hands=[[SEAL_C], []], creatures=[[K4, K1], []], seals={(0, 0): SEAL_I})
    assert legal(s) == {Draw(), StartDiscard(), PlaySeal(SEAL_C, 0, 1)}


def test_seal_counts_as_a_card_of_its_legion_for_the_pure_legion_penalty():
    s = pos(RS, hands=[[N_HEAD], [SEAL_N, H_LEGS]], creatures=[[[N_LEGS, N_TORSO]], []])
    do(s, Play(N_HEAD, 0, 2))
    assert legal(s) == {PenaltyDiscard(SEAL_N)}
    do(s, PenaltyDiscard(SEAL_N))
    check(s, hands=[[], [H_LEGS]], creatures=[[[N_LEGS, N_TORSO, N_HEAD]], []], deck=[], discard=[SEAL_N],
          player=0, actions_left=1)


@pytest.mark.parametrize("immunity", ["all_other_creatures", "opponents_only"])
def test_incarnated_creature_is_immune_to_an_opponents_executioner(immunity):
    rules = Rules(players=2, seals=True, immunity=immunity)
    sealed, plain = [H_LEGS, H_TORSO, H_HEAD], [I_LEGS, I_TORSO]
    s = pos(rules, hands=[[C_HEAD_EXECUTIONER], []], creatures=[[[N_LEGS, C_TORSO]], [sealed, plain]],
            seals={(1, 0): SEAL_H})
    do(s, Play(C_HEAD_EXECUTIONER, 0, 2))
    assert legal(s) == {Take(1, 1)}
    # only the incarnated creature left: the Executioner cannot be carried out
    s = pos(rules, hands=[[C_HEAD_EXECUTIONER], []], creatures=[[[N_LEGS, C_TORSO]], [sealed]],
            seals={(1, 0): SEAL_H})
    do(s, Play(C_HEAD_EXECUTIONER, 0, 2))
    check(s, hands=[[], []], creatures=[[[N_LEGS, C_TORSO, C_HEAD_EXECUTIONER]], [sealed]], deck=[], discard=[],
          player=0, actions_left=1, seals=[[-1], [SEAL_H]])
    assert ability_log(s) == [("failed", "Executioner", C_HEAD_EXECUTIONER)]


def test_immunity_all_other_creatures_protects_against_your_own_devourer():
    sealed = [H_LEGS, H_TORSO, H_HEAD]
    s = pos(RS, hands=[[N_HEAD_DEVOURER], []], creatures=[[sealed, [N_LEGS_WEEPER, C_TORSO]], []],
            seals={(0, 0): SEAL_H}, deck=D[:2])
    do(s, Play(N_HEAD_DEVOURER, 1, 2))
    check(s, hands=[[], []], creatures=[[sealed, [N_LEGS_WEEPER, C_TORSO, N_HEAD_DEVOURER]], []], deck=D[:2],
          discard=[], player=0, actions_left=1, seals=[[SEAL_H, -1], []])
    assert ability_log(s) == [("failed", "Devourer", N_HEAD_DEVOURER)]


def test_immunity_opponents_only_lets_your_own_devourer_hit_and_the_seal_stays():
    rules = Rules(players=2, seals=True, immunity="opponents_only")
    sealed = [H_LEGS, H_TORSO, H_HEAD]
    s = pos(rules, hands=[[N_HEAD_DEVOURER], []], creatures=[[sealed, [N_LEGS_WEEPER, C_TORSO]], []],
            seals={(0, 0): SEAL_H}, deck=D[:2])
    do(s, Play(N_HEAD_DEVOURER, 1, 2))
    assert legal(s) == {Devour(0)}
    do(s, Devour(0))
    check(s, hands=[[D[1], D[0]], []], creatures=[[[H_LEGS, H_TORSO], [N_LEGS_WEEPER, C_TORSO, N_HEAD_DEVOURER]], []],
          deck=[], discard=[H_HEAD], player=0, actions_left=1, seals=[[SEAL_H, -1], []])


def test_incarnated_incomplete_creature_is_immune_to_an_opponents_scavenger():
    # reachable with immunity="opponents_only" (its owner's Devourer ate its head)
    rules = Rules(players=2, seals=True, immunity="opponents_only")
    s = pos(rules, hands=[[N_HEAD_SCAVENGER], []], creatures=[[[C_LEGS, C_TORSO]], [[H_LEGS, H_TORSO], [I_LEGS]]],
            seals={(1, 0): SEAL_H})
    do(s, Play(N_HEAD_SCAVENGER, 0, 2))
    assert legal(s) == {Scavenge(1, 1)}
    do(s, Scavenge(1, 1))
    check(s, hands=[[], []], creatures=[[[C_LEGS, C_TORSO, N_HEAD_SCAVENGER]], [[H_LEGS, H_TORSO]]], deck=[],
          discard=[I_LEGS], player=0, actions_left=1, seals=[[-1], [SEAL_H]])


def test_seal_target_own_by_default_and_any_as_a_variant():
    hands, creatures = [[SEAL_H], []], [[], [[H_LEGS, H_TORSO, H_HEAD_WEEPER]]]
    s = pos(RS, hands=hands, creatures=creatures, deck=D[:2])
    assert legal(s) == {Draw(), StartDiscard()}              # no completed creature of your own
    rules = Rules(players=2, seals=True, seal_target="any")
    s = pos(rules, hands=hands, creatures=creatures, deck=D[:2])
    assert legal(s) == {Draw(), StartDiscard(), PlaySeal(SEAL_H, 1, 0)}
    reactivate(do(s, PlaySeal(SEAL_H, 1, 0)))
    # the seal's player activates the opponent's creature's Homunculi parts: seat 0's Weeper draws
    check(s, hands=[[D[1], D[0]], []], creatures=[[], [[H_LEGS, H_TORSO, H_HEAD_WEEPER]]], deck=[], discard=[],
          player=0, actions_left=1, seals=[[], [SEAL_H]])


def test_seal_counts_as_a_play_for_the_legion_restriction():
    s = pos(RS, hands=[[N_LEGS, SEAL_C, SEAL_N], []], creatures=[[K4], []])
    do(s, Play(N_LEGS, None, 0))
    assert legal(s) == {Draw(), StartDiscard(), PlaySeal(SEAL_N, 0, 0)}
    s = pos(RS, hands=[[N_LEGS, H_LEGS, C_LEGS, SEAL_C], []], creatures=[[K4], []])
    do(s, PlaySeal(SEAL_C, 0, 0))
    assert legal(s) == {Draw(), StartDiscard(), Play(C_LEGS, None, 0)}


def test_seal_counts_as_play_false_frees_the_seal_and_the_other_play():
    rules = Rules(players=2, seals=True, seal_counts_as_play=False)
    s = pos(rules, hands=[[N_LEGS, SEAL_C, SEAL_N], []], creatures=[[K4], []])
    do(s, Play(N_LEGS, None, 0))
    assert legal(s) == {Draw(), StartDiscard(), PlaySeal(SEAL_C, 0, 0), PlaySeal(SEAL_N, 0, 0)}
    s = pos(rules, hands=[[N_LEGS, H_LEGS, SEAL_C], []], creatures=[[K4], []])
    do(s, PlaySeal(SEAL_C, 0, 0))
    assert legal(s) == {Draw(), StartDiscard(), Play(N_LEGS, None, 0), Play(H_LEGS, None, 0)}


def test_herald_discards_a_turned_over_seal_by_default():
    s = pos(RS, hands=[[I_HEAD_HERALD], []], creatures=[[[C_LEGS, C_TORSO], K1], []], deck=[H_LEGS, SEAL_N])
    do(s, Play(I_HEAD_HERALD, 0, 2))
    assert legal(s) == {Play(H_LEGS, None, 0)}       # the seal is not playable by the Herald
    do(s, Play(H_LEGS, None, 0))
    check(s, hands=[[], []], creatures=[[[C_LEGS, C_TORSO, I_HEAD_HERALD], K1, [H_LEGS]], []], deck=[],
          discard=[SEAL_N], player=0, actions_left=1)


def test_herald_plays_seals_variant():
    rules = Rules(players=2, seals=True, herald_plays_seals=True)
    b = [H_LEGS, H_TORSO, H_HEAD_WEEPER]
    s = pos(rules, hands=[[I_HEAD_HERALD], []], creatures=[[[C_LEGS, C_TORSO], b], []],
            deck=[D[0], D[1], N_HEAD, SEAL_H])
    do(s, Play(I_HEAD_HERALD, 0, 2))
    # the seal may go on any own completed creature, the Herald's own one included
    assert legal(s) == {PlaySeal(SEAL_H, 0, 0), PlaySeal(SEAL_H, 0, 1)}
    reactivate(do(s, PlaySeal(SEAL_H, 0, 1)))
    check(s, hands=[[D[1], D[0]], []], creatures=[[[C_LEGS, C_TORSO, I_HEAD_HERALD], b], []], deck=[],
          discard=[N_HEAD], player=0, actions_left=1, seals=[[-1, SEAL_H], []])


def test_mocker_does_not_play_seals_by_default():
    s = pos(RS, hands=[[H_HEAD_MOCKER, SEAL_N], []], creatures=[[[C_LEGS, C_TORSO], K1], []])
    do(s, Play(H_HEAD_MOCKER, 0, 2))
    check(s, hands=[[SEAL_N], []], creatures=[[[C_LEGS, C_TORSO, H_HEAD_MOCKER], K1], []], deck=[], discard=[],
          player=0, actions_left=1)
    assert ability_log(s) == [("failed", "Mocker", H_HEAD_MOCKER)]


def test_mocker_plays_seals_variant():
    rules = Rules(players=2, seals=True, mocker_plays_seals=True)
    s = pos(rules, hands=[[H_HEAD_MOCKER, SEAL_N], []], creatures=[[[C_LEGS, C_TORSO], K1], []])
    do(s, Play(H_HEAD_MOCKER, 0, 2))
    assert legal(s) == {PlaySeal(SEAL_N, 0, 0), PlaySeal(SEAL_N, 0, 1)}
    reactivate(do(s, PlaySeal(SEAL_N, 0, 1)))
    # K1 is all Necronauts Scavengers: re-activated, the head Scavenger finds no target and stops
    check(s, hands=[[], []], creatures=[[[C_LEGS, C_TORSO, H_HEAD_MOCKER], K1], []], deck=[], discard=[],
          player=0, actions_left=1, seals=[[-1, SEAL_N], []])
    assert ability_log(s) == [("Mocker", H_HEAD_MOCKER), ("failed", "Scavenger", K1[2])]


def test_seal_reactivation_brings_no_pure_legion_penalty():
    pure = [H_LEGS, H_TORSO, H_HEAD_WEEPER]
    s = pos(RS, hands=[[SEAL_H], [H_LEGS_B]], creatures=[[pure], []], deck=D[:2])
    reactivate(do(s, PlaySeal(SEAL_H, 0, 0)))
    check(s, hands=[[D[1], D[0]], [H_LEGS_B]], creatures=[[pure], []], deck=[], discard=[], player=0,
          actions_left=1, seals=[[SEAL_H], []])


# ================================================================== other Rules fields
def test_custom_deck_variant():
    homunculi = nightsim.load_cards()[27:54]
    rules = Rules(players=2, cards=homunculi)
    assert len(rules.table.cards) == 27 and card_id(rules, 30) == 2
    legs, torso, head = card_id(rules, 30), card_id(rules, 35), card_id(rules, 37)
    s = pos(rules, hands=[[head], []], creatures=[[[legs, torso]], []])
    do(s, Play(head, 0, 2))
    check(s, hands=[[], []], creatures=[[[legs, torso, head]], []], deck=[], discard=[], player=0, actions_left=1)
    assert sorted(nightsim.new_game(rules, 0).all_cards()) == list(range(27))


def test_every_event_kind_is_documented_in_rules_md():
    root = pathlib.Path(nightsim.__file__).parent
    emitted = set()
    for module in ("engine/engine.py", "game.py", "engine/state.py", "engine/turn.py", "engine/creatures.py",
                   "engine/penalty.py"):
        text = (root / module).read_text()
        emitted |= set(re.findall(r'_event\(s, "(\w+)"', text)) | set(re.findall(r'"event": "(\w+)"', text))
    assert {"deal", "decision", "complete", "ability", "penalty_discard", "seal"} <= emitted
    doc = (root / "RULES.md").read_text()
    section = doc[doc.index("## Event log"):]
    documented = set(re.findall(r"^\| `(\w+)` \|", section, flags=re.M))
    assert emitted == documented


# ================================================================== regressions (bugs found by these tests, fixed)
def test_herald_turns_over_a_seal_only_once():
    s = pos(RS, hands=[[I_HEAD_HERALD], []], creatures=[[[C_LEGS, C_TORSO]], []], deck=[SEAL_N],
            discard=[H_LEGS])
    do(s, Play(I_HEAD_HERALD, 0, 2))
    # correct: turn over SEAL_N, then (deck empty) reshuffle the discard pile [H_LEGS] and turn it over
    assert legal(s) == {Play(H_LEGS, None, 0)}
    do(s, Play(H_LEGS, None, 0))
    check(s, hands=[[], []], creatures=[[[C_LEGS, C_TORSO, I_HEAD_HERALD], [H_LEGS]], []], deck=[],
          discard=[SEAL_N], player=0, actions_left=1)


def test_state_can_be_inspected_after_a_win_inside_a_mocker_play():
    s = pos(R2, hands=[[H_HEAD_MOCKER, C_HEAD], []],
            creatures=[[K1, K2, K3, [I_LEGS, I_TORSO], [C_LEGS, C_TORSO]], []])
    do(s, Play(H_HEAD_MOCKER, 3, 2), Play(C_HEAD, 4, 2))     # the Mocker completes the 5th creature
    assert (s.is_terminal, s.winner, legal_actions(s)) == (True, 0, [])
    assert isinstance(s.decision, str)
    assert "terminal=True" in repr(s)


def test_pure_winning_creature_is_counted_in_the_stats():
    s = pos(R2, hands=[[H_HEAD], []], creatures=[[K1, K2, K3, K4, [H_LEGS, H_TORSO]], []])
    do(s, Play(H_HEAD, 4, 2))
    assert s.winner == 0
    assert s.stats["completed"] == [1, 0]
    assert s.stats["pure_creatures"] == [1, 0]
