"""The JSON request serializer used for the shared Redis queue: exact round-trip, never pickle."""

from __future__ import annotations

import pytest
from scrapy import Request, Spider
from scrapy.utils.request import request_from_dict

from crawler.serializers import json_request
from crawler.serializers.json_request import RejectedRequest, loads


class _Spider(Spider):
    name = "t"

    def parse(self, response):  # pragma: no cover - only named by the request
        return None

    def on_error(self, failure):  # pragma: no cover
        return None


def _request(spider: _Spider) -> Request:
    return Request(
        "https://example.com/p?q=1",
        method="POST",
        body=b"\x00\x80\x04\xff\xfebody",
        headers={"X-Raw": b"\xe9t\xe9", "Accept": ["text/html", "*/*"]},
        cookies={"sid": "abc"},
        callback=spider.parse,
        errback=spider.on_error,
        priority=-3,
        meta={
            "depth": 2,
            "redirect_urls": ["https://example.com/a"],
            "blob": b"\x80\x05x",
            "pair": (1, "two"),
            "nested": {"__bytes__": "not a tag", 3: "int key"},
        },
        cb_kwargs={"k": [1, 2]},
        dont_filter=True,
        flags=["f"],
    )


def _roundtrip(request: Request, spider: _Spider) -> Request:
    encoded = json_request.dumps(request.to_dict(spider=spider))
    return request_from_dict(json_request.loads(encoded), spider=spider)


def test_real_request_round_trips_exactly() -> None:
    spider = _Spider()
    original = _request(spider)
    copy = _roundtrip(original, spider)
    assert copy.to_dict(spider=spider) == original.to_dict(spider=spider)
    assert copy.body == original.body
    assert copy.headers.getlist("X-Raw") == [b"\xe9t\xe9"]
    assert copy.meta["blob"] == b"\x80\x05x" and copy.meta["pair"] == (1, "two")
    assert copy.meta["nested"] == {"__bytes__": "not a tag", 3: "int key"}
    assert copy.callback == spider.parse and copy.errback == spider.on_error


def test_encoding_is_json_text_without_pickle_opcodes() -> None:
    spider = _Spider()
    encoded = json_request.dumps(_request(spider).to_dict(spider=spider))
    encoded.decode("utf-8")  # plain UTF-8 JSON
    assert encoded.startswith(b"{")
    for protocol in range(2, 6):
        assert b"\x80" + bytes([protocol]) not in encoded


def test_values_json_cannot_hold_are_refused_by_name() -> None:
    with pytest.raises(TypeError, match="object"):
        json_request.dumps({"meta": {"x": object()}})


@pytest.mark.parametrize(
    "entry",
    [
        b'{"url": "http://a.org/", "_class": "os.system"}',
        b'{"url": "http://a.org/", "_class": "tests.crawler.poison_marker.Boom"}',
        b'{"url": "http://a.org/", "callback": "close"}',
        b'{"url": "http://a.org/", "errback": "__init__"}',
        b'{"url": "file:///etc/passwd"}',
        b'{"url": "http://a.org/", "priority": 1e999}',
        b'{"url": "http://a.org/", "priority": true}',
        b'{"url": "http://a.org/", "method": ["GET"]}',
        b'{"url": "http://a.org/", "sneaky": 1}',
        b'{"url": "http://a.org/", "body": {"__bytes__": 5}}',
        b"[" * 100_000,
        b"\x80\x04\x95",
    ],
)
def test_entries_it_did_not_write_are_rejected(entry: bytes) -> None:
    with pytest.raises(RejectedRequest):
        loads(entry)


def test_a_plain_request_class_name_is_accepted_and_dropped() -> None:
    loaded = loads(b'{"url": "http://a.org/", "_class": "scrapy.http.request.Request"}')
    assert loaded == {"url": "http://a.org/"}


def test_request_dict_is_to_dict_for_the_requests_of_a_real_page(monkeypatch) -> None:
    """``request_dict`` gives ``Request.to_dict``'s dict (and JSON text) for every request the
    news spider yields for the demo site's section page (its sibling, its links), and for the
    made-up request above; it searches the spider's methods once per callback function, where
    ``to_dict`` searched them twice for every request."""
    from scrapy.utils.test import get_crawler

    from crawler.demo.server import load_site
    from crawler.spiders.news import NewsSpider
    from tests.crawler.test_spider import BASE, _response, parse_all

    spider = NewsSpider.from_crawler(get_crawler(NewsSpider), start_urls=f"{BASE}/")
    requests = [out for out in parse_all(spider, _response("/news/", load_site().replies[
        "/news/"].body)) if isinstance(out, Request)]
    assert len(requests) >= 15
    expected = [request.to_dict(spider=spider) for request in requests]
    searches = []
    getmembers = json_request.inspect.getmembers
    monkeypatch.setattr(json_request.inspect, "getmembers",
                        lambda *args, **kwargs: searches.append(1) or getmembers(*args, **kwargs))
    made = [json_request.request_dict(request, spider) for request in requests]
    assert made == expected
    assert [json_request.dumps(d) for d in made] == [json_request.dumps(d) for d in expected]
    assert len(searches) == 2  # parse and on_error, once each
    other = _Spider()
    assert json_request.request_dict(_request(other), other) == _request(other).to_dict(
        spider=other)


def test_request_dict_of_a_callback_that_is_no_method_of_the_spider_raises_as_to_dict() -> None:
    spider, other = _Spider(), _Spider()
    foreign = Request("https://example.com/", callback=lambda response: None)
    with pytest.raises(ValueError):
        foreign.to_dict(spider=spider)
    with pytest.raises(ValueError):
        json_request.request_dict(foreign, spider)
    # another instance's method of the spider's class: named, by both
    borrowed = Request("https://example.com/", callback=other.parse, errback=other.on_error)
    assert json_request.request_dict(borrowed, spider) == borrowed.to_dict(spider=spider)
