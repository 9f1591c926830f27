"""``python -m evaluation.list_pages DATASET_DIR ...``: list records page by page.

For every page with gold records: right / predicted / gold records of the crawl's list step before
and after 2026-11-26 (``psnt_fallback``, ``confirmed``) and of DWSIE's list nodes alone, which
rule of :func:`extractors.pageinfo.confirmed_records` gave the records, and each DWSIE list subtree
(its parent's tag, class and id and those of three ancestors) with its right / predicted records
and a few wrong ones: where the wrong records come from (navigation, side boxes, other lists of
the page) and where the gold ones sit. Records are matched as ``newscrawl eval`` matches them
(:func:`evaluation.listmetrics.record_counts`). The per-page analysis of docs/evaluation.md, "List
records at precision 0.95", was read from this listing.

On a page with a sibling, ``confirmed_alone`` is what the list step publishes when the sibling does
not come (the crawl's pairing gives up, a home page): ``confirmed`` on the page alone (with the
page's cards, :func:`extractors.pageinfo.crawl_records` without a sibling), which the
eval otherwise never scores there since PSNT with the sibling comes first. The last lines print
the totals (right / predicted / gold) of each reading, ``confirmed_alone`` over the pages with a
sibling ("List records, third round" reads its no-sibling check from them).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from evaluation.cli import resolve_dataset_dir
from evaluation.datasets import is_validation, load_dataset, site_of
from evaluation.listmetrics import record_counts, record_key
from evaluation.methods import confirmed_list_records
from extractors import parse_page
from extractors.dwsie import classify_nodes, default_node_model
from extractors.pageinfo import crawl_records, dwsie_subtree_records, psnt_records

__all__ = ["main", "page_rows"]


def _where(page, row: int, levels: int = 4) -> str:
    nodes, parts = page.nodes, []
    while row >= 0 and len(parts) < levels:
        label = nodes.tag[row] + "".join(f".{c}" for c in nodes.classes[row].split()[:2])
        label += f"#{nodes.ident[row]}" if nodes.ident[row] else ""
        parts.append(label)
        row = int(nodes.parent[row])
    return " < ".join(parts)


def page_rows(folder: str | Path, limit: int | None = None) -> list[dict]:
    """One dict per page with gold records of the set in ``folder`` (see the module docstring)."""
    dataset = load_dataset(resolve_dataset_dir(str(folder)), limit=limit, only="records")
    model = default_node_model()
    rows = []
    for gold_page in dataset.evaluated():
        html, base, gold = gold_page.read_bytes(), gold_page.base_url(), gold_page.gold["records"]
        gold_keys = {record_key(r.get("href") or r.get("url"), base) for r in gold} - {None}
        sibling = dataset.sibling_of(gold_page, ("list",))
        sibling_html = sibling.read_bytes() if sibling else None
        page = parse_page(html, url=gold_page.url)
        classes = classify_nodes(page, model)
        before = psnt_records(page, parse_page(sibling_html) if sibling_html else None)
        after, rule = confirmed_list_records(page, classes, sibling_html)
        alone = crawl_records(page, classes, None) if sibling is not None else None
        subtrees, dwsie = [], []
        for parent, records in dwsie_subtree_records(page, classes):
            wrong = [r for r in records if record_key(r.url, base) not in gold_keys]
            subtrees.append({"where": _where(page, parent), "right": len(records) - len(wrong),
                             "predicted": len(records),
                             "wrong": [f"{r.title[:60]} <{r.url}>" for r in wrong[:3]]})
            dwsie += records

        def score(records):
            return list(record_counts([r.to_dict() for r in records], gold, base)[:3])

        rows.append({"dataset": dataset.name, "id": gold_page.gold.get("id"),
                     "site": site_of(gold_page.gold),
                     "held_out": is_validation(site_of(gold_page.gold)),
                     "sibling": sibling is not None, "psnt_fallback": score(before),
                     "confirmed": score(after), "confirmed_by": rule, "dwsie": score(dwsie),
                     "confirmed_alone": None if alone is None else score(alone[0]),
                     "confirmed_alone_by": None if alone is None else alone[1],
                     "subtrees": subtrees})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.list_pages",
                                     description=__doc__.split("\n\n")[1])
    parser.add_argument("datasets", nargs="+", metavar="DATASET_DIR")
    parser.add_argument("--limit", type=int, default=None, help="N pages per set")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE")
    args = parser.parse_args(argv)
    rows = [row for name in args.datasets for row in page_rows(name, args.limit)]
    for row in rows:
        fmt = "/".join
        print(f"{row['dataset']} {row['id']} ({row['site']}{', held out' if row['held_out'] else ''}"
              f"{', sibling' if row['sibling'] else ''}): right/predicted/gold psnt_fallback "
              f"{fmt(map(str, row['psnt_fallback']))}, confirmed {fmt(map(str, row['confirmed']))} "
              f"({row['confirmed_by']}), dwsie {fmt(map(str, row['dwsie']))}"
              + (f", confirmed alone {fmt(map(str, row['confirmed_alone']))} "
                 f"({row['confirmed_alone_by']})" if row["confirmed_alone"] is not None else ""))
        for sub in row["subtrees"]:
            print(f"    {sub['right']:4d}/{sub['predicted']:<4d} {sub['where']}")
            for wrong in sub["wrong"]:
                print(f"              x {wrong}")
    for key in ("psnt_fallback", "confirmed", "dwsie", "confirmed_alone"):
        counts = [row[key] for row in rows if row[key] is not None]
        right, predicted, gold = (sum(c[i] for c in counts) for i in range(3))
        print(f"total {key} ({len(counts)} pages): right/predicted/gold {right}/{predicted}/{gold}"
              f", P {right / predicted if predicted else 0:.3f} R {right / gold if gold else 0:.3f}")
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
