"""The event log is a contract: a referee rebuilds the game from the initial deal and the events.

`Referee` below is a small replayer written for these tests only. It reads nothing but the
events (the card ids they name; no engine code), moves the cards as the events say, checks
each move against what it knows (the drawn card is the top of its deck, a taken card is the
top of that creature, a reshuffle uses exactly the discard pile), and at the end its hands,
deck, discard pile, creatures, seals, winner and turn count must equal the engine's.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import nightsim
from nightsim import Rules, apply_action, legal_actions, observe
from nightsim.engine.log import format_events
from nightsim.engine.scenario import build_state, card_id, find_cards
from nightsim.game import turns_played


class Referee:
    """Rebuilds hands, deck, discard pile and creatures from the events alone."""

    def __init__(self, events):
        deal = events[0]
        assert deal["event"] == "deal"
        self.hands = [list(h) for h in deal["hands"]]
        self.deck = list(deal["deck"])            # top of the deck = last item
        self.discard = list(deal["discard"])
        self.creatures = [[[list(cr), seal] for cr, seal in zip(crs, seals)]
                          for crs, seals in zip(deal["creatures"], deal["seals"])]
        self.reshuffles = []                      # new deck orders announced, used at the next empty draw
        self.revealed = []                        # the Herald's turned-over cards not yet placed or discarded
        self.herald_seal = None
        self.winner, self.timed_out, self.turn, self.decisions = None, False, deal["turn"], 0
        for e in events[1:]:
            getattr(self, "on_" + e["event"])(e)

    # -- moving cards
    def draw(self) -> int:
        if not self.deck:
            new = self.reshuffles.pop(0)
            assert sorted(new) == sorted(self.discard), "a reshuffle must use exactly the discard pile"
            self.deck, self.discard = list(new), []
        return self.deck.pop()

    def draw_cards(self, cards, into):
        for c in cards:
            assert self.draw() == c, "a drawn card must be the top card of the deck"
            into.append(c)

    def place(self, owner, k, card):
        if k is None:
            self.creatures[owner].append([[card], -1])
        else:
            assert len(self.creatures[owner][k][0]) < 3
            self.creatures[owner][k][0].append(card)

    def take_top(self, owner, k, card):
        cr = self.creatures[owner][k]
        assert cr[0].pop() == card, "only the top card of a creature can be taken"
        if not cr[0]:
            del self.creatures[owner][k]
            if cr[1] >= 0:
                self.discard.append(cr[1])

    # -- one handler per event kind
    def on_turn_start(self, e):
        self.turn = e["turn"]

    def on_decision(self, e):
        self.decisions += 1

    def on_draw(self, e):
        if not e["cards"]:
            assert not self.deck and not self.discard and not self.reshuffles
        self.draw_cards(e["cards"], self.hands[e["player"]])

    def on_discard_draw(self, e):
        for c in e["discarded"]:
            self.hands[e["player"]].remove(c)
        self.discard += e["discarded"]
        self.draw_cards(e["drew"], self.hands[e["player"]])

    def on_play(self, e):
        self.hands[e["player"]].remove(e["card"])
        self.place(e["player"], e["creature"], e["card"])

    def on_weeper_draw(self, e):
        self.draw_cards(e["cards"], self.hands[e["player"]])

    def on_herald_turn(self, e):
        self.draw_cards(e["cards"], self.revealed)

    def on_herald_discard(self, e):
        for c in e["cards"]:
            self.revealed.remove(c)
        self.discard += e["cards"]

    def on_herald_reveal(self, e):
        assert set(e["cards"]) <= set(self.revealed)   # (a nested Herald's cards may still be waiting)

    def on_herald_place(self, e):
        self.revealed.remove(e["card"])
        if e["slot"] is None:
            self.herald_seal = e["card"]          # the `seal` event that follows puts it on the creature
        else:
            self.place(e["owner"], e["creature"], e["card"])

    def on_seal(self, e):
        if self.herald_seal == e["card"]:
            self.herald_seal = None
        else:
            self.hands[e["player"]].remove(e["card"])
        cr = self.creatures[e["owner"]][e["creature"]]
        assert cr[1] < 0 and len(cr[0]) == 3
        cr[1] = e["card"]

    def on_complete(self, e):
        assert self.creatures[e["owner"]][e["creature"]][0] == e["cards"]

    def on_activation_start(self, e):
        assert self.creatures[e["owner"]][e["creature"]][0] == e["cards"]
        assert set(e["abilities"]) <= set(e["cards"])

    def on_activation_end(self, e):
        pass

    def on_ability(self, e):
        pass

    def on_ability_failed(self, e):
        pass

    def on_reactivation_declined(self, e):
        assert self.creatures[e["owner"]][e["creature"]][1] == e["card"]

    def on_executioner(self, e):
        self.take_top(e["victim"], e["creature"], e["card"])
        self.hands[e["player"]].append(e["card"])

    def on_scavenger(self, e):
        cards, seal = self.creatures[e["victim"]].pop(e["creature"])
        assert cards == e["cards"] and len(cards) < 3 and seal == e["seal"]
        self.discard += cards + ([seal] if seal >= 0 else [])

    def on_scavenger_declined(self, e):
        pass

    def on_devourer(self, e):
        self.take_top(e["player"], e["creature"], e["card"])
        self.discard.append(e["card"])

    def on_penalty_discard(self, e):
        self.hands[e["victim"]].remove(e["card"])
        self.discard.append(e["card"])

    def on_reshuffle(self, e):
        assert len(e["deck"]) == e["cards"]
        self.reshuffles.append(e["deck"])

    def on_win(self, e):
        self.winner = e["winner"]

    def on_timeout(self, e):
        self.timed_out = True
        self.turn = e["turn"]

    # -- the result
    def final(self):
        """(hands, deck, discard, creatures, seals, winner), with any unused reshuffle applied."""
        assert not self.reshuffles or not self.deck
        return (self.hands, self.deck, self.discard, [[cr[0] for cr in crs] for crs in self.creatures],
                [[cr[1] for cr in crs] for crs in self.creatures], self.winner)

    def turns_played(self) -> int:
        return self.turn if self.timed_out else self.turn + 1


def engine_final(s):
    return ([list(h) for h in s.hands], s.deck, s.discard, [[cr.cards for cr in crs] for crs in s.creatures],
            [[cr.seal for cr in crs] for crs in s.creatures], s.winner)


def play_through_apply_action(rules, policies, seed):
    """A game loop of its own, through the public `apply_action`, not `play_game`."""
    ss = np.random.SeedSequence(seed)
    chance, *prngs = (np.random.default_rng(c) for c in ss.spawn(1 + rules.players))
    pols = [nightsim.POLICIES[p] for p in policies]
    s = nightsim.new_game(rules, chance, record=True)
    while not s.is_terminal:
        p = s.current_player
        apply_action(s, pols[p](observe(s, p), legal_actions(s), prngs[p]), chance)
    return s


VARIANTS = [
    dict(players=2),
    dict(players=3, seals=True),
    dict(players=4, seals=True, seal_reactivation_optional=False),
    dict(players=5, seals=True, herald_plays_seals=True, mocker_plays_seals=True),
    dict(players=2, seals=True, seal_target="any", immunity="opponents_only"),
    dict(players=3, penalty_timing="after_abilities", win_timing="end_of_action", scavenger_optional=True),
    dict(players=2, seals=True, hand_size=1, max_turns=60),  # reshuffles, empty decks, a timeout
]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: ",".join(f"{k}={v}" for k, v in v.items()))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_referee_rebuilds_the_final_state_from_the_deal_and_the_events_alone(variant, seed):
    rules = Rules(**variant)
    lineup = (["random", "greedy", "aggressor", "purist", "random"] if seed % 2 else
              ["greedy", "random", "purist", "random", "aggressor"])[:rules.players]
    s = play_through_apply_action(rules, lineup, seed)
    ref = Referee(s.log)
    assert ref.final() == engine_final(s)
    assert ref.decisions == s.decisions                 # decisions taken through apply_action are logged
    assert ref.turns_played() == turns_played(s)


@pytest.mark.parametrize("seed", range(6))
def test_play_game_logs_replay_to_its_result(seed):
    rules = Rules(players=2 + seed % 4, seals=seed % 2 == 1)
    r = nightsim.play_game(rules, ["greedy", "random", "aggressor", "purist", "random"][:rules.players], seed,
                           record=True)
    ref = Referee(r.log)
    hands, deck, discard, creatures, seals, winner = ref.final()
    assert winner == r.winner and ref.timed_out == r.timed_out
    assert tuple(sum(len(c) == 3 for c in crs) for crs in creatures) == r.scores
    assert ref.turns_played() == r.turns and ref.decisions == r.decisions
    assert sorted(sum(hands, []) + deck + discard + ref.revealed + [c for crs in creatures for cr in crs for c in cr]
                  + [x for row in seals for x in row if x >= 0]) == list(range(len(rules.table.cards)))


def test_events_that_referee_does_not_know_fail_the_replay():
    """The referee is strict: a log with an unknown event kind cannot be replayed silently."""
    s = play_through_apply_action(Rules(players=2), ["greedy", "greedy"], 0)
    with pytest.raises(AttributeError):
        Referee(list(s.log) + [{"event": "teleport", "turn": 0, "player": 0}])
    broken = [dict(e) for e in s.log]
    first_draw = next(e for e in broken if e["event"] == "draw")
    first_draw["cards"] = [first_draw["cards"][0] + 1]
    with pytest.raises(AssertionError):
        Referee(broken)


# ---------------------------------------------------------------- the acting seat
R2 = Rules(players=2)


def c(n):
    return card_id(R2, n)


def test_events_after_a_pure_legion_penalty_name_the_seat_whose_creature_acts():
    # seat 0 completes a pure Homunculi creature whose head is a Weeper; seat 1 gives up a card;
    # the Weeper then draws for seat 0 across a reshuffle, and every event of it names seat 0
    legs, torso, head_weeper, victim_card = c(30), c(35), c(46), c(33)
    s = build_state(R2, hands=[[head_weeper], [victim_card]], creatures=[[[legs, torso]], []],
                    deck=[c(3)], discard=[c(6)], unused="remove", record=True)
    apply_action(s, nightsim.Play(head_weeper, 0, 2), np.random.default_rng(0))
    assert s.current_player == 1                             # the victim decides
    apply_action(s, nightsim.PenaltyDiscard(victim_card), np.random.default_rng(0))
    new_deck = next(e for e in s.log if e["event"] == "reshuffle")["deck"]
    assert sorted(new_deck) == sorted([c(6), victim_card])          # the discard pile, penalty card included
    assert (s.hands, s.deck, s.discard) == ([[c(3), new_deck[-1]], []], new_deck[:-1], [])
    after = s.log[[e["event"] for e in s.log].index("penalty_discard") + 1:]
    assert [e["event"] for e in after] == ["activation_start", "reshuffle", "weeper_draw", "ability",
                                          "activation_end"]
    assert {e["player"] for e in after} == {0}
    assert [e["player"] for e in s.log if e["event"] == "penalty_discard"] == [1]


def test_after_a_penalty_discard_the_turn_players_weeper_is_logged_as_the_turn_players():
    """In a played game: the victim discards out of turn, then the turn player's Weeper (and every
    activation event after it) is logged as the turn player's, not the victim's."""
    for seed in range(300):
        r = nightsim.play_game(R2, ["greedy", "greedy"], seed=seed, record=True)
        for turn in sorted({e["turn"] for e in r.log if e["event"] == "penalty_discard"}):
            events = [e for e in r.log if e["turn"] == turn]
            kinds = [e["event"] for e in events]
            after = events[kinds.index("penalty_discard"):]
            weeper = [e for e in after if e["event"] == "ability" and e["ability"] == "Weeper"]
            if not weeper:
                continue
            turn_player = events[kinds.index("turn_start")]["player"]
            assert after[0]["player"] == 1 - turn_player                     # the victim discards
            assert all(e["player"] == turn_player for e in weeper)
            assert all(e["player"] == turn_player for e in after if e["event"] in (
                "ability", "ability_failed", "herald_reveal", "herald_discard", "reshuffle", "weeper_draw",
                "activation_start", "activation_end"))
            return
    pytest.fail("no game of seeds 0..299 has a Weeper after a penalty discard")


# ---------------------------------------------------------------- what a referee needs
def test_herald_logs_both_turned_cards_in_order_and_where_each_went():
    rs = Rules(players=2, seals=True)
    herald, seal = card_id(rs, 55), find_cards(rs, legion="Necronauts", seal=True)[0]
    legs, torso, new_legs = card_id(rs, 87), card_id(rs, 86), card_id(rs, 30)
    s = build_state(rs, hands=[[herald], []], creatures=[[[legs, torso]], []], deck=[new_legs, seal],
                    unused="remove", record=True)
    apply_action(s, nightsim.Play(herald, 0, 2), np.random.default_rng(0))
    apply_action(s, nightsim.Play(new_legs, None, 0), np.random.default_rng(0))
    ev = [(e["event"], e.get("cards", e.get("card"))) for e in s.log
          if e["event"] in ("herald_turn", "herald_discard", "herald_reveal", "herald_place")]
    assert ev == [("herald_turn", [seal, new_legs]), ("herald_discard", [seal]), ("herald_reveal", [new_legs]),
                  ("herald_place", new_legs)]
    place = next(e for e in s.log if e["event"] == "herald_place")
    assert (place["owner"], place["creature"], place["slot"]) == (0, None, 0)


def test_a_reshuffle_logs_the_new_deck_order():
    s = build_state(R2, hands=[[], []], deck=[], discard=[c(3), c(6), c(15)], unused="remove", record=True)
    apply_action(s, nightsim.Draw(), np.random.default_rng(4))
    res = next(e for e in s.log if e["event"] == "reshuffle")
    assert res["cards"] == 3 and sorted(res["deck"]) == sorted([c(3), c(6), c(15)])
    assert s.hands[0] == [res["deck"][-1]] and s.deck == res["deck"][:-1]


def test_each_activation_is_logged_from_start_to_end_with_nested_ones_inside():
    # completing creature A (head Mocker) lets the Mocker complete creature B (head Weeper) inside it
    mocker, weeper = c(31), c(61)
    a, b = [c(30), c(35)], [c(66), c(71)]
    s = build_state(R2, hands=[[mocker, weeper], []], creatures=[[a, b], []], deck=[c(3), c(6)],
                    unused="remove", record=True)
    apply_action(s, nightsim.Play(mocker, 0, 2), np.random.default_rng(0))
    apply_action(s, nightsim.Play(weeper, 1, 2), np.random.default_rng(0))
    marks = [(e["event"], e["creature"], e.get("source"), e.get("stopped")) for e in s.log
             if e["event"] in ("activation_start", "activation_end")]
    assert marks == [("activation_start", 0, "completion", None), ("activation_start", 1, "completion", None),
                     ("activation_end", 1, "completion", False), ("activation_end", 0, "completion", False)]
    start = next(e for e in s.log if e["event"] == "activation_start")
    assert start["abilities"] == [mocker] and start["cards"] == a + [mocker]


def test_decisions_taken_through_apply_action_are_logged_with_their_arguments():
    s = build_state(R2, hands=[[c(3)], []], deck=[c(6)], unused="remove", record=True)
    apply_action(s, nightsim.Play(c(3), None, 0), np.random.default_rng(0))
    d = next(e for e in s.log if e["event"] == "decision")
    assert (d["player"], d["decision"], d["action_type"], d["action_args"]) == (
        0, "turn action", "Play", {"card": c(3), "creature": None, "slot": 0})
    assert d["action"] == "Play(card=2, new creature, legs)"


# ---------------------------------------------------------------- a readable report
def test_format_log_of_a_hand_built_turn_reads_like_a_game_report():
    legs, torso, head_weeper, victim_card = c(30), c(35), c(46), c(33)
    s = build_state(R2, hands=[[head_weeper], [victim_card]], creatures=[[[legs, torso]], []],
                    deck=[c(3), c(6), c(15)], unused="remove", record=True)
    apply_action(s, nightsim.Play(head_weeper, 0, 2), np.random.default_rng(0))
    apply_action(s, nightsim.PenaltyDiscard(victim_card), np.random.default_rng(0))
    apply_action(s, nightsim.Draw(), np.random.default_rng(0))
    text = format_events(s.log, R2, ("greedy", "random"))
    assert text.splitlines() == [
        "Deal: 3 cards stay in the deck",
        "  seat 0 (greedy) holds #46 Homunculi head Weeper; in play: creature [#30 #35]",
        "  seat 1 (random) holds #33 Homunculi legs",
        "Turn 1: seat 0 (greedy), 2 actions",
        "  seat 0 plays #46 Homunculi head Weeper as the head of its creature [#30 #35]",
        "  seat 0 completes a creature: #30 Homunculi legs, #35 Homunculi torso, #46 Homunculi head Weeper"
        " — pure Homunculi: each opponent discards a Homunculi card, or two cards without one",
        "  seat 1 discards #33 Homunculi legs to the pure-legion penalty",
        "  its creature [#30 #35 #46] activates, head to legs: Weeper (#46 Homunculi head)",
        "  Weeper (#46 Homunculi head): seat 0 draws #15 Necronauts legs, #6 Necronauts legs",
        "  end of the activation",
        "  seat 0 draws #3 Necronauts legs",
        "Turn 2: seat 1 (random), 2 actions",
    ]


@pytest.mark.parametrize("seed", range(4))
def test_format_log_has_no_code_objects_no_repeated_actions_and_the_results_turns(seed):
    rules = Rules(players=2 + seed, seals=True)
    r = nightsim.play_game(rules, ["greedy", "random", "aggressor", "purist", "random"][:rules.players], seed,
                           record=True)
    text = r.format_log()
    assert not re.search(r"[A-Za-z]\(", text), "no Draw()/Play(...) code objects"
    assert "{" not in text and "=" not in text
    turns = [int(m) for m in re.findall(r"^Turn (\d+):", text, flags=re.M)]
    assert turns == list(range(1, r.turns + 1))     # one heading per turn, the last = GameResult.turns
    # one line per draw: the Draw action's card appears once, not also as a decision line
    draws = [e for e in r.log if e["event"] == "draw" and e["cards"]]
    assert len(re.findall(r"^  seat \d draws #", text, flags=re.M)) == len(draws)
    assert len([e for e in r.log if e["event"] == "decision"]) == r.decisions
