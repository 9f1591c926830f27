"""Crawl rounds against a local site whose front gains real articles between rounds: each round
fetches the front again and only the new articles; no article is fetched or written twice."""

from __future__ import annotations

import doctest
import json
import signal
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
import redis

import crawler.rounds
from tests.crawler.demo_helpers import (
    jsonl_items,
    newscrawl,
    path_of,
    start_newscrawl,
    warc_responses,
)
from tests.crawler.http_helpers import send, serve

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "pages"
#: Real article pages (MIT-licensed sets, tests/fixtures/SOURCES.md), served under new URLs.
ARTICLES = sorted(FIXTURES.glob("cx_bbc-*.html")) + sorted(FIXTURES.glob("aeb-*.html"))


class GrowingFront(BaseHTTPRequestHandler):
    """``/`` lists ``visible`` articles, three more each time the front is fetched."""

    lock = threading.Lock()
    visible = 0
    front_fetches = 0

    def do_GET(self) -> None:
        if self.path == "/":
            with self.lock:
                GrowingFront.front_fetches += 1
                GrowingFront.visible = min(len(ARTICLES), 3 * GrowingFront.front_fetches)
                shown = GrowingFront.visible
            links = "".join(f'<li><a href="/news/story-{n:05d}">Story number {n}</a></li>'
                            for n in range(shown))  # fmt: skip
            body = f"<html><head><title>Front</title></head><body><ul>{links}</ul></body></html>"
            send(self, body.encode())
        elif self.path.startswith("/news/story-") and int(self.path[-5:]) < len(ARTICLES):
            send(self, ARTICLES[int(self.path[-5:])].read_bytes())
        else:
            send(self, b"not found", status=404)

    def log_message(self, *args: object) -> None:
        pass


def _crawl(base: str, out: Path, *extra: str) -> None:
    result = newscrawl("crawl", f"{base}/", "--out", str(out), "--depth", "1", "--no-autothrottle",
                       "--progress-interval", "0", "-s", "NEWSCRAWL_SIBLING_WAIT=0.5", *extra)
    assert result.returncode == 0, result.stderr


def _articles(items: list[dict]) -> list[str]:
    return sorted(path_of(i["url"]) for i in items if path_of(i["url"]).startswith("/news/"))


def test_rounds_fetch_the_front_again_and_only_new_articles(tmp_path: Path) -> None:
    assert len(ARTICLES) >= 9
    GrowingFront.visible = GrowingFront.front_fetches = 0
    out = tmp_path / "out"
    with serve(GrowingFront) as base:
        _crawl(base, out, "--rounds", "2", "--every", "0")  # rounds 1 and 2 in one process
        after_two = jsonl_items(out)
        _crawl(base, out)  # round 3: a new run into the same --out
    everything = jsonl_items(out)
    third = everything[len(after_two):]
    assert GrowingFront.front_fetches == 3
    assert _articles(after_two) == [f"/news/story-{n:05d}" for n in range(6)]
    assert _articles(third) == [f"/news/story-{n:05d}" for n in range(6, 9)]  # exactly the new
    fetched = Counter(path for path, _ in warc_responses(out))
    assert fetched["/"] == 3
    assert {p: n for p, n in fetched.items() if p.startswith("/news/") and n > 1} == {}
    fronts = [i for i in everything if path_of(i["url"]) == "/"]
    assert len(fronts) == 3 and all(i["page_type"] == "list" for i in fronts)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["items_written"] == len(third)


@pytest.mark.slow
def test_articles_older_than_the_refetch_age_are_fetched_and_written_again(tmp_path: Path) -> None:
    """--refetch-after (here 3 s): a second run after the age fetches and writes the articles of
    the first again (updates), beside the new ones; the journal kept when each was seen. (Within
    the age nothing is fetched again: the test above, with the default age, and
    test_leases.py's for Redis.) Slow: two crawls and a wait, ~13 s."""
    GrowingFront.visible = GrowingFront.front_fetches = 0
    out = tmp_path / "out"
    age = ["--refetch-after", str(3 / 86400)]
    with serve(GrowingFront) as base:
        _crawl(base, out, *age)  # stories 0-2
        first = len(jsonl_items(out))
        time.sleep(4)  # past the age and its last generation (3 s × 1.25)
        _crawl(base, out, *age)  # stories 0-5: 0-2 again (older than the age), 3-5 new
    everything = jsonl_items(out)
    assert _articles(everything[:first]) == [f"/news/story-{n:05d}" for n in range(3)]
    assert _articles(everything[first:]) == [f"/news/story-{n:05d}" for n in range(6)]
    fetched = Counter(path for path, _ in warc_responses(out))
    assert {p: n for p, n in fetched.items() if p.startswith("/news/")} == {
        f"/news/story-{n:05d}": 2 if n < 3 else 1 for n in range(6)
    }


def test_docstring_examples() -> None:
    result = doctest.testmod(crawler.rounds)
    assert result.attempted > 0 and result.failed == 0


