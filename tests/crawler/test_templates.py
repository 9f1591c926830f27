"""Template keys: site + URL shape."""

from __future__ import annotations

import doctest

import pytest

import crawler.templates
from crawler.templates import template_key


def test_docstring_examples_hold() -> None:
    result = doctest.testmod(crawler.templates)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize(
    ("url", "key"),
    [
        (
            "https://www.example.com/news/2024/05/12/rain-in-spain.html",
            "example.com/news/<n4>/<n2>/<n2>/<slug>.html",
        ),
        (
            "http://money.163.com/15/0704/19/ATN2UGL700252G50.html",
            "money.163.com/<n2>/<n4>/<n2>/<id>.html",
        ),
        ("https://www.bbc.com/news/world-asia-12345678", "bbc.com/news/<slug>"),
        ("https://example.com/2024-05-12/story", "example.com/<date>/story"),
        ("https://example.com/a/0123456789abcdef", "example.com/a/<id>"),
        ("https://example.com/list?page=12&sort=new", "example.com/list?page=<n2>&sort=new"),
    ],
)
def test_template_key_shapes(url: str, key: str) -> None:
    assert template_key(url) == key


def test_pages_of_one_template_share_a_key() -> None:
    a = template_key("https://www.bbc.com/news/business-27107354")
    b = template_key("https://bbc.com/news/world-europe-38632145#comments")
    assert a == b


def test_digit_lengths_and_sites_separate_keys() -> None:
    assert template_key("https://a.example/p/123") != template_key("https://a.example/p/1234")
    assert template_key("https://a.example/p/123") != template_key("https://b.example/p/123")


def test_port_is_not_part_of_the_site() -> None:
    assert template_key("http://127.0.0.1:8080/x/") == template_key("http://127.0.0.1:9090/x/")
