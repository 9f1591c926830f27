"""Page-type and list-record metrics against hand-computed cases."""

from __future__ import annotations

from evaluation import listmetrics as lm


def test_nonarticle_accepts_list_and_other():
    assert lm.page_type_correct("other", "nonarticle")
    assert not lm.page_type_correct("article", "nonarticle")


def test_page_type_scores_per_class():
    pairs = [("article", "article"), ("article", "list"), ("list", "list"),
             ("other", "nonarticle"), ("list", "other"), (None, "article")]
    scores = lm.page_type_scores(pairs)
    assert scores["accuracy"] == 0.5 and scores["pages"] == 6
    article = scores["classes"]["article"]
    assert (article["precision"], article["recall"]) == (0.5, 0.5)
    lst = scores["classes"]["list"]  # nonarticle page left out of the list class
    assert (lst["precision"], lst["recall"], lst["support"]) == (0.5, 0.5, 2)


def test_record_urls_resolved_against_the_page_url_and_normalised():
    gold = [{"href": "/news/1.html", "title": "One"}, {"href": "2.html", "title": "Two"},
            {"href": "https://other.org/3", "title": "Three"}]
    pred = [{"url": "https://www.site.com/news/1.html#c", "title": "one"},
            {"url": "http://site.com/news/2.html/", "title": "Deux"},
            {"url": "https://site.com/news/4.html", "title": "Four"},
            {"url": "https://site.com/news/4.html", "title": "dup"}]
    assert lm.record_counts(pred, gold, "https://site.com/news/index.html") == (2, 3, 3, 1)


def test_record_scheme_counts_unless_no_base():
    gold = [{"href": "/p/1", "title": "a"}]
    assert lm.record_counts([{"url": "https://s.com/p/1"}], gold, None)[0] == 1


def test_record_scores_micro_average():
    scores = lm.record_scores([(2, 4, 2, 1), (0, 0, 4, 0)])
    assert (scores["precision"], scores["recall"], scores["title_match"]) == (0.5, 0.3333, 0.5)
    assert scores["f1"] == 0.4


def test_no_predicted_records_scores_zero():
    assert lm.record_scores([(0, 0, 3, 0)])["f1"] == 0.0
