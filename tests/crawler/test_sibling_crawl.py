"""Real crawls where the sibling never comes: the held article is written, with the reason, on time.

A small HTTP server serves Chinese articles (the crawl pairs CJK articles only, see
``extractors/script.py``): ``/a/first-story`` links to ``/a/second-story``, which answers only
after ``SLOW_S`` seconds; ``/b/alpha-one`` links to ``/b/beta-two``, which is a 404;
``/c/gamma-one`` links to ``/c/delta-two``, which answers after ``LATE_S`` seconds. And an English
one, ``/e/english-one``, linking to ``/e/english-two``, which answers after ``SLOW_S`` seconds.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.crawler.demo_helpers import jsonl_items, newscrawl, path_of
from tests.crawler.http_helpers import PageHandler, serve

SLOW_S = 8.0
#: The late sibling's answer and the close of the crawl around it: the close must come while the
#: sibling is downloading, so after its request is sent. At 4 s and a 2 s close the test failed on
#: a machine at load 7, the crawl's start-up and first extraction taking past 2 s; 8 s and a 4 s
#: close leave the request 4 s to go out.
LATE_S = 8.0
LATE_CLOSE_S = 4
TEXT = "".join(
    f"<p>第{n}段：这是一篇足够长的新闻报道，讲述城市里发生的事情，可以作为页面的正文。</p>"
    for n in range(8)
)
ENGLISH = "".join(
    f"<p>Paragraph {n} of a story long enough to be the body of the page.</p>" for n in range(8)
)


def article(title: str, link: str, text: str = TEXT) -> bytes:
    return (
        f"<html><head><meta charset='utf-8'><title>{title}</title></head><body><nav><a href='/'>Home</a></nav>"
        f"<div><h1>{title}</h1>{text}</div><aside><a href='{link}'>More</a></aside></body></html>"
    ).encode()


PAGES = {
    "/a/first-story": article("First story", "/a/second-story"),
    "/b/alpha-one": article("Alpha one", "/b/beta-two"),
    "/c/gamma-one": article("Gamma one", "/c/delta-two"),
    "/c/delta-two": article("Delta two", "/c/gamma-one", TEXT.replace("新闻报道", "经济报告")),
    "/e/english-one": article("English one", "/e/english-two", ENGLISH),
    "/e/english-two": article("English two", "/", ENGLISH.replace("story", "report")),
}


class Handler(PageHandler):
    def page(self, path: str) -> bytes | None:
        if path in ("/a/second-story", "/e/english-two"):
            time.sleep(SLOW_S)
        elif path == "/c/delta-two":
            time.sleep(LATE_S)
        return PAGES.get(path)


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve(Handler) as url:
        yield url


def crawl(url: str, out: Path, *settings: str) -> tuple[dict, dict, float]:
    started = time.monotonic()
    result = newscrawl(
        "crawl",
        url,
        "--out",
        str(out),
        "--no-autothrottle",
        "--progress-interval",
        "0",
        *[a for s in settings for a in ("-s", s)],
    )
    elapsed = time.monotonic() - started
    assert result.returncode == 0, result.stdout + result.stderr
    (item,) = [i for i in jsonl_items(out) if path_of(i["url"]) == path_of(url)]
    return item, json.loads((out / "summary.json").read_text()), elapsed


#: The project's asyncio reactor (timer: asyncio task) and a plain Twisted one (LoopingCall).
REACTORS = [
    "twisted.internet.asyncioreactor.AsyncioSelectorReactor",
    "twisted.internet.selectreactor.SelectReactor",
]


@pytest.mark.parametrize("reactor", REACTORS, ids=["asyncio", "select"])
def test_sibling_that_404s_ends_the_hold_after_the_wait(
    site: str, tmp_path: Path, reactor: str
) -> None:
    item, summary, _ = crawl(
        f"{site}/b/alpha-one",
        tmp_path / "out",
        "NEWSCRAWL_SIBLING_WAIT=1",
        f"TWISTED_REACTOR={reactor}",
    )
    assert item["extraction"]["sibling"] == {
        "url": None,
        "used": False,
        "reason": "no sibling arrived within 1 s",
    }
    assert item["body"] and item["warc"]["file"]
    assert summary["siblings"]["requested"] == 1 and summary["siblings"]["held_timeout"] == 1
    assert summary["skipped"] == {"http_404": 2}  # the sibling and the home link "/"


def test_page_held_when_the_crawl_closes_is_written_at_once(site: str, tmp_path: Path) -> None:
    item, summary, elapsed = crawl(
        f"{site}/a/first-story",
        tmp_path / "out",
        "NEWSCRAWL_SIBLING_WAIT=60",
        "CLOSESPIDER_TIMEOUT=2",
        "DOWNLOAD_TIMEOUT=4",
    )
    assert item["extraction"]["sibling"] == {
        "url": None,
        "used": False,
        "reason": "crawl closed before a sibling arrived",
    }
    assert item["body"] and item["warc"]["file"]
    assert summary["finish_reason"] == "closespider_timeout"
    assert summary["siblings"]["held_closed"] == 1
    assert elapsed < SLOW_S + 5  # not the 60 s wait


# 9-13 s (an 8 s download past a 4 s close, in a subprocess crawl): out of the default run (CI
# budget); the close path itself stays covered there by the test above
@pytest.mark.slow
def test_a_sibling_downloading_when_the_crawl_closes_is_still_paired(
    site: str, tmp_path: Path
) -> None:
    """The close starts (4 s) while the sibling is downloading (answers at 8 s): the engine waits
    for that download anyway, so the held page waits for it too and is extracted against it."""
    item, summary, elapsed = crawl(
        f"{site}/c/gamma-one",
        tmp_path / "out",
        "NEWSCRAWL_SIBLING_WAIT=60",
        f"CLOSESPIDER_TIMEOUT={LATE_CLOSE_S}",
        f"DOWNLOAD_TIMEOUT={LATE_S + 4:g}",
    )
    assert summary["finish_reason"] == "closespider_timeout"
    assert item["extraction"]["sibling"]["used"] is True, item["extraction"]["sibling"]
    assert path_of(item["extraction"]["sibling"]["url"]) == "/c/delta-two"
    assert summary["siblings"]["held_paired"] == 1 and not summary["siblings"].get("held_closed")
    assert elapsed < LATE_S + 10  # not the 60 s wait


def test_english_article_is_not_held_and_requests_no_sibling(site: str, tmp_path: Path) -> None:
    """Its text is not CJK: no sibling link, no sibling request, no hold (the 60 s wait would
    show), the reason in the item and the stats; its link is still crawled, as any link."""
    item, summary, elapsed = crawl(
        f"{site}/e/english-one", tmp_path / "out", "NEWSCRAWL_SIBLING_WAIT=60"
    )
    assert item["extraction"]["sibling"] == {"url": None, "used": False, "reason": "not_cjk"}
    assert item["body"] and item["extraction"]["method"] == "attenuation"
    siblings = summary["siblings"]
    assert "requested" not in siblings and "held" not in siblings and "stored" not in siblings
    assert siblings["none/not_cjk"] == 2  # both English pages
    assert elapsed < SLOW_S + 20
