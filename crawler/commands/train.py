"""``newscrawl train TARGET``: rebuild a shipped model from data in the layout of ``../shared/data``."""

from __future__ import annotations

import argparse
import importlib
import importlib.util

__all__ = ["TRAINERS", "add_parser"]

#: Target name → (trainer module under ``evaluation.training``, one-line help).
TRAINERS = {
    "fields": ("fields", "the two-stage SVM node classifier for title, date, author, body (paper 001)"),
    "dwsie": ("dwsie", "the DWSIE node network: list node / content node / other (paper 002)"),
    "pagetype": ("pagetype", "the page model that types pages (article / list / other) from page "
                 "features and the heuristic's answer"),
}
_PACKAGE = "evaluation.training"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    available = {target: spec for target, spec in TRAINERS.items()
                 if importlib.util.find_spec(f"{_PACKAGE}.{spec[0]}") is not None}
    if not available:
        return  # no trainer is part of this build: no command to offer
    parser = subparsers.add_parser(
        "train", help="retrain a learned model from evaluation data and print its validation table",
        description="Trains on the datasets given with --data (folders in the layout of "
        "../shared/data), validates on held-out sites, prints the validation table and writes the "
        "model (.npz + .card.json) to -o DIR (default: the package's own models folder).")
    targets = parser.add_subparsers(title="targets", metavar="TARGET", required=True)
    for target, (module_name, text) in available.items():
        sub = targets.add_parser(target, help=text, description=text)
        # The trainer module is imported here, to add its own options: keep scikit-learn imports
        # inside its functions, or every `newscrawl` command pays for them.
        sub.set_defaults(run=_runner(module_name))
        _trainer(module_name).add_arguments(sub)


def _trainer(module_name: str):
    return importlib.import_module(f"{_PACKAGE}.{module_name}")


def _runner(module_name: str):
    def run(args: argparse.Namespace) -> int:
        return _trainer(module_name).run(args)
    return run
