"""What the three simulators share and nothing game-specific: the random stream both an engine and
its numba kernel draw from (`stream`, `stream_kernel`). The games import this package; it imports
none of them."""
