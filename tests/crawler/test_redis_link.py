"""RedisLink and the Redis password: writes held while Redis is away, saved and replayed in order;
the password read from a file or the environment, never needed in the URL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import redis
from scrapy.utils.test import get_crawler

from pipelines.redis_conn.clients import PASSWORD_ENV, crawl_client
from pipelines.redis_conn.link import HELD, RedisLink
from tests.crawler.demo_helpers import newscrawl


def _link(url: str, spill: Path) -> RedisLink:
    link = RedisLink(get_crawler(settings_dict={}), crawl_client(url), url, spill, max_outage_s=60,
                     hold_max=3)  # fmt: skip
    link.register("push", lambda client, data: client.rpush("test:link", data["n"]))
    return link


def test_writes_held_while_away_are_saved_and_replayed_in_order_by_the_next_link(
    redis_server_factory, tmp_path: Path
) -> None:
    server = redis_server_factory()
    spill = tmp_path / "held-redis.journal"
    link = _link(server.url, spill)
    assert link.send("push", {"n": 0}) == 1
    server.kill()
    assert [link.send("push", {"n": n}) for n in (1, 2, 3)] == [HELD] * 3
    assert not link.up and link.query(lambda c: c.llen("test:link"), "away") == "away"
    link.send("push", {"n": 4})  # past NEWSCRAWL_REDIS_HOLD_MAX (3): dropped and counted
    stats = link.crawler.stats
    assert stats.get_value("newscrawl/redis/held/push") == 3
    assert stats.get_value("newscrawl/redis/dropped/push") == 1
    link.stop()  # Redis still away: what is held goes to the spill file
    assert spill.exists() and stats.get_value("newscrawl/redis/spilled") == 3

    server.start(port=server.port)
    again = _link(server.url, spill)  # a worker started on the same --out
    assert not spill.exists() and len(again.held) == 3
    assert again.flush()
    client = redis.Redis.from_url(server.url)
    try:
        assert client.lrange("test:link", 0, -1) == [b"1", b"2", b"3"]  # the server lost "0"
    finally:
        client.close()
    assert again.crawler.stats.get_value("newscrawl/redis/replayed/push") == 3


def test_the_redis_password_comes_from_a_file_or_the_environment(
    redis_server_factory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = redis_server_factory()
    admin = redis.Redis.from_url(server.url)
    admin.config_set("requirepass", "s3cret pass")
    admin.close()
    monkeypatch.delenv(PASSWORD_ENV, raising=False)

    refused = newscrawl("seed", "--redis", server.url, "https://a.example/")
    assert refused.returncode == 2 and "authenticated" in refused.stderr

    secret = tmp_path / "redis-password"
    secret.write_text("s3cret pass\n")
    pushed = newscrawl("seed", "--redis", server.url, "--redis-password-file", str(secret),
                       "https://a.example/")  # fmt: skip
    assert pushed.returncode == 0, pushed.stderr

    monkeypatch.setenv(PASSWORD_ENV, "s3cret pass")
    pushed = newscrawl("seed", "--redis", server.url, "https://b.example/")
    assert pushed.returncode == 0, pushed.stderr
    client = redis.Redis.from_url(server.url, password="s3cret pass")
    try:
        assert client.llen("newscrawl:seeds") == 2
    finally:
        client.close()


def test_a_worker_started_on_an_out_with_held_writes_replays_them(redis_server: str,
                                                                  tmp_path: Path) -> None:
    """A real worker process on an --out holding `held-redis.journal` (a worker stopped by a long
    outage left it): it starts, replays the held seed push and exits cleanly (the link must not be
    built before the crawl's stats exist: the spider's site rules ask for it lazily)."""

    url = redis_server.rsplit("/", 1)[0] + "/10"
    client = redis.Redis.from_url(url)
    client.flushdb()
    out = tmp_path / "out"
    out.mkdir()
    held = {"kind": "ack", "data": {"members": ["a-request-no-longer-leased"]}}
    (out / "held-redis.journal").write_text(json.dumps(held) + "\n")
    result = newscrawl("worker", "--redis", url, "--out", str(out), "--idle-timeout", "1",
                       "--progress-interval", "0")  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert not (out / "held-redis.journal").exists()
    assert json.loads((out / "summary.json").read_text())["redis"]["unspilled"] == 1
    client.close()
