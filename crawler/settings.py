"""Scrapy settings of the newscrawl project (``scrapy.cfg``: ``default = crawler.settings``).

Embedded mode by default: Scrapy's own scheduler, output under ``./output``. ``crawler.cli`` switches
to distributed mode when ``NEWSCRAWL_REDIS_URL`` is set (``--redis URL``, or ``-s`` with ``scrapy crawl``):
the ``Distributed`` add-on (:mod:`crawler.addons`) applies :func:`crawler.scheduling.distributed_settings`.
Project settings carry the ``NEWSCRAWL_`` prefix.
"""

from __future__ import annotations

from pipelines import CAPTURE_MIDDLEWARES, DEFAULT_PIPELINES
from extractors.page import DEFAULT_MAX_BYTES
from pipelines.lists.wrapper_store import REDIS_KEY as WRAPPERS_REDIS_KEY
from pipelines.siblings.parsed_pages import DEFAULT_PARSED_PAGES, DEFAULT_SIBLING_PAGES

BOT_NAME = "newscrawl"
SPIDER_MODULES = ["crawler.spiders"]
NEWSPIDER_MODULE = "crawler.spiders"

USER_AGENT = (
    "newscrawl/0.1 (news crawl-and-extract research crawler; +https://github.com/newscrawl)"
)
ROBOTSTXT_OBEY = True
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"

# Politeness: AutoThrottle adapts the delay to each site's latency (the demo turns it off: loopback).
AUTOTHROTTLE_ENABLED = True
AUTOTHROTTLE_START_DELAY = 1.0
AUTOTHROTTLE_MAX_DELAY = 30.0
AUTOTHROTTLE_TARGET_CONCURRENCY = 2.0
CONCURRENT_REQUESTS = 16
CONCURRENT_REQUESTS_PER_DOMAIN = 4
# Outputs of one response processed at once. Scrapy starts this many asyncio tasks for every
# response, whatever its output (0.72 ms of CPU per response at Scrapy's 100, 0.14 ms at 16); a
# page yields one item, and its link requests only go to the scheduler.
CONCURRENT_ITEMS = 16
DOWNLOAD_TIMEOUT = 30
RETRY_TIMES = 1
REDIRECT_MAX_TIMES = 10
# No remote code-execution surfaces on crawl workers: the telnet console, and Scrapy 2.19's
# RemoteControl extension (an HTTP server on localhost that runs Python code sent to it, with a token
# written to the user's profile folder), which is on by default.
TELNETCONSOLE_ENABLED = False
REMOTE_CONTROL_ENABLED = False
LOG_LEVEL = "INFO"
# Name dropped and scraped items by URL: page items carry the raw body until extraction.
LOG_FORMATTER = "crawler.logformatter.NewsLogFormatter"
# Breadth-first: list pages near the seeds before the articles behind them.
DEPTH_PRIORITY = 1
SCHEDULER_MEMORY_QUEUE = "scrapy.squeues.FifoMemoryQueue"
# Embedded mode: Scrapy's scheduler + a kill-safe frontier journal in the output folder, so a rerun
# into the same --out resumes (crawler/scheduling/resume.py); NEWSCRAWL_FRESH (--fresh) starts over.
SCHEDULER = "crawler.scheduling.resume.ResumableScheduler"
# Fronts (seeds, list-shaped links) are fetched again each round, articles once (crawler/rounds.py).
REQUEST_FINGERPRINTER_CLASS = "crawler.rounds.RoundFingerprinter"
NEWSCRAWL_ROUND = 0  # the round id of this crawl's fronts; 0: the start time (each run is a round)
NEWSCRAWL_ROUNDS = 1  # rounds in one process (`newscrawl crawl --rounds N`)
NEWSCRAWL_ROUND_EVERY = 3600.0  # seconds from one round's start to the next's (`--every S`)
NEWSCRAWL_FRESH = False
# An article fetched more than this many days ago may be fetched (and written) again, for updates;
# 0: never (`--refetch-after DAYS`; crawler/scheduling/seen.py). Same value on every worker.
NEWSCRAWL_REFETCH_AFTER_DAYS = 30.0
# Tells the scheduler when a request it handed out is done (crawler/scheduling/tracker.py).
SPIDER_MIDDLEWARES = {"crawler.scheduling.tracker.RequestDoneMiddleware": 1}

