"""End to end: ``newscrawl demo`` crawls the bundled site with the full pipeline (one subprocess)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from crawler.demo.server import load_site
from tests.crawler.demo_helpers import (
    Expected,
    assert_articles_paired,
    jsonl_items,
    newscrawl,
    path_of,
)
from tests.crawler.replay import Replay


@pytest.fixture(scope="module")
def expected() -> Expected:
    return Expected(load_site())


@pytest.fixture(scope="module")
def demo_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo") / "output"
    result = newscrawl("demo", "--out", str(out), "--progress-interval", "0")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "pages fetched:" in result.stdout and "time taken:" in result.stdout
    assert "siblings:        used " in result.stdout
    return out


def test_summary_counts_match_the_manifest(demo_out: Path, expected: Expected) -> None:
    summary = json.loads((demo_out / "summary.json").read_text())
    assert summary["pages_fetched"] == expected.pages_fetched
    assert summary["items_written"] == len(expected.item_paths)
    assert sum(summary["page_types"].values()) == len(expected.item_paths)
    assert summary["finish_reason"] == "finished"


def test_each_page_is_parsed_once_and_siblings_are_reused(demo_out: Path) -> None:
    """The spider's parse reaches the extraction (no page parsed again), and an article's sibling,
    a page the crawl fetched, comes with the spider's parse of it."""
    summary = json.loads((demo_out / "summary.json").read_text())
    parse = summary["parse"]
    extracted = sum(summary["page_types"].values())
    assert parse.get("reused", 0) >= extracted > 0 and parse.get("again", 0) == 0
    # every sibling is a page this crawl fetched, so the spider's parse of it serves as the sibling:
    # none is parsed again (before, the stored sibling was parsed again for most articles)
    assert parse["siblings_reused"] > 0 and parse["siblings_parsed"] == 0
    assert parse["siblings_reused"] + parse["siblings_parsed"] <= summary["siblings"]["used"] + \
        sum(v for k, v in summary["siblings"].items() if k.startswith("none/"))


def test_every_item_matches_the_published_schema(demo_out: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema", reason="pip install -e '.[test]'")
    schema = json.loads((Path(__file__).parents[2] / "docs" / "item.schema.json").read_text())
    validator = jsonschema.Draft202012Validator(schema)
    items = jsonl_items(demo_out)
    assert items
    for item in items:
        errors = sorted(validator.iter_errors(item), key=lambda e: list(e.path))
        assert not errors, (item["url"], [f"{list(e.path)}: {e.message}"[:300] for e in errors])
    articles = [i for i in items if i["page_type"] == "article"]
    assert articles  # else the two checks below hold of nothing
    assert all(set(i["extraction"]["sources"]) <= {k for k, v in i.items() if v}
               for i in articles)
    assert sum(bool(i["published"]) for i in articles) >= len(articles) // 2


def test_bad_urls_show_up_with_their_reasons(demo_out: Path, expected: Expected) -> None:
    summary = json.loads((demo_out / "summary.json").read_text())
    assert Counter(summary["skipped"]) == expected.skipped


def test_items_are_the_html_pages_with_title_and_body(demo_out: Path, expected: Expected) -> None:
    items = jsonl_items(demo_out)
    paths = [path_of(item["url"]) for item in items]
    assert sorted(paths) == sorted(expected.item_paths)
    for item in items:
        assert item["title"], item["url"]
        assert item["template_key"].startswith("127.0.0.1/")
        if path_of(item["url"]) in expected.article_paths:
            assert item["route"] == "article" and len(item["body"]) > 200, item["url"]


def test_page_without_charset_header_is_decoded_from_its_meta(demo_out: Path) -> None:
    site = load_site()
    no_charset = [p for p, r in site.replies.items() if ("Content-Type", "text/html") in r.headers]
    assert len(no_charset) == 1
    item = next(i for i in jsonl_items(demo_out) if path_of(i["url"]) == no_charset[0])
    assert any("\u4e00" <= ch <= "\u9fff" for ch in item["title"])  # GBK page read as Chinese


def test_replay_from_the_index_gives_what_the_server_served(
    demo_out: Path, expected: Expected
) -> None:
    """Every URL the crawl requested (pages, robots.txt, the 404, the redirect loop, the binary
    and PDF replies) replays from the CDXJ index with the status and payload the server sent."""
    replay = Replay(demo_out / "warc")
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(jsonl_items(demo_out)[0]["url"]))
    indexed = [path_of(entry["url"]) for entry in replay.entries()]
    assert sorted(indexed) == sorted(expected.requested_paths)  # each exchange once, no other
    for path, served in expected.served.items():
        replayed = replay.replay(origin + path)
        assert replayed is not None, path
        assert (replayed.status, replayed.payload) == (served.status, served.body), path
        for name, value in served.headers:
            assert replayed.headers[name.lower()] == value, (path, name)


