"""Builder of the demo site: real news pages packed into one WARC file with a manifest.

Reads 15 article pages each of ``cx_163`` (money.163.com, GBK) and ``cx_bbc`` (bbc.com/news, UTF-8),
both MIT-licensed, from the evaluation data folder (``~/.cache/newsdata`` or ``$NEWSCRAWL_DATA``) and
writes ``crawler/demo/site.warc.gz`` plus ``crawler/demo/SOURCES.md``. Article bytes are kept exactly as
published. The index pages, the robots.txt and the bad-input URLs are generated here (they are not
real pages). The first record is a ``resource`` record holding the JSON manifest the tests derive their
expected counts from. Re-running it gives a byte-identical file (fixed record ids and dates).

Run: ``python -m crawler.demo.build_site [--data DIR] [--out FILE]``.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import io
import json
import logging
import os
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

logger = logging.getLogger(__name__)

SITE_ORIGIN = "http://newscrawl-demo.invalid"
MANIFEST_URI = "urn:newscrawl:demo:manifest"
PAGES_PER_DATASET = 15
WARC_DATE = "2024-01-01T00:00:00Z"
DEPTH_LIMIT = 2  # / (0) -> section index (1) -> article (2); article links (3) are not followed
NO_CHARSET_HEADER_DATASET = "cx_163"  # its first page is served as plain "text/html"
HERE = Path(__file__).resolve().parent

# dataset -> (section path, licence, charset served when the page declares none we can read)
DATASETS = {
    "cx_163": ("/money/", "MIT", "gbk"),
    "cx_bbc": ("/news/", "MIT", "utf-8"),
}


@dataclass
class Entry:
    """One URL of the demo site: its HTTP reply and what the crawl should make of it."""

    path: str
    kind: str  # "index" | "article" | "bad" | "robots"
    status: int = 200
    headers: list[tuple[str, str]] = field(default_factory=list)
    body: bytes = b""
    reason: str | None = None  # for bad URLs: the skipped/<reason> the crawl must count
    reaches_spider: bool = True  # whether the response gets to the spider's callback
    source: dict | None = None
    title: str = ""

    def manifest(self) -> dict:
        return {
            "path": self.path,
            "kind": self.kind,
            "status": self.status,
            "reason": self.reason,
            "reaches_spider": self.reaches_spider,
            "source": self.source,
            "has_record": self.kind != "missing",
        }


def declared_charset(body: bytes) -> str | None:
    """The charset a page declares in its first 4 KB of meta tags, lower-cased."""
    match = re.search(
        rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9_-]+)""", body[:4096], re.IGNORECASE
    )
    return match.group(1).decode("ascii").lower() if match else None


def page_title(body: bytes, charset: str) -> str:
    match = re.search(rb"<title[^>]*>(.*?)</title>", body, re.IGNORECASE | re.DOTALL)
    if not match:
        return ""
    codec = "gbk" if charset in ("gb2312", "gbk") else charset
    return " ".join(match.group(1).decode(codec, "replace").split())


def read_articles(data_dir: Path, dataset: str) -> list[Entry]:
    """The first ``PAGES_PER_DATASET`` article pages of a dataset, in gold.jsonl order."""
    section, licence, fallback = DATASETS[dataset]
    entries: list[Entry] = []
    with open(data_dir / dataset / "gold.jsonl", encoding="utf-8") as lines:
        for line in lines:
            gold = json.loads(line)
            if gold["page_type"] != "article":
                continue
            body = (data_dir / dataset / gold["file"]).read_bytes()
            charset = declared_charset(body) or fallback
            stem = Path(gold["file"]).stem
            path = f"{section}{stem}.html" if dataset == "cx_163" else f"{section}{gold['id']}"
            source = {
                "dataset": dataset,
                "id": gold["id"],
                "file": gold["file"],
                "url": gold["url"],
                "licence": licence,
            }
            entries.append(
                Entry(
                    path,
                    "article",
                    headers=[("Content-Type", f"text/html; charset={charset}")],
                    body=body,
                    source=source,
                    title=page_title(body, charset),
                )
            )
            if len(entries) == PAGES_PER_DATASET:
                break
    if dataset == NO_CHARSET_HEADER_DATASET:
        # One page served WITHOUT a charset header, so decoding must fall back to its meta charset.
        entries[0].headers = [("Content-Type", "text/html")]
    return entries