# Pages larger than this are skipped (newscrawl/skipped/too_large); also the download size cap
# (a gzip bomb stops there too, counted too_large).
NEWSCRAWL_MAX_PAGE_BYTES = DEFAULT_MAX_BYTES  # 10 MB, written once in extractors/page.py
DOWNLOAD_MAXSIZE = NEWSCRAWL_MAX_PAGE_BYTES
# Parsed pages kept by the extract pipeline (pipelines/siblings/parsed_pages.py): the spider's parse
# of a page while it waits for its sibling, and parsed siblings for the next article of their
# template.
NEWSCRAWL_PARSED_PAGES = DEFAULT_PARSED_PAGES  # 128
NEWSCRAWL_SIBLING_PAGES = DEFAULT_SIBLING_PAGES  # 32

# Scope and SSRF (crawler/scope.py, crawler/downloadermiddlewares/address_guard.py): no request
# reaches a loopback, private, link-local or reserved address, after DNS resolution and on every
# redirect and meta refresh, except a seed's own scheme, host and port, and the networks listed
# here (CIDR strings, e.g. ["10.0.0.0/8"]). Refusals: newscrawl/refused/<reason>.
NEWSCRAWL_ALLOWED_NETWORKS: list[str] = []
# Same-site links followed per page (crawler/link_scan.py); more are cut: newscrawl/capped/links.
NEWSCRAWL_MAX_LINKS_PER_PAGE = 5_000
# Records kept per list page (pipelines/lists/stage.py); more are cut: newscrawl/capped/records.
NEWSCRAWL_MAX_RECORDS_PER_LIST = 5_000

ITEM_PIPELINES = dict(DEFAULT_PIPELINES)
# The WARC archive is written at the downloader: every exchange, payload as received (pipelines/
# archive/capture.py); the archive pipeline then checks each page item's pointer into it.
# One dict for every downloader middleware of ours (branches once each assigned their own and the
# last assignment silently won): the request tracker first, the SSRF guard before Scrapy's own, the
# WARC capture after them.
# Shared politeness (distributed mode): requests of one site in flight across all workers, and the
# least time between two of their starts (robots.txt Crawl-delay when longer).
NEWSCRAWL_SITE_CONCURRENCY = 2
NEWSCRAWL_SITE_DELAY = 0.0
DOWNLOADER_MIDDLEWARES = {
    "crawler.scheduling.tracker.RequestDoneMiddleware": 1,
    "crawler.downloadermiddlewares.address_guard.AddressGuard": 60,
    # distributed mode only: per-site concurrency and delay shared through Redis
    "crawler.downloadermiddlewares.politeness.SharedPoliteness": 130,
    # Scrapy's meta refresh, reading the refresh from the body's head instead of decoding every
    # whole page on the reactor: the same refreshes and settings, 0.288 -> 0.066 ms a page on the
    # crawl bench's pages (crawler/downloadermiddlewares/meta_refresh.py)
    "scrapy.downloadermiddlewares.redirect.MetaRefreshMiddleware": None,
    "crawler.downloadermiddlewares.meta_refresh.MetaRefresh": 580,
    **CAPTURE_MIDDLEWARES,
}

EXTENSIONS = {
    "crawler.extensions.progress.ProgressLine": 500,
    "crawler.extensions.summary.CrawlSummary": 510,
    # Distributed mode only (NotConfigured without NEWSCRAWL_REDIS_URL): wait for work when idle.
    "crawler.scheduling.idle.WaitForWork": 520,
    # Heartbeat: the longest reactor stall and the peak RSS, in the stats and summary.json.
    "crawler.extensions.reactor_health.ReactorHealth": 530,
    # The threads that run the page work off the reactor (crawler/extensions/threads.py).
    "crawler.extensions.threads.PageThreads": 540,
}
#: Threads for the scan, the extraction and the store calls (asyncio's default would be
#: min(32, cores + 4): more GIL hand-offs, more CPU, no more speed; 0 keeps it).
NEWSCRAWL_THREADS = 2
NEWSCRAWL_REACTOR_PROBE_INTERVAL = 0.05
NEWSCRAWL_PROGRESS_INTERVAL = 10.0

# Output folders (the CLI sets both from --out; Scrapy feed exports replace these defaults, see
# ADDONS).
NEWSCRAWL_JSONL_DIR = "output"
NEWSCRAWL_WARC_DIR = "output/warc"

