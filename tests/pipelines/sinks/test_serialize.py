"""item_to_json: plain dict items dumped as they are, the same text as through ItemAdapter."""

from __future__ import annotations

import dataclasses
import json

import pytest
from itemadapter import ItemAdapter

import pipelines.sinks.serialize
from pipelines.extract import ExtractPipeline
from pipelines.sinks.serialize import item_to_json
from tests.pipelines.helpers import all_page_items, build, make_crawler, run_pipeline


def adapter_road(item) -> str:
    """What item_to_json wrote before its plain-dict road: every item through ItemAdapter."""
    data = ItemAdapter(item).asdict()
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


@dataclasses.dataclass
class Byline:
    name: str
    role: str | None = None


def test_news_items_of_real_pages_are_written_as_through_itemadapter() -> None:
    items = run_pipeline(build(ExtractPipeline, make_crawler()), all_page_items())
    assert len(items) >= 3 and all(type(item) is dict for item in items)
    assert any(item.get("records") for item in items) or any(item.get("title") for item in items)
    for item in items:
        assert item_to_json(item) == adapter_road(item)


def test_plain_dicts_do_not_go_through_itemadapter(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(item):
        raise AssertionError("ItemAdapter asked for a plain dict of JSON values")

    monkeypatch.setattr(pipelines.sinks.serialize, "ItemAdapter", refuse)
    item = {"url": "https://a.example/n/1", "title": "Über", "n": 1, "ok": True, "x": None,
            "authors": ["A", "B"], "extraction": {"sibling": {"url": None, "used": False}},
            "pair": (1, 2.5)}  # fmt: skip
    assert item_to_json(item) == ('{"url":"https://a.example/n/1","title":"Über","n":1,"ok":true,'
                                  '"x":null,"authors":["A","B"],"extraction":{"sibling":{"url":null,'
                                  '"used":false}},"pair":[1,2.5]}')  # fmt: skip


def test_nested_items_and_refused_values_take_the_itemadapter_road() -> None:
    nested = {"url": "https://a.example/", "bylines": [Byline("Ann"), Byline("Bo", "editor")]}
    assert item_to_json(nested) == adapter_road(nested)
    assert json.loads(item_to_json(nested))["bylines"][1] == {"name": "Bo", "role": "editor"}
    assert item_to_json(Byline("Ann")) == '{"name":"Ann","role":null}'  # not a dict at all
    with pytest.raises(TypeError, match=r"item field 'extraction.raw' holds bytes"):
        item_to_json({"url": "u", "extraction": {"raw": b"<html>"}})
    with pytest.raises(ValueError, match="Out of range float"):
        item_to_json({"url": "u", "score": float("nan")})
