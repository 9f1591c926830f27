"""Page type (article / list / other): a text-amount heuristic, checked by a learned page model.

The heuristic: an article has a subject region with a body of real prose; a list page has many
links with headline-length anchors and little prose outside them. It calls nearly every page with
some prose an article (wcxb_dev's product pages, documentation and landing pages, the section
fronts of news_article_vs_nonarticle).

The page model (``models/pagetype.npz``, trained by ``newscrawl train pagetype`` from
``evaluation/training/pagetype.py``) reads :data:`FEATURES` of the page (text amounts, links, the
page's own ``og:type`` and JSON-LD types, its URL's shape, counts of a few tags) in two logistic
regressions: P(article), then, for the rest, P(list) against other. It only overrules the
heuristic's "article", and only when P(article) is under the card's ``article_floor``: an article
typed as anything else loses its body in the crawl, so the floor is chosen low (article recall on
held-out sites stays that of the heuristic within a page or two; see docs/evaluation.md). Without
the model file the heuristic alone answers.

Written by hand: no maintained library types news pages; the regressions are scikit-learn's,
applied here with numpy so the crawl does not import scikit-learn.
"""

from __future__ import annotations

import functools
import logging
import math
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np

from extractors.attenuation import MainText
from extractors.jsonld import ARTICLE_TYPES, read_jsonld, type_names
from extractors.modelio import ModelError, load_model
from extractors.page import Page

__all__ = ["FEATURES", "PageTypeModel", "classify_page", "default_page_model", "heuristic_type",
           "load_page_model", "page_features"]

logger = logging.getLogger(__name__)

#: Body characters from which a page reads as an article (CJK characters count triple, since one
#: carries about a word).
MIN_ARTICLE_CHARS = 400
#: ... and the body must also outweigh the page's headline-like links by this factor (a section front
#: with teasers has a long "body" but many more headline links). Both constants come from a grid
#: (200–600 chars × ratio 5–80) on gerapy_listdetail, the first 300 pages of wcxb_dev and
#: news_article_vs_nonarticle: accuracy 0.80 (article vs list vs not-article), against 0.76 without the
#: ratio.
MIN_BODY_CHARS_PER_HEADLINE_LINK = 10
#: Links with at least this many anchor characters look like headlines.
MIN_HEADLINE_LINK_CHARS = 12
#: Headline-like links from which a page without an article body reads as a list.
MIN_LIST_LINKS = 10
MODEL_NAME = "pagetype"

#: The page model's inputs, in column order (the card lists them; a model with other names is
#: refused on load).
FEATURES = (
    "log_body_chars", "log_headline_links", "log_links", "link_share", "body_share",
    "log_body_per_headline_link", "og_article", "og_other", "ld_article", "ld_list", "ld_other",
    "has_published", "has_authors", "url_depth", "url_date", "log_url_last_chars",
    "url_last_hyphens", "url_root", "url_list_word", "url_product_word", "url_long_number",
    "url_query", "log_h2", "log_long_p", "log_article_tags", "log_time_tags", "log_forms",
    "cjk_share", "h1_tags", "log_li", "log_img", "log_price_classes",
)
_LIST_WORDS = re.compile(
    r"(?:^|[/_.-])(?:tags?|category|categories|categorie|kategorie|sections?|topics?|archives?|"
    r"archiv|search|suche|page|authors?|index|lists?|news|blog|rubrik|ressort|thema|themen|label|"
    r"channel)(?:$|[/_.-])", re.I)
_PRODUCT_WORDS = re.compile(r"(?:^|[/_.-])(?:products?|produkt|shop|store|item|dp|p|buy|catalog|"
                            r"katalog)(?:$|[/_.-])", re.I)
_DATE_IN_URL = re.compile(r"(?:19|20)\d\d[/_-]?(?:0[1-9]|1[0-2])(?:[/_-]?(?:[0-2]\d|3[01]))?")
_LONG_NUMBER = re.compile(r"\d{5,}")
_PAGE_SUFFIX = re.compile(r"\.(?:html?|php|aspx?|jsp)$", re.I)
_LD_LIST = frozenset({"collectionpage", "itemlist", "searchresultspage"})
_LD_OTHER = frozenset({"product", "offer", "aggregateoffer", "softwareapplication", "faqpage",
                       "aboutpage", "contactpage", "profilepage", "event", "recipe", "course",
                       "jobposting", "localbusiness", "service"})


def classify_page(page: Page, main: MainText, fields=None,
                  model: PageTypeModel | None | bool = True) -> str:
    """``"article"``, ``"list"`` or ``"other"``. ``main``: the attenuation main text of the whole
    page; ``fields``: the page's :class:`extractors.fields.Fields` (published, authors), if read;
    ``model``: a :class:`PageTypeModel`, True for the shipped one, False for the heuristic alone."""
    guess = heuristic_type(page, main)
    if guess != "article" or model is False:
        return guess
    if model is True:
        model = default_page_model()
    if model is None:
        return guess
    return model.overrule(page_features(page, main.text, fields))


def heuristic_type(page: Page, main: MainText) -> str:
    """The text-amount heuristic alone."""
    nodes = page.nodes
    is_link = np.fromiter((t == "a" for t in nodes.tag), dtype=bool, count=len(nodes))
    headline_links = int(np.count_nonzero(nodes.text[is_link] >= MIN_HEADLINE_LINK_CHARS))
    length = _weighted_length(main.text)
    if length >= MIN_ARTICLE_CHARS and length >= MIN_BODY_CHARS_PER_HEADLINE_LINK * headline_links:
        return "article"
    return "list" if headline_links >= MIN_LIST_LINKS else "other"


