"""``extractors.warmup.warm_up``: a fresh interpreter has loaded what the chain loads on first use."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import sys
import extractors.language as language
from extractors.warmup import warm_up
assert not language._model_loaded and "dateparser" not in sys.modules
warm_up()
from extractors.pagetype import default_page_model
from extractors.dwsie import default_node_model
print(language._model_loaded, "dateparser" in sys.modules, "htmldate" in sys.modules,
      default_page_model.cache_info().currsize, default_node_model.cache_info().currsize)
"""


def test_warm_up_loads_the_language_model_date_parser_and_shipped_models():
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True", "True", "True", "1", "1"]
