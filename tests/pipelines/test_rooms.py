"""A page's path through the hall (``ExtractPipeline``): it enters each room by its door only.

Followed with a profile hook on real pages (cx_163 articles, wcxb_dev list pages): every call the
hall makes into another part of ``pipelines`` is listed, and must be one of the rooms' doors. A
hall that reached into a room (the sibling store, the wrapper store, the hold) instead of going
through its door fails here; so does a room that calls another room.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any
from unittest import mock

from pipelines.extract import ExtractPipeline
from tests.pipelines.helpers import build, drive, make_crawler, page_item, run
from tests.pipelines.lists.test_lists import FIRST, SECOND, list_item

PIPELINES = Path(__file__).resolve().parents[2] / "pipelines"

#: What the hall may call in each room or floor module: the doors.
DOORS = {
    ("siblings.pairing", "SiblingPairing.find"),
    ("siblings.pairing", "SiblingPairing.stores"),
    ("siblings.parsed_pages", "PageCache.get"),
    ("siblings.parsed_pages", "PageCache.pop"),
    ("siblings.parsed_pages", "PageCache.put"),
    ("siblings.parsed_pages", "body_key"),
    ("siblings.parsed_pages", "parsed_sibling"),
    ("lists.stage", "ListStage.has_wrapper"),
    ("lists.stage", "ListStage.news_list"),
    ("lists.stage", "ListStage.publish"),
    ("items", "article_item"),
    ("items", "page_content_type"),
    ("reasons", "reason_slug"),
}
ROOMS = {"siblings", "lists"}


def _module(frame: Any) -> str | None:
    path = Path(frame.f_code.co_filename)
    if not path.is_relative_to(PIPELINES):
        return None
    return ".".join(path.relative_to(PIPELINES).with_suffix("").parts)


def path_of_last(pipeline: ExtractPipeline, items: list[dict[str, Any]]) -> tuple[dict, set]:
    """The last item's news item, and every (caller module, callee module, callee function) of a
    call from one part of ``pipelines`` into another while it went through: on the reactor thread
    and in what the hall hands to a worker thread (run here in the reactor's thread, so that the
    profile hook sees it: the article's item is built in the extraction's thread)."""
    crossings: set[tuple[str, str, str]] = set()

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event != "call" or frame.f_back is None:
            return
        callee, caller = _module(frame), _module(frame.f_back)
        if callee and caller and callee != caller:
            crossings.add((caller, callee, frame.f_code.co_qualname))

    async def go() -> dict:
        await drive(pipeline, items[:-1], close=False)
        sys.setprofile(profile)
        try:
            with mock.patch("pipelines.extract.run_in_thread", _in_this_thread):
                return await pipeline.process_item(items[-1])
        finally:
            sys.setprofile(None)

    return run(go()), crossings


async def _in_this_thread(func: Any, *args: Any) -> Any:
    return func(*args)


def articles() -> list[dict[str, Any]]:
    pages = [page_item("cx_163-00002.html", url=f"https://money.163.com/15/0723/07/{n}.html", n=n)
             for n in (1, 2)]
    for page in pages:
        page["template_key"] = "money.163.com/<n2>/<n4>/<n2>/<slug>.html"
    return pages


def test_an_article_goes_through_the_sibling_rooms_door_and_the_item():
    news, crossings = path_of_last(build(ExtractPipeline, make_crawler()), articles())
    assert news["extraction"]["sibling"]["url"] == "https://money.163.com/15/0723/07/1.html"
    hall = {(callee, name) for caller, callee, name in crossings if caller == "extract"}
    assert hall <= DOORS
    assert {("siblings.pairing", "SiblingPairing.find"), ("items", "article_item")} <= hall


def test_a_list_page_goes_through_the_list_rooms_door_and_no_room_calls_another(tmp_path):
    crawler = make_crawler({"NEWSCRAWL_WRAPPER_DIR": str(tmp_path),
                            "NEWSCRAWL_WRAPPERS_SINGLE_PAGE": False})
    items = [list_item(FIRST, None, 0), list_item(SECOND, None, 1)]
    news, crossings = path_of_last(build(ExtractPipeline, crawler), items)
    assert news["extraction"]["event"] == "induced" and news["records"]
    hall = {(callee, name) for caller, callee, name in crossings if caller == "extract"}
    assert hall <= DOORS
    assert ("lists.stage", "ListStage.news_list") in hall
    between_rooms = {
        (caller, callee) for caller, callee, _ in crossings
        if caller.split(".")[0] in ROOMS and callee.split(".")[0] in ROOMS
        and caller.split(".")[0] != callee.split(".")[0]
    }
    assert between_rooms == set()
