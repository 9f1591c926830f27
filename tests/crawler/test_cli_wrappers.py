"""`newscrawl wrappers add/list` end to end: a wrapper induced offline (`newscrawl induce -o`) on
the real ifixit.com list pair (wcxb_dev, CC-BY-4.0, tests/fixtures/psnt/SOURCES.md) goes into a
crawl's store (a folder, or a real Redis server), is listed, and a real embedded crawl then
applies it without inducing one (the local site of test_list_crawl, serving the same two
pages)."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest
import redis

import crawler.commands.wrappers
from pipelines.lists.wrapper_store import RedisWrapperStore
from tests.crawler.demo_helpers import jsonl_items, newscrawl
from tests.crawler.test_list_crawl import crawl, gold_paths, site  # noqa: F401 (site: a fixture)

PAIR = Path(__file__).resolve().parents[1] / "fixtures" / "psnt"
FIRST, SECOND = PAIR / "wcxb_dev-0651.html", PAIR / "wcxb_dev-0652.html"
URLS = ("https://www.ifixit.com/Parts", "https://www.ifixit.com/Parts/iPhone")


@pytest.fixture(scope="module")
def wrapper_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("induced") / "wrapper.json"
    induced = newscrawl("induce", str(FIRST), str(SECOND), "--url", URLS[0], "--url", URLS[1],
                        "-o", str(out))
    assert induced.returncode == 0, induced.stderr
    return out


def listed(*store: str) -> list[dict]:
    result = newscrawl("wrappers", "list", "--json", *store)
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_doctests() -> None:
    result = doctest.testmod(crawler.commands.wrappers)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.slow  # 14-20 s of crawling: out of the default run (CI budget)
def test_an_added_wrapper_is_listed_and_applied_by_the_next_crawl(
    wrapper_file: Path, site: str, tmp_path: Path  # noqa: F811
) -> None:
    out = tmp_path / "out"
    added = newscrawl("wrappers", "add", str(wrapper_file), "--url", f"{site}/Parts?p=1",
                      "--out", str(out))
    assert added.returncode == 0, added.stderr
    key = added.stdout.strip()
    assert key == "127.0.0.1/<w>?p=<n1>"
    notation = json.loads(wrapper_file.read_text(encoding="utf-8"))["notation"]
    (line,) = newscrawl("wrappers", "list", "--out", str(out)).stdout.splitlines()
    assert line.split("\t") == [key, notation, f"induced from {URLS[0]} {URLS[1]}",
                                line.split("\t")[3], "matched 0", "last records -"]

    _, summary, _ = crawl(site, out)
    assert "induced" not in summary["wrappers"] and summary["wrappers"]["applied"] == 2
    (first,) = [i for i in jsonl_items(out) if i["url"].endswith("/Parts?p=1")]
    assert [r["url"] for r in first["records"]] == [site + p for p in gold_paths(FIRST.name)]
    assert first["extraction"]["event"] == "applied"
    assert first["extraction"]["wrapper"]["induced_from"] == list(URLS)
    (stored,) = listed("--out", str(out))
    assert stored["key"] == key and stored["matched"] == 2 and stored["history"][0] == 24


def test_the_key_defaults_to_the_wrappers_first_source(wrapper_file: Path, tmp_path: Path) -> None:
    added = newscrawl("wrappers", "add", str(wrapper_file), "--out", str(tmp_path))
    assert added.returncode == 0, added.stderr
    assert added.stdout.strip() == "ifixit.com/<w>"
    assert "its other source URL has the key ifixit.com/Parts/<w>" in added.stderr
    (stored,) = listed("--out", str(tmp_path))
    assert stored["key"] == "ifixit.com/<w>" and stored["wrapper"]["sources"] == list(URLS)


def test_add_and_list_on_redis(wrapper_file: Path, redis_server: str) -> None:
    url = redis_server.rsplit("/", 1)[0] + "/7"  # a database of its own in the shared server
    for page in ("https://a.org/news/", "https://a.org/Parts?p=3"):
        added = newscrawl("wrappers", "add", str(wrapper_file), "--url", page, "--redis", url)
        assert added.returncode == 0, added.stderr
    again = newscrawl("wrappers", "add", str(wrapper_file), "--url", page, "--redis", url)
    assert "replaced" in again.stderr
    stored = listed("--redis", url)
    assert [s["key"] for s in stored] == ["a.org/<w>/", "a.org/<w>?p=<n1>"]
    notation = json.loads(wrapper_file.read_text(encoding="utf-8"))["notation"]
    assert {s["notation"] for s in stored} == {notation}
    client = redis.Redis.from_url(url)
    try:  # where a distributed crawl's store looks it up
        assert RedisWrapperStore(client).get("a.org/<w>/").notation == notation
    finally:
        client.close()


def test_bad_input_exits_2_with_the_reason(wrapper_file: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "newscrawl/psnt-wrapper", "version": 7}', encoding="utf-8")
    result = newscrawl("wrappers", "add", str(bad), "--out", str(tmp_path))
    assert result.returncode == 2
    assert "unsupported wrapper version 7" in result.stderr and str(bad) in result.stderr

    data = json.loads(wrapper_file.read_text(encoding="utf-8"))
    unsourced = tmp_path / "unsourced.json"
    unsourced.write_text(json.dumps({**data, "sources": [None, None]}), encoding="utf-8")
    result = newscrawl("wrappers", "add", str(unsourced), "--out", str(tmp_path))
    assert result.returncode == 2 and "records no source URL" in result.stderr
    result = newscrawl("wrappers", "add", str(wrapper_file), "--url", "Parts?p=1")
    assert result.returncode == 2 and "not an http(s) URL" in result.stderr

    result = newscrawl("wrappers", "list", "--redis", "redis://127.0.0.1:1/0")
    assert result.returncode == 2 and "newscrawl: error:" in result.stderr
    assert not list(tmp_path.glob("wrappers/*.json"))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested deeper than"),
        ('{"format": "newscrawl/psnt-wrapper", "version": 1, "main_structure": {"count": 1e999}}',
         "not finite"),
    ],
    # short ids: pytest puts the test id in $PYTEST_CURRENT_TEST, and a 200 000-character one
    # makes the environment too large for the CLI subprocess (E2BIG)
    ids=["nested_100000_deep", "infinite_number"],
)
@pytest.mark.parametrize("command", [("apply",), ("wrappers", "add")], ids=["apply", "wrappers_add"])
def test_a_hostile_wrapper_file_is_a_clear_error_not_a_traceback(
    tmp_path: Path, text: str, why: str, command: tuple[str, ...]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    extra = [str(FIRST)] if command == ("apply",) else ["--out", str(tmp_path / "out")]
    result = newscrawl(*command, str(bad), *extra)
    assert result.returncode == 2
    assert why in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
