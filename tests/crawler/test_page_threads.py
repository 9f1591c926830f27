"""PageThreads (crawler/extensions/threads.py): the page work runs in NEWSCRAWL_THREADS threads of
the reactor's asyncio loop. In a subprocess: the reactor, once installed, is process-wide."""

from __future__ import annotations

import json
import subprocess
import sys

from scrapy.settings import Settings

SCRIPT = """
import asyncio, json, sys, threading, time
from scrapy.utils.reactor import install_reactor
install_reactor("twisted.internet.asyncioreactor.AsyncioSelectorReactor")
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import run_in_thread
from scrapy.utils.test import get_crawler
from crawler.extensions.threads import PageThreads

threads = json.loads(sys.argv[1])
settings = {} if threads is None else {"NEWSCRAWL_THREADS": threads}
try:
    PageThreads.from_crawler(get_crawler(settings_dict=settings))
    configured = True
except NotConfigured:
    configured = False

def work():
    time.sleep(0.05)  # long enough for every call to be in flight at once
    return threading.current_thread().name

async def main():
    return await asyncio.gather(*(run_in_thread(work) for _ in range(12)))

names = asyncio.get_event_loop().run_until_complete(main())
print(json.dumps({"configured": configured, "names": sorted(set(names))}))
"""


def page_threads(threads: int | None) -> dict:
    result = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(threads)],
                            capture_output=True, text=True, check=True, timeout=60)  # fmt: skip
    return json.loads(result.stdout)


def test_page_work_runs_in_the_configured_threads() -> None:
    default = page_threads(None)  # the settings module's default: 2
    assert default["configured"]
    assert len(default["names"]) == 2
    assert all(name.startswith("newscrawl-page") for name in default["names"])
    one = page_threads(1)
    assert one["configured"] and len(one["names"]) == 1


def test_zero_keeps_asyncios_default_executor() -> None:
    kept = page_threads(0)
    assert not kept["configured"]
    assert len(kept["names"]) > 2  # asyncio's own: min(32, cores + 4) threads
    assert not any(name.startswith("newscrawl-page") for name in kept["names"])


def test_the_project_settings_enable_it_with_two_threads() -> None:
    settings = Settings()
    settings.setmodule("crawler.settings", priority="project")
    assert "crawler.extensions.threads.PageThreads" in settings.getdict("EXTENSIONS")
    assert settings.getint("NEWSCRAWL_THREADS") == 2
