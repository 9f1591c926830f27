"""ThrottledLog: one line per interval, the next line counting what was left out."""

from __future__ import annotations

import logging

from pipelines.throttled_log import ThrottledLog


def test_one_line_per_interval_and_the_next_counts_the_rest(caplog, monkeypatch) -> None:
    clock = [100.0]
    monkeypatch.setattr("pipelines.throttled_log.time.monotonic", lambda: clock[0])
    log = ThrottledLog(logging.getLogger("throttled-test"), interval_s=30)
    with caplog.at_level("WARNING", logger="throttled-test"):
        logged = [log.warning("store down: %s", n) for n in range(4)]
        clock[0] += 31
        logged.append(log.warning("store down: %s", 4))
    assert logged == [True, False, False, False, True]
    messages = [r.getMessage() for r in caplog.records]
    assert messages == ["store down: 0",
                        "store down: 4 (3 more like it in the last 30 s not logged)"]
