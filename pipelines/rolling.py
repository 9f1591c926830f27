"""Rolling output files shared by the WARC and JSONL sinks: names and the in-use lock.

A sink writes ``<prefix>-<UTC stamp>-<pid>-<serial><suffix>`` and holds an exclusive
``flock`` on it while writing, so start-up repair never touches a file another live
process (a second worker on the same folder) is still writing.
"""

from __future__ import annotations

import fcntl
import os
import time

__all__ = ["lock_or_none", "rolling_name"]


def rolling_name(prefix: str, serial: int, suffix: str) -> str:
    """The file name of the ``serial``-th file this process opens, stamped with the UTC time.

    >>> rolling_name("items", 3, ".jsonl").endswith(f"-{os.getpid()}-00003.jsonl")
    True
    """
    stamp = time.strftime("%Y%m%d%H%M%S", time.gmtime())
    return f"{prefix}-{stamp}-{os.getpid()}-{serial:05d}{suffix}"


def lock_or_none(fd: int) -> int | None:
    """Take an exclusive, non-blocking lock on ``fd``; ``None`` if another process holds one."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return None
    return fd
