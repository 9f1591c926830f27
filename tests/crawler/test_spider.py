"""NewsSpider callbacks on real responses: page items, skip reasons, same-site links, errbacks."""

from __future__ import annotations

import doctest

import pytest
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse, Request, Response
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.utils.test import get_crawler
from twisted.python.failure import Failure

import crawler.failures
from crawler.demo.server import load_site
from crawler.spiders.news import RECORD_OF, RECORD_PRIORITY, NewsSpider, read_seeds
from pipelines.lists.record_board import RecordBoard
from tests.pipelines.helpers import run

BASE = "http://127.0.0.1:8000"


@pytest.fixture
def spider() -> NewsSpider:
    crawler = get_crawler(NewsSpider, {"NEWSCRAWL_MAX_PAGE_BYTES": 50_000})
    return NewsSpider.from_crawler(crawler, start_urls=f"{BASE}/")


def _stats(spider: NewsSpider) -> dict:
    return {k: v for k, v in spider.crawler.stats.get_stats().items() if k.startswith("newscrawl/")}


def _response(
    path: str,
    body: bytes,
    content_type: bytes = b"text/html; charset=utf-8",
    cls: type[Response] = HtmlResponse,
) -> Response:
    request = Request(BASE + path, headers={"Referer": BASE + "/"}, meta={"depth": 1})
    return cls(BASE + path, body=body, headers={"Content-Type": content_type}, request=request)


def parse_all(spider: NewsSpider, response: Response) -> list:
    """Everything ``spider.parse`` yields for ``response`` (its link scan in a worker thread)."""

    async def drain() -> list:
        return [out async for out in spider.parse(response)]

    return run(drain())


def test_index_page_gives_a_page_item_and_same_site_requests(spider: NewsSpider) -> None:
    body = load_site().replies["/news/"].body + b'<a href="https://elsewhere.example/x">x</a>'
    out = parse_all(spider, _response("/news/", body))
    sibling, item, requests = out[0], out[1], out[2:]
    assert sibling.url == BASE + "/money/" and sibling.priority == 100  # the other section
    assert item["kind"] == "page" and item["route"] == "list" and item["body"] == body
    assert item["template_key"] == "127.0.0.1/<w>/" and item["depth"] == 1  # a list template
    assert item["sibling_link"] == BASE + "/money/"
    assert item["referer"] == BASE + "/" and item["response_headers"]["Content-Type"]
    articles = [r for r in requests if r.url.startswith(BASE + "/news/") and r.url[-1] != "/"]
    assert len(articles) == 15 and {r.url for r in requests} - {r.url for r in articles} == {
        BASE + "/",
        BASE + "/news/",
    }
    assert _stats(spider) == {"newscrawl/pages_fetched": 1, "newscrawl/siblings/requested": 1}


def test_a_page_at_the_depth_limit_yields_its_item_and_no_link_requests() -> None:
    """Its links would be dropped by Scrapy's depth middleware: they are not built (the crawl bench
    built 14 800 such requests for 248 pages)."""
    body = load_site().replies["/news/"].body
    crawler = get_crawler(NewsSpider, {"NEWSCRAWL_MAX_PAGE_BYTES": 50_000, "DEPTH_LIMIT": 1})
    limited = NewsSpider.from_crawler(crawler, start_urls=f"{BASE}/")
    out = parse_all(limited, _response("/news/", body))  # depth 1: at the limit
    assert [o for o in out if isinstance(o, Request)] == []
    assert len(out) == 1 and out[0]["kind"] == "page"
    front = _response("/news/", body).replace(request=Request(BASE + "/news/", meta={"depth": 0}))
    below = parse_all(limited, front)
    assert len([o for o in below if isinstance(o, Request)]) == 18  # sibling + 17 links


@pytest.mark.parametrize(
    ("body", "content_type", "reason"),
    [
        (b"%PDF-1.4 ...", b"application/pdf", "not_html"),
        (b"", b"text/html", "empty"),
        (b"<p>" + b"x" * 60_000, b"text/html", "too_large"),
    ],
)
def test_responses_that_are_not_pages_are_counted(
    spider: NewsSpider, body: bytes, content_type: bytes, reason: str
) -> None:
    assert parse_all(spider, _response("/doc", body, content_type, cls=Response)) == []
    assert _stats(spider)[f"newscrawl/skipped/{reason}"] == 1


