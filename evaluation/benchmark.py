"""``newscrawl bench``: speed and memory of the extraction chain, against a plain lxml parse and
trafilatura on the same pages, in the same run.

Figures printed per dataset: the median ms of ``lxml.html.fromstring`` on the page bytes (the floor),
of our chain and of each of its steps, the chain's ratio to the floor and to trafilatura; the median
ms of an LCS sibling comparison (pairs chosen by the evaluation's sibling rule) with the median node
count; the median ms of the chain on those pages with their sibling as the crawl gives it (parsed
once per template and kept), under the default sibling policy (used on CJK pages) and used on
every page, each over the lxml parse of the same pages; the median ms of paper 001's SVM (:mod:`extractors.svm_fields`: features and both stages for
all four fields, on the already parsed page) and the fields step plus it over the floor; with
``--memory``, the peak resident memory of one process extracting the dataset's largest
page; with ``--lcs-scaling``, LCS time and peak traced memory by tree size. With ``--list-step``,
only the crawl's list fallback (no two-page wrapper) on the pages with gold records: the median
ms of the single-page PSNT wrapper alone (induce + apply) and of the confirmed records
(DWSIE's node classes and list records + the single-page wrapper, the default since
2026-11-26), both on the already parsed page, beside the lxml parse.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

from lxml import html as lxml_html

from extractors import BadInput, extract, parse_page
from evaluation.cli import resolve_dataset_dir
from evaluation.datasets import Dataset, load_dataset
from evaluation.runner import percentile
from extractors.lcs_denoise import denoise
from extractors.svm_fields import default_model, page_features, predict

__all__ = ["register", "run"]

STEPS = ("decode", "parse", "table", "attenuation", "fields", "pagetype")
#: Node-count bins of the LCS scaling table (upper bounds; the product of both trees' sizes is
#: what the table costs, the bin is the target's size).
SIZE_BINS = (500, 1000, 2000, 5000, 10000, 20000, 50000)


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``bench`` subcommand."""
    parser = subparsers.add_parser(
        "bench", help="time the extraction chain against lxml parsing and trafilatura",
        description=__doc__.split("\n\n")[1] if __doc__ else None)
    parser.add_argument("datasets", nargs="+", metavar="DATASET_DIR",
                        help="dataset folder, or a set's name under $NEWSCRAWL_DATA")
    parser.add_argument("--limit", type=int, default=None, help="time N pages per set")
    parser.add_argument("--no-peers", action="store_true", help="skip trafilatura")
    parser.add_argument("--memory", action="store_true",
                        help="peak RSS of a fresh process extracting each set's largest page")
    parser.add_argument("--lcs-scaling", action="store_true",
                        help="LCS time and peak traced memory by tree size")
    parser.add_argument("--list-step", action="store_true",
                        help="time only the crawl's list fallback on the pages with gold records: "
                             "single-page wrapper alone against the confirmed records")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE")
    parser.set_defaults(func=run, run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    trafilatura = None if args.no_peers else _import_trafilatura()
    results = []
    for name in args.datasets:
        if args.list_step:
            dataset = load_dataset(resolve_dataset_dir(name), limit=args.limit, only="records")
            row = list_step(dataset)
            results.append(row)
            print(f"{row['dataset']}: {row['pages']} list pages | lxml parse "
                  f"{row['lxml_parse_ms_median']} ms | single-page wrapper "
                  f"{row['single_page_ms_median']} ms | confirmed {row['confirmed_ms_median']} ms "
                  f"(classify {row['classify_ms_median']} ms)")
            continue
        dataset = load_dataset(resolve_dataset_dir(name), limit=args.limit)
        row = bench_dataset(dataset, trafilatura)
        if args.memory:
            row["peak_rss_mb_largest_page"] = peak_rss_mb(max((p.path for p in dataset.pages),
                                                              key=lambda p: p.stat().st_size))
        if args.lcs_scaling:
            row["lcs_scaling"] = lcs_scaling(dataset)
        results.append(row)
        _print_row(row)
    if args.json:
        args.json.write_text(json.dumps({"results": results}, indent=1), encoding="utf-8")
    return 0


def bench_dataset(dataset: Dataset, trafilatura=None) -> dict:
    """Time every page of ``dataset`` (floor, chain, steps, trafilatura, LCS pair)."""
    floor, chain, peer, lcs, nodes, lcs_floor, svm = [], [], [], [], [], [], []
    model = default_model()
    steps: dict[str, list[float]] = {s: [] for s in STEPS}
    skipped = 0
    # the chain as the crawl runs it with a sibling: the sibling parsed once per template and
    # kept (the crawl's parsed-sibling cache), used as the crawl's default says (CJK pages),
    # and, apart, used on every page; a dict per set stands for the crawl's bounded cache
    parsed_siblings: dict[Path, object] = {}
    paired: dict[str, list[float]] = {"auto": [], "always": []}
    for page in dataset.evaluated():
        data = page.read_bytes()
        floor.append(_ms(lambda: lxml_html.fromstring(data)))
        try:
            result = extract(data, url=page.url)
        except BadInput:
            skipped += 1
            continue
        chain.append(result.timings_ms["total"])
        for step in STEPS:
            steps[step].append(result.timings_ms[step])
        svm.append(_ms(lambda: predict(page_features(result.page.nodes), model)))
        if trafilatura is not None:
            peer.append(_ms(lambda: trafilatura.extract(data, url=page.url)))
        sibling = dataset.sibling_of(page)
        other = None if sibling is None else _parsed_sibling(sibling, parsed_siblings)
        if other is not None:
            a = result.page  # the chain's own parse of the page (the extractors never change it)
            lcs.append(_ms(lambda: denoise(a.nodes, other.nodes)))
            nodes.append(len(a.nodes))
            lcs_floor.append(floor[-1])
            for mode in ("auto", "always"):  # the chain with the sibling, as the crawl gives it
                paired[mode].append(extract(data, url=page.url, sibling=other,
                                            use_sibling=mode).timings_ms["total"])
    row = _summary(dataset.name, floor, chain, steps, peer, lcs, nodes, skipped)
    row["lcs_pages_lxml_parse_ms_median"] = _median(lcs_floor) if lcs_floor else None
    row["chain_with_sibling_pages"] = len(paired["auto"])
    for mode in ("auto", "always"):
        times = paired[mode]
        row[f"chain_with_sibling_{mode}_ms_median"] = _median(times) if times else None
        row[f"chain_with_sibling_{mode}_over_parse"] = _ratio(
            _median(times) if times else None, _median(lcs_floor) if times else None)
    # paper 001's SVM on the parsed page (features + both stages, all four fields): what the
    # fields step would cost with it run on every page
    row["svm_ms_median"] = _median(svm) if svm else None
    with_svm = [f + s for f, s in zip(steps["fields"], svm, strict=True)]
    row["fields_with_svm_over_parse"] = _ratio(_median(with_svm) if with_svm else None,
                                               row["lxml_parse_ms_median"])
    return row


def list_step(dataset: Dataset) -> dict:
    """Median ms of the crawl's list fallback on each page (parsed once, outside the timings): the
    single-page wrapper alone (the fallback before 2026-11-26) and the confirmed records with the
    page's cards (``with_cards``, since 2026-11-27)."""
    from extractors.dwsie import classify_nodes, default_node_model
    from extractors.pageinfo import confirmed_records, with_cards
    from extractors.psnt import apply_wrapper, induce_wrapper

    model = default_node_model()
    floor, single_ms, confirmed_ms, classify_ms = [], [], [], []

    def single_page(page):
        induced = induce_wrapper(page, None)
        return list(apply_wrapper(induced.wrapper, page).records) if induced.wrapper else []

    for page in dataset.evaluated():
        html = page.read_bytes()
        floor.append(_ms(lambda: lxml_html.fromstring(html)))
        parsed = parse_page(html, url=page.url)
        single_ms.append(_ms(lambda: single_page(parsed)))
        parsed.memo.clear()  # the list step from scratch: no tag paths kept from the line above
        t0 = time.perf_counter()
        classes = classify_nodes(parsed, model)
        classify_ms.append((time.perf_counter() - t0) * 1e3)
        with_cards(parsed, confirmed_records(parsed, classes, single_page(parsed))[0])
        confirmed_ms.append((time.perf_counter() - t0) * 1e3)
    return {"dataset": dataset.name, "pages": len(floor), "lxml_parse_ms_median": _median(floor),
            "single_page_ms_median": _median(single_ms),
            "confirmed_ms_median": _median(confirmed_ms),
            "classify_ms_median": _median(classify_ms)}


def _parsed_sibling(sibling, parsed: dict):
    """``sibling`` parsed once per dataset and kept, as the crawl keeps a template's parsed
    sibling (its parsed-sibling cache); None for a page the chain refuses."""
    if sibling.path not in parsed:
        try:
            parsed[sibling.path] = parse_page(sibling.read_bytes(), url=sibling.url)
        except BadInput:
            parsed[sibling.path] = None
    return parsed[sibling.path]


def _summary(name, floor, chain, steps, peer, lcs, nodes, skipped) -> dict:
    med = _median
    row = {"dataset": name, "pages": len(floor), "skipped": skipped,
           "lxml_parse_ms_median": med(floor), "chain_ms_median": med(chain),
           "chain_ms_p95": percentile(chain, 95),
           "steps_ms_median": {s: med(v) for s, v in steps.items()},
           "trafilatura_ms_median": med(peer) if peer else None,
           "lcs_pairs": len(lcs), "lcs_ms_median": med(lcs) if lcs else None,
           "lcs_nodes_median": med(nodes) if nodes else None}
    row["chain_over_parse"] = _ratio(row["chain_ms_median"], row["lxml_parse_ms_median"])
    # the fields step (metadata, dates, authors, language...; issue 9's budget: <= 2x the parse)
    row["fields_over_parse"] = _ratio(row["steps_ms_median"]["fields"], row["lxml_parse_ms_median"])
    row["chain_over_trafilatura"] = _ratio(row["chain_ms_median"], row["trafilatura_ms_median"])
    return row


def lcs_scaling(dataset: Dataset) -> list[dict]:
    """LCS time (ms) and peak traced memory (MB, numpy included) by target tree size, with the
    lxml parse time of the same target pages and how many pairs the caps refused."""
    by_bin: dict[int, list[tuple[float, float, float, bool]]] = {}
    for page in dataset.evaluated():
        sibling = dataset.sibling_of(page)
        if sibling is None:
            continue
        data = page.read_bytes()
        try:
            a, b = parse_page(data), parse_page(sibling.read_bytes())
        except BadInput:
            continue
        parse = _ms(lambda: lxml_html.fromstring(data))
        ms = _ms(lambda: denoise(a.nodes, b.nodes))  # timed untraced: tracing slows numpy
        tracemalloc.start()
        refused = denoise(a.nodes, b.nodes).reason or ""
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        upper = next((u for u in SIZE_BINS if len(a.nodes) <= u), SIZE_BINS[-1] * 10)
        by_bin.setdefault(upper, []).append((ms, peak, parse, refused.startswith("too large")))
    return [{"nodes_up_to": u, "pairs": len(v), "ms_median": _median([x[0] for x in v]),
             "ms_max": round(max(x[0] for x in v), 1),
             "lxml_parse_ms_median": _median([x[2] for x in v]),
             "peak_mb_max": round(max(x[1] for x in v), 1), "refused": sum(x[3] for x in v)}
            for u, v in sorted(by_bin.items())]


_RSS_PROBE = """
import sys
from extractors import extract
def status(field):
    for line in open('/proc/self/status'):
        if line.startswith(field + ':'):
            return line.split()[1]
data = open(sys.argv[1], 'rb').read()
before = status('VmRSS')  # after imports and reading the page
extract(data)
print(before, status('VmHWM'))  # peak resident size of the whole process
"""


def peak_rss_mb(path: Path) -> dict:
    """Resident MB of a fresh interpreter before extracting ``path`` (imports done, page read) and
    its peak after (Linux ``/proc``): the difference bounds what one page costs."""
    out = subprocess.run([sys.executable, "-c", _RSS_PROBE, str(path)], capture_output=True,
                         text=True, check=True).stdout.split()
    before, after = (int(x) / 1024 for x in out)
    return {"page": path.name, "page_mb": round(path.stat().st_size / 2**20, 2),
            "rss_before_mb": round(before, 1), "rss_peak_mb": round(after, 1)}


def _print_row(row: dict) -> None:
    steps = " ".join(f"{k}={v:.2f}" for k, v in row["steps_ms_median"].items() if v is not None)
    peer = row["trafilatura_ms_median"]
    print(f"{row['dataset']}: {row['pages']} pages ({row['skipped']} skipped) | lxml parse "
          f"{row['lxml_parse_ms_median']:.2f} ms | chain {row['chain_ms_median']:.2f} ms "
          f"(p95 {row['chain_ms_p95']:.2f}; x{row['chain_over_parse']} parse) [{steps}]"
          f" | fields step {row['steps_ms_median']['fields']:.2f} ms"
          f" (x{row['fields_over_parse']} parse)"
          + (f" | SVM (paper 001, all fields) {row['svm_ms_median']:.2f} ms: fields + SVM"
             f" x{row['fields_with_svm_over_parse']} parse" if row.get("svm_ms_median") else "")
          + (f" | trafilatura {peer:.2f} ms (ours x{row['chain_over_trafilatura']})" if peer else "")
          + (f" | chain with a sibling (parsed once, as the crawl) "
             f"{row['chain_with_sibling_auto_ms_median']:.2f} ms"
             f" (x{row['chain_with_sibling_auto_over_parse']} parse; sibling used on CJK pages),"
             f" always used {row['chain_with_sibling_always_ms_median']:.2f} ms"
             f" (x{row['chain_with_sibling_always_over_parse']})"
             if row.get("chain_with_sibling_auto_ms_median") is not None else "")
          + (f" | LCS pair {row['lcs_ms_median']:.2f} ms at {row['lcs_nodes_median']:.0f} nodes"
             f" ({row['lcs_pairs']} pairs; lxml parse of those pages "
             f"{row['lcs_pages_lxml_parse_ms_median']:.2f} ms)" if row["lcs_pairs"] else ""))
    if "peak_rss_mb_largest_page" in row:
        print(f"  memory: {row['peak_rss_mb_largest_page']}")
    for line in row.get("lcs_scaling", []):
        print(f"  LCS nodes<={line['nodes_up_to']}: {line['pairs']} pairs, "
              f"{line['ms_median']:.1f} ms median (max {line['ms_max']}), lxml parse "
              f"{line['lxml_parse_ms_median']:.1f} ms, peak {line['peak_mb_max']} MB, "
              f"{line['refused']} refused by the caps")


def _import_trafilatura():
    try:
        import trafilatura
    except ImportError:
        print("trafilatura is not installed (pip install 'newscrawl[bench]'): not compared",
              file=sys.stderr)
        return None
    return trafilatura


def _ms(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1e3


def _median(values: list[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a and b else None
