"""Body text that made a regular expression backtrack without end: the member-card line pattern
(``extractors._UI_LINE``) on a long run of digits (a data table's numbers written as one line, a
dotted leader, a hostile page). Its runs are possessive now; the matches are those of the plain
pattern it replaced."""

from __future__ import annotations

import random
import re
import subprocess
import sys

from extractors import _UI_LINE

#: The pattern before (2026-11-28): ``[\d.,]+`` runs the engine could split every way.
PLAIN = re.compile(
    r"(?:[\d.,]+k?)?(?:[\d.,]+k? (?:gold|silver|bronze) badges?)+"
    r"|(?:[\d.,]+k? )?posts?(?: · joined \d+)?|posts: ?[\d.,]+k?|joined:? \w{3} \d+, \d{4}"
    r"|\d+ repl(?:y|ies)")
TOKENS = ["1", "2", "38", "10.6", ",", ".", "k", " ", "gold", "silver", "bronze", " badge",
          " badges", "badges", "post", "posts", "s", ":", " · joined ", "joined", "joined:",
          " mar ", "4", ", ", "2011", " repl", "y", "ies", "reply", "replies", "0 "]


def test_the_possessive_pattern_matches_what_the_plain_one_matched() -> None:
    for line in ("10.6k2 gold badges38 silver badges49 bronze badges", "1,076 posts",
                 "posts: 93", "12 posts · joined 2019", "joined: mar 4, 2011", "3 replies"):
        assert _UI_LINE.fullmatch(line) and PLAIN.fullmatch(line), line
    rng, matched = random.Random(26), 0
    for _ in range(100_000):
        line = "".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 9)))
        plain = PLAIN.fullmatch(line) is not None
        assert (_UI_LINE.fullmatch(line) is not None) == plain, line
        matched += plain
    assert matched > 500


def test_a_body_line_of_100_000_digits_is_read_at_once() -> None:
    """In a child process, bounded: the plain pattern took 21 s on 20 000 digits (about the
    square of the length), so this line would take most of an hour; the possessive one, ms."""
    code = ("from extractors import _kept_line, extract\n"
            "assert _kept_line('1' * 100_000) and _kept_line('1,' * 50_000 + ' gold badgers')\n"
            "assert not _kept_line('1,' * 50_000 + ' gold badge')  # a card's line, if long\n"
            "page = b'<html><body><p>' + b'2020-' * 100_000 + b'</p></body></html>'\n"
            "assert extract(page, url='https://e.com/a').body.startswith('2020-2020-')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