def test_distributed_rounds_each_seed_call_is_a_round(redis_server: str, tmp_path: Path) -> None:
    """Three `newscrawl seed` calls, two `newscrawl worker` processes per round on one Redis: each
    round fetches the front again and streams exactly the articles new since the last."""
    url = redis_server.rsplit("/", 1)[0] + "/6"
    client = redis.Redis.from_url(url)
    client.flushdb()
    GrowingFront.visible = GrowingFront.front_fetches = 0
    streamed: list[list[str]] = []
    with serve(GrowingFront) as base:
        for crawl_round in range(3):
            seeded = newscrawl("seed", "--redis", url, f"{base}/")
            assert seeded.returncode == 0 and f"as round {crawl_round + 1}" in seeded.stdout
            logs = [tmp_path / f"r{crawl_round}w{n}.log" for n in range(2)]
            workers = [start_newscrawl(
                "worker", "--redis", url, "--out", str(tmp_path / f"w{n}"), "--idle-timeout", "3",
                "--depth", "1", "--no-autothrottle", "--progress-interval", "0",
                "-s", "NEWSCRAWL_SIBLING_WAIT=0.5", log=log.open("wb"),
            ) for n, log in enumerate(logs)]  # fmt: skip
            assert [w.wait(120) for w in workers] == [0, 0], [log.read_text() for log in logs]
            entries = client.xrange("newscrawl:items")
            paths = [path_of(json.loads(f[b"item"])["url"]) for _, f in entries]
            streamed.append(sorted(p for p in paths if p.startswith("/news/")))
    client.close()
    assert GrowingFront.front_fetches == 3
    assert streamed[0] == [f"/news/story-{n:05d}" for n in range(3)]
    assert streamed[1] == [f"/news/story-{n:05d}" for n in range(6)]
    assert streamed[2] == [f"/news/story-{n:05d}" for n in range(9)]  # each article once


def test_one_scheduler_at_a_time_and_a_successor_keeps_the_schedule(
    redis_server: str, tmp_path: Path
) -> None:
    """Two `newscrawl seed --every` processes: only the lock holder pushes rounds; when it stops,
    the other takes over and goes on from the schedule kept in Redis."""
    url = redis_server.rsplit("/", 1)[0] + "/8"
    client = redis.Redis.from_url(url)
    client.flushdb()
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    first = start_newscrawl("seed", "--redis", url, "--every", "1", "--rounds", "3",
                            "https://example.com/", log=logs[0].open("wb"))  # fmt: skip
    time.sleep(0.5)
    second = start_newscrawl("seed", "--redis", url, "--every", "1", "https://example.com/",
                             log=logs[1].open("wb"))  # fmt: skip
    try:
        assert first.wait(30) == 0, logs[0].read_text()
        pushed_first = logs[0].read_text()
        assert all(f"as round {n} " in pushed_first for n in (1, 2, 3))
        deadline = time.monotonic() + 15
        while int(client.get("newscrawl:seeds:round")) < 4 and time.monotonic() < deadline:
            time.sleep(0.2)
        second.send_signal(signal.SIGTERM)
        assert second.wait(15) == 0
    finally:
        for proc in (first, second):
            if proc.poll() is None:
                proc.kill()
    taken_over = logs[1].read_text()
    assert "waiting" in taken_over and "holding the lock" in taken_over
    assert "as round 4 " in taken_over  # the second pushed nothing while the first held the lock
    assert not any(f"as round {n} " in taken_over for n in (1, 2, 3))
    assert client.llen("newscrawl:seeds") == int(client.get("newscrawl:seeds:round"))
    assert client.get("newscrawl:seeds:scheduler") is None  # released on a clean stop
    client.close()


def test_refetch_after_takes_a_number_of_days_and_sets_the_setting(capsys) -> None:
    from crawler.cli import build_parser
    from crawler.commands.crawl import crawl_overrides

    args = build_parser().parse_args(["crawl", "--refetch-after", "7.5", "--out", "x", "http://a/"])
    assert crawl_overrides(args)["NEWSCRAWL_REFETCH_AFTER_DAYS"] == 7.5
    args = build_parser().parse_args(["worker", "--redis", "redis://h/0"])
    assert "NEWSCRAWL_REFETCH_AFTER_DAYS" not in crawl_overrides(args)  # the setting's default
    for bad in ("-1", "nan", "inf", "week"):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["crawl", "--refetch-after", bad, "http://a/"])
        assert "not a number of days" in capsys.readouterr().err


def test_a_run_in_the_same_second_as_the_last_round_is_still_a_new_round(tmp_path: Path) -> None:
    """A round is the second it started in; a run whose round number is the journal's last (two
    short runs within one second: here pinned with NEWSCRAWL_ROUND) takes the next one, so its
    fronts are fetched again. Before, the second run's front counted as seen."""
    GrowingFront.visible = GrowingFront.front_fetches = 0
    out, pinned = tmp_path / "out", f"NEWSCRAWL_ROUND={int(time.time())}"
    with serve(GrowingFront) as base:
        _crawl(base, out, "-s", pinned)
        _crawl(base, out, "-s", pinned)
    assert GrowingFront.front_fetches == 2
    assert _articles(jsonl_items(out)) == [f"/news/story-{n:05d}" for n in range(6)]
