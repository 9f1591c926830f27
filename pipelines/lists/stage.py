"""List pages: records by a PSNT wrapper (paper 004), known or induced, and the ``NewsList`` item.

:func:`list_records` runs in a worker thread (wrapper induction and application, the sibling's parse
and the store's file or Redis I/O are all blocking) on the page the article chain already parsed
(``Extraction.page``): a list page is parsed once. For a list page of template key K:

1. K has a stored wrapper (:mod:`pipelines.lists.wrapper_store`): apply it. It *matches* when it
   finds the main structure and at least ``MIN_RECORDS`` records without a sharp drop against its
   recent record counts (:func:`pipelines.lists.wrapper_store.drift_reason`); the match is counted
   on the stored wrapper.
2. No wrapper, or it no longer matches: induce one from this page and a same-template sibling list
   page (given by :class:`pipelines.siblings.pairing.SiblingPairing`), apply it to this page, store
   it (replacing the old one: a *re-induction*). Without a sibling the page keeps the records the
   drifted wrapper still found (if any) and says why it was not re-induced.
3. No sibling came (every reason the pairing gives up: no same-template link, the wait timed out,
   the holding area full, the crawl closing) and step 1 left no records, or the sibling's
   induction found none: with ``dwsie`` on (setting ``NEWSCRAWL_LISTS_DWSIE``, off by default: an
   opt-in, its precision is under the crawl's 0.95), the records of
   DWSIE's list nodes (paper 002, :mod:`extractors.pageinfo`; measured on the 80 annotated list
   pages, docs/evaluation.md "DWSIE": pooled record F1 0.685 → 0.806, precision 0.940 → 0.854).
   Else, with ``confirmed`` on (setting ``NEWSCRAWL_LISTS_CONFIRMED``, on by default; it needs
   ``single_page`` on too), the records DWSIE's list subtrees and a wrapper induced from this page
   alone agree on (:func:`extractors.pageinfo.confirmed_records`: event ``confirmed``; the
   single-page wrapper's records, event ``single_page``, where DWSIE finds no list; where the two
   disagree, DWSIE's subtrees of a markup the page repeats, else none). Measured on the 80
   annotated list pages (docs/evaluation.md, "List records at precision 0.95" and "List records,
   third round"): pooled record P / R / F1 0.940 / 0.539 / 0.685 → 0.959 / 0.734 / 0.832 →
   0.958 / 0.756 / 0.845.
   With ``confirmed`` off and ``single_page`` on (setting ``NEWSCRAWL_WRAPPERS_SINGLE_PAGE``), where
   there is no sibling, a wrapper induced from this page alone
   (``psnt.induce_wrapper(page, None)``: the structure analysis without shared-link removal) is
   applied once to this page and NOT stored, so a later page of the template still induces a real
   two-page wrapper (the single-page wrapper of ``confirmed`` is not stored either). Measured on
   the 84 annotated list pages (docs/evaluation.md, ``psnt_fallback``) it raises pooled record F1
   over all pages from 0.366 (two-page only) to 0.661 at P 0.952.

4. Whatever step gave records: the page's cards (``<article>`` elements outside an ``<aside>``)
   of the markup of the cards holding them are added when at least half of the records are cards
   (a section front lists its teasers in several regions, one wrapper reads one); when none of
   the records is a card and the page's main card markup holds more, those cards replace them
   (the step read another region): :func:`extractors.pageinfo.with_cards`. Measured on the 80
   annotated list pages (docs/evaluation.md, "List records, fourth round"): pooled record
   P / R / F1 of the list step 0.958 / 0.756 / 0.845 → 0.962 / 0.812 / 0.881. Where a two-page
   wrapper gave them (events ``applied``, ``induced``, ``reinduced``): the page's other links of
   its records' title-link markup (the link and its two parents), titled with 3 words or more,
   as teasers of the same list in other regions (:func:`extractors.pageinfo.more_teasers`;
   "List records, fifth round": 0.962 / 0.812 / 0.881 → 0.961 / 0.835 / 0.893); the same where
   ``confirmed`` gave DWSIE's one list markup (rule ``one_list``), the links of hidden tab panes
   left out ("List records, sixth round": 0.961 / 0.835 / 0.893 → 0.963 / 0.882 / 0.920).

A store error (Redis down, a disk full) never stops the page: it is counted (``store_error``) and the
page goes on without the stored wrapper. The outcome's ``event`` is one of ``applied``,
``induced``, ``reinduced``, ``dwsie``, ``confirmed``, ``single_page`` or
``none`` (then ``reason`` says why), the stats the
extract pipeline counts under ``newscrawl/wrappers/``.
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import redis
from scrapy.utils.asyncio import run_in_thread

from extractors import psnt
from extractors.errors import BadInput
from extractors.page import Page, parse_page
from pipelines.items import ItemIdentity, NewsList
from pipelines.lists.record_board import RecordBoard
from pipelines.reasons import NOT_NEEDED, reason_slug
from pipelines.throttled_log import ThrottledLog
from pipelines.lists.wrapper_store import (
    StoredWrapper,
    WrapperStore,
    drift_reason,
    wrapper_store_from_crawler,
)

if TYPE_CHECKING:
    from scrapy.crawler import Crawler

    from extractors import Extraction

__all__ = [
    "MAX_RECORDS_PER_LIST",
    "NO_SIBLING",
    "ListOutcome",
    "ListStage",
    "list_records",
    "news_list_item",
]

logger = logging.getLogger(__name__)
_store_down_log = ThrottledLog(logger)

#: Records kept per list page (``NEWSCRAWL_MAX_RECORDS_PER_LIST``); more are cut and counted under
#: ``newscrawl/capped/records``. Records are links of the page, so the bound is the spider's bound
#: on links followed per page (``crawler.link_scan.MAX_LINKS_PER_PAGE``: 5 000, above the 3 859 links
#: of the most linked of 2 690 real pages); a hostile page of 200 000 links gave a 20 MB item.
MAX_RECORDS_PER_LIST = 5_000
NO_SIBLING = "no sibling list page to induce a wrapper from"
SINGLE_PAGE = "records from a wrapper induced from this page alone, not stored"
DWSIE_RECORDS = "records from DWSIE's list nodes (paper 002)"
CONFIRMED_RECORDS = "records DWSIE's list nodes and a wrapper induced from this page alone agree on"
CONFIRMED_NONE = ("DWSIE's list nodes and a wrapper induced from this page alone disagree, "
                  "no list markup repeats: no records")
CARDS = {"more_cards": "more records from the page's cards of the list's markup",
         "cards_instead": "records from the page's cards: none of the list's records was one",
         "teasers": "more records from the page's links of the list's title-link markup"}
#: The events whose records a two-page wrapper gave (stored or induced with a sibling): one main
#: structure, to which step 4 adds the teasers of the same markup in other regions.
TWO_PAGE_EVENTS = frozenset({"applied", "induced", "reinduced"})
LOCK_STRIPES = 64


class SiblingPage(Protocol):
    """A same-template list page a wrapper is induced from, as the hall hands it over (the sibling
    room's ``StoredPage``; this room reads its three fields and never imports that room)."""

    @property
    def url(self) -> str: ...

    @property
    def body(self) -> bytes: ...

    @property
    def content_type(self) -> str | None: ...


@dataclass(slots=True)
class ListOutcome:
    """What :func:`list_records` did on one list page."""

    records: list[dict[str, Any]]
    # "applied" | "induced" | "reinduced" | "dwsie" | "confirmed" | "single_page" | "none"
    event: str
    reason: str | None
    wrapper: StoredWrapper | None = None
    drift: str | None = None  # why a known wrapper no longer matched
    rule: str | None = None  # which rule of confirmed_records gave the records (event "confirmed")
    store_error: bool = False
    timings_ms: dict[str, float] = field(default_factory=dict)

    @property
    def record_urls(self) -> list[str]:
        return list(dict.fromkeys(r["url"] for r in self.records if r.get("url")))


class _Store:
    """The wrapper store with its errors caught: an outage means "no wrapper", never a lost page."""

    def __init__(self, store: WrapperStore | None, outcome: ListOutcome) -> None:
        self.store, self.outcome = store, outcome

    def call(self, method: str, *args: Any) -> Any:
        if self.store is None:
            return None
        try:
            return getattr(self.store, method)(*args)
        except (redis.RedisError, OSError) as exc:
            key = getattr(args[0], "key", args[0]) if args else ""
            _store_down_log.warning("wrapper store unavailable (%s %s): %s", method, key, exc)
            self.outcome.store_error = True
            return None


def list_records(
    store: WrapperStore | None,
    key: str,
    page: Page,
    sibling: SiblingPage | None,
    max_bytes: int,
    single_page: bool = False,
    no_sibling: str | None = None,
    max_records: int = MAX_RECORDS_PER_LIST,
    dwsie: bool = False,
    confirmed: bool = False,
) -> ListOutcome:
    """The records of list ``page`` of template ``key`` (steps in the module docstring);
    ``no_sibling`` is the pairing's reason for ``sibling`` being None. At most ``max_records`` + 1
    records are built (the caller cuts to ``max_records`` and counts the cap)."""
    started = time.perf_counter()
    outcome = ListOutcome([], "none", None)
    limit = max_records + 1
    stores = _Store(store, outcome)
    known: StoredWrapper | None = stores.call("get", key)
    kept: list[dict[str, Any]] = []
    if known is not None:
        kept = _apply_known(stores, known, page, outcome, limit)
        if outcome.event == "applied":
            _add_cards(page, outcome, limit)
            outcome.timings_ms["psnt"] = _ms(started)
            return outcome
    if sibling is None:
        outcome.records = kept
        outcome.reason = NO_SIBLING if outcome.drift is None else (
            f"wrapper no longer matches ({outcome.drift}); {NO_SIBLING}"
        )
        if not kept and not (dwsie and _dwsie(page, no_sibling, outcome, limit)) and single_page:
            if confirmed:
                _confirmed(key, page, no_sibling, outcome, limit)
            else:
                _single_page(key, page, no_sibling, outcome, limit)
    else:
        _induce(stores, key, page, sibling, max_bytes, outcome, replacing=known, limit=limit)
        if not outcome.records and dwsie:
            _dwsie(page, None, outcome, limit)
        if not outcome.records and confirmed and single_page:
            _confirmed(key, page, None, outcome, limit)
    _add_cards(page, outcome, limit)
    outcome.timings_ms["psnt"] = _ms(started)
    return outcome


def _add_cards(page: Page, outcome: ListOutcome, limit: int) -> None:
    """Step 4: the records, whatever step gave them, with the page's cards
    (:func:`extractors.pageinfo.with_cards`: the cards of the same list in the regions one
    wrapper does not read, or the page's main cards instead of records none of which is a
    card), and a two-page wrapper's records with the teasers of their markup
    (:func:`extractors.pageinfo.more_teasers`), as are those of DWSIE's one list markup (rule
    ``one_list`` of ``confirmed``: :data:`extractors.pageinfo.TEASER_RULES`); the reason says
    which."""
    from extractors.listrecords import Record
    from extractors.pageinfo import TEASER_RULES, extended_records

    if not outcome.records:
        return
    records = [Record(r["title"], r["url"], r.get("published"), list(r.get("authors") or []))
               for r in outcome.records]
    teasers = outcome.event in TWO_PAGE_EVENTS or (
        outcome.event == "confirmed" and outcome.rule in TEASER_RULES)
    records, hows = extended_records(page, records, teasers=teasers)
    if hows:
        outcome.records = [r.to_dict() for r in records[:limit]]
        outcome.reason = "; ".join(filter(None, (outcome.reason, *(CARDS[h] for h in hows))))


def _dwsie(page: Page, no_sibling: str | None, outcome: ListOutcome, limit: int) -> bool:
    """Step 3's first try: the records of DWSIE's list nodes; whether there were any."""
    from extractors.dwsie import default_node_model
    from extractors.modelio import ModelError
    from extractors.pageinfo import dwsie_records, node_classes

    why = f"{outcome.reason} ({no_sibling})" if no_sibling else outcome.reason
    try:
        model = default_node_model()
    except ModelError as exc:  # a broken install: say so, go on without
        outcome.reason = f"{why}; DWSIE model unusable: {exc}"
        return False
    records = dwsie_records(page, node_classes(page, model))[:limit]
    if not records:
        return False
    outcome.records = [r.to_dict() for r in records]
    outcome.event, outcome.reason = "dwsie", f"{why}; {DWSIE_RECORDS}"
    return True


def _confirmed(key: str, page: Page, no_sibling: str | None, outcome: ListOutcome,
               limit: int) -> None:
    """Step 3 with ``confirmed`` on: the records DWSIE's list subtrees and a wrapper induced from
    ``page`` alone agree on (:func:`extractors.pageinfo.confirmed_records`); the single-page
    wrapper's records as before where DWSIE finds no list; where the two disagree, DWSIE's subtrees
    of a markup the page repeats, else none."""
    from extractors.dwsie import default_node_model
    from extractors.modelio import ModelError
    from extractors.pageinfo import confirmed_records, node_classes, single_page_reading

    try:
        model = default_node_model()
    except ModelError as exc:  # a broken install: say so, go on with the single-page wrapper
        logger.warning("DWSIE model unusable, single-page wrapper alone: %s", exc)
        _single_page(key, page, no_sibling, outcome, limit)
        return
    why = f"{outcome.reason} ({no_sibling})" if no_sibling else outcome.reason
    # read once per page: the page-type step's listed check read them on an unsure page
    induction, found = single_page_reading(page)
    single = list(found[:limit])  # as the wrapper applied with ``limit``: its first records
    records, by = confirmed_records(page, node_classes(page, model), single)
    outcome.rule = by
    if not records:
        outcome.reason = f"{why}; {CONFIRMED_NONE}"
        return
    outcome.records = [r.to_dict() for r in records[:limit]]
    if induction.wrapper is not None:
        outcome.wrapper = StoredWrapper.of(key, induction.wrapper, [page.url])
    if by == "single_page":
        outcome.event, outcome.reason = "single_page", f"{why}; {SINGLE_PAGE}"
    else:
        outcome.event, outcome.reason = "confirmed", f"{why}; {CONFIRMED_RECORDS} ({by})"


def _apply_known(
    stores: _Store, known: StoredWrapper, page: Page, outcome: ListOutcome, limit: int
) -> list[dict[str, Any]]:
    """Apply a stored wrapper; on a match fill ``outcome``; else note the drift; its records."""
    try:
        wrapper = psnt.Wrapper.from_json(known.wrapper)
    except ValueError as exc:
        outcome.drift = f"stored wrapper unreadable: {exc}"
        return []
    application = psnt.apply_wrapper(wrapper, page, limit)
    records = [r.to_dict() for r in application.records]
    outcome.drift = application.reason or drift_reason(len(records), known.history)
    if outcome.drift is None:
        outcome.records, outcome.event = records, "applied"
        outcome.wrapper = stores.call("matched", known.key, len(records)) or known
    return records


def _induce(
    stores: _Store,
    key: str,
    page: Page,
    sibling: SiblingPage,
    max_bytes: int,
    outcome: ListOutcome,
    replacing: StoredWrapper | None,
    limit: int | None = None,
) -> None:
    try:
        other = parse_page(
            sibling.body, url=sibling.url, content_type=sibling.content_type, max_bytes=max_bytes
        )
    except BadInput as exc:
        outcome.reason = f"sibling unusable: {exc.reason}"
        return
    induction = psnt.induce_wrapper(page, other)
    if induction.wrapper is None:  # the paper builds the tree of "one of" the two: try the other
        induction = psnt.induce_wrapper(other, page)
    if induction.wrapper is None:
        outcome.reason = induction.reason or "no wrapper induced"
        return
    wrapper = induction.wrapper
    application = psnt.apply_wrapper(wrapper, page, limit)
    records = [r.to_dict() for r in application.records]
    if application.reason is not None:
        outcome.reason = f"induced wrapper found no records: {application.reason}"
        return
    stored = StoredWrapper.of(key, wrapper, [page.url, sibling.url])
    stored.note_match(len(records))
    stores.call("put", stored)
    outcome.records, outcome.wrapper, outcome.reason = records, stored, None
    outcome.event = "reinduced" if replacing is not None else "induced"


def _single_page(
    key: str, page: Page, no_sibling: str | None, outcome: ListOutcome, limit: int | None = None
) -> None:
    """Step 3: induce from ``page`` alone, apply to it, keep the wrapper out of the store."""
    why = f"{outcome.reason} ({no_sibling})" if no_sibling else outcome.reason
    induction = psnt.induce_wrapper(page, None)
    if induction.wrapper is None:
        outcome.reason = f"{why}; single-page induction: {induction.reason or 'no wrapper'}"
        return
    application = psnt.apply_wrapper(induction.wrapper, page, limit)
    if application.reason is not None or not application.records:
        outcome.reason = f"{why}; single-page wrapper found no records: {application.reason}"
        return
    outcome.records = [r.to_dict() for r in application.records]
    outcome.wrapper = StoredWrapper.of(key, induction.wrapper, [page.url])
    outcome.event, outcome.reason = "single_page", f"{why}; {SINGLE_PAGE}"


def news_list_item(
    page: dict[str, Any],
    extraction: dict[str, Any],
    outcome: ListOutcome,
    sibling_note: dict[str, Any],
) -> dict[str, Any]:
    """The ``NewsList`` item of the contract, from a page item, ``Extraction.to_dict()`` and the
    list outcome."""
    stored = outcome.wrapper
    identity = ItemIdentity.of(page, "list", extraction.get("canonical_url"))
    return NewsList(
        identity, extraction.get("title"), extraction.get("language"), outcome.records, {
            "method": {"single_page": "psnt_single", "dwsie": "dwsie",
                       "confirmed": "confirmed"}.get(outcome.event, "psnt"),
            "wrapper": None if stored is None else {
                "key": stored.key,
                "notation": stored.notation,
                "induced_from": stored.induced_from,
                "induced_at": stored.induced_at,
                "matched": stored.matched,
            },
            "event": outcome.event,
            "reason": outcome.reason,
            "drift": outcome.drift,
            "sibling": sibling_note,
            "encoding": extraction.get("encoding"),
            "timings_ms": {**extraction.get("timings_ms", {}), **outcome.timings_ms},
        },
    ).to_dict()


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1e3, 3)


