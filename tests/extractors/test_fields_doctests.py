"""The examples in the docstrings of the field modules run and hold."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["extractors.dates", "extractors.jsonld", "extractors.authors", "extractors.language",
           "extractors.urls",
           "extractors.title", "extractors.fields", "extractors.bylines"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
