"""Bad metadata gives a sane value or null with the reason in the notes, never an exception.

Real pages (tests/fixtures/SOURCES.md) where the data has the fault; otherwise a real page with the
fault put into its own markup (the JSON-LD of the BBC page replaced, its og:image rewritten).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from extractors import extract
from extractors.dates import parse_date
from extractors.jsonld import MAX_DEPTH, MAX_SCRIPT_CHARS
from tests.fixture_pages import fixture, page_bytes

BBC = "cx_bbc-00000.html"
BBC_URL = "https://www.bbc.com/news/business-27107354"
#: The BBC page's own JSON-LD script (its only one), as published.
LD_START, LD_END = b'<script type="application/ld+json">', b"</script>"


def bbc_with_jsonld(script: str) -> bytes:
    """The BBC page with its JSON-LD script's content replaced by ``script``."""
    page = page_bytes(fixture(BBC))
    start = page.index(LD_START) + len(LD_START)
    end = page.index(LD_END, start)
    return page[:start] + script.encode() + page[end:]


def test_dates_after_the_fetch_are_refused_with_the_reason() -> None:
    # The page says 2014-04-24; fetched (as if) in 2010, every date on it lies in the future.
    result = extract(page_bytes(fixture(BBC)), url=BBC_URL,
                     fetched_at=datetime(2010, 1, 1, tzinfo=UTC))
    assert result.fields.published is None
    assert "in the future: 2014-04-24" in result.fields.notes["published"]


def test_a_date_a_day_ahead_is_still_accepted() -> None:
    # Time zones: a page in UTC+14 can be "tomorrow" for a crawler in UTC.
    result = extract(page_bytes(fixture(BBC)), url=BBC_URL,
                     fetched_at=datetime(2014, 4, 23, 12, tzinfo=UTC))
    assert result.fields.published == "2014-04-24T01:51:52+01:00"


def test_dates_before_the_web_are_refused() -> None:
    assert parse_date("1850-03-01")[0] is None
    assert parse_date("1850-03-01")[1] == "before 1990: 1850-03-01"


def test_conflicting_dates_give_the_article_date_and_list_the_others() -> None:
    # A forum thread of 2020-09-18 (JSON-LD) whose replies carry <time> elements of the 20th.
    line = fixture("trafilatura_eval-00504.html")
    result = extract(page_bytes(line), url=line["url"])
    assert result.fields.published.startswith(line["date"])
    assert "other dates: time 2020-09-20" in result.fields.notes["published"]


def test_the_time_elements_of_comments_are_no_date_of_the_article() -> None:
    # A blog post of 2019-07-28 whose comment boxes carry <time> elements of two days later:
    # not candidates at all (metadata._ASIDE_MARKS), so not listed as the article's other dates.
    line = fixture("trafilatura_eval-00080.html")
    result = extract(page_bytes(line), url=line["url"])
    assert result.fields.published.startswith(line["date"])
    assert "2019-07-30" not in result.fields.notes.get("published", "")


@pytest.mark.parametrize(("text", "iso"), [
    ("March 3, 2014 10:00 EST", "2014-03-03T10:00:00-05:00"),
    ("3. März 2015 um 10:15 MEZ", "2015-03-03T10:15:00+01:00"),
    ("2015-03-04T10:00:00 Europe/Berlin", "2015-03-04T10:00:00+01:00"),
    ("Mon, 12 Feb 2018 10:00:00 GMT", "2018-02-12T10:00:00+00:00"),
])
def test_time_zones_given_by_name(text: str, iso: str) -> None:
    assert parse_date(text)[0].iso() == iso


def test_relative_dates_count_from_the_fetch() -> None:
    fetched = datetime(2024, 5, 1, 12, tzinfo=UTC)
    assert parse_date("3 hours ago", fetched)[0].iso() == "2024-05-01T09:00:00+00:00"
    assert parse_date("2 天前", fetched, ("zh",))[0].day().isoformat() == "2024-04-29"