class ListStage:
    """The list-page part of :class:`~pipelines.extract.ExtractPipeline`: wrapper store, stats, and
    the records handed to the spider (:mod:`pipelines.lists.record_board`)."""

    def __init__(self, crawler: Crawler, store: WrapperStore | None) -> None:
        self.crawler = crawler
        self.store = store
        self.board = RecordBoard()  # the spider reads it through the extract pipeline
        self.single_page = crawler.settings.getbool("NEWSCRAWL_WRAPPERS_SINGLE_PAGE", True)
        self.dwsie = crawler.settings.getbool("NEWSCRAWL_LISTS_DWSIE", False)
        self.confirmed = crawler.settings.getbool("NEWSCRAWL_LISTS_CONFIRMED", True)
        self.max_records = crawler.settings.getint(
            "NEWSCRAWL_MAX_RECORDS_PER_LIST", MAX_RECORDS_PER_LIST
        )
        # Pages of one template go through the store one at a time (per process): of two section
        # pages extracted together, the second applies the wrapper the first induced instead of
        # inducing its own. Striped: a bounded number of locks for any number of templates.
        self._locks = [threading.Lock() for _ in range(LOCK_STRIPES)]

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ListStage | None:
        """None when ``NEWSCRAWL_WRAPPERS_ENABLED`` is false."""
        if not crawler.settings.getbool("NEWSCRAWL_WRAPPERS_ENABLED", True):
            return None
        return cls(crawler, wrapper_store_from_crawler(crawler))

    async def has_wrapper(self, key: str) -> bool:
        """Whether template ``key`` has a stored wrapper (then its page needs no sibling)."""
        if self.store is None:
            return False
        try:
            return await run_in_thread(self.store.get, key) is not None
        except (redis.RedisError, OSError) as exc:
            _store_down_log.warning("wrapper store unavailable: %s", exc)
            self._count("store_errors")
            return False

    async def news_list(
        self,
        item: dict[str, Any],
        result: Extraction,
        sibling: SiblingPage | None,
        no_sibling: str | None,
        max_bytes: int,
    ) -> dict[str, Any]:
        """The ``NewsList`` item of a list page from its :class:`extractors.Extraction` (whose
        parse the records are read from); counts the wrapper events. A PSNT bug never loses the
        page: it gets no records, and says why."""
        extraction = result.to_dict()
        try:
            return await self._news_list(item, extraction, result.page, sibling, no_sibling,
                                         max_bytes)
        except Exception as exc:
            logger.exception("list extraction failed on %s", item["url"])
            self.crawler.stats.inc_value("newscrawl/errors/list_exception")
            return news_list_item(
                item, extraction, ListOutcome([], "none", f"list extraction failed: {exc}"),
                {"url": None if sibling is None else sibling.url, "used": False,
                 "reason": no_sibling or "list extraction failed"},
            )

    async def _news_list(
        self,
        item: dict[str, Any],
        extraction: dict[str, Any],
        page: Page,
        sibling: SiblingPage | None,
        no_sibling: str | None,
        max_bytes: int,
    ) -> dict[str, Any]:
        key = item.get("template_key") or ""
        outcome = await run_in_thread(
            _locked_records, self._locks[hash(key) % len(self._locks)], self.store, key, page,
            (sibling, no_sibling, self.single_page, self.dwsie, self.confirmed), max_bytes,
            self.max_records,
        )
        if len(outcome.records) > self.max_records:
            logger.info("capped %s: %d records, kept %d", item["url"], len(outcome.records),
                        self.max_records)
            self.crawler.stats.inc_value("newscrawl/capped/records")
            outcome.records = outcome.records[: self.max_records]
        self._count_outcome(outcome)
        used = outcome.event in ("induced", "reinduced")
        note = {
            "url": sibling.url if sibling is not None else None,
            "used": used,
            "reason": None if used else _why_sibling_unused(outcome, sibling, no_sibling),
        }
        return news_list_item(item, extraction, outcome, note)

    def publish(self, url: str, news: dict[str, Any] | None) -> None:
        """Hand the record URLs of list page ``url`` (none when ``news`` is not a list item) to the
        spider waiting for them."""
        urls = []
        if news is not None and news.get("page_type") == "list":
            urls = list(dict.fromkeys(r["url"] for r in news["records"] if r.get("url")))
        if self.board.publish(url, urls) and urls:
            self._count("records_handed", len(urls))

    def close(self) -> None:
        self.board.release_all()

    def _count_outcome(self, outcome: ListOutcome) -> None:
        if outcome.event == "none":
            self._count(f"none/{reason_slug(outcome.reason or 'unknown')}")
        else:
            self._count(outcome.event)
        if outcome.drift is not None:
            self._count("drifted")
        if outcome.store_error:
            self._count("store_errors")
        self._count("records", len(outcome.records))

    def _count(self, key: str, n: int = 1) -> None:
        self.crawler.stats.inc_value(f"newscrawl/wrappers/{key}", n)


def _why_sibling_unused(
    outcome: ListOutcome, sibling: SiblingPage | None, no_sibling: str | None
) -> str | None:
    if outcome.event == "applied":
        return NOT_NEEDED
    return no_sibling if sibling is None else outcome.reason


def _locked_records(
    lock: threading.Lock,
    store: WrapperStore | None,
    key: str,
    page: Page,
    pairing: tuple[SiblingPage | None, str | None, bool, bool, bool],
    max_bytes: int,
    max_records: int = MAX_RECORDS_PER_LIST,
) -> ListOutcome:
    """:func:`list_records` under the template's lock (worker thread); ``pairing`` is (sibling,
    the pairing's reason when there is none, single-page fallback on, DWSIE fallback on, confirmed
    fallback on)."""
    with lock:
        return list_records(store, key, page, pairing[0], max_bytes, single_page=pairing[2],
                            no_sibling=pairing[1], max_records=max_records, dwsie=pairing[3],
                            confirmed=pairing[4])
