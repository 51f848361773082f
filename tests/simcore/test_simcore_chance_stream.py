"""`simcore.stream.chance_stream`: the chance stream an engine draws from when given a seed, a stream
or a Generator (the stream `play_game` deals from, so `new_game(rules, seed)` deals the same game)."""
from __future__ import annotations

import numpy as np
import pytest

import dreamsim
import nightsim
from simcore.stream import Stream, chance_stream, streams


def test_a_seed_gives_its_stream_0_and_a_stream_or_generator_is_kept():
    a, b = chance_stream(42), streams(42, 3)[0]
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    ss = np.random.SeedSequence(7)
    assert chance_stream(ss).next64() == streams(ss, 1)[0].next64()
    given, gen = Stream.of(3, 2), np.random.default_rng(0)
    assert chance_stream(given) is given and chance_stream(gen) is gen


def test_no_seed_is_refused_rather_than_drawing_hidden_entropy():
    with pytest.raises(ValueError, match="seed/rng is None.*games are deterministic"):
        chance_stream(None)


@pytest.mark.parametrize("game", [nightsim, dreamsim])
def test_new_game_from_a_seed_deals_what_play_game_deals(game):
    rules = game.Rules(players=3)
    dealt = game.new_game(rules, 11, record=True).log
    played = game.play_game(rules, ["random"] * 3, 11, record=True).log
    deal = next(e for e in dealt if e["event"] == "deal")
    assert deal == next(e for e in played if e["event"] == "deal")
