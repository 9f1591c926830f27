"""One-time loads done before the first page, so a new process answers its first page as fast
as its hundredth.

A fresh process pays about 1.5 s on its first pages, all of it one-time loading: py3langid's
model (~0.6 s), dateparser's locale data and compiled patterns (~0.6 s for its first date),
htmldate's import (~0.1 s), the shipped page-type and DWSIE models. A pool process of
``newscrawl serve`` paid this inside its first caller's request (measured: the first
``extract_pageinfo`` of an aeb page 730 ms, the second 34 ms). :func:`warm_up` runs the whole
chain once on a small document written here, which walks every step (markup, fields with a
date and a byline, language, page type, the DWSIE node model), then once without a date (the
htmldate fallback), and discards the results.
"""

from __future__ import annotations

import time

__all__ = ["warm_up"]

#: A short English story with a date, a byline and enough text (over 200 characters) for the
#: language step to classify it; made up here, read by nothing but :func:`warm_up`.
_DOCUMENT = (
    "<!doctype html><html lang='en'><head><title>Warm-up story - Warm-up</title>"
    "<meta property='og:type' content='article'></head><body><nav><a href='/'>Home</a>"
    "<a href='/news/'>News</a></nav><article><h1>Warm-up story</h1>"
    "<p class='byline'>By Jane Roe</p>{dateline}"
    + "<p>The council met on Tuesday evening to discuss the new bridge over the river, which "
      "has been closed for repairs since the spring floods damaged its northern supports.</p>" * 3
    + "</article><footer><a href='/about'>About</a></footer></body></html>")
_DATELINE = "<time datetime='2020-01-02'>2 January 2020</time>"


def warm_up() -> float:
    """Load everything the chain loads on first use (models, language identifier, date
    parser); returns the seconds it took. Safe to call more than once (later calls are cheap)."""
    from extractors import extract
    from extractors.dates import _dateparser
    from extractors.dwsie import default_node_model
    from extractors.pageinfo import page_info

    started = time.perf_counter()
    url = "https://example.org/news/warm-up-story"
    page_info(_DOCUMENT.format(dateline=_DATELINE), default_node_model(), url=url, article=True)
    extract(_DOCUMENT.format(dateline=""), url)  # no date in the markup: htmldate's fallback
    # dateparser itself: the document's date is read by the faster paths before it, and its
    # first call builds its time-zone patterns (~0.2 s) and English locale (~0.2 s)
    _dateparser("2 January 2020, 10:30 CET", None, ("en",))
    return time.perf_counter() - started
