"""The project's own extraction methods by name, as callables the runner can time and score.

A method is ``run(html: bytes, url: str | None, sibling: bytes | None) -> dict`` returning a
prediction with any of ``body``, ``title``, ``date``, ``author``, ``page_type``, ``records``.
``needs_sibling`` methods get a same-group page chosen by :mod:`evaluation.datasets`
(only of the page types in ``sibling_types`` when the spec names some).

Besides the scored keys a prediction may carry ``coverable`` (False when the method could not be
applied to the page at all, e.g. PSNT without a second list page of the group: the page is scored
as predicting nothing, and the runner also reports the coverable pages apart), ``outcome`` (a short
phrase the runner counts per group) and ``timings_ms`` (per-step milliseconds, whose medians the
runner reports).

To add a method, write an adapter below and add one :class:`MethodSpec` line to
:func:`method_specs`; nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Prediction = dict
MethodRun = Callable[[bytes, "str | None", "bytes | None"], Prediction]

PLANNED_METHODS: tuple[str, ...] = ()
#: The paper-001 model folder of ``newscrawl eval --model`` (None: the model shipped in the
#: package): ``svm`` and ``default_svm`` use it, and ``default`` runs as ``extract --model DIR``
#: (the SVM filling the fields metadata left empty).
FIELD_MODEL_DIR: str | None = None


@dataclass(frozen=True, slots=True)
class MethodSpec:
    """A named method: what it predicts and whether it needs a sibling page."""

    name: str
    run: MethodRun
    provides: frozenset[str]
    needs_sibling: bool = False
    description: str = ""
    sibling_types: tuple[str, ...] | None = None  # gold page types a sibling may have (None: any
    #                                                compatible type, see datasets.choose_sibling)


def run_attenuation(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """Attenuation main text alone (``extractors.attenuation.extract_main_text``)."""
    from extractors import parse_page
    from extractors.attenuation import extract_main_text

    return {"body": extract_main_text(parse_page(html, url=url)).text}


def run_lcs(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """LCS denoising against the sibling (paper 003) on every page, whatever its script, then
    attenuation on the kept rows; without a usable sibling, attenuation alone."""
    from extractors import extract

    return {"body": extract(html, url=url, sibling=sibling, use_sibling="always").body}


def _policy(**changes):
    """The SVM policy of ``extract`` with the ``--model`` folder's model (if one was given)."""
    from extractors.svm_fields import SvmPolicy, policy_for

    return policy_for(FIELD_MODEL_DIR, **changes) or SvmPolicy()  # --model: default fills too


