"""Demo web server: replays the records of the demo site WARC over HTTP on a loopback port.

Each ``response`` record is served at its path with its recorded status, headers and exact body
bytes; any other path is a 404. The ``resource`` record ``urn:newscrawl:demo:manifest`` is the site
manifest (see ``build_site.py``).
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit

from warcio.archiveiterator import ArchiveIterator

logger = logging.getLogger(__name__)

MANIFEST_URI = "urn:newscrawl:demo:manifest"


@dataclass(frozen=True)
class Reply:
    """One recorded HTTP reply."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes


@dataclass(frozen=True)
class DemoSite:
    """The demo site loaded from its WARC: replies by path plus the manifest."""

    replies: dict[str, Reply]
    manifest: dict


#: The reply to a path the site does not have.
NOT_FOUND = Reply(404, (("Content-Type", "text/plain"),), b"not found\n")


def default_warc_path() -> Path:
    return Path(str(resources.files("crawler.demo").joinpath("site.warc.gz")))


def load_site(path: Path | None = None) -> DemoSite:
    """Read the demo WARC (the packaged one by default)."""
    replies: dict[str, Reply] = {}
    manifest: dict = {}
    with open(path or default_warc_path(), "rb") as stream:
        for record in ArchiveIterator(stream):
            uri = record.rec_headers.get_header("WARC-Target-URI")
            body = record.content_stream().read()
            if record.rec_type == "resource" and uri == MANIFEST_URI:
                manifest = json.loads(body)
            elif record.rec_type == "response":
                http = record.http_headers
                status = int(http.get_statuscode())
                replies[urlsplit(uri).path] = Reply(status, tuple(http.headers), body)
    if not manifest:
        raise ValueError(f"{path or default_warc_path()}: no demo manifest record")
    return DemoSite(replies, manifest)


def _handler_for(site: DemoSite) -> type[BaseHTTPRequestHandler]:
    class DemoHandler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "newscrawl-demo/1"

        def do_GET(self) -> None:
            reply = site.replies.get(urlsplit(self.path).path)
            if reply is None:
                reply = NOT_FOUND
            self.send_response(reply.status)
            for name, value in reply.headers:
                if name.lower() != "content-length":
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(reply.body)))
            self.end_headers()
            self.wfile.write(reply.body)

        def log_message(self, format: str, *args: object) -> None:
            logger.debug("demo server: " + format, *args)

    return DemoHandler


class DemoServer:
    """A threaded HTTP server for the demo site, started in a background thread."""

    def __init__(self, site: DemoSite, port: int = 0, host: str = "127.0.0.1") -> None:
        self.site = site
        self.httpd = ThreadingHTTPServer((host, port), _handler_for(site))
        self.httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}"

    def seed_urls(self) -> list[str]:
        return [self.base_url + path for path in self.site.manifest["seeds"]]

    def start(self) -> DemoServer:
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, name="demo-server", daemon=True
        )
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        self.httpd.serve_forever()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
