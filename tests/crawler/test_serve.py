"""``newscrawl serve``: the JSON-RPC service run as a real process on a loopback port, driven by a
real HTTP client (requests). Pages from tests/fixtures/eval (aeb, gerapy_listdetail; SOURCES.md)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

EVAL = Path(__file__).parents[1] / "fixtures" / "eval"
TOKEN = "s3cret-token"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start(*extra: str, env: dict | None = None):
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "crawler.cli", "serve", "--port", str(port),
                             *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            env={**os.environ, **(env or {})})
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            requests.get(url + "/health", timeout=1)
            return proc, url
        except requests.ConnectionError:
            if proc.poll() is not None:
                raise RuntimeError(proc.stdout.read().decode())
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


@pytest.fixture(scope="module")
def server():
    proc, url = _start("--max-bytes", "2000000", "--timeout", "20")
    yield url
    proc.terminate()
    proc.wait(timeout=10)


def _page(name: str, index: int = 0) -> tuple[dict, str]:
    gold = [json.loads(line) for line in open(EVAL / name / "gold.jsonl", encoding="utf-8")][index]
    return gold, (EVAL / name / gold["file"]).read_bytes().decode("utf-8", "replace")


def _call(url: str, method: str, params: object, id_: object = 1, **kw) -> requests.Response:
    return requests.post(url, json={"jsonrpc": "2.0", "id": id_, "method": method,
                                    "params": params}, timeout=60, **kw)


def test_health(server):
    reply = requests.get(server + "/health", timeout=5)
    assert reply.status_code == 200 and reply.json()["status"] == "ok"


def test_extract_pageinfo_returns_the_papers_shape_for_an_article(server):
    _, html = _page("main_text")
    reply = _call(server, "extract_pageinfo", {"html": html, "url": "https://example.org/a"}).json()
    result = reply["result"]
    assert reply["id"] == 1 and set(result) == {"url", "page_type", "titles", "doc"}
    assert result["page_type"] == "CP"
    assert set(result["doc"]) == {"title", "column", "au", "date", "main_img", "cont", "keywords"}
    assert len(result["doc"]["cont"]) > 200


def test_detect_pagetype_on_a_list_page(server):
    gold, html = _page("list_records")
    reply = _call(server, "detect_pagetype", {"html": html}).json()
    assert reply["result"]["page_type"] in ("LP", "CP", "Unknown")
    assert set(reply["result"]) == {"url", "page_type"}


def test_batch_answers_each_call_by_id(server):
    _, html = _page("main_text")
    batch = [{"jsonrpc": "2.0", "id": 7, "method": "detect_pagetype", "params": {"html": html}},
             {"jsonrpc": "2.0", "id": "x", "method": "nope", "params": {}},
             {"jsonrpc": "2.0", "method": "detect_pagetype", "params": {"html": html}}]  # notification
    replies = requests.post(server, json=batch, timeout=60).json()
    by_id = {r["id"]: r for r in replies}
    assert set(by_id) == {7, "x"}
    assert by_id[7]["result"]["page_type"] == "CP"
    assert by_id["x"]["error"]["code"] == -32601


@pytest.mark.parametrize("body, code", [
    (b"{not json", -32700),
    (b"\xff\xfe\x00\x01binary\x00", -32700),
    (b'{"jsonrpc": "1.0", "id": 1, "method": "detect_pagetype", "params": {"html": "x"}}', -32600),
    (b'[]', -32600),
])
def test_malformed_bodies_get_error_objects(server, body, code):
    reply = requests.post(server, data=body, timeout=10)
    assert reply.headers["Content-Type"].startswith("application/json")
    assert reply.json()["error"]["code"] == code
    assert "Traceback" not in reply.text


@pytest.mark.parametrize("params", [{"url": "https://x"}, {"html": 3}, ["<html>"],
                                    {"html": "<p>x</p>", "extra": 1},
                                    {"html": "<p>x</p>", "url": "http://[::1/a"}])
def test_wrong_params_are_invalid_params(server, params):
    reply = _call(server, "extract_pageinfo", params).json()
    assert reply["error"]["code"] == -32602 and reply["id"] == 1


def test_an_unextractable_page_is_an_error_not_a_crash(server):
    reply = _call(server, "extract_pageinfo", {"html": "   "}).json()
    assert reply["error"]["code"] == -32004 and reply["error"]["data"]["reason"]


def test_a_link_that_does_not_split_costs_the_link_not_the_page(server):
    """``urljoin`` raises on ``http://[::1`` (a bracketed host that is no IPv6 address): in a
    page's ``<base>``, canonical URL or links it was an internal error."""
    _, html = _page("list_records", 3)
    bad = '<base href="http://[::1"><link rel="canonical" href="http://[::1/x">'
    html = html.replace("<head>", "<head>" + bad, 1).replace('href="', 'href="http://[::1', 3)
    assert html.count("http://[::1") == 5
    for method in ("extract_pageinfo", "detect_pagetype"):
        reply = _call(server, method, {"html": html, "url": "https://news.example/list/"}).json()
        assert "result" in reply, reply


