"""The public ``extract`` entry point: the JSON shape, the sibling path and bad input."""

from __future__ import annotations

import pytest

from extractors import BadInput, extract
from extractors.fields import FIELD_NAMES
from tests.fixture_pages import fixture, page_bytes


def test_result_dict_has_the_documented_keys():
    result = extract(page_bytes(fixture("cx_bbc-00000.html")), url="https://www.bbc.com/news/x")
    data = result.to_dict()
    assert set(data) == {"url", "body", "page_type", "encoding", "extraction", "timings_ms",
                         *FIELD_NAMES}
    assert {"sources", "notes"} <= set(data["extraction"])
    assert data["extraction"]["method"] == "attenuation"
    assert data["title"] and data["body"] and data["page_type"] == "article"
    assert {"decode", "parse", "table", "attenuation", "fields", "total"} <= set(data["timings_ms"])


def test_sibling_of_the_same_template_is_used():
    target, sibling = page_bytes(fixture("cx_163-00001.html")), page_bytes(fixture("cx_163-00003.html"))
    alone, paired = extract(target), extract(target, sibling=sibling)
    assert paired.sibling == {"used": True, "reason": None}
    assert paired.method == "lcs+attenuation" and "lcs" in paired.timings_ms
    assert "高速公路超前发展有必要" in paired.body
    assert len(paired.body) <= len(alone.body)


def test_unusable_sibling_falls_back_with_a_reason():
    result = extract(page_bytes(fixture("cx_163-00001.html")), sibling=b"%PDF-1.4 binary")
    assert result.sibling == {"used": False, "reason": "sibling unusable: not_html"}
    assert result.method == "attenuation" and "高速公路超前发展有必要" in result.body


@pytest.mark.parametrize(("document", "reason"), [
    (b"", "empty"), (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not_html"),
])
def test_bad_input_carries_a_reason(document, reason):
    with pytest.raises(BadInput) as info:
        extract(document)
    assert info.value.reason == reason