def page_features(page: Page, body: str, fields=None) -> np.ndarray:
    """The :data:`FEATURES` of ``page`` whose whole-page main text is ``body``."""
    nodes = page.nodes
    tags = nodes.tag
    counts: dict[str, int] = {}
    for tag in tags:
        counts[tag] = counts.get(tag, 0) + 1
    is_link = np.fromiter((t == "a" for t in tags), dtype=bool, count=len(nodes))
    is_p = np.fromiter((t == "p" for t in tags), dtype=bool, count=len(nodes))
    headline_links = int(np.count_nonzero(nodes.text[is_link] >= MIN_HEADLINE_LINK_CHARS))
    total = max(int(nodes.text[0]), 1) if len(nodes) else 1
    link_share = float(nodes.link_text[0]) / total if len(nodes) else 0.0
    cjk = sum(1 for ch in body if "\u3400" <= ch <= "\u9fff")
    length = len(body) + 2 * cjk
    og = _og_type(page)
    types: set[str] = set()
    for obj in read_jsonld(page.ld_json).objects:
        types |= type_names(obj)
    parts = urlsplit(page.url or "")
    segments = [s for s in parts.path.split("/") if s]
    last = _PAGE_SUFFIX.sub("", segments[-1]) if segments else ""
    prices = sum(1 for c in nodes.classes if "price" in c.lower())
    values = (
        math.log1p(length), math.log1p(headline_links), math.log1p(int(is_link.sum())),
        link_share, min(length / total, 1.0), math.log1p(length / (headline_links + 1)),
        og == "article", bool(og) and og != "article",
        bool(types & ARTICLE_TYPES), bool(types & _LD_LIST), bool(types & _LD_OTHER),
        bool(fields is not None and fields.published), bool(fields is not None and fields.authors),
        len(segments), bool(_DATE_IN_URL.search(parts.path)), math.log1p(len(last)),
        last.count("-"), not segments, bool(_LIST_WORDS.search(parts.path)),
        bool(_PRODUCT_WORDS.search(parts.path)), bool(_LONG_NUMBER.search(parts.path)),
        bool(parts.query),
        math.log1p(counts.get("h2", 0)), math.log1p(int(np.count_nonzero(nodes.text[is_p] >= 80))),
        math.log1p(counts.get("article", 0)), math.log1p(counts.get("time", 0)),
        math.log1p(counts.get("form", 0)), cjk / max(len(body), 1), min(counts.get("h1", 0), 3),
        math.log1p(counts.get("li", 0)), math.log1p(counts.get("img", 0)), math.log1p(prices),
    )
    return np.array(values, dtype=np.float64)


@dataclass(frozen=True, slots=True)
class PageTypeModel:
    """Two logistic regressions over standardised :data:`FEATURES`: article against the rest,
    then list against other; and the P(article) under which the heuristic's article is overruled."""

    mean: np.ndarray
    scale: np.ndarray
    article_w: np.ndarray
    article_b: float
    list_w: np.ndarray
    list_b: float
    article_floor: float

    def probabilities(self, x: np.ndarray) -> tuple[float, float]:
        """(P(article), P(list | not article)) of one feature row."""
        z = (x - self.mean) / self.scale
        return _sigmoid(float(z @ self.article_w) + self.article_b), \
            _sigmoid(float(z @ self.list_w) + self.list_b)

    def overrule(self, x: np.ndarray) -> str:
        p_article, p_list = self.probabilities(x)
        if p_article >= self.article_floor:
            return "article"
        return "list" if p_list >= 0.5 else "other"

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {"mean": self.mean, "scale": self.scale, "article_w": self.article_w,
                "article_b": np.array([self.article_b]), "list_w": self.list_w,
                "list_b": np.array([self.list_b])}

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], card: dict) -> PageTypeModel:
        if tuple(card.get("features", ())) != FEATURES:
            raise ModelError(f"{MODEL_NAME}: the card's features are not this version's")
        return cls(arrays["mean"], arrays["scale"], arrays["article_w"],
                   float(arrays["article_b"][0]), arrays["list_w"], float(arrays["list_b"][0]),
                   float(card["decision"]["article_floor"]))


def load_page_model(folder: str | Path | None = None) -> PageTypeModel:
    """The page model saved in ``folder`` (None: the one shipped in the package). Raises
    :class:`extractors.modelio.ModelError` naming the file when it is missing or broken."""
    loaded = load_model(folder, MODEL_NAME)
    return PageTypeModel.from_arrays(loaded.arrays, loaded.card)


@functools.cache
def default_page_model() -> PageTypeModel | None:
    """The shipped page model, loaded once per process; None (the heuristic alone, logged once)
    when the package carries none or it is broken."""
    try:
        return load_page_model(None)
    except ModelError as exc:
        logger.warning("page type: heuristic only, the page model is unusable: %s", exc)
        return None


def _og_type(page: Page) -> str:
    head = page.root.find("head")
    if head is None:
        return ""
    for meta in head.iter("meta"):
        if meta.get("property") == "og:type":
            return (meta.get("content") or "").strip().lower()
    return ""


def _sigmoid(value: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(min(value, 60.0), -60.0)))


def _weighted_length(text: str) -> int:
    cjk = sum(1 for ch in text if "\u3400" <= ch <= "\u9fff")
    return len(text) + 2 * cjk