def test_replay_follows_the_redirects(demo_out: Path, expected: Expected) -> None:
    replay = Replay(demo_out / "warc")
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(jsonl_items(demo_out)[0]["url"]))
    redirects = sorted(p for p, reply in expected.served.items() if 300 <= reply.status < 400)
    assert redirects == ["/bad/loop-a", "/bad/loop-b"]
    chain = replay.follow(origin + "/bad/loop-a")
    hops = [(path_of(r.url), r.status) for r in chain]
    assert hops == [("/bad/loop-a", 302), ("/bad/loop-b", 302)]
    assert chain[-1].location == origin + "/bad/loop-a"  # the loop the crawl counted


def test_items_point_at_their_indexed_record(demo_out: Path, expected: Expected) -> None:
    replay = Replay(demo_out / "warc")
    items = jsonl_items(demo_out)
    assert len(items) == len(expected.item_paths)
    for item in items:
        entry = replay.lookup(item["url"])
        pointer = {"file": entry["filename"], "offset": int(entry["offset"]),
                   "length": int(entry["length"])}
        assert item["warc"] == pointer, item["url"]
        assert replay.replay(item["url"]).payload == expected.bodies[path_of(item["url"])]


def test_extract_warc_gives_the_crawls_items_again(demo_out: Path) -> None:
    warcs = sorted((demo_out / "warc").glob("*.warc.gz"))
    args = [arg for path in warcs for arg in ("--warc", str(path))]
    result = newscrawl("extract", *args)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert result.returncode == 1  # the demo's bad pages (binary, empty) are reported
    errors = sorted((path_of(line["url"]), line["reason"]) for line in lines if "error" in line)
    assert errors == [("/bad/binary.html", "not_html"), ("/bad/empty.html", "empty")]
    again = {line["url"]: line for line in lines if "error" not in line}
    items = jsonl_items(demo_out)
    assert set(again) == {item["url"] for item in items}
    for item in items:
        line = again[item["url"]]
        assert line["warc"] == item["warc"] and line["title"] == item["title"], item["url"]
        if item["page_type"] == "article":  # list pages: the crawl's routing and wrappers decide
            assert line["page_type"] == "article" and line["body"], item["url"]


def test_articles_are_paired_with_same_template_siblings(
    demo_out: Path, expected: Expected
) -> None:
    items = jsonl_items(demo_out)
    used = assert_articles_paired(items, expected.article_paths, expected.cjk_article_paths)
    summary = json.loads((demo_out / "summary.json").read_text())
    assert summary["siblings"]["used"] == used
    none = sum(v for k, v in summary["siblings"].items() if k.startswith("none/"))
    assert none == len(items) - used
    # the English articles were not paired (reason not_cjk) nor even stored as siblings: every
    # other page item that reached the pipeline was (the items and the empty page, dropped after)
    english = expected.article_paths - expected.cjk_article_paths
    assert summary["siblings"]["none/not_cjk"] == len(english)
    assert summary["siblings"]["stored"] == \
        len(items) + summary["skipped"].get("empty", 0) - len(english)


def test_section_pages_get_a_wrapper_and_their_records_are_the_articles(
    demo_out: Path, expected: Expected
) -> None:
    summary = json.loads((demo_out / "summary.json").read_text())
    wrappers = summary["wrappers"]
    assert wrappers.get("induced", 0) == 1 and "reinduced" not in wrappers
    lists = [i for i in jsonl_items(demo_out) if i["page_type"] == "list"]
    sections = [i for i in lists if path_of(i["url"]) in ("/news/", "/money/")]
    assert len(sections) == 2 and len({i["template_key"] for i in sections}) == 1
    for item in sections:
        paths = {path_of(r["url"]) for r in item["records"]}
        section = path_of(item["url"])
        assert paths == {p for p in expected.article_paths if p.startswith(section)}
        assert item["extraction"]["wrapper"]["notation"] == "html.body.ul(1)(li.a)[li]"
    (home,) = [i for i in lists if path_of(i["url"]) == "/"]
    requested = wrappers["records_requested"] + wrappers.get("record_duplicate", 0)
    assert requested == len(expected.article_paths) + len(home["records"])


def test_the_home_page_gets_records_from_a_wrapper_that_is_not_stored(demo_out: Path) -> None:
    # No other page has the home page's template: the single-page fallback gives its link list.
    summary = json.loads((demo_out / "summary.json").read_text())
    (home,) = [i for i in jsonl_items(demo_out) if i["page_type"] == "list"
               and path_of(i["url"]) == "/"]
    assert home["extraction"]["event"] == "single_page"
    assert home["extraction"]["method"] == "psnt_single"
    assert {"/news/", "/money/"} <= {path_of(r["url"]) for r in home["records"]}
    assert summary["wrappers"]["single_page"] == 1
    assert len(list((demo_out / "wrappers").glob("*.json"))) == 1  # the sections' wrapper only
