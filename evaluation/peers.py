"""Other extractors run on the same pages for comparison: one small adapter per peer.

Every peer is imported lazily when a run asks for it; a peer that is not installed is reported
with the pip name to install (``pip install 'newscrawl[bench]'`` installs them all).

Input, the same for everyone: peers that accept bytes and decode them themselves get the page
bytes (trafilatura, readability-lxml, jusText); the others get the text decoded once by the
project's :func:`extractors.decoding.decode_html` (BOM, then meta charset, then detection), so no
peer loses or wins on a decoding choice of the harness. Settings are each library's defaults
except where noted in the adapter (comments, tables, stoplists).
"""

from __future__ import annotations

import importlib.util
import warnings
from collections.abc import Callable
from dataclasses import dataclass

from evaluation.peertext import fragment_text

PeerRun = Callable[[bytes, str, "str | None"], dict]
BODY_FIELDS = frozenset({"body", "title", "date", "author"})


@dataclass(frozen=True, slots=True)
class PeerSpec:
    """A peer library: import name, pip name, what it predicts, and how to build its runner."""

    name: str
    module: str
    pip_name: str
    provides: frozenset[str]
    build: Callable[[], PeerRun]
    takes_bytes: bool = False  # decodes the page itself: gets bytes, and no decoded text


    def installed(self) -> bool:
        return importlib.util.find_spec(self.module) is not None


def _iso(value: object) -> str | None:
    if value is None or value == "":
        return None
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


def build_trafilatura() -> PeerRun:
    import trafilatura

    def run(html: bytes, text: str, url: str | None) -> dict:
        # include_comments=False, include_tables=True: trafilatura's own comparison settings.
        doc = trafilatura.bare_extraction(html, url=url, with_metadata=True,
                                          include_comments=False, include_tables=True)
        if doc is None:
            return {}
        d = doc.as_dict()
        return {"body": d.get("text"), "title": d.get("title"), "date": d.get("date"),
                "author": d.get("author")}
    return run


def build_htmldate() -> PeerRun:
    from htmldate import find_date

    def run(html: bytes, text: str, url: str | None) -> dict:
        # extensive_search + original_date: htmldate's most thorough setting (its own evaluation)
        return {"date": find_date(text, url=url, extensive_search=True, original_date=True,
                                  outputformat="%Y-%m-%d")}
    return run


def build_readability() -> PeerRun:
    from readability import Document

    def run(html: bytes, text: str, url: str | None) -> dict:
        doc = Document(html, url=url)
        return {"body": fragment_text(doc.summary(html_partial=True)), "title": doc.short_title()}
    return run


def build_newspaper() -> PeerRun:
    import newspaper

    def run(html: bytes, text: str, url: str | None) -> dict:
        article = newspaper.Article(url or "http://localhost/", fetch_images=False)
        article.download(input_html=text)
        article.parse()
        return {"body": article.text, "title": article.title, "author": article.authors,
                "date": _iso(article.publish_date)}
    return run


def build_goose() -> PeerRun:
    from goose3 import Goose

    goose = Goose()  # default config: English stopwords, so Chinese bodies come out empty

    def run(html: bytes, text: str, url: str | None) -> dict:
        art = goose.extract(url=None, raw_html=text)
        return {"body": art.cleaned_text, "title": art.title, "author": art.authors,
                "date": _iso(art.publish_date)}
    return run


def build_gne() -> PeerRun:
    from gne import GeneralNewsExtractor

    extractor = GeneralNewsExtractor()

    def run(html: bytes, text: str, url: str | None) -> dict:
        d = extractor.extract(text)
        return {"body": d.get("content"), "title": d.get("title"), "author": d.get("author"),
                "date": d.get("publish_time")}
    return run


def build_justext() -> PeerRun:
    import justext

    stoplist = justext.get_stoplist("English")  # as the article-extraction-benchmark runs it

    def run(html: bytes, text: str, url: str | None) -> dict:
        paragraphs = justext.justext(html, stoplist)
        return {"body": "\n".join(p.text for p in paragraphs if not p.is_boilerplate)}
    return run


def build_resiliparse() -> PeerRun:
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    def run(html: bytes, text: str, url: str | None) -> dict:
        tree = HTMLTree.parse(text)
        return {"body": extract_plain_text(tree, main_content=True), "title": tree.title or None}
    return run


def build_gerapy() -> PeerRun:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its classifier is a pickled scikit-learn 0.23 model
        import gerapy_auto_extractor as gae
    from loguru import logger

    logger.disable("gerapy_auto_extractor")

    def run(html: bytes, text: str, url: str | None) -> dict:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            is_list = gae.is_list(text)
        records = gae.extract_list(text) if is_list else []
        return {"page_type": "list" if is_list else "article", "records": records}
    return run


def peer_specs() -> dict[str, PeerSpec]:
    """Every supported peer, by the name used on the command line."""
    specs = (
        PeerSpec("trafilatura", "trafilatura", "trafilatura", BODY_FIELDS, build_trafilatura,
                 takes_bytes=True),
        PeerSpec("readability", "readability", "readability-lxml",
                 frozenset({"body", "title"}), build_readability, takes_bytes=True),
        PeerSpec("newspaper4k", "newspaper", "newspaper4k", BODY_FIELDS, build_newspaper),
        PeerSpec("goose3", "goose3", "goose3", BODY_FIELDS, build_goose),
        PeerSpec("gne", "gne", "gne", BODY_FIELDS, build_gne),
        PeerSpec("justext", "justext", "jusText", frozenset({"body"}), build_justext,
                 takes_bytes=True),
        PeerSpec("resiliparse", "resiliparse", "resiliparse",
                 frozenset({"body", "title"}), build_resiliparse),
        PeerSpec("htmldate", "htmldate", "htmldate", frozenset({"date"}), build_htmldate),
        PeerSpec("gerapy", "gerapy_auto_extractor", "gerapy-auto-extractor",
                 frozenset({"page_type", "records"}), build_gerapy),
    )
    return {spec.name: spec for spec in specs}


def resolve_peers(names: str | list[str]) -> list[PeerSpec]:
    """Specs for comma-separated names (``all`` = every peer); ValueError listing known ones.

    >>> [p.name for p in resolve_peers("gne,justext")]
    ['gne', 'justext']
    """
    specs = peer_specs()
    wanted = [n.strip() for n in (names.split(",") if isinstance(names, str) else names)]
    if "all" in wanted:
        return list(specs.values())
    unknown = [n for n in wanted if n and n not in specs]
    if unknown:
        raise ValueError(f"unknown peer {unknown[0]!r}; known peers: {', '.join(specs)}, all")
    return [specs[n] for n in wanted if n]
