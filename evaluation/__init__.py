"""Evaluation of extraction methods and peer libraries on datasets in the shared layout.

Pure (no Scrapy): ``newscrawl eval`` (see :mod:`evaluation.cli`) loads datasets
(:mod:`.datasets`), runs our methods (:mod:`.methods`) and peers (:mod:`.peers`) through
:mod:`.runner`, scores them with the published metrics (:mod:`.metrics`, :mod:`.fieldmetrics`,
:mod:`.listmetrics`), prints and writes reports (:mod:`.report`) and checks pinned floors
(:mod:`.gate`). Nothing is imported from the peer libraries until a run asks for them.
"""

from __future__ import annotations

__all__ = ["cli", "datasets", "gate", "methods", "metrics", "peers", "report", "runner"]
