"""Decoding real pages in several encodings (fixtures from MIT / Apache-2.0 / CC-BY-4.0 sets)."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from extractors.decoding import decode_html
from extractors.errors import EmptyDocument, NotHTML
from tests.fixture_pages import fixture, page_bytes


@pytest.mark.parametrize(
    ("name", "encoding", "source", "expected"),
    [
        ("cx_163-00002.html", "gb18030", "meta", "摘要：全新的商业模式"),  # declared gbk
        ("cx_163-00001.html", "gb18030", "meta", "高速公路超前发展有必要"),  # declared gb2312
        ("trafilatura_eval-00491.html", "cp1250", "meta", "Ciężar dyskusji przeniesie"),
        ("trafilatura_eval-00007.html", "cp1252", "meta", "Überwachung der somatischen Zellen"),
        ("wcxb_dev-00997.html", "mac-roman", "meta", "ASICS"),
        ("aeb-00179.html", "utf-8", "default", "Средняя суточная калорийность"),  # no charset
    ],
)
def test_real_pages_decode_with_their_charset(name, encoding, source, expected):
    decoded = decode_html(page_bytes(fixture(name)))
    assert (decoded.encoding, decoded.source) == (encoding, source)
    assert expected in decoded.text
    assert "\ufffd" not in decoded.text[:20000]


def test_http_header_wins_over_meta():
    body = page_bytes(fixture("cx_163-00002.html"))
    decoded = decode_html(body, "text/html; charset=GBK")
    assert (decoded.encoding, decoded.source) == ("gb18030", "http")


def test_wrong_http_header_falls_back_to_meta():
    body = page_bytes(fixture("cx_163-00001.html"))
    decoded = decode_html(body, "text/html; charset=utf-8")
    assert decoded.source == "meta"
    assert "高速公路超前发展有必要" in decoded.text


def test_unknown_charset_label_is_ignored():
    body = page_bytes(fixture("aeb-00179.html"))
    assert decode_html(body, "text/html; charset=x-no-such-charset").source == "default"


def test_missing_charset_is_detected():
    """A GBK page with its meta charset removed is still read as Chinese, by detection."""
    body = page_bytes(fixture("cx_163-00001.html")).replace(b"<meta charset=\"gb2312\">", b"")
    decoded = decode_html(body)
    assert decoded.source == "detected"
    assert "高速公路超前发展有必要" in decoded.text


def test_bom_wins():
    text = "<html><body><p>Привет</p></body></html>"
    decoded = decode_html(codecs.BOM_UTF16_LE + text.encode("utf-16-le"), "text/html; charset=latin-1")
    assert (decoded.source, decoded.text) == ("bom", text)


@pytest.mark.parametrize("body", [b"", b"   \n\t "])
def test_empty_body_is_refused(body):
    with pytest.raises(EmptyDocument) as info:
        decode_html(body)
    assert info.value.reason == "empty"


@pytest.mark.parametrize("body", [b"%PDF-1.7\n%\xe2\xe3", b"\x89PNG\r\n\x1a\n\x00\x00", b"abc\x00\x01\x02def"])
def test_binary_body_is_refused(body):
    with pytest.raises(NotHTML) as info:
        decode_html(body)
    assert info.value.reason == "not_html"


def test_utf8_body_overrules_a_stale_legacy_meta_charset():
    # gerapy_listdetail (Apache-2.0) list page saved as UTF-8 that still declares gb2312; read as
    # gb18030 it decodes without a replacement character but every Chinese character is wrong.
    body = (Path(__file__).parents[1] / "fixtures/eval/list_records/pages/00007.html").read_bytes()
    decoded = decode_html(body)
    assert (decoded.encoding, decoded.source) == ("utf-8", "detected")
    assert "融通基金管理有限公司" in decoded.text
