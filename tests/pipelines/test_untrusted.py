"""Bounded reading of untrusted JSON and zlib data (pipelines/untrusted.py)."""

from __future__ import annotations

import zlib

import pytest

from pipelines.untrusted import UntrustedData, inflate, load_json


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ("[" * 100_000 + "]" * 100_000, "too_deep"),
        ('{"a":' * 50 + "1" + "}" * 50, "too_deep"),
        ('{"matched": 1e999}', "not_finite"),
        ('{"matched": -Infinity}', "not_finite"),
        ("[NaN]", "not_finite"),
        ("9" * 5_000, "too_large"),
        (b"\x80\x04\x95 pickle", "not_json"),
        ("x" * 101, "too_large"),
    ],
)
def test_hostile_json_is_refused_with_a_reason(data: str | bytes, reason: str) -> None:
    with pytest.raises(UntrustedData) as refused:
        load_json(data, max_bytes=100 if data == "x" * 101 else 10_000_000)
    assert refused.value.reason == reason


def test_json_within_the_limits_is_read() -> None:
    assert load_json('{"a": [1, 2.5, "x", null, true]}', max_bytes=100) == {
        "a": [1, 2.5, "x", None, True]
    }


def test_a_zlib_bomb_stops_at_the_limit() -> None:
    bomb = zlib.compress(bytes(100_000_000), 9)  # 100 MB of zeros in ~100 KB
    with pytest.raises(UntrustedData) as refused:
        inflate(bomb, max_bytes=10_000_000)
    assert refused.value.reason == "too_large"


@pytest.mark.parametrize("data", [b"not zlib", zlib.compress(b"x" * 1000)[:-8]])
def test_broken_or_truncated_zlib_is_refused(data: bytes) -> None:
    with pytest.raises(UntrustedData) as refused:
        inflate(data, max_bytes=10_000)
    assert refused.value.reason == "not_zlib"


def test_zlib_within_the_limit_round_trips() -> None:
    assert inflate(zlib.compress(b"<html>page</html>"), max_bytes=17) == b"<html>page</html>"