@pytest.mark.parametrize(("script", "problem"), [
    ('{"@type": "NewsArticle", "headline": "Broken', "invalid JSON"),
    ("[" * 10_000 + "]" * 10_000, f"nested deeper than {MAX_DEPTH}"),
    ('{"@type": "NewsArticle", "x": "' + "a" * MAX_SCRIPT_CHARS + '"}',
     f"script over {MAX_SCRIPT_CHARS} characters"),
])
def test_unreadable_jsonld_is_skipped_with_the_reason(script: str, problem: str) -> None:
    result = extract(bbc_with_jsonld(script), url=BBC_URL)
    assert problem in result.fields.notes["jsonld"]
    # the page's other metadata still gives the fields
    assert result.fields.title == "Obama, Abe and a high-stakes trade deal"
    assert result.fields.canonical_url == "http://www.bbc.com/news/business-27107354"


def test_broken_jsonld_keeps_the_values_it_can() -> None:
    # Trailing commas and an HTML comment around the object: repaired and read.
    script = '<!-- {"@type": "NewsArticle", "datePublished": "2014-04-24T01:51:52+01:00",' \
             ' "author": {"@type": "Person", "name": "Linda Yueh"},} -->'
    result = extract(bbc_with_jsonld(script), url=BBC_URL)
    assert result.fields.published == "2014-04-24T01:51:52+01:00"
    assert result.fields.sources["published"] == "jsonld"
    assert result.fields.authors == ["Linda Yueh"]


def test_jsonld_of_the_wrong_types_gives_sane_values() -> None:
    script = json.dumps({"@type": ["NewsArticle"], "headline": {"a": 1}, "datePublished": 12345,
                         "author": [{"name": ["x"]}, 7, None], "image": [None, 5],
                         "keywords": {"k": "v"}, "inLanguage": ["en", 3],
                         "@graph": "not a list"})
    result = extract(bbc_with_jsonld(script), url=BBC_URL)
    values = result.fields.values()
    assert values["title"] == "Obama, Abe and a high-stakes trade deal"
    assert all(isinstance(name, str) for name in values["authors"])
    assert values["image"].startswith("https://")
    assert result.to_dict()["extraction"]["sources"]["title"] != "jsonld"


def test_author_urls_are_refused_and_a_name_found_elsewhere() -> None:
    # Its article:author is the writer's profile URL; the byline names him.
    line = fixture("trafilatura_eval-00017.html")
    result = extract(page_bytes(line), url=line["url"])
    assert result.fields.authors == ["Henning Lobin"]
    assert "a URL, not a name" in result.fields.notes["authors"]


def test_a_paragraph_as_author_is_refused() -> None:
    paragraph = ("Linda Yueh is the chief business correspondent of the BBC and writes about the "
                 "economies of Asia, trade agreements, monetary policy and growth in the region.")
    script = json.dumps({"@type": "Article", "author": paragraph})
    result = extract(bbc_with_jsonld(script), url=BBC_URL)
    assert all(len(name) <= 60 for name in result.fields.authors)
    assert "a paragraph, not a byline" in result.fields.notes["authors"] \
        or "too long for a name" in result.fields.notes["authors"]


@pytest.mark.parametrize("bad", ["javascript:alert(document.cookie)",
                                 "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4="])
def test_og_image_script_and_data_urls_are_refused(bad: str) -> None:
    page = page_bytes(fixture(BBC)).replace(
        b"https://ichef.bbci.co.uk/news/1024/media/images/74363000/jpg/_74363017_162362771(1).jpg",
        bad.encode())
    result = extract(page, url=BBC_URL)
    scheme = bad.split(":")[0]
    assert f"refused a {scheme}: URL" in result.fields.notes["image"]
    # the JSON-LD image is the next candidate
    assert result.fields.image == ("https://ichef.bbci.co.uk/news/720/media/images/74363000/jpg/"
                                   "_74363017_162362771(1).jpg")
