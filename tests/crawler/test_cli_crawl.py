"""`newscrawl crawl` against the demo site served in-process: limits, seeds file, progress line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crawler.demo.server import DemoServer, load_site
from tests.crawler.demo_helpers import closed_port, jsonl_items, newscrawl, path_of


@pytest.fixture(scope="module")
def demo_server():
    server = DemoServer(load_site()).start()
    yield server
    server.stop()


def test_depth_one_from_a_seeds_file_with_progress(demo_server: DemoServer, tmp_path: Path) -> None:
    seeds = tmp_path / "seeds.txt"
    seeds.write_text(f"# demo\n{demo_server.base_url}/\n")
    out = tmp_path / "out"
    result = newscrawl(
        "crawl",
        "--seeds",
        str(seeds),
        "--out",
        str(out),
        "--depth",
        "1",
        "--no-autothrottle",
        "--progress-interval",
        "0.2",
        "-s",
        "DOWNLOAD_DELAY=0.1",
    )
    assert result.returncode == 0, result.stderr
    assert "[newscrawl]" in result.stderr and "pages fetched" in result.stderr
    items = {path_of(i["url"]) for i in jsonl_items(out)}
    entries = load_site().manifest["entries"]
    index_paths = {e["path"] for e in entries if e["kind"] == "index"}
    assert items == index_paths  # the section pages at depth 1, none of the articles behind them
    summary = json.loads((out / "summary.json").read_text())
    assert summary["items_written"] == len(index_paths)


def test_max_pages_stops_the_crawl(demo_server: DemoServer, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = newscrawl(
        "crawl",
        f"{demo_server.base_url}/",
        "--out",
        str(out),
        "--max-pages",
        "5",
        "--no-autothrottle",
        "--progress-interval",
        "0",
        "-s",
        "CONCURRENT_REQUESTS=1",
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["finish_reason"] == "closespider_pagecount"
    assert summary["pages_fetched"] < len(load_site().manifest["entries"]) // 2


def test_no_seeds_is_a_usage_error(tmp_path: Path) -> None:
    result = newscrawl("crawl", "--out", str(tmp_path))
    assert result.returncode == 2 and "no seed URLs" in result.stderr


def test_oversize_pages_and_refused_connections_are_counted(
    demo_server: DemoServer, tmp_path: Path
) -> None:
    limit = 150_000
    site = load_site()
    pages = {e["path"] for e in site.manifest["entries"] if e["kind"] in ("index", "article")}
    too_large = {p for p in pages if len(site.replies[p].body) > limit}
    assert 0 < len(too_large) < len(pages)
    out = tmp_path / "out"
    refused = f"http://127.0.0.1:{closed_port()}/"
    depth = str(site.manifest["depth_limit"])
    result = newscrawl(
        "crawl", f"{demo_server.base_url}/", refused, "--out", str(out), "--depth", depth,
        "--no-autothrottle", "--progress-interval", "0", "-s", f"NEWSCRAWL_MAX_PAGE_BYTES={limit}",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["skipped"]["too_large"] == len(too_large)
    assert summary["skipped"]["connection_refused"] == 1
    assert {path_of(i["url"]) for i in jsonl_items(out)} == pages - too_large


@pytest.mark.parametrize("command", [["crawl"], ["seed", "--redis", "redis://127.0.0.1:1/0"]])
def test_unreadable_seeds_file_is_a_usage_error(command: list[str], tmp_path: Path) -> None:
    missing = tmp_path / "no-such-seeds.txt"
    result = newscrawl(*command, "--seeds", str(missing))
    assert result.returncode == 2
    assert f"cannot read --seeds {missing}" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("seed", "why"),
    [("example.com", "did you mean http://example.com/"), ("ftp://example.com/", "scheme 'ftp'"),
     ("http://example.com:99999/", "bad port")],
    ids=["no_scheme", "ftp", "bad_port"],
)
@pytest.mark.parametrize("command", [["crawl"], ["seed", "--redis", "redis://127.0.0.1:1/0"]],
                         ids=["crawl", "seed"])  # fmt: skip
def test_an_invalid_seed_is_a_usage_error(command: list[str], seed: str, why: str) -> None:
    result = newscrawl(*command, "http://example.com/", seed)
    assert result.returncode == 2
    assert f"invalid seed {seed!r}" in result.stderr and why in result.stderr
    assert "Traceback" not in result.stderr


def test_a_crawl_that_fetched_nothing_exits_4(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = newscrawl("crawl", f"http://127.0.0.1:{closed_port()}/", "--out", str(out),
                       "--progress-interval", "0")  # fmt: skip
    assert result.returncode == 4, result.stderr
    error = result.stderr.strip().splitlines()[-1]
    assert error.startswith("newscrawl: error: no page could be fetched (")
    assert "ConnectionRefusedError" in error
    summary = json.loads((out / "summary.json").read_text())
    assert summary["items_written"] == 0 and summary["download_errors"]


def test_version() -> None:
    result = newscrawl("--version")
    assert result.returncode == 0 and result.stdout.startswith("newscrawl ")


@pytest.mark.parametrize("name", ["crawler.commands", "crawler.commands.crawl"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
