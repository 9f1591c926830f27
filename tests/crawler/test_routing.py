"""The first list/article routing heuristic."""

from __future__ import annotations

import doctest

import pytest

import crawler.routing
from crawler.routing import LIST_MIN_LINKS, route, route_from_url


def test_docstring_examples_hold() -> None:
    result = doctest.testmod(crawler.routing)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/",
        "https://example.com/world/",
        "https://example.com/news/index.html",
        "https://example.com/stories?page=2",
        "https://example.com/tag/economy/",
    ],
)
def test_list_urls(url: str) -> None:
    assert route_from_url(url) == "list"


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/news/2024/05/12/rain-in-spain.html",
        "https://www.bbc.com/news/business-27107354",
        "http://money.163.com/15/0704/19/ATN2UGL700252G50.html",
        "https://example.com/story/1234567",
    ],
)
def test_article_urls(url: str) -> None:
    assert route_from_url(url) == "article"


def test_unclear_url_is_decided_by_link_count() -> None:
    assert route_from_url("https://example.com/about") is None
    assert route("https://example.com/about", link_count=LIST_MIN_LINKS) == "list"
    assert route("https://example.com/about", link_count=LIST_MIN_LINKS - 1) == "article"


def test_url_wins_over_link_count() -> None:
    assert route("https://www.bbc.com/news/business-27107354", link_count=500) == "article"
