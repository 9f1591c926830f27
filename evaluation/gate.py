"""Quality gate: pinned per-method score floors, checked in the default test run.

A floor is keyed ``dataset:method:quality:metric`` (``metric`` a dotted path into a result row of
language ``all``, e.g. ``body.f1``) and stored with the score it was derived from. Pinning sets
``floor = measured - margin``; re-pinning may raise a floor but refuses to lower one unless
``allow_lower`` is given, so a regression cannot be hidden by re-pinning in passing.
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

DEFAULT_MARGIN = 0.02  # absolute; covers float noise, not regressions (the set is pinned)
GATED_METRICS = (
    "body.f1", "body_cjk.f1", "snippets.f1", "fields.title.accuracy", "fields.date.accuracy",
    "fields.author.accuracy", "page_type.accuracy", "records.f1",
)


class FloorLoweringRefused(ValueError):
    """Re-pinning would lower floors and ``allow_lower`` was not given."""


def measured_scores(result: dict) -> dict[str, float]:
    """``{key: score}`` for every gated metric present in the ``lang == "all"`` rows.

    >>> rows = [{"dataset": "d", "method": "m", "lang": "all", "quality": "gold",
    ...          "body": {"f1": 0.9}}]
    >>> measured_scores({"results": rows})
    {'d:m:gold:body.f1': 0.9}
    """
    scores: dict[str, float] = {}
    for row in result["results"]:
        if row.get("lang") != "all" or row.get("status", "ok") != "ok":
            continue
        for metric in GATED_METRICS:
            value: object = row
            for part in metric.split("."):
                value = value.get(part) if isinstance(value, dict) else None
            if isinstance(value, (int, float)):
                key = f"{row['dataset']}:{row['method']}:{row['quality']}:{metric}"
                scores[key] = float(value)
    return scores


def pin(result: dict, floors: dict, margin: float = DEFAULT_MARGIN, allow_lower: bool = False
        ) -> dict:
    """New floors from measured scores; raises FloorLoweringRefused when one would go down.

    >>> old = {"floors": {"k": {"floor": 0.5, "measured": 0.52}}}
    >>> new = pin({"results": []}, old)  # nothing measured: existing floors are kept
    >>> new["floors"]["k"]["floor"]
    0.5
    """
    current = dict(floors.get("floors", {}))
    lowered = []
    for key, score in measured_scores(result).items():
        floor = max(0.0, round(score - margin, 3))
        old = current.get(key, {}).get("floor")
        if old is not None and floor < old and not allow_lower:
            lowered.append(f"{key}: {old} -> {floor}")
            continue
        current[key] = {"floor": floor, "measured": round(score, 4)}
    if lowered:
        raise FloorLoweringRefused("re-pinning would lower floors (use --allow-lower if this is "
                                   "intended): " + "; ".join(sorted(lowered)))
    return {
        "how": f"floor = score measured on the pinned set minus margin {margin} (absolute), "
               "rounded to 3 decimals; written by `newscrawl eval ... --pin`",
        "margin": margin,
        "pinned_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "floors": dict(sorted(current.items())),
    }


def check(result: dict, floors: dict) -> list[str]:
    """Failures (empty when all pass) for the floors of the datasets and methods in ``result``.

    >>> floors = {"floors": {"d:m:gold:body.f1": {"floor": 0.8}}}
    >>> row = {"dataset": "d", "method": "m", "lang": "all", "quality": "gold"}
    >>> check({"results": [{**row, "body": {"f1": 0.79}}]}, floors)
    ['d:m:gold:body.f1 = 0.79 < floor 0.8']
    >>> check({"results": [{**row, "body": {"f1": 0.8}}]}, floors)
    []
    """
    scores = measured_scores(result)
    ran = {f"{r['dataset']}:{r['method']}:" for r in result["results"]}
    failures = []
    for key, entry in sorted(floors.get("floors", {}).items()):
        if not any(key.startswith(prefix) for prefix in ran):
            continue
        score = scores.get(key)
        if score is None:
            failures.append(f"{key} missing (floor {entry['floor']})")
        elif score < entry["floor"]:
            failures.append(f"{key} = {score} < floor {entry['floor']}")
    return failures


def load_floors(path: str | os.PathLike[str]) -> dict:
    """The floors file, or an empty set of floors when it does not exist yet."""
    path = Path(path)
    if not path.exists():
        return {"floors": {}}
    return json.loads(path.read_text(encoding="utf-8"))


def save_floors(floors: dict, path: str | os.PathLike[str]) -> None:
    Path(path).write_text(json.dumps(floors, indent=1, sort_keys=False) + "\n", encoding="utf-8")
