"""The crawl process settles the garbage collector before crawling (crawler/runner.py): start-up's
objects frozen out of its sight, fewer collections. In a subprocess: freezing is process-wide."""

from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = """
import gc, json
before = (gc.get_threshold(), gc.get_freeze_count())
from crawler.runner import GC_THRESHOLDS, settle_gc
settle_gc()
print(json.dumps({"before": before, "after": [gc.get_threshold(), gc.get_freeze_count()],
                  "wanted": GC_THRESHOLDS}))
"""


def test_settle_gc_freezes_start_up_objects_and_raises_the_thresholds() -> None:
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                            check=True, timeout=60)  # fmt: skip
    seen = json.loads(result.stdout)
    (threshold, frozen), (threshold_after, frozen_after) = seen["before"], seen["after"]
    assert frozen == 0 and threshold == [700, 10, 10]  # Python's defaults, untouched by imports
    assert threshold_after == seen["wanted"] and threshold_after[0] > threshold[0]
    assert frozen_after > 10_000  # the modules and classes Scrapy and the extractor import
