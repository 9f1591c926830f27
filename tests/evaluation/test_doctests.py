"""The examples in the evaluation modules' docstrings are tests too."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ("metrics", "fieldmetrics", "listmetrics", "datasets", "methods", "peers", "peertext",
           "runner", "gate")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"evaluation.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"no example ran in {module.__name__}"
    assert result.failed == 0
