"""`newscrawl extract`: one JSON line per page, in the order given; bad pages reported, others go on."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from crawler.demo.server import default_warc_path, load_site
from extractors import extract
from tests.crawler.demo_helpers import newscrawl
from tests.fixture_pages import FIXTURES, pages_where

ARTICLES = [FIXTURES / g["file"] for g in pages_where(page_type="article")][:3]


def _lines(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines()]


def test_several_files_print_one_line_each_in_order() -> None:
    assert len(ARTICLES) == 3
    result = newscrawl("extract", *map(str, ARTICLES))
    assert result.returncode == 0, result.stderr
    lines = _lines(result.stdout)
    assert [line["file"] for line in lines] == [str(p) for p in ARTICLES]
    for line in lines:
        assert line["title"] and len(line["body"]) > 200
        assert line["page_type"] in ("article", "list", "other")


def test_stdin_and_url() -> None:
    page = ARTICLES[0]
    with open(page, "rb") as stdin:
        result = newscrawl("extract", "-", "--url", "https://example.com/a/1", stdin=stdin)
    assert result.returncode == 0, result.stderr
    (line,) = _lines(result.stdout)
    assert line["file"] == "-" and line["url"] == "https://example.com/a/1" and line["title"]


def test_a_url_that_does_not_split_is_a_usage_error() -> None:
    result = newscrawl("extract", str(ARTICLES[0]), "--url", "http://[::1/a")
    assert result.returncode == 2 and "argument --url" in result.stderr
    assert "Traceback" not in result.stderr and not result.stdout


def test_bad_files_report_a_reason_and_the_rest_is_processed(tmp_path) -> None:
    empty = tmp_path / "empty.html"
    empty.write_bytes(b"")
    binary = tmp_path / "binary.html"
    binary.write_bytes(bytes(range(256)) * 64)
    missing = tmp_path / "missing.html"
    result = newscrawl("extract", str(empty), str(ARTICLES[0]), str(binary), str(missing))
    assert result.returncode == 1
    lines = _lines(result.stdout)
    assert [line["file"] for line in lines] == [
        str(empty),
        str(ARTICLES[0]),
        str(binary),
        str(missing),
    ]
    assert lines[0]["reason"] == "empty" and lines[0]["error"]
    assert "error" not in lines[1] and lines[1]["title"]
    assert lines[2]["reason"] == "not_html"
    assert lines[3]["reason"] == "unreadable"


def test_sibling_runs_lcs_before_attenuation() -> None:
    target, sibling = FIXTURES / "pages/cx_163-00001.html", FIXTURES / "pages/cx_163-00003.html"
    result = newscrawl("extract", str(target), "--sibling", str(sibling))
    assert result.returncode == 0, result.stderr
    (line,) = _lines(result.stdout)
    assert line["extraction"]["method"] == "lcs+attenuation"
    assert line["extraction"]["sibling"] == {"used": True, "reason": None}
    assert "高速公路超前发展有必要" in line["body"]


def test_sibling_of_an_english_page_is_used_only_when_forced() -> None:
    target, sibling = FIXTURES / "pages/cx_bbc-00082.html", FIXTURES / "pages/cx_bbc-00000.html"
    lines = {}
    for mode in ("auto", "always", "never"):
        result = newscrawl("extract", str(target), "--sibling", str(sibling), "--use-sibling", mode)
        assert result.returncode == 0, result.stderr
        (lines[mode],) = _lines(result.stdout)
    assert lines["auto"]["extraction"]["sibling"] == {"used": False, "reason": "not_cjk"}
    assert lines["always"]["extraction"]["sibling"] == {"used": True, "reason": None}
    assert lines["always"]["extraction"]["method"] == "lcs+attenuation"
    assert lines["never"]["extraction"]["sibling"] == {"used": False, "reason": "use_sibling=never"}
    assert lines["auto"]["body"] == lines["never"]["body"] != lines["always"]["body"]


def test_unreadable_sibling_is_a_usage_error(tmp_path) -> None:
    result = newscrawl("extract", str(ARTICLES[0]), "--sibling", str(tmp_path / "missing.html"))
    assert result.returncode == 2 and "cannot read sibling" in result.stderr


def test_warc_pages_are_extracted_without_the_network() -> None:
    """The demo site's own WARC: one line per 2xx HTML response record, in file order."""
    site = load_site()
    html = [
        path for path, reply in site.replies.items()
        if reply.status == 200 and dict(reply.headers)["Content-Type"].startswith("text/html")
    ]
    result = newscrawl("extract", "--warc", str(default_warc_path()))
    lines = _lines(result.stdout)
    assert [urlsplit(line["url"]).path for line in lines] == html  # robots.txt, PDF, 302s left out
    assert result.returncode == 1  # the demo's binary and empty pages
    errors = {urlsplit(line["url"]).path: line["reason"] for line in lines if "error" in line}
    assert errors == {"/bad/binary.html": "not_html", "/bad/empty.html": "empty"}
    for line in lines:
        assert line["warc"]["file"] == "site.warc.gz" and line["warc"]["length"] > 0
        if "error" not in line:  # the same result as extracting the served bytes
            reply = site.replies[urlsplit(line["url"]).path]
            content_type = dict(reply.headers)["Content-Type"]
            direct = extract(reply.body, url=line["url"], content_type=content_type).to_dict()
            assert line["title"] and line["title"] == direct["title"], line["url"]
            assert line["body"] == direct["body"] and line["encoding"] == direct["encoding"]


