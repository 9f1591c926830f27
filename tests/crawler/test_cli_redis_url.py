"""A wrong Redis URL stops the distributed commands at start-up: exit code 2, a clear message."""

from __future__ import annotations

import pytest

from tests.crawler.demo_helpers import closed_port, newscrawl


@pytest.mark.parametrize(
    "command",
    [
        ["worker"],
        ["seed", "http://example.invalid/"],
        ["crawl", "http://example.invalid/"],
    ],
)
def test_unreachable_redis_exits_2_naming_the_url(command: list[str], tmp_path) -> None:
    url = f"redis://127.0.0.1:{closed_port()}/0"
    result = newscrawl(
        *command,
        "--redis",
        url,
        *(["--out", str(tmp_path)] if command[0] != "seed" else []),
        timeout=60,
    )
    assert result.returncode == 2
    assert url in result.stderr and "Redis" in result.stderr
    assert "Traceback" not in result.stderr


def test_malformed_redis_url_exits_2(tmp_path) -> None:
    result = newscrawl("worker", "--redis", "http://not-redis/", "--out", str(tmp_path), timeout=60)
    assert result.returncode == 2
    assert "http://not-redis/" in result.stderr and "Traceback" not in result.stderr
