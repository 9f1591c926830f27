"""LeaseTracker + RequestDoneMiddleware: every path a request can take ends in exactly one "done".

Driven with real Scrapy requests, responses and signals of a real crawler, without a crawl (the
distributed and resume crawl tests cover the same paths end to end against the demo site).
"""

from __future__ import annotations

import pytest
from scrapy import Request, signals
from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler

from crawler.scheduling.tracker import LEASE_META, RequestDoneMiddleware, lease_tracker


@pytest.fixture
def setup():
    crawler = get_crawler(settings_dict={})
    middleware = RequestDoneMiddleware.from_crawler(crawler)
    tracker = lease_tracker(crawler)
    done: list[tuple[str, str]] = []
    tracker.on_done = lambda handle, how: done.append((handle, how))
    return crawler, middleware, tracker, done


def _taken(tracker, url: str = "http://a.example/x") -> tuple[Request, HtmlResponse]:
    request = Request(url)
    tracker.take(request, url)
    return request, HtmlResponse(url, body=b"<html></html>", request=request)


def test_a_page_is_done_when_its_output_ended_and_its_items_left_the_pipelines(setup) -> None:
    crawler, middleware, tracker, done = setup
    _, response = _taken(tracker)
    output = [{"kind": "page"}, Request("http://a.example/link"), {"kind": "other"}]
    assert list(middleware.process_spider_output(response, iter(output))) == output
    assert done == []  # two items still in the pipelines
    crawler.signals.send_catch_log(signals.item_scraped, item={}, response=response, spider=None)
    assert done == []
    crawler.signals.send_catch_log(
        signals.item_dropped, item={}, response=response, exception=None, spider=None
    )
    assert done == [("http://a.example/x", "done")] and len(tracker) == 0


def test_items_finishing_before_the_output_ends_wait_for_it(setup) -> None:
    crawler, middleware, tracker, done = setup
    _, response = _taken(tracker)

    def callback_output():
        yield {"kind": "page"}
        crawler.signals.send_catch_log(
            signals.item_error, item={}, response=response, failure=None, spider=None
        )
        assert done == []  # links may still come
        yield Request("http://a.example/later")

    list(middleware.process_spider_output(response, callback_output()))
    assert done == [("http://a.example/x", "done")]


def test_a_callback_error_a_failed_download_and_a_redirect_each_end_their_request(setup) -> None:
    _, middleware, tracker, done = setup
    _, raised = _taken(tracker, "http://a.example/raises")
    middleware.process_spider_exception(raised, ValueError("bug"))
    failed, _ = _taken(tracker, "http://a.example/timeout")
    middleware.process_exception(failed, TimeoutError())
    redirected, _ = _taken(tracker, "http://a.example/old")
    target = redirected.replace(url="http://a.example/new")  # what RedirectMiddleware makes
    tracker.hand_over(target.meta.pop(LEASE_META, None))  # as the scheduler does when queuing it
    assert done == [
        ("http://a.example/raises", "done"),
        ("http://a.example/timeout", "failed"),
        ("http://a.example/old", "handed_over"),
    ]
    assert LEASE_META not in target.meta and len(tracker) == 0


def test_requests_not_taken_from_the_queue_are_ignored(setup) -> None:
    _, middleware, tracker, done = setup
    robots = Request("http://a.example/robots.txt")  # fetched by a middleware, never scheduled
    middleware.process_exception(robots, TimeoutError())
    response = HtmlResponse(robots.url, body=b"", request=robots)
    list(middleware.process_spider_output(response, iter([{"kind": "page"}])))
    tracker.hand_over(None)
    assert done == []
