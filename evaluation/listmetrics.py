"""Page-type and list-record metrics.

Page type has three classes, ``article``, ``list`` and ``other``. A gold ``nonarticle`` (not an
article, may or may not be a list) is right when the prediction is ``list`` or ``other``; it counts
as a negative for the ``article`` class and is left out of the ``list`` and ``other`` classes, whose
truth it does not tell.

Records are matched one-to-one by URL after resolving against the page URL and normalising (http
and https alike, lower-case host, no fragment, no default port, no trailing slash, no ``www.``);
precision, recall and F1 are micro-averaged over all records of all pages with gold records, and
``title_match`` is the share of matched records whose normalised titles are equal. Where the gold
records carry a ``date`` or an ``author``, ``date_match`` / ``author_match`` are the shares of
those matched records whose predicted ``published`` (or ``date``) is the same text after
normalisation (dates are compared as printed: "2 小时前" is a date here) and whose ``authors``
(or ``author``) are the same set of names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from urllib.parse import urljoin, urlsplit, urlunsplit

from evaluation.fieldmetrics import author_match, normalise_text

PAGE_CLASSES = ("article", "list", "other")


def normalise_page_type(value: object) -> str | None:
    """Map a label to ``article``/``list``/``other``/``nonarticle`` (None when unknown).

    >>> normalise_page_type("Article"), normalise_page_type("detail"), normalise_page_type(None)
    ('article', 'article', None)
    """
    text = normalise_text(value)
    aliases = {"detail": "article", "news": "article", "index": "list", "listing": "list"}
    text = aliases.get(text, text)
    return text if text in (*PAGE_CLASSES, "nonarticle") else None


def page_type_correct(pred: object, gold: object) -> bool:
    """Whether one prediction is right (``nonarticle`` accepts ``list`` and ``other``).

    >>> page_type_correct("list", "nonarticle"), page_type_correct("article", "nonarticle")
    (True, False)
    """
    p, g = normalise_page_type(pred), normalise_page_type(gold)
    if g == "nonarticle":
        return p in ("list", "other")
    return g is not None and p == g


def page_type_scores(pairs: Iterable[tuple[object, object]]) -> dict[str, object]:
    """Accuracy, per-class precision/recall/F1 and the confusion matrix (gold → predicted → pages)
    over (pred, gold) pairs with a gold label.

    >>> s = page_type_scores([("article", "article"), ("list", "nonarticle"), ("article", "list")])
    >>> s["accuracy"], s["classes"]["article"]["precision"], s["classes"]["list"]["recall"]
    (0.6667, 0.5, 0.0)
    >>> s["confusion"]
    {'article': {'article': 1}, 'list': {'article': 1}, 'nonarticle': {'list': 1}}
    """
    rows = [(normalise_page_type(p), normalise_page_type(g), page_type_correct(p, g))
            for p, g in pairs if normalise_page_type(g) is not None]
    classes = {}
    for cls in PAGE_CLASSES:
        if cls == "article":
            judged = [(p == cls, g == cls) for p, g, _ in rows]
        else:
            judged = [(p == cls, g == cls) for p, g, _ in rows if g != "nonarticle"]
        classes[cls] = _prf(sum(p and g for p, g in judged), sum(p for p, _ in judged),
                            sum(g for _, g in judged))
    right = sum(ok for *_, ok in rows)
    confusion: dict[str, dict[str, int]] = {}
    for p, g, _ in rows:
        confusion.setdefault(g, {})[str(p)] = confusion.get(g, {}).get(str(p), 0) + 1
    return {"accuracy": round(right / len(rows), 4) if rows else 0.0, "pages": len(rows),
            "classes": classes,
            "confusion": {g: dict(sorted(c.items())) for g, c in sorted(confusion.items())}}


def _prf(tp: int, predicted: int, actual: int) -> dict[str, float | int | None]:
    """Precision, recall, F1; recall and F1 are None (undefined) when there is no gold instance.

    >>> _prf(0, 3, 0)
    {'precision': 0.0, 'recall': None, 'f1': None, 'support': 0}
    """
    p = tp / predicted if predicted else 0.0
    if not actual:
        return {"precision": round(p, 4), "recall": None, "f1": None, "support": 0}
    r = tp / actual
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"precision": round(p, 4), "recall": round(r, 4), "f1": round(f1, 4), "support": actual}


def normalise_url(href: object, base: str | None = None) -> str | None:
    """Resolve ``href`` against ``base`` and normalise it for matching.

    >>> normalise_url("../b/?x=1#top", "https://WWW.Example.com:443/a/c.html")
    'https://example.com/b?x=1'
    >>> normalise_url("javascript:void(0)") is None, normalise_url("") is None
    (True, True)
    """
    text = str(href or "").strip()
    if not text or text.startswith(("javascript:", "mailto:", "#")):
        return None
    parts = urlsplit(urljoin(base, text) if base else text)
    host = (parts.hostname or "").lower().removeprefix("www.")
    default = {"http": 80, "https": 443}.get(parts.scheme.lower())
    if parts.port and parts.port != default:
        host = f"{host}:{parts.port}"
    path = parts.path.rstrip("/") or ""
    scheme = "https" if parts.scheme.lower() in ("http", "https") else parts.scheme.lower()
    return urlunsplit((scheme, host, path, parts.query, ""))


def record_key(href: object, base: str | None) -> str | None:
    """The matching key of a record URL; without any base URL, only path and query count.

    >>> record_key("https://www.s.com/p/1/", None), record_key("/p/1", None)
    ('/p/1', '/p/1')
    """
    url = normalise_url(href, base)
    if url is None or base:
        return url
    parts = urlsplit(url)
    return urlunsplit(("", "", parts.path or "/", parts.query, ""))


def record_counts(pred: Sequence[dict], gold: Sequence[dict], base: str | None
                  ) -> tuple[int, int, int, int]:
    """(matched, predicted, gold, titles matched) for one page; pred URLs in ``url`` or ``href``.

    ``base`` is the page URL (or its ``<base>``/canonical URL); with no base at all, records
    match on path and query (see :func:`record_key`).

    >>> record_counts([{"url": "https://s.com/a", "title": "A"}, {"url": "/z", "title": "Z"}],
    ...               [{"href": "/a", "title": "a"}, {"href": "/b", "title": "B"}], "https://s.com/")
    (1, 2, 2, 1)
    """
    gold_by_url: dict[str, str] = {}
    for rec in gold:
        url = record_key(rec.get("href") or rec.get("url"), base)
        if url and url not in gold_by_url:
            gold_by_url[url] = normalise_text(rec.get("title"))
    seen: set[str] = set()
    matched = titles = predicted = 0
    for rec in pred:
        url = record_key(rec.get("url") or rec.get("href"), base)
        if not url or url in seen:
            continue
        seen.add(url)
        predicted += 1
        if url in gold_by_url:
            matched += 1
            titles += gold_by_url[url] == normalise_text(rec.get("title")) != ""
    return matched, predicted, len(gold_by_url), titles


def record_scores(counts: Iterable[tuple[int, int, int, int]]) -> dict[str, float | int]:
    """Micro-averaged precision/recall/F1 and the title-match share of matched records, with the
    record counts (so scores of several rows can be pooled).

    >>> record_scores([(1, 2, 2, 1), (0, 0, 3, 0)])  # doctest: +NORMALIZE_WHITESPACE
    {'precision': 0.5, 'recall': 0.2, 'f1': 0.2857, 'title_match': 1.0, 'pages': 2,
     'matched': 1, 'predicted': 2, 'gold': 5}
    """
    matched = predicted = gold = titles = pages = 0
    for m, p, g, t in counts:
        matched, predicted, gold, titles, pages = (matched + m, predicted + p, gold + g,
                                                   titles + t, pages + 1)
    scores = _prf(matched, predicted, gold)
    return {"precision": scores["precision"], "recall": scores["recall"] or 0.0,
            "f1": scores["f1"] or 0.0,
            "title_match": round(titles / matched, 4) if matched else 0.0, "pages": pages,
            "matched": matched, "predicted": predicted, "gold": gold}


def record_field_counts(pred: Sequence[dict], gold: Sequence[dict], base: str | None
                        ) -> tuple[int, int, int, int]:
    """(matched records with a gold date, of those the same date, with a gold author, the same
    authors) for one page, records matched by URL as in :func:`record_counts`.

    >>> record_field_counts([{"url": "/a", "published": "2 小时前", "authors": ["Li"]}],
    ...                     [{"href": "/a", "date": "2  小时前", "author": "Li"}], None)
    (1, 1, 1, 1)
    """
    gold_by_url: dict[str, dict] = {}
    for rec in gold:
        url = record_key(rec.get("href") or rec.get("url"), base)
        if url and url not in gold_by_url:
            gold_by_url[url] = rec
    dates = dates_right = authors = authors_right = 0
    seen: set[str] = set()
    for rec in pred:
        url = record_key(rec.get("url") or rec.get("href"), base)
        if not url or url in seen or url not in gold_by_url:
            continue
        seen.add(url)
        truth = gold_by_url[url]
        if truth.get("date"):
            dates += 1
            found = rec.get("published", rec.get("date"))
            dates_right += normalise_text(found) == normalise_text(truth["date"])
        if truth.get("author"):
            authors += 1
            authors_right += author_match(rec.get("authors", rec.get("author")), truth["author"])
    return dates, dates_right, authors, authors_right


def record_field_scores(counts: Iterable[tuple[int, int, int, int]]) -> dict[str, float | int]:
    """``date_match`` and ``author_match`` over all matched records with gold for them (absent
    when there are none), with their counts.

    >>> record_field_scores([(2, 1, 0, 0), (2, 2, 0, 0)])
    {'date_match': 0.75, 'dates': 4}
    """
    dates = dates_right = authors = authors_right = 0
    for d, dr, a, ar in counts:
        dates, dates_right, authors, authors_right = (dates + d, dates_right + dr, authors + a,
                                                      authors_right + ar)
    out: dict[str, float | int] = {}
    if dates:
        out.update(date_match=round(dates_right / dates, 4), dates=dates)
    if authors:
        out.update(author_match=round(authors_right / authors, 4), authors=authors)
    return out
