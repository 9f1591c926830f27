"""The language model loads once when several extraction threads meet it first at the same time.

The crawl runs extractions in a pool of threads that all start together; py3langid's own
first-use check is not thread-safe, and each thread used to load the model (~0.6 s of CPU each).
"""

from __future__ import annotations

import threading

from py3langid import langid
from py3langid.langid import LanguageIdentifier

from extractors import language

TEXT = ("The council met on Tuesday evening to discuss the new budget for the schools of the "
        "district, and the members agreed that the libraries would stay open in the summer. ") * 3


def test_model_loaded_once_by_threads_starting_together(monkeypatch) -> None:
    loads: list[int] = []
    original = LanguageIdentifier.from_model_file

    def counting_load(*args, **kwargs):  # the real load, counted
        loads.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(langid, "IDENTIFIER", None)  # as in a fresh process
    monkeypatch.setattr(language, "_model_loaded", False, raising=False)
    monkeypatch.setattr(LanguageIdentifier, "from_model_file", counting_load)
    threads_count = 4
    barrier = threading.Barrier(threads_count)
    results: list[tuple] = []

    def classify() -> None:
        barrier.wait()
        results.append(language.page_language([], TEXT))

    threads = [threading.Thread(target=classify) for _ in range(threads_count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert [r[0] for r in results] == ["en"] * threads_count
    assert len(loads) == 1
