"""The ``newscrawl eval`` subcommand: argument parsing and the run."""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import shlex
import sys
from pathlib import Path

from extractors import lcs_denoise
from evaluation import methods as method_module
from evaluation import gate, report
from evaluation.datasets import Dataset, load_dataset
from evaluation.methods import method_specs, resolve_methods
from evaluation.peers import peer_specs, resolve_peers
from evaluation.runner import (BREAKDOWNS, Tool, evaluate, method_tool, peer_tool,
                                          predictions_tool)

logger = logging.getLogger(__name__)

DATA_ENV = "NEWSCRAWL_DATA"
DEFAULT_DATA = "~/.cache/newsdata"


def register(subparsers: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Add the ``eval`` subcommand (sets ``func=run`` on the parsed namespace)."""
    parser = subparsers.add_parser(
        "eval", help="score extraction methods and peer libraries on evaluation datasets",
        description="Score our methods and peers on datasets in the shared layout "
                    "(gold.jsonl + pages/). See docs/evaluation.md.")
    add_arguments(parser)
    parser.set_defaults(func=run, run=run)
    return parser


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("datasets", nargs="+", metavar="DATASET_DIR",
                        help=f"dataset folder, or a set's name under ${DATA_ENV} ({DEFAULT_DATA})")
    parser.add_argument("--method", default=None,
                        help=f"our methods, comma-separated (known: {', '.join(method_specs())};"
                             " default: default)")
    parser.add_argument("--peers", default="",
                        help=f"peers, comma-separated or 'all' ({', '.join(peer_specs())})")
    parser.add_argument("--predictions", type=Path, action="append", default=[],
                        metavar="FILE.jsonl", help="score predictions made elsewhere (by id)")
    parser.add_argument("--limit", type=int, default=None, help="score N pages per set, evenly spaced through gold.jsonl")
    parser.add_argument("--only", default=None, metavar="SECTION",
                        help="score only the pages with gold for SECTION (e.g. records); "
                             "siblings are still chosen among all pages")
    parser.add_argument("--held-out", action="store_true",
                        help="score only the pages of the sites held out of the learned models' "
                             "training (the split `newscrawl train` uses: crc32(site) %% 5 == 0); "
                             "the honest figure for a learned method")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE")
    parser.add_argument("--markdown", type=Path, default=None, metavar="FILE")
    parser.add_argument("--check-floors", type=Path, default=None, metavar="FLOORS.json",
                        help="exit 1 when a score falls below its pinned floor")
    parser.add_argument("--pin", type=Path, default=None, metavar="FLOORS.json",
                        help="write floors = measured scores minus --margin")
    parser.add_argument("--margin", type=float, default=gate.DEFAULT_MARGIN)
    parser.add_argument("--allow-lower", action="store_true",
                        help="let --pin lower an existing floor")
    parser.add_argument("--by", type=_breakdowns, default=(), metavar="group,site,year",
                        help="also score each part of a set, comma-separated: its gold group, or"
                             " the site or year of a site@year group (rows labelled e.g."
                             " site=cnn.com)")
    parser.add_argument("--model", default=None, metavar="DIR",
                        help="paper 001's SVM model folder (svm_fields.npz + card) for the svm "
                             "methods (default: the model shipped in the package); default then "
                             "runs as `extract --model DIR` does (the SVM fills empty fields)")
    parser.add_argument("--lcs-ts", type=int, choices=range(1, 7), default=None, metavar="K",
                        help="run LCS denoising with Ts = K/7 (1..6) instead of the chosen value,"
                             " for a threshold sweep")


def _breakdowns(value: str) -> tuple[str, ...]:
    parts = tuple(p.strip() for p in value.split(",") if p.strip())
    unknown = [p for p in parts if p not in BREAKDOWNS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown breakdown {unknown[0]!r}; known: "
                                         + ", ".join(BREAKDOWNS))
    return parts


def resolve_dataset_dir(name: str) -> Path:
    """A path as given if it exists, else the named set under ``$NEWSCRAWL_DATA``."""
    path = Path(name).expanduser()
    if path.exists():
        return path
    return Path(os.environ.get(DATA_ENV, DEFAULT_DATA)).expanduser() / name


def read_predictions(path: Path) -> dict[str, dict]:
    """``{id: prediction}`` from a JSONL file; ValueError naming the line when malformed."""
    by_id: dict[str, dict] = {}
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                by_id[str(row["id"])] = row
            except (json.JSONDecodeError, KeyError, TypeError) as exc:
                raise ValueError(f"{path}:{number}: not a prediction object with an id ({exc})"
                                 ) from exc
    return by_id


def build_tools(args: argparse.Namespace) -> list[Tool]:
    methods = args.method if args.method is not None else ("" if args.predictions else "default")
    tools = [method_tool(spec) for spec in resolve_methods(methods)]
    tools += [peer_tool(spec) for spec in resolve_peers(args.peers)] if args.peers else []
    tools += [predictions_tool(p.stem, read_predictions(p)) for p in args.predictions]
    return tools


def machine_description() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}")


def invoked_command() -> str:
    """The command line as a user would retype it (``newscrawl eval ...``)."""
    args = sys.argv[2:] if sys.argv[1:2] == ["eval"] else sys.argv[1:]
    return "newscrawl eval " + shlex.join(args)


def run(args: argparse.Namespace) -> int:
    """Run the evaluation the arguments describe; 0 on success, 1 on a gate failure, 2 on misuse."""
    try:
        tools = build_tools(args)
        datasets: list[Dataset] = [load_dataset(resolve_dataset_dir(d), args.limit, args.only,
                                                 args.held_out)
                                   for d in args.datasets]
    except (ValueError, OSError) as exc:
        print(f"newscrawl eval: {exc}", file=sys.stderr)
        return 2
    if not tools:
        print("newscrawl eval: nothing to evaluate (give --method, --peers or --predictions)",
              file=sys.stderr)
        return 2
    if args.model is not None:
        from extractors.modelio import ModelError
        from extractors.svm_fields import policy_for
        try:
            policy_for(args.model)  # a bad folder fails here, named, not on every page
        except ModelError as exc:
            print(f"newscrawl eval: {exc}", file=sys.stderr)
            return 2
        method_module.FIELD_MODEL_DIR = args.model
    if args.lcs_ts is not None:
        lcs_denoise.SIMILARITY_THRESHOLD = args.lcs_ts / 7
        logger.info("LCS Ts set to %d/7 for this run", args.lcs_ts)
    result = evaluate(datasets, tools, args.by)
    print(report.format_table(result))
    if args.json:
        report.write_json(result, args.json)
    if args.markdown:
        report.write_markdown(
            report.format_markdown(result, invoked_command(), machine_description()), args.markdown)
    return gate_step(args, result)


def gate_step(args: argparse.Namespace, result: dict) -> int:
    if args.pin:
        try:
            floors = gate.pin(result, gate.load_floors(args.pin), args.margin, args.allow_lower)
        except gate.FloorLoweringRefused as exc:
            print(f"newscrawl eval: {exc}", file=sys.stderr)
            return 1
        floors["command"] = invoked_command()
        gate.save_floors(floors, args.pin)
        print(f"floors written to {args.pin}")
    if args.check_floors:
        failures = gate.check(result, gate.load_floors(args.check_floors))
        for failure in failures:
            print(f"BELOW FLOOR: {failure}", file=sys.stderr)
        return 1 if failures else 0
    return 0


def main(argv: list[str] | None = None) -> int:
    """Stand-alone entry point (``python -m evaluation``)."""
    parser = argparse.ArgumentParser(prog="newscrawl eval")
    add_arguments(parser)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(message)s",
                        stream=sys.stderr)
    # our progress at INFO, the peers' own chatter only from WARNING
    logging.getLogger("evaluation").setLevel(logging.INFO)
    return run(parser.parse_args(argv))
