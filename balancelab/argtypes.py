"""The command line's argument types: argparse `type=` callables that turn a flag's text into a value
or a one-line argparse error (shared by every `balancelab` command's parser)."""
from __future__ import annotations

import argparse


def positive_int(text: str) -> int:
    value = int_value(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def non_negative_int(text: str) -> int:
    value = int_value(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {text!r}")
    return value


def jobs(text: str) -> int:
    value = int_value(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be a positive number of workers or -1 (all cores)")
    return value


def int_value(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


def assignment(text: str) -> tuple[str, str]:
    field, sep, value = text.partition("=")
    if not sep or not field.strip():
        raise argparse.ArgumentTypeError(f"expected FIELD=VALUE, got {text!r}")
    return field.strip(), value.strip()


def comma_list(text: str) -> list[str]:
    values = [v.strip() for v in text.split(",") if v.strip()]
    if not values:
        raise argparse.ArgumentTypeError("give at least one value")
    return values


def seat_numbers(text: str) -> tuple[int, ...]:
    """Seats counted from 1, comma-separated ("2" or "1,3") -> 0-based indices."""
    seats = tuple(positive_int(v) - 1 for v in comma_list(text))
    if len(set(seats)) != len(seats):
        raise argparse.ArgumentTypeError(f"seats must differ, got {text!r}")
    return seats
