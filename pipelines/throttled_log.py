"""One warning per interval for errors that repeat on every page while a store is away.

While Redis is unreachable, every page's sibling-store and wrapper-store call fails the same way;
a warning per page (thousands a minute) buries the one line that matters. The link
(``pipelines/redis_conn/link.py``) already logs an outage once per 30 s; the stores' warnings follow
the same rhythm here, each line saying how many like it were left out since the last. The
failures themselves are still counted per page in the stats (``store_errors``).

The standard library's ``logging`` has no rate limit of its own (a ``Filter`` could drop records,
but not say how many it dropped), hence this small class.
"""

from __future__ import annotations

import logging
import threading
import time

__all__ = ["INTERVAL_S", "ThrottledLog"]

#: Seconds between two lines of one throttled log: the link's outage rhythm.
INTERVAL_S = 30.0


class ThrottledLog:
    """``warning()`` logs at most once per ``interval_s``; the next line counts what it left out.

    Thread-safe: the stores are called from Scrapy's thread pool.
    """

    def __init__(self, logger: logging.Logger, interval_s: float = INTERVAL_S) -> None:
        self.logger, self.interval_s = logger, interval_s
        self._lock = threading.Lock()
        self._last: float | None = None
        self.suppressed = 0

    def warning(self, msg: str, *args: object) -> bool:
        """Log ``msg % args`` unless a line went out less than ``interval_s`` ago; True if logged."""
        now = time.monotonic()
        with self._lock:
            if self._last is not None and now - self._last < self.interval_s:
                self.suppressed += 1
                return False
            left_out, self.suppressed, self._last = self.suppressed, 0, now
        if left_out:
            msg += " (%d more like it in the last %.0f s not logged)"
            args = (*args, left_out, self.interval_s)
        self.logger.warning(msg, *args)
        return True
