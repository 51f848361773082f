"""What the three simulators share and nothing game-specific. The games import this package; it
imports none of them.

- `stream`, `stream_kernel`: the random stream an engine and its numba kernel both draw from
  (`chance_stream`: the chance stream of a seed, as `new_game` and `play_game` take it);
- `result`: `GameResult`, the plain-data record of a finished game, and its flat `to_record` row;
- `policies`: resolving a seat's policy (a registered name or a callable), `policy_name`, and the
  tuning of a heuristic's weights and its stored `tuned` policy;
- `actions`: `IllegalActionError` (every game's), `shown` (an action as a refusal names it) and
  `kinds_apart` (actions of different kinds never compare equal);
- `equality`: a batch kernel's records against the engine's, seed for seed (the first difference);
- `rules`: the field checks of a game's `Rules` (`int_field`, `choice_fields`, `bool_fields`);
- `deal`: the opening hands of a card game's deal, read from the engine's own setup;
- `decisions`: `Decision`, a reading the lab chose where a rulebook is silent;
- `frames`: the frame protocol of every engine's stack (`Frame`: `seat`, `decision`, `legal`,
  `apply`, `step`) and its one driver (`drive`);
- `kernel_cache`: the numba cache locator that keeps a kernel's cache fresh across all its files
  (each game registers its file list) and the kernels' inlining setting (`inline_setting`).
"""
