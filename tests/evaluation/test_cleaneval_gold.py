"""CleanEval gold markup is normalised at load time: checked on real cleanportaleval gold lines
(the set's licence is research use, so its lines are read from the dataset, never copied here)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from evaluation.datasets import is_cleaneval, load_dataset, normalise_cleaneval
from evaluation.metrics import tokenize

CLEANEVAL = Path("~/.cache/newsdata/cleanportaleval").expanduser()

pytestmark = pytest.mark.skipif(not (CLEANEVAL / "gold.jsonl").is_file(),
                                reason=f"dataset cleanportaleval not found at {CLEANEVAL}")


def _raw_bodies() -> list[str]:
    with (CLEANEVAL / "gold.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line)["body"] for line in lines if line.strip()]


def test_a_real_gold_body_loses_markup_url_and_references_but_keeps_every_word():
    raw = next(b for b in _raw_bodies() if "<h>" in b and "&#" in b)
    text = normalise_cleaneval(raw)
    assert not re.search(r"<[phl]>|URL:|&#?\w+;", text)
    blocks = re.split(r"<[phl]>", raw.split("\n", 2)[2])  # after the blank line and the URL line
    assert tokenize(text) == [t for b in blocks for t in tokenize(html.unescape(b))]
    assert tokenize(raw)[:2] == ["URL", "http"] and tokenize(text)[0] != "URL"


def test_every_gold_body_is_normalised_when_loaded_and_a_no_article_page_is_empty():
    raws = _raw_bodies()
    assert all(is_cleaneval(b) for b in raws)
    pages = load_dataset(CLEANEVAL).pages
    assert [p.gold["body"] for p in pages] == [normalise_cleaneval(b) for b in raws]
    assert any(p.gold["body"] == "" for p in pages)  # "URL: ..." and nothing else: no article