def test_huge_body_is_refused_with_413(server):
    html = "<p>" + "a" * 2_100_000 + "</p>"
    reply = _call(server, "extract_pageinfo", {"html": html})
    assert reply.status_code == 413 and reply.json()["error"]["code"] == -32003


def test_fifty_concurrent_clients_all_get_answers(server):
    _, html = _page("main_text", 1)

    def one(k: int) -> dict:
        return _call(server, "detect_pagetype", {"html": html}, id_=k).json()

    with ThreadPoolExecutor(50) as pool:
        replies = list(pool.map(one, range(50)))
    assert sorted(r["id"] for r in replies) == list(range(50))
    assert all(r["result"]["page_type"] == "CP" for r in replies)


def test_bearer_token_is_required_when_set():
    proc, url = _start("--token-env", "NEWSCRAWL_TEST_TOKEN", env={"NEWSCRAWL_TEST_TOKEN": TOKEN})
    try:
        _, html = _page("main_text")
        refused = _call(url, "detect_pagetype", {"html": html})
        assert refused.status_code == 401 and refused.json()["error"]["code"] == -32002
        wrong = _call(url, "detect_pagetype", {"html": html},
                      headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        ok = _call(url, "detect_pagetype", {"html": html},
                   headers={"Authorization": f"Bearer {TOKEN}"})
        assert ok.status_code == 200 and ok.json()["result"]["page_type"] == "CP"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_call_over_the_timeout_is_a_timeout_error():
    proc, url = _start("--timeout", "0.001")
    try:
        _, html = _page("main_text")
        reply = _call(url, "extract_pageinfo", {"html": html}).json()
        assert reply["error"]["code"] == -32000
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_binds_loopback_by_default():
    from crawler.rpc_service import ServiceConfig

    assert ServiceConfig().host == "127.0.0.1"


def test_without_allow_fetch_a_url_alone_is_invalid_params(server):
    reply = _call(server, "detect_pagetype", {"url": "http://example.org/"}).json()
    assert reply["error"]["code"] == -32602


@pytest.mark.parametrize("url, reason", [
    ("http://127.0.0.1:9/", "loopback"), ("http://localhost/", "loopback"),
    ("http://169.254.169.254/latest/meta-data", "link_local"), ("http://10.1.2.3/", "private"),
    ("http://[::ffff:192.168.0.1]/", "private"), ("file:///etc/passwd", "scheme"),
])
def test_allow_fetch_refuses_private_addresses(fetching_server, url, reason):
    reply = _call(fetching_server, "detect_pagetype", {"url": url}).json()
    assert reply["error"]["code"] == -32005 and reply["error"]["data"]["reason"] == reason


@pytest.fixture(scope="module")
def fetching_server():
    proc, url = _start("--allow-fetch", "--timeout", "10")
    yield url
    proc.terminate()
    proc.wait(timeout=10)


def test_huge_chunked_body_is_refused_with_413(server):
    """No Content-Length (chunked upload): the limit still holds while reading."""
    chunks = (b'{"jsonrpc": "2.0", "id": 1, "method": "detect_pagetype", "params": {"html": "'
              if k == 0 else b"a" * 500_000 for k in range(6))
    reply = requests.post(server, data=chunks, timeout=30,
                          headers={"Content-Type": "application/json"})
    assert reply.status_code == 413 and reply.json()["error"]["code"] == -32003


def test_a_notification_gets_no_reply_even_when_it_fails(server):
    reply = requests.post(server, json={"jsonrpc": "2.0", "method": "nope", "params": {}},
                          timeout=10)
    assert reply.status_code == 204 and reply.content == b""


@pytest.mark.slow
def test_serve_bench_prints_a_row_per_concurrency_level():
    run = subprocess.run([sys.executable, "-m", "crawler.cli", "serve-bench",
                          str(EVAL / "main_text"), "--limit", "6", "--clients", "1,3"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    rows = [line for line in run.stdout.splitlines() if line.startswith("| ") and "clients" not in line]
    assert [row.split("|")[1].strip() for row in rows] == ["1", "3"]
    assert all(float(row.split("|")[2]) > 0 for row in rows)
    [paired] = [line for line in run.stdout.splitlines()
                if line.startswith("one client, interleaved")]
    assert float(paired.rsplit("share ", 1)[1]) > 0


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (read from /proc: the tests run on Linux)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:  # gone meanwhile
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def test_the_pool_processes_are_started_and_warm_before_the_service_answers():
    # the pool used to start its processes on the first calls, which then paid the chain's
    # one-time loads (models, language identifier, date parser): the first call 0.7 s
    proc, url = _start("--workers", "2")
    try:
        assert len(_children(proc.pid)) == 2
        _, html = _page("main_text")
        assert _call(url, "extract_pageinfo", {"html": html}).json()["result"]["page_type"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _answer_within(url: str, html: str, seconds: float) -> dict:
    """The first result of ``extract_pageinfo`` within ``seconds`` (errors meanwhile are kept)."""
    deadline, errors = time.monotonic() + seconds, []
    while time.monotonic() < deadline:
        reply = _call(url, "extract_pageinfo", {"html": html}).json()
        if "result" in reply:
            return reply["result"]
        errors.append(reply["error"]["code"])
        time.sleep(0.2)
    raise AssertionError(f"no answer within {seconds} s; errors {errors}")


@pytest.mark.faults
def test_a_killed_pool_process_is_replaced_and_the_service_answers_again():
    # with concurrent.futures' pool one dead process broke the pool: every later call -32603
    proc, url = _start("--workers", "1")
    try:
        [worker] = _children(proc.pid)
        os.kill(worker, 9)
        _, html = _page("main_text")
        first = _call(url, "extract_pageinfo", {"html": html}).json()
        assert "result" in first or first["error"]["code"] == -32603
        assert _answer_within(url, html, 60)["page_type"] == "CP"
        assert len(_children(proc.pid)) == 1 and worker not in _children(proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.faults
def test_a_timed_out_call_frees_its_process_for_a_fresh_one():
    # the timed-out extraction used to keep running in its pool process, which stayed busy
    proc, url = _start("--workers", "1", "--timeout", "0.001")
    try:
        [worker] = _children(proc.pid)
        _, html = _page("main_text")
        assert _call(url, "extract_pageinfo", {"html": html}).json()["error"]["code"] == -32000
        deadline = time.monotonic() + 10
        while worker in _children(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert worker not in _children(proc.pid)
        assert requests.get(url + "/health", timeout=5).json()["status"] == "ok"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_call_frame_carries_the_pages_as_sent():
    """The frame to a pool process (JSON head, then the pages as raw UTF-8: no pickle) gives back
    the params it was built from: other keys, non-ASCII text, a lone surrogate a request's JSON
    may hold, an empty page, a call without a page."""
    from crawler.rpc_service import _HEADER, _call_frame, _read_call

    for params in ({"html": "<h1>Zürich — 北京</h1>\ud800", "url": "https://example.org/ä",
                    "sibling_html": "<p>s</p>"}, {"html": ""}, {"url": "https://example.org/"}):
        frame = _call_frame("extract_pageinfo", params)
        assert _HEADER.unpack_from(frame)[0] == len(frame) - _HEADER.size
        assert _read_call(frame[_HEADER.size:]) == ("extract_pageinfo", params)


def test_a_non_ascii_page_reaches_the_pool_process_whole(server):
    _, html = _page("main_text")
    lead = "</em>) — The New York State Attorney General (NYAG)"
    assert html.count(lead) == 1
    html = html.replace(lead, lead.replace("The New York", "Zürich/北京 ünïcödé: The New York"))
    reply = _call(server, "extract_pageinfo", {"html": html}).json()
    assert "— Zürich/北京 ünïcödé: The New York State" in reply["result"]["doc"]["cont"]


def test_an_answer_is_passed_on_as_the_pool_process_wrote_it():
    """The server splices a pool process's answer into the response without decoding it: the
    response is the JSON-RPC object, valid UTF-8, with a lone surrogate escaped."""
    from crawler.rpc_service import _OUTCOMES, _json_out, _response_bytes

    outcome = {"result": {"page_type": "CP", "doc": {"cont": "Zürich 北京 \ud800"}}}
    answer = _json_out(outcome)
    assert answer.startswith(_OUTCOMES)
    for id_ in (7, "é", None, 1.5):
        data = _response_bytes(id_, answer)
        assert json.loads(data.decode("utf-8")) == {"jsonrpc": "2.0", "id": id_, **outcome}
    assert _json_out({"a": "Zürich"}) == '{"a":"Zürich"}'.encode()
