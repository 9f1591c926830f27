"""eval --by: per-part rows (group, site, year of a site@year group) beside the usual ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaluation.cli import _breakdowns
from evaluation.runner import groups_of
from evaluation.datasets import GoldPage


def _page(i: int, group: str | None, site: str | None = None) -> GoldPage:
    return GoldPage(str(i), Path(f"{i}.html"), {"group": group, "site": site, "lang": "latin"}, i)


def test_parts_by_site_and_year_and_pages_without_a_part_left_out():
    pages = [_page(0, "cnn.com@2005"), _page(1, "cnn.com@2009"), _page(2, "bbc.com@2009"),
             _page(3, "portal_news", site="portal.com"), _page(4, None)]
    groups = groups_of(pages, ("site", "year"))
    ids = {key: [p.id for p in found] for key, found in groups.items()}
    assert ids[("all", "gold")] == ["0", "1", "2", "3", "4"]
    assert ids[("site=cnn.com", "gold")] == ["0", "1"]
    assert ids[("site=portal.com", "gold")] == ["3"]
    assert ids[("year=2009", "gold")] == ["1", "2"]
    assert not any(key[0].startswith("year=") and "3" in v for key, v in ids.items())
    assert groups_of(pages) == {("all", "gold"): pages}


def test_unknown_breakdown_is_a_usage_error():
    assert _breakdowns("site, year") == ("site", "year")
    with pytest.raises(Exception, match="unknown breakdown 'lang'"):
        _breakdowns("site,lang")
