"""The DWSIE service of paper 002 (2.4): ``detect_pagetype`` and ``extract_pageinfo`` over JSON-RPC 2.0.

One aiohttp application. ``POST /`` takes a JSON-RPC request object or a batch (an array of them);
``GET /health`` answers ``{"status": "ok", ...}``. Both methods take ``{html, url?, sibling_html?}``;
``detect_pagetype`` returns ``{url, page_type}``, ``extract_pageinfo`` the paper's shape
``{url, page_type, titles: [{title, href, au, date}], doc}`` (:func:`extractors.pageinfo.paper_shape`).

Safe by default (:class:`ServiceConfig`): it binds loopback unless told otherwise; a body over
``max_bytes`` is refused before it is read whole (HTTP 413); each call has ``timeout`` seconds;
at most ``max_in_flight`` calls are admitted at once (more get "server busy", HTTP 503); extraction
runs off the event loop in ``workers`` processes (:class:`WorkerPool`), each warmed up (models,
language identifier, date parser) before the service takes calls; with a ``token`` every
call needs ``Authorization: Bearer <token>`` (HTTP 401 otherwise). Every failure is a JSON-RPC error
object; a bug is logged here and answered with code -32603 and no traceback. The service fetches no
URL (``url`` only names the page and resolves its links) unless ``allow_fetch`` is set: then a call
with ``url`` and no ``html`` fetches the page, never from a private, loopback, link-local or other
non-global address (:mod:`crawler.rpc_fetch`).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import multiprocessing
import socket
import struct
from dataclasses import dataclass
from urllib.parse import urlsplit

from aiohttp import web

logger = logging.getLogger(__name__)

__all__ = ["METHODS", "ServiceConfig", "WorkerPool", "build_app"]

METHODS = ("detect_pagetype", "extract_pageinfo")
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL = (
    -32700, -32600, -32601, -32602, -32603)
#: Server-defined codes (JSON-RPC reserves -32000 to -32099 for them).
TIMEOUT, BUSY, UNAUTHORIZED, TOO_LARGE, BAD_PAGE, FETCH_REFUSED = (
    -32000, -32001, -32002, -32003, -32004, -32005)
#: Calls in one batch at most (a batch is admitted as one request).
MAX_BATCH = 50
_PARAMS = {"html": str, "url": str, "sibling_html": str}


@dataclass(frozen=True, slots=True)
class ServiceConfig:
    """Limits of one server; the defaults are the safe ones."""

    host: str = "127.0.0.1"
    port: int = 8080
    max_bytes: int = 5_000_000
    timeout: float = 30.0
    max_in_flight: int = 64
    workers: int = 2
    token: str | None = None
    allow_fetch: bool = False


class RpcError(Exception):
    def __init__(self, code: int, message: str, data: object = None) -> None:
        super().__init__(message)
        self.code, self.message, self.data = code, message, data

    def to_dict(self) -> dict:
        error = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


def run_method(method: str, params: dict) -> dict:
    """One call, in a pool process: classify (and extract) the page; a bad page is an error."""
    from extractors.dwsie import default_node_model
    from extractors.errors import BadInput
    from extractors.pageinfo import page_info, paper_shape

    try:
        info = page_info(params["html"], default_node_model(), url=params.get("url"),
                         sibling=params.get("sibling_html"), article=method == "extract_pageinfo")
    except BadInput as exc:
        return {"error": {"code": BAD_PAGE, "message": "the page cannot be extracted",
                          "data": {"reason": exc.reason}}}
    shape = paper_shape(info)
    if method == "detect_pagetype":
        return {"result": {"url": shape["url"], "page_type": shape["page_type"]}}
    return {"result": shape}


def _warm_worker() -> None:
    """What a pool process does first: the chain's one-time loads (models, language identifier,
    date parser; :func:`extractors.warmup.warm_up`) before its first call, which otherwise paid
    them (an aeb page's first ``extract_pageinfo`` in a fresh process 730 ms, its second 34 ms).
    A failed warm-up is logged and the process serves anyway, loading on first use."""
    from extractors.warmup import warm_up

    try:
        warm_up()
    except Exception:  # the calls will meet the same error and answer it as errors
        logger.exception("warm-up of a pool process failed; it loads on first use")


#: A frame between the service and a pool process: its length (8 bytes, network order), then
#: its body (:func:`_call_frame` writes a call's whole frame). A call's body is a JSON head (its
#: length in 4 bytes, then ``{"method", "params", "raw"}``) followed by the page strings of
#: :data:`_RAW_PARAMS` as raw UTF-8, which the head's params leave out and ``raw`` lists with
#: their byte lengths; an answer's body is the outcome's JSON (:func:`_json_out`), which the
#: server passes on unparsed (:func:`_response_bytes`). JSON, not pickle: nothing a process
#: reads from the other can execute code. The pages go raw because escaping them into JSON and
#: back cost 1.06 ms a call on aeb's first 60 pages (158 kB on average), a twentieth of an
#: extraction, which the one-client rate would pay; this frame's round trip takes 0.35 ms (a
#: pickle's took 0.07).
_HEADER = struct.Struct("!Q")
_HEAD_LENGTH = struct.Struct("!I")
#: The params sent as raw UTF-8 after a call's JSON head (see :data:`_HEADER`).
_RAW_PARAMS = ("html", "sibling_html")


def _json_bytes(value) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode(
        "utf-8", "surrogatepass")


def _json_out(value) -> bytes:
    """``value``'s JSON as UTF-8 for the client (and for an answer the server passes on as it is):
    valid UTF-8 always, a lone surrogate (which a page's text may carry into the answer) written
    as its ``\\udxxx`` escape."""
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, separators=(",", ":")).encode("ascii")


def _call_frame(method: str, params: dict) -> bytes:
    """A call's whole frame (see :data:`_HEADER`): its length, the JSON head, then the raw page
    strings, joined once (a page is copied into the frame once, not again for the length).
    ``surrogatepass`` carries a lone surrogate the request's JSON may hold (``"\\ud800"``)."""
    raw = [(key, params[key].encode("utf-8", "surrogatepass")) for key in _RAW_PARAMS
           if isinstance(params.get(key), str)]
    sent_raw = {key for key, _data in raw}
    head = _json_bytes({"method": method,
                        "params": {k: v for k, v in params.items() if k not in sent_raw},
                        "raw": [[key, len(data)] for key, data in raw]})
    size = _HEAD_LENGTH.size + len(head) + sum(len(data) for _key, data in raw)
    return b"".join([_HEADER.pack(size), _HEAD_LENGTH.pack(len(head)), head,
                     *(data for _key, data in raw)])


def _read_call(frame: bytes | bytearray) -> tuple[str, dict]:
    """``(method, params)`` from a frame's body (after its length) :func:`_call_frame` wrote;
    the pages are decoded from a view of it, not from copies of their bytes."""
    view = memoryview(frame)
    size = _HEAD_LENGTH.unpack_from(view)[0]
    at = _HEAD_LENGTH.size + size
    head = json.loads(bytes(view[_HEAD_LENGTH.size:at]))
    params = head["params"]
    for key, length in head["raw"]:
        params[key] = str(view[at:at + length], "utf-8", "surrogatepass")
        at += length
    return head["method"], params


def _read_exactly(sock: socket.socket, size: int) -> bytearray | None:
    """``size`` bytes from a blocking socket, None at end of stream."""
    buffer = bytearray(size)
    view, got = memoryview(buffer), 0
    while got < size:
        n = sock.recv_into(view[got:])
        if n == 0:
            return None
        got += n
    return buffer


def _worker_main(sock: socket.socket) -> None:
    """A pool process: warm up, say so (an empty frame), then answer one call per frame until the
    service closes the socket. A bug in a call is logged here and answered -32603 (no traceback
    crosses the socket)."""
    _warm_worker()
    sock.sendall(_HEADER.pack(0))
    while (header := _read_exactly(sock, _HEADER.size)) is not None:
        frame = _read_exactly(sock, _HEADER.unpack(header)[0])
        if frame is None:
            break
        method, params = _read_call(frame)
        try:
            outcome = run_method(method, params)
        except Exception:
            logger.exception("JSON-RPC %s failed", method)
            outcome = {"error": RpcError(INTERNAL, "internal error").to_dict()}
        answer = _json_out(outcome)
        sock.sendall(b"".join((_HEADER.pack(len(answer)), answer)))


class _Worker:
    """One pool process and the service's end of its socket pair (non-blocking, read and written
    by the event loop itself)."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        self.process = multiprocessing.get_context().Process(
            target=_worker_main, args=(theirs,), daemon=True, name="newscrawl-serve-worker")
        self.process.start()
        theirs.close()
        ours.setblocking(False)
        self.sock = ours

    async def receive(self) -> bytes:
        loop = asyncio.get_running_loop()
        header = await self._exactly(loop, _HEADER.size)
        return await self._exactly(loop, _HEADER.unpack(header)[0])

    async def _exactly(self, loop: asyncio.AbstractEventLoop, size: int) -> bytes:
        buffer = bytearray(size)
        view, got = memoryview(buffer), 0
        while got < size:
            n = await loop.sock_recv_into(self.sock, view[got:])
            if n == 0:
                raise ConnectionError("a pool process ended")
            got += n
        return bytes(buffer)

    async def send(self, frame: bytes) -> None:
        """Send a whole frame, its length first (:func:`_call_frame` writes both)."""
        await asyncio.get_running_loop().sock_sendall(self.sock, frame)

    def kill(self) -> None:
        self.sock.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=1)


class WorkerPool:
    """``size`` warm extraction processes, each spoken to over its own socket pair by the event
    loop.

    Why not :class:`concurrent.futures.ProcessPoolExecutor` (used until 2026-11-27): a call there
    passes two threads of the server before it reaches a process (the executor's manager thread,
    then the call queue's feeder thread, which pickles it) and the manager thread again on the
    way back, each a wake-up that waits for a core. Here the loop writes the call (JSON) straight
    into an idle process's socket and reads the answer when the socket is readable: two wake-ups
    (the process, the loop), no server thread. Measured (a no-op call carrying an aeb page,
    226 kB on average, 300 calls each, alternated, one at a time, two runs; docs/evaluation.md):
    the hand-over round trip 0.64-0.95 -> 0.47-0.53 ms mean, p50 0.40-0.64 -> 0.23-0.29 ms; a
    one-client call of the service as a whole did not measurably gain (its 3 ms over the
    extraction are mostly JSON and HTTP on both sides). Isolation is unchanged:
    the extraction runs in another process and the server only sends ``[method, params]``.
    Two things are stronger than with the executor: a process that dies (say a crash in a C
    parser) is replaced and only its call fails, where the executor's pool broke (the next call
    hung until its client gave up, 60 s in the test); and a call cancelled by its timeout kills
    its process and starts a fresh warm one, where the executor let the runaway extraction keep
    its process busy.
    Calls wait for an idle process in arrival order (FIFO, as the executor's queue).
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.idle: asyncio.Queue[_Worker] = asyncio.Queue()
        self.workers: set[_Worker] = set()
        self._starting: set[asyncio.Task] = set()

    async def start(self) -> None:
        """Start every process and return once all are warm."""
        await asyncio.gather(*(self._add() for _ in range(self.size)))

    async def _add(self) -> None:
        worker = _Worker()
        self.workers.add(worker)
        try:
            await worker.receive()  # the empty frame: warmed up
        except BaseException:
            self.workers.discard(worker)
            worker.kill()
            raise
        self.idle.put_nowait(worker)

    def _replace(self, worker: _Worker) -> None:
        self.workers.discard(worker)
        worker.kill()
        task = asyncio.get_running_loop().create_task(self._add())
        self._starting.add(task)
        task.add_done_callback(self._started)

    def _started(self, task: asyncio.Task) -> None:
        self._starting.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.error("a pool process could not be restarted: %s", task.exception())

    async def run(self, method: str, params: dict) -> bytes:
        """``run_method(method, params)`` in an idle process (waiting for one), as the JSON the
        process wrote (an object with ``result`` or ``error``; see :func:`_response_bytes`)."""
        worker = await self.idle.get()
        try:
            await worker.send(_call_frame(method, params))
            answer = await worker.receive()
            if not answer.startswith(_OUTCOMES):  # passed on unparsed: it must be an outcome
                raise ConnectionError("a pool process answered something other than an outcome")
        except BaseException:  # cancelled (timeout) mid-call or the process died: start afresh
            self._replace(worker)
            raise
        self.idle.put_nowait(worker)
        return answer

    def close(self) -> None:
        for task in self._starting:
            task.cancel()
        for worker in self.workers:
            worker.kill()
        self.workers.clear()


#: How a pool process's answer begins (:func:`_json_out` of ``run_method``'s outcome, or of
#: the internal error its loop answers a bug with).
_OUTCOMES = (b'{"result":', b'{"error":')


def _response_bytes(id_: object, outcome: bytes) -> bytes:
    """A JSON-RPC response object made of a call's id and its outcome's JSON, without decoding
    the outcome and encoding it again: the pool process wrote it with :func:`_json_out`, an
    object whose first key is ``result`` or ``error`` (:meth:`WorkerPool.run` checks), so the
    response is the head ``{"jsonrpc":"2.0","id":...,`` and the outcome's members. Decoding the
    answer and encoding the response again cost about 0.1 ms of the server's CPU a call on aeb
    (answers of 7 kB on average; docs/evaluation.md, 2026-11-28)."""
    return b"".join((b'{"jsonrpc":"2.0","id":', _json_out(id_), b",", outcome[1:]))


def _response(id_: object, *, result: object = None, error: RpcError | None = None) -> dict:
    body = {"jsonrpc": "2.0", "id": id_}
    if error is not None:
        body["error"] = error.to_dict()
    else:
        body["result"] = result
    return body


def _check_call(call: object, allow_fetch: bool = False) -> tuple[object, str, dict]:
    if not isinstance(call, dict) or call.get("jsonrpc") != "2.0" or \
            not isinstance(call.get("method"), str):
        raise RpcError(INVALID_REQUEST, "not a JSON-RPC 2.0 request object")
    id_ = call.get("id")
    if id_ is not None and (isinstance(id_, bool) or not isinstance(id_, (str, int, float))):
        raise RpcError(INVALID_REQUEST, "id must be a string, a number or null")
    if call["method"] not in METHODS:
        raise RpcError(METHOD_NOT_FOUND, f"no method {call['method']!r}; methods: "
                       + ", ".join(METHODS))
    params = call.get("params")
    if not isinstance(params, dict):
        raise RpcError(INVALID_PARAMS, "params must be an object {html, url?, sibling_html?}")
    unknown = sorted(set(params) - set(_PARAMS))
    wrong = sorted(k for k, kind in _PARAMS.items() if k in params and not isinstance(params[k], kind))
    fetchable = allow_fetch and "url" in params
    if unknown or wrong or ("html" not in params and not fetchable):
        raise RpcError(INVALID_PARAMS, "params must be {html: string, url?: string, "
                       "sibling_html?: string}", {"unknown": unknown, "not_strings": wrong})
    try:  # every step reading the URL would raise on it (``http://[::1``)
        urlsplit(params.get("url") or "")
    except ValueError as error:
        raise RpcError(INVALID_PARAMS, f"url cannot be read: {error}") from None
    return id_, call["method"], params


class Service:
    """The handlers and their shared limits (one per application)."""

    def __init__(self, config: ServiceConfig) -> None:
        self.config = config
        self.admitted = asyncio.Semaphore(config.max_in_flight)
        self.pool: WorkerPool | None = None

    async def start(self, _app: web.Application) -> None:
        # every pool process starts and warms up now, so that the service takes calls once it
        # can answer them at full speed
        self.pool = WorkerPool(self.config.workers)
        await self.pool.start()

    async def stop(self, _app: web.Application) -> None:
        if self.pool is not None:
            self.pool.close()

    async def health(self, _request: web.Request) -> web.Response:
        return web.json_response({"status": "ok", "methods": list(METHODS),
                                  "in_flight_limit": self.config.max_in_flight})

    async def rpc(self, request: web.Request) -> web.Response:
        if self.config.token is not None and not self._authorised(request):
            return _reply(_response(None, error=RpcError(UNAUTHORIZED, "unauthorized")), 401)
        if (request.content_length or 0) > self.config.max_bytes:
            return _too_large(self.config.max_bytes)
        try:
            raw = await request.read()
        except web.HTTPRequestEntityTooLarge:
            return _too_large(self.config.max_bytes)
        try:
            payload = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return _reply(_response(None, error=RpcError(PARSE_ERROR, "parse error: the body is "
                                                          "not UTF-8 JSON")))
        if self.admitted.locked():
            return _reply(_response(None, error=RpcError(BUSY, "server busy, retry later")), 503)
        async with self.admitted:
            if isinstance(payload, list):
                return await self._batch(payload)
            answer = await self._call(payload)
            return _reply(answer) if answer is not None else web.Response(status=204)

    def _authorised(self, request: web.Request) -> bool:
        given = request.headers.get("Authorization", "")
        expected = f"Bearer {self.config.token}"
        return hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8"))

    async def _batch(self, calls: list) -> web.Response:
        if not calls:
            return _reply(_response(None, error=RpcError(INVALID_REQUEST, "empty batch")))
        if len(calls) > MAX_BATCH:
            return _reply(_response(None, error=RpcError(INVALID_REQUEST,
                                                         f"a batch holds at most {MAX_BATCH} calls")))
        answers = await asyncio.gather(*(self._call(call) for call in calls))
        kept = [a for a in answers if a is not None]
        return _reply(kept) if kept else web.Response(status=204)

    async def _call(self, call: object) -> dict | bytes | None:
        """One call's response (None for a valid notification: a call without ``id``): an
        object, or the JSON of one where a pool process's answer makes it."""
        id_ = call.get("id") if isinstance(call, dict) else None
        try:
            id_, method, params = _check_call(call, self.config.allow_fetch)
        except RpcError as error:
            if error.code != INVALID_REQUEST and "id" not in call:
                return None  # a valid notification gets no reply, not even an error
            return _response(id_, error=error)
        try:
            async with asyncio.timeout(self.config.timeout):
                if "html" not in params:
                    params = {**params, "html": await self._fetch(params["url"])}
                outcome = await self.pool.run(method, params)
        except RpcError as error:
            outcome = {"error": error.to_dict()}
        except TimeoutError:
            outcome = {"error": RpcError(TIMEOUT, f"the call took over {self.config.timeout} s")
                       .to_dict()}
        except Exception:  # a bug or a broken pool: logged here, never sent to the client
            logger.exception("JSON-RPC %s failed", method)
            outcome = {"error": RpcError(INTERNAL, "internal error").to_dict()}
        if "id" not in call:
            return None
        if isinstance(outcome, bytes):
            return _response_bytes(id_, outcome)
        return {"jsonrpc": "2.0", "id": id_, **outcome}


    async def _fetch(self, url: str) -> str:
        from crawler.rpc_fetch import FetchRefused, fetch_page

        try:
            return await fetch_page(url, self.config.max_bytes, self.config.timeout)
        except FetchRefused as refused:
            raise RpcError(FETCH_REFUSED, "the URL was not fetched",
                           {"reason": refused.reason}) from None


def _too_large(limit: int) -> web.Response:
    return _reply(_response(None, error=RpcError(TOO_LARGE, f"the body is over {limit} bytes")), 413)


def _reply(body: object, status: int = 200) -> web.Response:
    """The HTTP response of a JSON-RPC response or batch; parts already JSON (bytes, from
    :func:`_response_bytes`) are joined as they are."""
    if isinstance(body, list):
        data = b"".join((b"[", b",".join(part if isinstance(part, bytes) else _json_out(part)
                                          for part in body), b"]"))
    elif isinstance(body, bytes):
        data = body
    else:
        data = _json_out(body)
    return web.Response(body=data, status=status, content_type="application/json",
                        charset="utf-8")


def build_app(config: ServiceConfig) -> web.Application:
    """The aiohttp application of ``config`` (its pool starts and stops with the app)."""
    service = Service(config)
    app = web.Application(client_max_size=config.max_bytes)
    app.on_startup.append(service.start)
    app.on_cleanup.append(service.stop)
    app.router.add_post("/", service.rpc)
    app.router.add_get("/health", service.health)
    return app