def index_page(
    title: str, intro: str, links: list[tuple[str, str]], nav: list[tuple[str, str]] = ()
) -> bytes:
    """An index page: an optional navigation bar (as news section pages have), then a list."""
    items = "\n".join(
        f'<li><a href="{html.escape(href)}">{html.escape(text)}</a></li>' for href, text in links
    )
    bar = " ".join(f'<a href="{html.escape(href)}">{html.escape(text)}</a>' for href, text in nav)
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"</head><body>{f'<nav>{bar}</nav>' if nav else ''}<h1>{html.escape(title)}</h1>"
        f"<p>{html.escape(intro)}</p>\n<ul>\n{items}\n</ul></body></html>\n"
    ).encode()


def bad_entries() -> list[Entry]:
    """Bad-input URLs: each one must show up in the crawl summary under its reason."""
    binary = b"".join(hashlib.sha256(str(i).encode()).digest() for i in range(256))
    pdf = (
        b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
        b"2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"
    )
    html_type = [("Content-Type", "text/html; charset=utf-8")]
    return [
        Entry("/bad/binary.html", "bad", headers=html_type, body=binary, reason="not_html"),
        Entry("/bad/empty.html", "bad", headers=html_type, body=b"", reason="empty"),
        # No .pdf in the URL: links ending in .pdf are not even followed (LinkExtractor's
        # deny_extensions); this one is only known to be a PDF from its Content-Type.
        Entry(
            "/bad/document",
            "bad",
            headers=[("Content-Type", "application/pdf")],
            body=pdf,
            reason="not_html",
        ),
        Entry(
            "/bad/loop-a",
            "bad",
            status=302,
            headers=[("Location", "/bad/loop-b")],
            reason="redirect_loop",
            reaches_spider=False,
        ),
        Entry(
            "/bad/loop-b",
            "bad",
            status=302,
            headers=[("Location", "/bad/loop-a")],
            reason=None,
            reaches_spider=False,
        ),
        Entry("/bad/missing.html", "missing", status=404, reason="http_404", reaches_spider=False),
        Entry("/private/draft.html", "missing", status=404, reason="robots", reaches_spider=False),
    ]


def build_entries(data_dir: Path) -> list[Entry]:
    """Every URL of the site: robots.txt, the index pages, the articles and the bad URLs."""
    robots = Entry(
        "/robots.txt",
        "robots",
        headers=[("Content-Type", "text/plain")],
        body=b"User-agent: *\nDisallow: /private/\n",
        reaches_spider=False,
    )
    sections: list[Entry] = []
    articles: list[Entry] = []
    # Section pages link each other, as news sites' section fronts do: each has a same-template
    # sibling link, so a PSNT wrapper is induced from the two (the shared links are navigation).
    nav = [("/", "Home")] + [(section, f"Section {section}") for section, _, _ in DATASETS.values()]
    for dataset, (section, _, _) in DATASETS.items():
        found = read_articles(data_dir, dataset)
        articles += found
        body = index_page(
            f"Demo section {section}",
            f"Articles from the {dataset} dataset (MIT).",
            [(a.path, a.title or a.path) for a in found],
            nav=nav,
        )
        sections.append(
            Entry(
                section, "index", headers=[("Content-Type", "text/html; charset=utf-8")], body=body
            )
        )
    bad = bad_entries()
    links = [(s.path, f"Section {s.path}") for s in sections]
    links += [(b.path, f"Test URL {b.path}") for b in bad if b.path != "/bad/loop-b"]
    root = Entry(
        "/",
        "index",
        headers=[("Content-Type", "text/html; charset=utf-8")],
        body=index_page("newscrawl demo site", "Real news pages served from a WARC file.", links),
    )
    return [robots, root, *sections, *articles, *bad]


