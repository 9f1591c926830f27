"""The project's own extraction methods by name, as callables the runner can time and score.

A method is ``run(html: bytes, url: str | None, sibling: bytes | None) -> dict`` returning a
prediction with any of ``body``, ``title``, ``date``, ``author``, ``page_type``, ``records``.
``needs_sibling`` methods get a same-group page chosen by :mod:`extractors.evaluation.datasets`.

To add a method (``lcs``, ``svm``, ``dwsie``, ``psnt`` when they land in ``extractors``), write an
adapter below and add one :class:`MethodSpec` line to :func:`method_specs`; nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Prediction = dict
MethodRun = Callable[[bytes, "str | None", "bytes | None"], Prediction]

PLANNED_METHODS = ("svm", "dwsie", "psnt")


@dataclass(frozen=True, slots=True)
class MethodSpec:
    """A named method: what it predicts and whether it needs a sibling page."""

    name: str
    run: MethodRun
    provides: frozenset[str]
    needs_sibling: bool = False
    description: str = ""


def run_attenuation(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """Attenuation main text alone (``extractors.attenuation.extract_main_text``)."""
    from extractors import parse_page
    from extractors.attenuation import extract_main_text

    return {"body": extract_main_text(parse_page(html, url=url)).text}


def run_lcs(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """LCS denoising against the sibling (paper 003), then attenuation on the kept rows; without a
    usable sibling, attenuation alone (the crawl does the same)."""
    from extractors import extract

    return {"body": extract(html, url=url, sibling=sibling).body}


def run_default(html: bytes, url: str | None, sibling: bytes | None) -> Prediction:
    """The full chain as users get it: ``extractors.extract(...).to_dict()``, with the sibling a
    crawl would pair the page with."""
    from extractors import extract

    found = extract(html, url=url, sibling=sibling).to_dict()
    keys = ("body", "title", "date", "author", "page_type", "records")
    pred = {k: found[k] for k in keys if k in found}
    if "authors" in found and "author" not in pred:
        pred["author"] = found["authors"]
    if "published" in found and "date" not in pred:
        pred["date"] = found["published"]
    return pred


def method_specs() -> dict[str, MethodSpec]:
    """All methods that exist now, by name."""
    specs = (
        MethodSpec("attenuation", run_attenuation, frozenset({"body"}),
                   description="attenuation main text (paper 000) on the shared page parse"),
        MethodSpec("lcs", run_lcs, frozenset({"body"}), needs_sibling=True,
                   description="LCS template denoising against a sibling (paper 003) + attenuation"),
        MethodSpec("default", run_default,
                   frozenset({"body", "title", "date", "author", "page_type", "records"}),
                   needs_sibling=True,
                   description="extractors.extract: the full chain, with a sibling when one exists"),
    )
    return {spec.name: spec for spec in specs}


def resolve_methods(names: str | list[str]) -> list[MethodSpec]:
    """Specs for comma-separated or listed names; ValueError listing the known ones otherwise.

    >>> [m.name for m in resolve_methods("default,attenuation")]
    ['default', 'attenuation']
    >>> resolve_methods("nope")
    Traceback (most recent call last):
    ...
    ValueError: unknown method 'nope'; known methods: attenuation, default, lcs
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
