"""What every trainer reads first: the dataset folders named on the command line, and their pages
parsed once (a page the parser refuses is counted by reason, not raised)."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

__all__ = ["dataset_folders", "parsed_pages"]


def dataset_folders(names: list[str], command: str) -> list[Path] | None:
    """The folders of ``names`` (paths, or set names under $NEWSCRAWL_DATA); None, after saying
    which on stderr, when one is not a dataset folder."""
    from evaluation.cli import resolve_dataset_dir

    folders = [resolve_dataset_dir(d) for d in names]
    missing = [str(f) for f in folders if not (f / "gold.jsonl").is_file()]
    if missing:
        print(f"newscrawl train {command}: not a dataset folder: {', '.join(missing)}",
              file=sys.stderr)
        return None
    return folders


def parsed_pages(dataset, size: Counter, wanted: Callable[[dict], bool]) -> Iterator[tuple]:
    """``(gold page, parsed page)`` for the evaluated pages of ``dataset`` whose gold is
    ``wanted``; refused pages are counted in ``size`` as ``skipped_<reason>``."""
    from extractors.errors import BadInput
    from extractors.page import parse_page

    for gold_page in dataset.evaluated():
        if not wanted(gold_page.gold):
            continue
        try:
            parsed = parse_page(gold_page.read_bytes(), url=gold_page.url)
        except BadInput as exc:
            size[f"skipped_{exc.reason}"] += 1
            continue
        yield gold_page, parsed
