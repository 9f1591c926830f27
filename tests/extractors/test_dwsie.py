"""DWSIE (paper 002): node features, the numpy network, the shipped model's page types and records
on real pages (tests/fixtures/eval: page_type and list_records, copied from wcxb_dev, aeb, cx_163,
cx_bbc and gerapy_listdetail; sources in tests/fixtures/eval/SOURCES.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from extractors import parse_page
from extractors.dwsie import (CLASSES, FEATURES, NodeModel, classify_nodes, default_node_model,
                              information_length, node_features, page_features)
from evaluation.listmetrics import page_type_correct, record_counts
from evaluation.training.dwsie import content_rows, record_rows
from extractors.pageinfo import dwsie_records, page_info, paper_shape

EVAL = Path(__file__).parents[1] / "fixtures" / "eval"


def lines(name: str) -> list[dict]:
    with open(EVAL / name / "gold.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def page_of(name: str, gold: dict):
    return parse_page((EVAL / name / gold["file"]).read_bytes(), url=gold.get("url"))


def first(name: str, **where) -> tuple[dict, object]:
    gold = next(g for g in lines(name) if all(g.get(k) == v for k, v in where.items()))
    return gold, page_of(name, gold)


def test_features_follow_the_paper_definitions_on_a_real_page():
    gold, page = first("page_type", page_type="article")
    nodes = page.nodes
    table = node_features(nodes)
    assert table.shape == (len(nodes), len(FEATURES))
    il = table[:, FEATURES.index("IL")]
    # the root holds every text segment (IL is counted per segment: "<b>a</b>b" is two words)
    assert il[0] == sum(information_length(s) for s in nodes.seg_text)
    for row in np.flatnonzero(nodes.n_children >= 2)[:50].tolist():
        kids = nodes.children(row)
        assert table[row, FEATURES.index("SC")] == len(kids)
        assert table[row, FEATURES.index("mean_IL")] == pytest.approx(il[kids].mean())
        assert table[row, FEATURES.index("var_IL")] == pytest.approx(il[kids].var(), abs=1e-6)
    assert (table[:, FEATURES.index("depth")] == nodes.depth).all()


def test_information_length_counts_cjk_characters_and_words():
    assert information_length("北京时间 news today") == 6


def test_numpy_network_matches_scikit_learn():
    from sklearn.neural_network import MLPClassifier

    rng = np.random.default_rng(0)
    x = rng.random((300, len(FEATURES)))
    y = rng.integers(0, 3, 300)
    net = MLPClassifier(hidden_layer_sizes=(8, 4), max_iter=50, random_state=0).fit(x, y)
    model = NodeModel(FEATURES, (), np.zeros(len(FEATURES)), np.ones(len(FEATURES)),
                      tuple(net.coefs_), tuple(net.intercepts_))
    assert np.allclose(model.probabilities(x), net.predict_proba(x))


def test_shipped_model_card_says_what_it_was_trained_on():
    from extractors.modelio import load_model

    card = load_model(None, "dwsie").card
    assert card["features"] == list(FEATURES) and card["classes"] == list(CLASSES)
    assert "by site" in card["data"]["split"]
    assert set(card["validation_by_feature_set"]) == {"paper", "structure", "all"}


def test_shipped_model_types_the_pinned_pages():
    """Page-type accuracy of the shipped model on the 34 pinned pages (wcxb_dev's three classes,
    gerapy_listdetail's article/list): measured 0.50 (17 of 34) with the shipped model's page rule
    (0.647 with the paper's rule), far under the issue's target (docs/evaluation.md, DWSIE); the
    floor catches a model that does worse."""
    model = default_node_model()
    right = [page_type_correct(classify_nodes(page_of("page_type", g), model).page_type,
                               g["page_type"]) for g in lines("page_type")]
    assert np.mean(right) >= 0.47


def test_shipped_model_keeps_articles_articles():
    """Articles of the pinned main-text set (aeb, cx_163, cx_bbc: sets the model never saw) typed
    article: measured 32 of 34 (two cx_163 pages typed list; 30 with the paper's rule), a miss
    against the issue's 0.995 (docs)."""
    model = default_node_model()
    typed = [classify_nodes(page_of("main_text", g), model).page_type for g in lines("main_text")]
    assert typed.count("article") >= 32


def test_list_records_from_list_nodes_match_the_annotation():
    """DWSIE's records on the pinned list pages with records (gerapy_listdetail, wcxb_dev)."""
    model = default_node_model()
    matched = predicted = actual = 0
    for gold in lines("list_records"):
        page = page_of("list_records", gold)
        classes = classify_nodes(page, model)
        found = [r.to_dict() for r in dwsie_records(page, classes)]
        m, p, a, _ = record_counts(found, gold["records"], gold.get("url"))
        matched, predicted, actual = matched + m, predicted + p, actual + a
    precision, recall = matched / max(predicted, 1), matched / max(actual, 1)
    assert precision >= 0.6 and recall >= 0.6, (precision, recall)


def test_record_labels_are_one_item_per_record():
    gold, page = first("list_records")
    items = record_rows(page, gold["records"], gold.get("url"))
    assert len(items) >= 0.8 * len(gold["records"])
    nodes = page.nodes
    for a, b in zip(items[:-1], items[1:]):  # items never nest
        assert not (a < b <= nodes.end[a])


def test_content_labels_hold_the_gold_body():
    gold, page = first("page_type", page_type="article")
    rows = content_rows(page.nodes, gold["body"])
    assert len(rows)
    words = gold["body"].split()[:8]
    assert " ".join(words) in " ".join(page.nodes.inner_text(int(rows[-1])).split())


def test_page_info_has_the_papers_shape():
    # The list_records pages until both shapes are seen: the network types some of them CP (the
    # first one among them, which alone was read before: the LP branch never ran).
    model, types = default_node_model(), set()
    for gold in lines("list_records"):
        info = page_info((EVAL / "list_records" / gold["file"]).read_bytes(), model,
                         url=gold.get("url"))
        shape = paper_shape(info)
        assert set(shape) == {"url", "page_type", "titles", "doc"}
        assert shape["page_type"] in ("CP", "LP", "Unknown")
        if shape["page_type"] == "LP":
            assert shape["titles"] and set(shape["titles"][0]) == {"title", "href", "au", "date"}
        if shape["page_type"] == "CP":
            assert set(shape["doc"]) == {"title", "column", "au", "date", "main_img", "cont",
                                         "keywords"}
        types.add(shape["page_type"])
        if {"CP", "LP"} <= types:
            break
    assert {"CP", "LP"} <= types, types


def test_page_signals_fill_every_row():
    gold, page = first("page_type", page_type="article")
    table = page_features(page)
    signals = table[:, FEATURES.index("page:og_article"):]
    assert (signals == signals[0]).all()


def test_extract_on_a_parsed_page_equals_extract_on_its_bytes():
    """page_info parses once and hands the page to the article chain."""
    from extractors import extract

    gold = lines("main_text")[0]
    data = (EVAL / "main_text" / gold["file"]).read_bytes()
    once = extract(parse_page(data, url=gold.get("url"))).to_dict()
    twice = extract(data, url=gold.get("url")).to_dict()
    once.pop("timings_ms"), twice.pop("timings_ms")
    assert once == twice


def _numpy_blas(libraries: list[dict]) -> list[dict]:
    """The BLAS libraries numpy's products run on: the one shipped in numpy's wheel (its
    ``numpy.libs`` folder) where there is one, else every BLAS library loaded. scipy's wheel
    loads a BLAS of its own (``scipy.libs``) that numpy's ``@`` never calls; counting its threads
    failed this test in the full run, where scipy's was loaded after the network's controller
    was made (so the controller limits numpy's alone, which is all the products use)."""
    blas = [lib for lib in libraries if lib["user_api"] == "blas"]
    own = [lib for lib in blas if "numpy" in os.path.basename(os.path.dirname(lib["filepath"]))]
    return own or blas


class _Recorded(np.ndarray):
    """A weight matrix that notes, at each matrix product it enters, how many threads the BLAS
    libraries would use for it."""

    threads: list[int] = []

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        from threadpoolctl import threadpool_info

        if ufunc is np.matmul:
            _Recorded.threads.append(max(lib["num_threads"]
                                         for lib in _numpy_blas(threadpool_info())))
        plain = [x.view(np.ndarray) if isinstance(x, _Recorded) else x for x in inputs]
        return getattr(ufunc, method)(*plain, **kwargs)


def test_network_products_run_on_one_blas_thread_with_the_same_probabilities():
    """On every page-type and list fixture page, with BLAS allowed two threads around the
    call, the network's products run on one thread (OpenBLAS's threads waited for one another
    on a loaded machine: 2.8 -> 0.45 ms a cx_163 page, mean) and give the probabilities of the
    plain products on two threads bit for bit."""
    from threadpoolctl import threadpool_info, threadpool_limits

    model = default_node_model()
    recording = NodeModel(model.features, model.log_columns, model.low, model.span,
                          tuple(w.view(_Recorded) for w in model.weights), model.biases)
    pages = [page_of(name, gold) for name in ("page_type", "list_records") for gold in lines(name)]
    assert len(pages) >= 20
    with threadpool_limits(2, user_api="blas"):
        blas = _numpy_blas(threadpool_info())
        if not blas or max(lib["num_threads"] for lib in blas) < 2:
            pytest.skip("BLAS cannot run two threads here")
        for page in pages:
            table = page_features(page)
            h = model.design(table)  # the plain products, on two threads
            for w, b in zip(model.weights[:-1], model.biases[:-1]):
                h = np.maximum(h @ w + b, 0.0)
            z = h @ model.weights[-1] + model.biases[-1]
            z -= z.max(axis=1, keepdims=True)
            plain = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
            _Recorded.threads = []
            got = recording.probabilities(table)
            assert _Recorded.threads and set(_Recorded.threads) == {1}
            assert np.array_equal(got, plain)
            assert np.array_equal(model.probabilities(table), plain)
        after = [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]
        assert max(after) == 2