def run_default(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """The full chain as users get it: ``extractors.extract(...).to_dict()``, given the sibling a
    crawl would pair the page with (used on CJK pages only, the library's default); on a page it
    types ``list``, the records the crawl's list step gives with its default settings (PSNT with
    the sibling, else the records DWSIE's list subtrees and PSNT on the page alone agree on)."""
    return _chain_prediction(html, url, sibling, _policy())


def run_default_always(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """``default`` with the sibling used on every page, whatever its script
    (``extract(use_sibling="always")``): the chain before the CJK test (docs/evaluation.md,
    "Sixth round"), kept so the comparison can be rerun."""
    return _chain_prediction(html, url, sibling, _policy(), use_sibling="always")


def run_default_svm(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """``default`` with every use of paper 001's SVM switched on: it fills title, date and
    author where metadata and the text rules gave none, and stage 2 cleans the body inside the
    chain's region. The candidate for ``default``: kept out where it does not score better."""
    return _chain_prediction(html, url, sibling,
                             _policy(fill=("title", "date", "author"), body_stage2=True))


def run_svm(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """Paper 001 alone: the two-stage SVM's title, date, author and body (no metadata)."""
    from extractors import parse_page
    from extractors.authors import clean_authors
    from extractors.dates import parse_date
    from extractors.svm_fields import page_features, predict

    model = _policy().resolved()
    found = predict(page_features(parse_page(html, url=url).nodes), model).values
    date = parse_date(found["date"])[0] if found["date"] else None
    authors = clean_authors([found["author"]])[0] if found["author"] else []
    return {"title": found["title"], "body": found["body"] or "",
            "date": date.iso() if date else None, "author": authors}


def _chain_prediction(html: bytes, url: str | None, sibling: bytes | None, policy,
                      use_sibling: str = "auto") -> Prediction:
    from extractors import extract
    from extractors.fields import FIELD_NAMES

    result = extract(html, url=url, sibling=sibling, svm=policy, use_sibling=use_sibling)
    found = result.to_dict()
    keys = ("body", "title", "date", "author", "page_type", "records")
    pred = {k: found[k] for k in keys if k in found}
    if "authors" in found and "author" not in pred:
        pred["author"] = found["authors"]
    if "published" in found and "date" not in pred:
        pred["date"] = found["published"]
    # which article fields came back (the runner reports the share per field) and step timings
    pred["field_coverage"] = {name: bool(found.get(name)) for name in FIELD_NAMES}
    pred["timings_ms"] = found.get("timings_ms", {})
    if found.get("page_type") == "list":  # the crawl's list step (pipelines/lists/stage.py,
        # defaults): PSNT with the sibling, else the records DWSIE's list subtrees and PSNT on the
        # page alone agree on; no records on pages typed otherwise; read on the chain's parse as
        # the crawl reads them: the node classes and the single-page wrapper the page-type step
        # read are not computed again
        pred["records"] = [r.to_dict() for r in _crawl_list_records(result.page, sibling)]
    return pred


def _crawl_list_records(page, sibling: bytes | None) -> list:
    """The records of the crawl's list step with its default settings on a parsed page with no
    stored wrapper: :func:`confirmed_list_records`."""
    from extractors.dwsie import default_node_model
    from extractors.pageinfo import node_classes

    return confirmed_list_records(page, node_classes(page, default_node_model()), sibling)[0]


def run_psnt(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """PSNT (paper 004): a wrapper induced from the page and another list page of its group, then
    applied to the page. Without such a page the page is not coverable and predicts no record."""
    if sibling is None:
        return {"records": [], "coverable": False,
                "outcome": "not coverable: no other list page in the group"}
    return _psnt_prediction(html, url, sibling)


def run_psnt_single(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """PSNT's structure analysis on the page alone (no shared-link removal): an ablation showing
    what the second page contributes, and a fallback for pages without one. Not the paper's
    setting."""
    return _psnt_prediction(html, url, None)


def run_psnt_fallback(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """What the crawl gets with its single-page fallback: PSNT with another list page of the group
    when there is one, else PSNT on the page alone (``psnt_single``)."""
    prediction = _psnt_prediction(html, url, sibling)
    prediction["fallback"] = sibling is None
    return prediction


def _psnt_prediction(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """Induce (from the page and ``sibling``, or the page alone), apply to the page, and say how it
    went: records, an outcome phrase, the wrapper's notation and the time of each step."""
    import time

    from extractors import parse_page
    from extractors.psnt import apply_wrapper, induce_wrapper

    t0 = time.perf_counter()
    page = parse_page(html, url=url)
    other = parse_page(sibling) if sibling is not None else None
    t1 = time.perf_counter()
    induced = induce_wrapper(page, other)
    t2 = time.perf_counter()
    parse_step = "parse_both" if other is not None else "parse"
    timings = {parse_step: (t1 - t0) * 1e3, "induce": (t2 - t1) * 1e3}
    if induced.wrapper is None:
        return {"records": [], "outcome": f"no wrapper: {induced.reason}", "timings_ms": timings}
    applied = apply_wrapper(induced.wrapper, page)
    timings["apply"] = (time.perf_counter() - t2) * 1e3
    return {"records": [r.to_dict() for r in applied.records],
            "outcome": "records" if applied.records else f"no records: {applied.reason}",
            "wrapper": induced.wrapper.notation(), "timings_ms": timings}


def run_dwsie(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """Paper 002 alone: the node network's page type and one record per list node of the page's
    list subtrees (read on every page, whatever its type: the records metric scores only the
    annotated list pages, so a list page typed wrong still shows what its list nodes give). No
    sibling, no PSNT."""
    return _dwsie_prediction(html, url, None, combine=False)


def run_dwsie_psnt(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """DWSIE's page type; list records (on every page, as ``dwsie``) from PSNT's wrapper induced
    with another list page of the group where it finds records, else from DWSIE's list nodes (the
    combination of issue 11)."""
    return _dwsie_prediction(html, url, sibling, combine=True)


def run_confirmed(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """DWSIE's page type; list records (on every page, as ``dwsie``) from PSNT's wrapper induced
    with another list page of the group where it finds records, else the records DWSIE's list
    subtrees and PSNT's wrapper induced from the page alone agree on
    (:func:`extractors.pageinfo.confirmed_records`)."""
    return _dwsie_prediction(html, url, sibling, combine="confirmed")


def _dwsie_prediction(html: bytes, url: str | None, sibling: bytes | None, combine: bool | str
                      ) -> Prediction:
    import time

    from extractors import parse_page
    from extractors.dwsie import classify_nodes, default_node_model
    from extractors.pageinfo import combined_records, dwsie_records

    t0 = time.perf_counter()
    page = parse_page(html, url=url)
    t1 = time.perf_counter()
    classes = classify_nodes(page, default_node_model())
    t2 = time.perf_counter()
    if combine == "confirmed":
        records, by = confirmed_list_records(page, classes, sibling)
    elif combine:
        other = parse_page(sibling) if sibling is not None else None
        records, by = combined_records(page, classes, other)
    else:
        records = dwsie_records(page, classes)
        by = "dwsie" if records else "none"
    timings = {"parse": (t1 - t0) * 1e3, "classify": (t2 - t1) * 1e3,
               "records": (time.perf_counter() - t2) * 1e3}
    return {"page_type": classes.page_type, "records": [r.to_dict() for r in records],
            "outcome": f"{classes.page_type} (paper's rule: {classes.paper_page_type}); "
                       f"records by {by}", "timings_ms": timings}


def confirmed_list_records(page, classes, sibling: bytes | None):
    """:func:`extractors.pageinfo.crawl_records` with the sibling's bytes: PSNT with ``sibling``
    where its wrapper finds records, else the confirmed records of the page alone; the records
    and which rule gave them."""
    from extractors import parse_page
    from extractors.pageinfo import crawl_records

    return crawl_records(page, classes, parse_page(sibling) if sibling is not None else None)


def run_all_links(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """Baseline for records: every link of the page (an ``<a>`` leading to another document)."""
    from extractors import parse_page
    from extractors.listrecords import base_url, build_record
    from extractors.tagpaths import TagPaths

    page = parse_page(html, url=url)
    nodes, base = page.nodes, base_url(page)
    records = []
    for row in TagPaths(page).links:
        span = (row, int(nodes.end[row])), (int(nodes.seg_lo[row]), int(nodes.seg_hi[row]))
        record = build_record(page, *span, [row], base)
        if record is not None:
            records.append({"title": record.title, "url": record.url})
    return {"records": records}


def method_specs() -> dict[str, MethodSpec]:
    """All methods that exist now, by name."""
    specs = (
        MethodSpec("attenuation", run_attenuation, frozenset({"body"}),
                   description="attenuation main text (paper 000) on the shared page parse"),
        MethodSpec("lcs", run_lcs, frozenset({"body"}), needs_sibling=True,
                   description="LCS template denoising against a sibling (paper 003) + attenuation, "
                               "on every page"),
        MethodSpec("default", run_default,
                   frozenset({"body", "title", "date", "author", "page_type", "records"}),
                   needs_sibling=True,
                   description="extractors.extract: the full chain, given a sibling when one "
                               "exists (used on CJK pages only)"),
        MethodSpec("default_always", run_default_always,
                   frozenset({"body", "title", "date", "author", "page_type", "records"}),
                   needs_sibling=True,
                   description="default with the sibling used on every page (the chain before "
                               "the CJK test)"),
        MethodSpec("svm", run_svm, frozenset({"body", "title", "date", "author"}),
                   description="paper 001's two-stage SVM alone: title, date, author, body"),
        MethodSpec("default_svm", run_default_svm,
                   frozenset({"body", "title", "date", "author", "page_type", "records"}),
                   needs_sibling=True,
                   description="default + the SVM filling empty title/date/author and stage 2 "
                               "cleaning the body (the candidate for default)"),
        MethodSpec("psnt", run_psnt, frozenset({"records"}), needs_sibling=True,
                   sibling_types=("list",),
                   description="PSNT wrapper (paper 004) induced with another list page of the "
                               "group, applied to the page"),
        MethodSpec("psnt_single", run_psnt_single, frozenset({"records"}),
                   description="ablation: PSNT on the page alone, no shared-link removal (not "
                               "the paper's setting)"),
        MethodSpec("psnt_fallback", run_psnt_fallback, frozenset({"records"}), needs_sibling=True,
                   sibling_types=("list",),
                   description="psnt where the page has another list page of its group, else "
                               "psnt_single (the crawl's single-page fallback)"),
        MethodSpec("dwsie", run_dwsie, frozenset({"page_type", "records"}),
                   description="paper 002: node network page type; records from its list nodes"),
        MethodSpec("dwsie_psnt", run_dwsie_psnt, frozenset({"page_type", "records"}),
                   needs_sibling=True, sibling_types=("list",),
                   description="DWSIE page type; records by PSNT with another list page of the "
                               "group where it finds some, else DWSIE's list nodes"),
        MethodSpec("confirmed", run_confirmed, frozenset({"page_type", "records"}),
                   needs_sibling=True, sibling_types=("list",),
                   description="DWSIE page type; records by PSNT with another list page of the "
                               "group where it finds some, else those DWSIE's list subtrees and "
                               "PSNT on the page alone agree on"),
        MethodSpec("all_links", run_all_links, frozenset({"records"}),
                   description="baseline: every link of the page is a record"),
    )
    return {spec.name: spec for spec in specs}


def resolve_methods(names: str | list[str]) -> list[MethodSpec]:
    """Specs for comma-separated or listed names; ValueError listing the known ones otherwise.

    >>> [m.name for m in resolve_methods("default,attenuation")]
    ['default', 'attenuation']
    >>> resolve_methods("nope")
    Traceback (most recent call last):
    ...
    ValueError: unknown method 'nope'; known methods: all_links, attenuation, confirmed, ...
    """
    specs = method_specs()
    wanted = [n.strip() for n in (names.split(",") if isinstance(names, str) else names)]
    chosen = []
    for name in filter(None, wanted):
        if name not in specs:
            later = " (planned, not implemented yet)" if name in PLANNED_METHODS else ""
            raise ValueError(f"unknown method {name!r}{later}; known methods: "
                             + ", ".join(sorted(specs)))
        chosen.append(specs[name])
    return chosen