# Distributed mode (set by the CLI from --redis); Redis list the workers pop seed URLs from.
NEWSCRAWL_REDIS_URL = None
# Set, it makes the crawl one worker of a shared crawl on that Redis (crawler/addons.py), also for
# `scrapy crawl news -s NEWSCRAWL_REDIS_URL=redis://...`.
# FeedOutput: with Scrapy feed exports (`scrapy crawl news -O items.jsonl`) and no output folder
# given, the defaults above are switched off: nothing is written to ./output.
ADDONS = {"crawler.addons.Distributed": 0, "crawler.addons.FeedOutput": 0}
NEWSCRAWL_SEEDS_KEY = "newscrawl:seeds"
# A worker closes after the shared queue has been empty this many seconds; 0 = wait forever.
NEWSCRAWL_IDLE_TIMEOUT = 0.0
# Leased requests (crawler/scheduling/scheduler.py): a request taken from the shared queue is leased
# this long, renewed every third of it while its worker lives; every worker puts expired leases back
# in the queue every NEWSCRAWL_LEASE_REAP_INTERVAL seconds.
NEWSCRAWL_LEASE_SECONDS = 30.0
NEWSCRAWL_LEASE_REAP_INTERVAL = 5.0
# A worker that found the shared queue empty looks again this often (seconds; 0: only when Scrapy's
# engine asks, which an idle engine does every 5 s); crawler/scheduling/scheduler.py.
NEWSCRAWL_QUEUE_POLL_INTERVAL = 0.2
# Redis outages (pipelines/redis_conn/link.py): writes held in memory (at most
# NEWSCRAWL_REDIS_HOLD_MAX) and replayed when Redis is back; a worker stops (exit code 3) once Redis has been away longer than
# NEWSCRAWL_REDIS_MAX_OUTAGE seconds, saving what it holds to <out>/held-redis.journal.
NEWSCRAWL_REDIS_MAX_OUTAGE = 300.0
NEWSCRAWL_REDIS_HOLD_MAX = 100_000

# PSNT wrappers of list pages (pipelines/lists/wrapper_store.py, pipelines/lists/stage.py): on by
# default; stored as JSON files in NEWSCRAWL_WRAPPER_DIR (default: <NEWSCRAWL_JSONL_DIR>/wrappers),
# or in the Redis hash NEWSCRAWL_WRAPPER_KEY in distributed mode. A list page's links wait at most
# NEWSCRAWL_RECORDS_WAIT seconds for its records (requested first, see crawler/spiders/news.py). A
# list page with no wrapper and no sibling gets records from a wrapper induced from it alone, not
# stored (NEWSCRAWL_WRAPPERS_SINGLE_PAGE; off: no records, as before).
NEWSCRAWL_WRAPPERS_ENABLED = True
NEWSCRAWL_WRAPPERS_SINGLE_PAGE = True
# On: where no wrapper holds (no sibling, or its induction found nothing), the records of DWSIE's
# list nodes come first (paper 002). An opt-in: on the 80 annotated list pages it raises pooled
# record F1 from 0.685 to 0.806 but lowers precision from 0.940 to 0.854, under the 0.95 the crawl
# holds to (it follows record links); docs/evaluation.md "DWSIE".
NEWSCRAWL_LISTS_DWSIE = False
# On (and NEWSCRAWL_WRAPPERS_SINGLE_PAGE on): where no wrapper holds and DWSIE's opt-in is off, the
# records DWSIE's list subtrees and a wrapper induced from the page alone agree on (the single-page
# wrapper's own where DWSIE finds no list; where the two disagree, DWSIE's subtrees of a repeated
# markup, else none). On the 80 annotated list pages, pooled record P / R / F1: 0.940 / 0.539 /
# 0.685 (single-page wrapper alone) -> 0.959 / 0.734 / 0.832 -> 0.958 / 0.756 / 0.845 (repeated
# markups); docs/evaluation.md "List records at precision 0.95" and "List records, third round".
NEWSCRAWL_LISTS_CONFIRMED = True
NEWSCRAWL_WRAPPER_DIR = None
NEWSCRAWL_WRAPPER_KEY = WRAPPERS_REDIS_KEY  # pipelines/lists/wrapper_store.py
NEWSCRAWL_RECORDS_WAIT = 90.0
