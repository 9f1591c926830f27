"""WrapperStore: JSON files (write, reload, atomic) and a real Redis hash (JSON values, errors)."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import pytest
import redis

from pipelines.lists.stage import ListStage
from pipelines.lists.wrapper_store import (
    HISTORY_LEN,
    FileWrapperStore,
    MemoryWrapperStore,
    RedisWrapperStore,
    StoredWrapper,
    drift_reason,
    wrapper_store_from_crawler,
)
from tests.pipelines.helpers import make_crawler, run

KEY = "ifixit.com/Parts?p=<n1>"


def stored(key: str = KEY, notation: str = "html.body.div.ul(1)(li.a)[li]") -> StoredWrapper:
    return StoredWrapper(
        key=key,
        wrapper={"version": 1, "notation": notation},
        notation=notation,
        induced_from=["https://www.ifixit.com/Parts?p=1", "https://www.ifixit.com/Parts?p=2"],
        induced_at="2026-11-22T19:00:00Z",
    )


def test_file_store_writes_json_and_a_new_store_reloads_it(tmp_path: Path) -> None:
    store = FileWrapperStore(tmp_path / "wrappers")
    assert store.get(KEY) is None
    store.put(stored())
    store.matched(KEY, 24)
    (path,) = (tmp_path / "wrappers").iterdir()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["key"] == KEY and data["matched"] == 1 and data["history"] == [24]
    again = FileWrapperStore(tmp_path / "wrappers").get(KEY)  # the next run
    assert again == StoredWrapper.from_json(data) and again.induced_from == stored().induced_from
    assert again.matched == 1


def test_file_store_write_is_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = FileWrapperStore(tmp_path)
    store.put(stored(notation="first"))
    before = store.path(KEY).read_bytes()

    def crash(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError):
        store.put(stored(notation="second"))
    assert store.path(KEY).read_bytes() == before  # the old file is whole
    assert [p.name for p in tmp_path.iterdir()] == [store.path(KEY).name]  # no temp file left


def test_file_store_ignores_an_unreadable_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    store = FileWrapperStore(tmp_path)
    store.path(KEY).write_text("{not json", encoding="utf-8")
    assert store.get(KEY) is None
    assert "unreadable wrapper file" in caplog.text
    other = stored()
    other.key = "another/<slug>"
    store.path(KEY).write_text(json.dumps(other.to_json()), encoding="utf-8")
    assert FileWrapperStore(tmp_path).get(KEY) is None  # a file of another key: not ours


def test_history_keeps_the_last_counts() -> None:
    store = MemoryWrapperStore()
    store.put(stored())
    for n in range(HISTORY_LEN + 5):
        store.matched(KEY, n)
    assert store.get(KEY).history == list(range(5, HISTORY_LEN + 5))
    assert store.get(KEY).matched == HISTORY_LEN + 5


def test_drift_rule() -> None:
    assert drift_reason(24, [24, 24]) is None
    assert drift_reason(13, [24, 24]) is None  # half the usual records: a short last page
    assert drift_reason(11, [24, 24]) == "records dropped from a median of 24 to 11"
    assert drift_reason(3, []) == "fewer than 4 records"


def test_stored_wrapper_rejects_foreign_json() -> None:
    with pytest.raises(ValueError):
        StoredWrapper.from_json({"key": KEY})
    with pytest.raises(ValueError):
        StoredWrapper.from_json({**stored().to_json(), "history": None})


def test_redis_store_keeps_json_values(redis_server: str) -> None:
    client = redis.Redis.from_url(redis_server)
    hash_key = f"test:wrappers:{uuid.uuid4().hex}"
    store = RedisWrapperStore(client, hash_key)
    assert store.get(KEY) is None
    store.put(stored())
    updated = store.matched(KEY, 24)
    assert updated.matched == 1 and updated.history == [24]
    raw = client.hget(hash_key, KEY)
    assert raw.startswith(b"{")  # JSON, never pickle (b"\x80...")
    assert json.loads(raw)["history"] == [24]
    other = RedisWrapperStore(redis.Redis.from_url(redis_server), hash_key)  # another worker
    assert other.get(KEY) == updated
    client.hset(hash_key, "bad", b"\x80\x04not json")
    assert store.get("bad") is None


def test_settings_choose_the_store(tmp_path: Path, redis_server: str) -> None:
    folder = wrapper_store_from_crawler(make_crawler({"NEWSCRAWL_JSONL_DIR": str(tmp_path)}))
    assert isinstance(folder, FileWrapperStore) and folder.folder == tmp_path / "wrappers"
    shared = wrapper_store_from_crawler(make_crawler({"NEWSCRAWL_REDIS_URL": redis_server}))
    assert isinstance(shared, RedisWrapperStore) and shared.key == "newscrawl:wrappers"


def test_redis_outage_is_counted_and_the_page_goes_on(redis_server_factory) -> None:
    server = redis_server_factory()
    crawler = make_crawler({"NEWSCRAWL_REDIS_URL": server.url})
    stage = ListStage.from_crawler(crawler)
    server.kill()
    assert run(stage.has_wrapper(KEY)) is False
    assert crawler.stats.get_value("newscrawl/wrappers/store_errors") == 1