def test_warc_that_is_not_one_is_reported(tmp_path) -> None:
    page = tmp_path / "page.html"
    page.write_bytes(b"<html><title>t</title></html>")
    result = newscrawl("extract", "--warc", str(page))
    assert result.returncode == 1
    (line,) = _lines(result.stdout)
    assert line["file"] == str(page) and line["reason"] == "unreadable"


def test_no_page_and_no_warc_is_a_usage_error() -> None:
    result = newscrawl("extract")
    assert result.returncode == 2 and "--warc" in result.stderr


def test_format_dwsie_prints_the_papers_shape() -> None:
    run = newscrawl("extract", "--format", "dwsie", *map(str, ARTICLES[:2]))
    assert run.returncode == 0, run.stderr
    lines = _lines(run.stdout)
    assert len(lines) == 2
    for line in lines:
        assert set(line) == {"url", "page_type", "titles", "doc", "file"}
        assert line["page_type"] in ("CP", "LP", "Unknown")
        if line["page_type"] == "CP":
            assert line["doc"]["cont"] and set(line["doc"]) == {
                "title", "column", "au", "date", "main_img", "cont", "keywords"}


def test_a_damaged_record_ends_the_warc_with_an_error_after_its_pages(tmp_path) -> None:
    """A response record without ``WARC-Target-URI`` (a hand-cut or damaged file) made warcio
    raise AttributeError: a traceback, and none of the file's pages. Now the pages before it, then
    one error line."""
    import gzip

    damaged = (b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:x>\r\n"
               b"Content-Type: application/http; msgtype=response\r\nContent-Length: 19\r\n\r\n"
               b"HTTP/1.1 200 OK\r\n\r\n\r\n\r\n")
    warc = tmp_path / "cut.warc.gz"
    warc.write_bytes(default_warc_path().read_bytes() + gzip.compress(damaged))
    result = newscrawl("extract", "--warc", str(warc))
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = _lines(result.stdout)
    assert sum(1 for line in lines if line.get("title")) >= 30
    assert lines[-1]["reason"] == "unreadable" and "damaged record" in lines[-1]["error"]
    warc.write_bytes(gzip.compress(damaged))  # the first record: nothing read before it
    result = newscrawl("extract", "--warc", str(warc))
    (line,) = _lines(result.stdout)
    assert result.returncode == 1 and "after 0 records" in line["error"]
