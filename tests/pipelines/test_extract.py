"""ExtractPipeline: page items become news items; bad input and extractor failures are dropped."""

from __future__ import annotations

import gzip
import json
import logging
import threading

import pytest
from scrapy.exceptions import DropItem

import pipelines.extract
from extractors.fields import FIELD_NAMES
from pipelines.extract import ExtractPipeline
from pipelines.items import item_id
from tests.pipelines.helpers import all_page_items, build, make_crawler, page_item, run_pipeline

NEWS_KEYS = set(FIELD_NAMES) | {
    "id",
    "url",
    "canonical_url",
    "site",
    "fetched_at",
    "page_type",
    "language",
    "template_key",
    "route",
    "referer",
    "title",
    "body",
    "warc",
    "extraction",
}


def extract(items, **settings):
    crawler = make_crawler(settings)
    return crawler, run_pipeline(build(ExtractPipeline, crawler), items)


def test_page_item_becomes_news_item() -> None:
    item = page_item("cx_bbc-00000.html")
    item["warc"] = {"file": "newscrawl-x.warc.gz", "offset": 1234}
    _, (news,) = extract([item])
    assert set(news) == NEWS_KEYS
    assert news["id"] == item_id(news["canonical_url"])
    # the page declares <link rel=canonical href="http://www.bbc.com/news/business-27107354">
    assert news["canonical_url"] == "http://www.bbc.com/news/business-27107354"
    assert news["extraction"]["sources"]["canonical_url"] == "meta"
    assert news["site"] == "bbc.com"
    assert news["warc"] == {"file": "newscrawl-x.warc.gz", "offset": 1234}
    assert (news["fetched_at"], news["template_key"], news["route"], news["referer"]) == (
        item["fetched_at"],
        item["template_key"],
        item["route"],
        item["referer"],
    )
    assert "Trans-Pacific Partnership" in news["body"]
    assert news["title"]


def test_news_item_carries_the_extraction_record_with_timings() -> None:
    _, (news,) = extract([page_item("cx_bbc-00000.html")])
    extraction = news["extraction"]
    assert extraction["method"] == "attenuation"
    assert extraction["encoding"] == "utf-8"
    assert extraction["timings_ms"]["total"] > 0
    json.dumps(news)  # no bytes left: ready for the sinks


def test_gbk_page_is_decoded() -> None:
    _, (news,) = extract([page_item("cx_163-00002.html")])
    assert "Uber" in news["body"] and "商业模式" in news["body"]
    assert news["site"] == "money.163.com"


def test_page_types_and_extracted_items_are_counted() -> None:
    crawler, results = extract(all_page_items())
    stats = crawler.stats
    assert stats.get_value("newscrawl/items_extracted") == len(results)
    by_type = {t: stats.get_value(f"newscrawl/page_type/{t}", 0) for t in ("article", "list")}
    assert by_type == {"article": 2, "list": 1}


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"", "empty"),
        (b" \r\n\t ", "empty"),
        (gzip.compress(page_item()["body"]), "not_html"),  # a real page, still gzip-compressed
    ],
)
def test_bad_input_is_dropped_with_its_reason_counted(body: bytes, reason: str) -> None:
    crawler, (result,) = extract([page_item(body=body)])
    assert isinstance(result, DropItem)
    assert str(result).startswith(f"{reason}: https://www.bbc.com/")
    assert crawler.stats.get_value(f"newscrawl/skipped/{reason}") == 1
    assert crawler.stats.get_value("newscrawl/items_extracted") is None


def test_body_over_the_limit_is_dropped_as_too_large() -> None:
    item = page_item()
    crawler, (result,) = extract([item], NEWSCRAWL_MAX_PAGE_BYTES=len(item["body"]) - 1)
    assert isinstance(result, DropItem)
    assert str(result).startswith("too_large: ")
    assert crawler.stats.get_value("newscrawl/skipped/too_large") == 1


def test_extractor_exception_is_logged_counted_and_dropped(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken_extract(*args, **kwargs):  # fault injection: a bug inside the extractors
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(pipelines.extract.extractors, "extract", broken_extract)
    with caplog.at_level(logging.ERROR, logger="pipelines.extract"):
        crawler, results = extract([page_item(), page_item("cx_163-00002.html")])
    assert all(isinstance(r, DropItem) for r in results)
    assert crawler.stats.get_value("newscrawl/errors/extract_exception") == 2
    assert "https://www.bbc.com/news/business-27107354" in caplog.text
    assert "ZeroDivisionError" in caplog.text


def test_an_articles_item_is_built_in_the_thread_of_its_extraction(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The news item (its id, the extraction's dict) is built beside the extraction, off the
    reactor's thread, with no second trip between the threads; the item is the same."""
    threads = {}

    def recorded(name, func):
        def call(*args, **kwargs):
            threads.setdefault(name, []).append(threading.current_thread())
            return func(*args, **kwargs)
        return call

    _, (reference,) = extract([page_item("cx_163-00002.html")])
    monkeypatch.setattr(pipelines.extract, "extract_page",
                        recorded("extract", pipelines.extract.extract_page))
    monkeypatch.setattr(pipelines.extract, "article_item",
                        recorded("item", pipelines.extract.article_item))
    _, (news,) = extract([page_item("cx_163-00002.html")])
    assert threads["item"] == threads["extract"]
    assert threads["item"][0] is not threading.current_thread()  # the test's loop thread
    for built in (news, reference):
        built["extraction"].pop("timings_ms")
    assert news == reference and news["body"]


def test_an_error_building_the_item_is_raised_not_counted_as_the_extractors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken_item(*args, **kwargs):  # fault injection: a bug in the item's building
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(pipelines.extract, "article_item", broken_item)
    with pytest.raises(ZeroDivisionError):
        extract([page_item()])


def test_other_items_pass_untouched() -> None:
    item = {"kind": "list", "url": "https://example.org/", "records": []}
    _, (result,) = extract([item])
    assert result is item


WARM_SCRIPT = """
import sys
import extractors.language as language
from pipelines.extract import ExtractPipeline
from tests.pipelines.helpers import build, make_crawler, page_item, run
pipeline = build(ExtractPipeline, make_crawler())
assert not language._model_loaded and "dateparser" not in sys.modules
run(pipeline.open_spider())
loaded = [language._model_loaded, "dateparser" in sys.modules, "htmldate" in sys.modules]
news = run(pipeline.process_item(page_item("cx_bbc-00000.html")))
print(*loaded, "Trans-Pacific Partnership" in news["body"])
"""


def test_open_spider_loads_what_the_first_extraction_would() -> None:
    # a fresh interpreter: the chain's first-use loads happen when the pipeline opens (before the
    # engine takes a request), not inside the first pages' extractions (issue 12's dip)
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    run = subprocess.run([sys.executable, "-c", WARM_SCRIPT], capture_output=True, text=True,
                         timeout=120, cwd=root)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True", "True", "True", "True"]


def test_failed_warm_up_is_logged_and_the_pipeline_still_extracts(monkeypatch, caplog) -> None:
    import extractors.warmup

    def broken() -> float:
        raise OSError("model file unreadable")

    monkeypatch.setattr(extractors.warmup, "warm_up", broken)
    with caplog.at_level(logging.ERROR, logger="pipelines.extract"):
        _, (news,) = extract([page_item("cx_bbc-00000.html")])
    assert "warm-up of the extraction failed" in caplog.text
    assert "Trans-Pacific Partnership" in news["body"]
