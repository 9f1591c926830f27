"""Method and peer registries: names, clear errors, and peers that are not installed."""

from __future__ import annotations

import pytest

from evaluation import methods, peers
from evaluation.runner import peer_tool


def test_unknown_method_lists_the_known_ones():
    with pytest.raises(ValueError, match="known methods: all_links, attenuation, confirmed, "
                                         "default, default_always, default_svm, dwsie, dwsie_psnt, lcs, psnt, "
                                         "psnt_fallback, psnt_single, svm"):
        methods.resolve_methods("attenuation,bogus")


def test_psnt_fallback_is_psnt_with_a_sibling_else_psnt_single():
    # The ifixit.com list pair of wcxb_dev (CC-BY-4.0, tests/fixtures/psnt/SOURCES.md).
    from pathlib import Path

    folder = Path(__file__).parents[1] / "fixtures" / "psnt"
    first = (folder / "wcxb_dev-0651.html").read_bytes()
    second = (folder / "wcxb_dev-0652.html").read_bytes()
    url = "https://www.ifixit.com/Parts?p=1"
    alone = methods.run_psnt_fallback(first, url, None)
    assert alone["fallback"] and alone["records"]
    assert alone["records"] == methods.run_psnt_single(first, url, None)["records"]
    paired = methods.run_psnt_fallback(first, url, second)
    assert not paired["fallback"]
    assert paired["wrapper"] == methods.run_psnt(first, url, second)["wrapper"]
    assert paired["records"] == methods.run_psnt(first, url, second)["records"]


def test_default_uses_the_sibling_on_cjk_pages_only_and_default_always_everywhere():
    from tests.fixture_pages import fixture, page_bytes

    bbc, bbc_sibling = page_bytes(fixture("cx_bbc-00082.html")), page_bytes(fixture("cx_bbc-00000.html"))
    alone = methods.run_default(bbc, None, None)["body"]
    assert methods.run_default(bbc, None, bbc_sibling)["body"] == alone
    assert methods.run_default_always(bbc, None, bbc_sibling)["body"] != alone
    assert methods.run_lcs(bbc, None, bbc_sibling)["body"] != alone  # lcs: the paper, every page
    cx, cx_sibling = page_bytes(fixture("cx_163-00001.html")), page_bytes(fixture("cx_163-00003.html"))
    assert methods.run_default(cx, None, cx_sibling)["body"] == \
        methods.run_default_always(cx, None, cx_sibling)["body"]


def test_planned_method_says_it_is_not_implemented_yet(monkeypatch):
    monkeypatch.setattr(methods, "PLANNED_METHODS", ("paper005",))
    with pytest.raises(ValueError, match="planned, not implemented yet"):
        methods.resolve_methods("paper005")


def test_dwsie_methods_predict_page_type_and_records():
    """Paper 002 on a real list page (wcxb_dev 0651, CC-BY-4.0, tests/fixtures/psnt/SOURCES.md)."""
    from pathlib import Path

    first = (Path(__file__).parents[1] / "fixtures" / "psnt" / "wcxb_dev-0651.html").read_bytes()
    found = methods.resolve_methods("dwsie,dwsie_psnt")
    alone = found[0].run(first, "https://www.ifixit.com/Parts?p=1", None)
    assert alone["page_type"] in ("article", "list", "other") and alone["records"]
    assert "paper's rule" in alone["outcome"]


def test_attenuation_method_returns_a_body():
    html = (b"<html><body><nav><a href=/>Home</a></nav><article><p>"
            + b"Rain fell on the town all day long and nobody went out. " * 5
            + b"</p></article></body></html>")
    pred = methods.method_specs()["attenuation"].run(html, None, None)
    assert "Rain fell on the town" in pred["body"]


def test_unknown_peer_lists_the_known_ones():
    with pytest.raises(ValueError, match="known peers: trafilatura"):
        peers.resolve_peers("trafilatura,nope")


def test_missing_peer_is_reported_with_its_pip_name():
    spec = peers.PeerSpec("ghost", "no_such_module_xyz", "ghost-extractor", frozenset({"body"}),
                          lambda: None)
    tool = peer_tool(spec)
    assert tool.run is None
    assert tool.status == "not installed (pip install ghost-extractor)"
