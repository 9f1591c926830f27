"""The examples in the pipelines' docstrings run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "pipelines.sinks.serialize",
    "pipelines.redis_conn.clients",
    "pipelines.rolling",
    "pipelines.archive.records",
    "pipelines.archive.index",
    "pipelines.extract",
    "pipelines.items",
    "pipelines.siblings.store",
    "pipelines.siblings.hold",
    "pipelines.reasons",
    "pipelines.lists.wrapper_store",
    "pipelines.lists.record_board",
    "pipelines.untrusted",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
