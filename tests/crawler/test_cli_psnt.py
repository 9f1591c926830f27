"""`newscrawl induce` and `newscrawl apply` end to end, on the ifixit.com list pair (wcxb_dev)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.crawler.demo_helpers import newscrawl

PAIR = Path(__file__).resolve().parents[1] / "fixtures" / "psnt"  # sources in SOURCES.md there
FIRST, SECOND = PAIR / "wcxb_dev-0652.html", PAIR / "wcxb_dev-0651.html"
URLS = ("https://www.ifixit.com/Parts/iPhone", "https://www.ifixit.com/Parts")


def test_induce_writes_a_wrapper_that_apply_uses(tmp_path):
    out = tmp_path / "wrapper.json"
    induced = newscrawl("induce", str(FIRST), str(SECOND), "--url", URLS[0], "--url", URLS[1],
                        "-o", str(out))
    assert induced.returncode == 0, induced.stderr
    notation, *xpaths = induced.stdout.splitlines()
    assert notation.endswith("[article]") and notation.startswith("html.body.")
    assert any(line.startswith("records: /html/body/") for line in xpaths)
    stored = json.loads(out.read_text(encoding="utf-8"))
    assert stored["notation"] == notation and stored["sources"] == list(URLS)

    applied = newscrawl("apply", str(out), str(SECOND), "--url", URLS[1])
    assert applied.returncode == 0, applied.stderr
    records = [json.loads(line) for line in applied.stdout.splitlines()]
    assert len(records) == 24
    assert all(r["url"].startswith("https://www.ifixit.com/products/") and r["title"]
               and r["file"] == str(SECOND) for r in records)


def test_induce_exits_1_with_the_reason_when_no_wrapper(tmp_path):
    result = newscrawl("induce", str(FIRST), str(FIRST))
    assert result.returncode == 1
    assert "no wrapper: the two pages share all their" in result.stderr


def test_apply_refuses_a_bad_wrapper_file(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "newscrawl/psnt-wrapper", "version": 7}', encoding="utf-8")
    result = newscrawl("apply", str(bad), str(SECOND))
    assert result.returncode == 2
    assert "unsupported wrapper version 7" in result.stderr and str(bad) in result.stderr


def test_apply_reports_a_page_without_records(tmp_path):
    out = tmp_path / "wrapper.json"
    assert newscrawl("induce", str(FIRST), str(SECOND), "-o", str(out)).returncode == 0
    other = Path(__file__).resolve().parents[1] / "fixtures" / "pages" / "aeb-00001.html"
    result = newscrawl("apply", str(out), str(other))
    assert result.returncode == 1 and result.stdout == ""
    assert "no records: no main structure" in result.stderr
