"""Embedded resume: a crawl stopped early, run again into the same --out, fetches each page once;
the seen set and the journal's formats, the older one included."""

from __future__ import annotations

import base64
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import crawler.scheduling.seen as seen_module
from crawler.demo.server import DemoServer, load_site
from crawler.scheduling.resume import JOURNAL_FILE, read_journal
from crawler.scheduling.seen import SeenSet, from_hex
from tests.crawler.demo_helpers import Expected, jsonl_items, newscrawl, path_of, warc_responses

JOURNAL_V1 = Path(__file__).resolve().parents[1] / "fixtures" / "journal-v1"
JOURNAL_V1_PORT = 18517


@pytest.fixture(scope="module")
def demo_server():
    server = DemoServer(load_site()).start()
    yield server
    server.stop()


def _crawl(server: DemoServer, out: Path, *extra: str):
    depth = str(server.site.manifest["depth_limit"])
    result = newscrawl(
        "crawl", *server.seed_urls(), "--out", str(out), "--depth", depth, "--no-autothrottle",
        "--progress-interval", "0", "-s", "CONCURRENT_REQUESTS=2", *extra,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result


def test_a_rerun_into_the_same_out_resumes_and_fresh_starts_over(
    demo_server: DemoServer, tmp_path: Path
) -> None:
    expected = Expected(demo_server.site)
    out = tmp_path / "out"
    _crawl(demo_server, out, "--max-pages", "8")
    first = Counter(path for path, _ in warc_responses(out))
    assert 0 < sum(first.values()) < expected.pages_fetched
    assert (out / JOURNAL_FILE).exists()

    resumed = _crawl(demo_server, out)
    assert "resumed:" in resumed.stdout
    fetched = Counter(path for path, _ in warc_responses(out))
    # robots.txt is read again by every crawl process (the WARC now holds every exchange); the
    # first crawl was stopped with requests to do, so the rerun resumes its round: not even the
    # fronts (crawler/rounds.py) are fetched again
    again = [p for p, n in fetched.items() if n > 1 and p != "/robots.txt"]
    assert again == [], "a page was fetched again"
    assert expected.item_paths <= set(fetched) - {"/robots.txt"} <= expected.requested_paths
    items = Counter(path_of(item["url"]) for item in jsonl_items(out))
    assert set(items) == expected.item_paths and max(items.values()) == 1

    _crawl(demo_server, out, "--fresh", "--max-pages", "3")
    again = Counter(path for path, _ in warc_responses(out))
    assert sum(again.values()) > sum(fetched.values())  # --fresh fetched pages again


@pytest.fixture(scope="module")
def demo_server_v1():
    """The demo site on the port the older journals were written against (a fingerprint hashes
    the URL, port included)."""
    try:
        server = DemoServer(load_site(), port=JOURNAL_V1_PORT).start()
    except OSError as error:
        pytest.skip(f"port {JOURNAL_V1_PORT} of the journal-v1 fixtures is taken: {error}")
    yield server
    server.stop()


@pytest.mark.parametrize("run", ["run1", "run2"])
def test_the_older_journal_fixtures_are_read_whole(run: str) -> None:
    """The fast half of the migration check (the crawl below is slow): every fingerprint of an
    older journal, cut to 64 bits, is seen; its pending requests and its round are kept."""
    path = JOURNAL_V1 / run / JOURNAL_FILE
    entries = [json.loads(line) for line in path.read_text().splitlines()]
    old_fps = [e["fp"] for e in entries if e.get("fp")] + [fp for e in entries for fp in e.get("s", [])]
    done = {e["d"] for e in entries if "d" in e}
    queued = [e["r"] for e in entries if "q" in e and e["q"] not in done]
    pending, seen, fronts, crawl_round = read_journal(path)
    assert len(old_fps) > 10 and {len(fp) for fp in old_fps} == {40}
    assert all(from_hex(fp) in seen for fp in old_fps) and len(seen) == len(set(old_fps))
    assert pending == queued and pending  # stopped by --max-pages: work left
    assert crawl_round == entries[0]["round"] and fronts == {}


@pytest.mark.slow
@pytest.mark.parametrize("run", ["run1", "run2"])
def test_an_out_of_the_older_journal_format_resumes_without_fetching_again(
    demo_server_v1: DemoServer, tmp_path: Path, run: str
) -> None:
    """tests/fixtures/journal-v1: the journals the older code wrote (40-character hex fingerprints:
    in ``"fp"`` fields after one run, in an ``"s"`` line after a second), each run stopped by
    --max-pages, and what they fetched and wrote. The current code resumes them: nothing fetched
    or written again, the rest done, the journal rewritten in the 64-bit format. Slow: a crawl of
    12-15 s each."""
    fixture = JOURNAL_V1 / run
    old = json.loads((fixture / "crawled.json").read_text())
    out = tmp_path / "out"
    out.mkdir()
    demo_server = demo_server_v1
    journal = (fixture / JOURNAL_FILE).read_text()
    entries = [json.loads(line) for line in journal.splitlines()]
    old_fps = [entry.get("fp") or "" for entry in entries] + [fp for e in entries for fp in e.get("s", [])]
    assert old_fps and {len(fp) for fp in old_fps if fp} == {40}
    (out / JOURNAL_FILE).write_text(journal)

    resumed = _crawl(demo_server, out)
    assert "resumed:" in resumed.stdout
    fetched = Counter(path for path, _ in warc_responses(out))
    fetched.pop("/robots.txt", None)  # read again by every crawl process
    assert max(fetched.values()) == 1
    assert set(fetched) & set(old["fetched"]) == set(), "a page of the older run fetched again"
    expected = Expected(demo_server.site)
    items = Counter(path_of(item["url"]) for item in jsonl_items(out))
    assert set(items) & set(old["items"]) == set() and max(items.values()) == 1
    assert set(items) | set(old["items"]) == expected.item_paths

    lines = [json.loads(line) for line in (out / JOURNAL_FILE).read_text().splitlines()]
    assert not any("s" in entry for entry in lines) and any("s8" in entry for entry in lines)
    assert {len(entry["fp"]) for entry in lines if entry.get("fp")} <= {16}
    _, seen, _, _ = read_journal(out / JOURNAL_FILE)
    assert all(from_hex(fp) in seen for fp in old_fps if fp)


def test_the_journal_keeps_articles_and_the_last_two_rounds_fronts(tmp_path: Path) -> None:
    """read_journal over a journal of both formats: every article fingerprint (cut to 64 bits),
    the fronts of the last two rounds only, the pending requests."""
    path = tmp_path / JOURNAL_FILE
    articles = [(n * 0x9E3779B97F4A7C15) % 2**64 for n in range(1, 250_001)]
    packed = base64.b64encode(np.array(articles[:200_000], dtype=">u8").tobytes()).decode()
    lines = [
        {"round": 7},
        {"s": [f"{fp:016x}" + "ab" * 12 for fp in articles[200_000:200_010]]},  # the older format
        {"s8": packed},
        {"fr": 5, "f": ["00000000000000aa"]},
        {"fr": 6, "f": ["00000000000000bb"]},
        {"q": 1, "fp": f"{articles[-1]:016x}", "r": "{}"},
        {"q": 2, "fp": "00000000000000cc", "fr": 7, "r": "{}"},
        {"d": 2},
    ]
    with open(path, "w") as fh:
        fh.writelines(json.dumps(entry) + "\n" for entry in lines)
        fh.write('{"q": 3, "fp": "zz", "r": "{}"}\n{"s": ["0123"')  # a damaged entry, a cut line
    pending, seen, fronts, crawl_round = read_journal(path)
    assert crawl_round == 7 and pending == ["{}", "{}"]
    assert len(seen) == 200_011
    assert all(fp in seen for fp in articles[:200_010]) and articles[-1] in seen
    assert articles[200_010] not in seen and 0xAA not in seen
    assert fronts == {6: {0xBB}, 7: {0xCC}}


def test_the_journal_s_round_is_its_last_round_s(tmp_path: Path) -> None:
    """A run of several rounds (--rounds 2) writes its first round in the ``round`` line and the
    second's only in its fronts: the next run must take a round after the second, or, starting
    within the second round's second, it would find the front seen and not fetch it."""
    path = tmp_path / JOURNAL_FILE
    lines = [{"round": 100}, {"fr": 100, "f": ["00000000000000aa"]},
             {"q": 1, "fp": "00000000000000aa", "fr": 101, "r": "{}"}, {"d": 1}]  # fmt: skip
    path.write_text("".join(json.dumps(entry) + "\n" for entry in lines))
    assert read_journal(path)[3] == 101
    path.write_text(json.dumps({"fr": 9, "f": ["00000000000000aa"]}) + "\n")  # no round line
    assert read_journal(path)[3] == 9


def test_seen_set_is_exact_across_merges(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sorted array + recent set answers as a plain set would, through many merges."""
    monkeypatch.setattr(seen_module, "MIN_RECENT", 8)
    rng = np.random.default_rng(12)
    values = rng.integers(0, 2**64, size=5_000, dtype=np.uint64).tolist()
    seen, reference = SeenSet(), set()
    for fp in values + values[::3]:
        assert seen.add(fp) == (fp not in reference)
        reference.add(fp)
    assert len(seen) == len(reference) and seen.sorted().tolist() == sorted(reference)
    assert all(fp in seen for fp in values) and not any(fp + 1 in seen for fp in values[:500])
    assert seen.nbytes <= 8 * len(seen) + 70 * (len(seen) // seen_module.RECENT_SHARE + 9)


def test_the_journal_drops_generations_older_than_the_refetch_age(tmp_path: Path) -> None:
    """{"s8", "t"} lines: a generation that began more than the age (+ a generation) ago is not
    read back; a recent one is; lines with no time (the older format, pending requests) count as
    seen now. With no age, everything is kept."""
    path = tmp_path / JOURNAL_FILE
    now = 1_800_000_000.0
    day = 86400

    def s8(fps: list[int], started: float) -> dict:
        return {"s8": base64.b64encode(np.array(fps, dtype=">u8").tobytes()).decode(), "t": started}

    lines = [s8([1, 2], now - 40 * day), s8([3], now - 20 * day), s8([4], 0),
             {"s": ["0000000000000005" + "0" * 24]}, {"q": 1, "fp": "0000000000000006", "r": "{}"}]
    path.write_text("".join(json.dumps(entry) + "\n" for entry in lines))
    _, seen, _, _ = read_journal(path, age_days=30, now=now)
    assert sorted(fp for fp in range(8) if fp in seen) == [3, 4, 5, 6]
    _, seen, _, _ = read_journal(path, age_days=0, now=now)
    assert sorted(fp for fp in range(8) if fp in seen) == [1, 2, 3, 4, 5, 6]