@pytest.mark.parametrize(
    ("error", "reason"),
    [
        (IgnoreRequest("Forbidden by robots.txt"), "robots"),
        (IgnoreRequest("max redirections reached"), "redirect_loop"),
        (TimeoutError(), "timeout"),
    ],
)
def test_errback_counts_reasons(spider: NewsSpider, error: Exception, reason: str) -> None:
    failure = Failure(error)
    failure.request = Request(BASE + "/x")
    spider.on_error(failure)
    assert _stats(spider) == {f"newscrawl/skipped/{reason}": 1}


def test_http_errors_are_counted_by_status(spider: NewsSpider) -> None:
    spider.on_error(Failure(HttpError(_response("/gone", b"", cls=Response).replace(status=410))))
    assert _stats(spider) == {"newscrawl/skipped/http_410": 1}


def test_a_redirect_back_into_its_own_chain_is_a_loop(spider: NewsSpider) -> None:
    looping = Request(BASE + "/a", meta={"redirect_urls": [BASE + "/a", BASE + "/b"]})
    spider.on_request_dropped(looping, spider)
    spider.on_request_dropped(Request(BASE + "/c", meta={"redirect_urls": [BASE + "/d"]}), spider)
    assert _stats(spider) == {"newscrawl/skipped/redirect_loop": 1}


def test_seeds_text() -> None:
    assert read_seeds("http://a/ http://b/,http://c/\n# x\nhttp://d/ # note") == [
        "http://a/",
        "http://b/",
        "http://c/",
        "http://d/",
    ]


def test_failure_docstring_examples_hold() -> None:
    result = doctest.testmod(crawler.failures)
    assert result.attempted > 0 and result.failed == 0


def test_no_remote_code_execution_surfaces_are_enabled() -> None:
    from crawler.runner import project_settings

    settings = project_settings({})
    assert not settings.getbool("TELNETCONSOLE_ENABLED")
    assert not settings.getbool("REMOTE_CONTROL_ENABLED")
    assert settings.getbool("ROBOTSTXT_OBEY") and settings.getbool("AUTOTHROTTLE_ENABLED")
    assert settings.getint("DOWNLOAD_MAXSIZE") == settings.getint("NEWSCRAWL_MAX_PAGE_BYTES")


def test_list_page_requests_its_records_first_once_the_pipeline_found_them() -> None:
    crawler = get_crawler(
        NewsSpider, {"ITEM_PIPELINES": {"pipelines.extract.ExtractPipeline": 200}}
    )
    spider = NewsSpider.from_crawler(crawler, start_urls=f"{BASE}/")
    # No engine runs here, so the spider cannot look the pipeline's board up
    # (crawler.get_item_pipeline needs one; the real crawls of test_list_crawl do): it is given one.
    spider._record_board = board = RecordBoard()
    body = load_site().replies["/news/"].body
    output = spider.parse(_response("/news/", body))
    records = [f"{BASE}/news/health-38312995", "https://elsewhere.example/x", f"{BASE}/news/x-y"]

    async def drain() -> list:
        found = []
        async for out in output:
            found.append(out)
            if isinstance(out, dict):  # the item is out: the pipeline answers now
                assert board.publish(BASE + "/news/", records)
        return found

    out = run(drain())  # a private loop (tests.pipelines.helpers.run)
    sibling, item, requests = out[0], out[1], out[2:]
    assert sibling.url == BASE + "/money/" and item["route"] == "list"
    first, second = requests[0], requests[1]  # the off-site record is not requested
    assert [first.url, second.url] == [records[0], records[2]]
    assert first.priority == second.priority == RECORD_PRIORITY
    assert first.meta[RECORD_OF] == BASE + "/news/"
    rest = requests[2:]  # 15 articles but the health story, "/", "/news/"; not the sibling again
    assert len(rest) == 16 and all(r.priority == 0 for r in rest)
    assert records[0] not in {r.url for r in rest}
    assert _stats(spider)["newscrawl/wrappers/records_requested"] == 2