def record_id(path: str) -> str:
    return f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, SITE_ORIGIN + path)}>"


def write_warc(entries: list[Entry], out: Path) -> None:
    manifest = {
        "origin": SITE_ORIGIN,
        "seeds": ["/"],
        "depth_limit": DEPTH_LIMIT,
        "entries": [e.manifest() for e in entries],
    }
    buffer = io.BytesIO()
    writer = WARCWriter(buffer, gzip=True)
    payload = json.dumps(manifest, indent=1, ensure_ascii=False).encode("utf-8")
    writer.write_record(
        writer.create_warc_record(
            MANIFEST_URI,
            "resource",
            payload=io.BytesIO(payload),
            warc_content_type="application/json",
            warc_headers_dict={"WARC-Record-ID": record_id("#manifest"), "WARC-Date": WARC_DATE},
        )
    )
    for entry in entries:
        if entry.kind == "missing":
            continue
        reason = {200: "OK", 302: "Found"}[entry.status]
        headers = [*entry.headers, ("Content-Length", str(len(entry.body)))]
        http_headers = StatusAndHeaders(f"{entry.status} {reason}", headers, protocol="HTTP/1.1")
        writer.write_record(
            writer.create_warc_record(
                SITE_ORIGIN + entry.path,
                "response",
                payload=io.BytesIO(entry.body),
                http_headers=http_headers,
                warc_headers_dict={"WARC-Record-ID": record_id(entry.path), "WARC-Date": WARC_DATE},
            )
        )
    out.write_bytes(buffer.getvalue())


def write_sources(entries: list[Entry], out: Path) -> None:
    lines = [
        "# Demo site sources",
        "",
        "Generated by `crawler/demo/build_site.py` (`python -m crawler.demo.build_site`), which packs",
        "the site into `site.warc.gz`. Article bytes are exactly as in the datasets and are served with",
        "the charset each page declares, except the first cx_163 page, served as plain `text/html` so",
        "decoding must fall back to its meta charset. The index pages (`/`, `/money/`, `/news/`),",
        "`/robots.txt` and the bad-input URLs are generated by the builder, not real pages.",
        "",
        "| demo path | dataset | id | file | original URL | licence |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for e in entries:
        if e.source:
            s = e.source
            lines.append(
                f"| `{e.path}` | {s['dataset']} | {s['id']} | {s['file']} | "
                f"{s['url'] or 'unknown (money.163.com)'} | {s['licence']} |"
            )
    lines += [
        "",
        "Bad-input URLs (generated) and the reason the crawl summary counts them under:",
        "",
    ]
    lines += ["| demo path | reply | counted as |", "| --- | --- | --- |"]
    for e in entries:
        if e.kind in ("bad", "missing"):
            reply = dict(e.headers).get("Content-Type") or dict(e.headers).get(
                "Location", "(no record)"
            )
            lines.append(
                f"| `{e.path}` | {e.status} {reply} | {e.reason or '(part of the loop)'} |"
            )
    lines += ["", "Datasets: `cx_163` and `cx_bbc` (MIT), see the project's data README.", ""]
    out.write_text("\n".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Build crawler/demo/site.warc.gz from the datasets."
    )
    default_data = Path(os.environ.get("NEWSCRAWL_DATA", Path.home() / ".cache" / "newsdata"))
    parser.add_argument(
        "--data", type=Path, default=default_data, help="datasets folder (%(default)s)"
    )
    parser.add_argument("--out", type=Path, default=HERE / "site.warc.gz", help="WARC to write")
    args = parser.parse_args(argv)
    entries = build_entries(args.data)
    write_warc(entries, args.out)
    write_sources(entries, args.out.parent / "SOURCES.md")
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes, {len(entries)} URLs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
