"""Title, date and author matching against hand-computed cases."""

from __future__ import annotations

from evaluation import fieldmetrics as fm


def test_title_normalised_exact_match():
    assert fm.title_match("  The Rain\u00a0Falls. ", "the rain falls")
    assert not fm.title_match("The Rain Falls | Daily News", "The Rain Falls")
    assert not fm.title_match("", "")


def test_date_same_calendar_day():
    assert fm.date_match("2019-08-02T17:00:00", "2019-08-02")
    assert fm.date_match("2019年8月2日", "2019-08-02")
    assert not fm.date_match("2019-08-03", "2019-08-02")


def test_date_time_required_when_gold_has_time():
    assert fm.date_match("2019-09-07 13:43", "2019-09-07 13:43:45")
    assert not fm.date_match("2019-09-07", "2019-09-07 13:43:45")
    assert not fm.date_match("2019-09-07 14:43", "2019-09-07 13:43:45")
    assert fm.date_match("2019-09-07", "2019-09-07 13:43:45", day_only=True)


def test_date_with_offsets_compares_instants():
    assert fm.date_match("2021-11-01T09:52:00Z", "2021-11-01T10:52:50+0100")
    assert not fm.date_match("2021-11-01T10:52:00Z", "2021-11-01T10:52:50+0100")


def test_unreadable_gold_date_is_not_gold():
    scores = fm.field_accuracy([("2020-01-01", "09月07日"), ("2020-01-01", float("nan")),
                                ("2020-01-01", "2020-01-01")], "date")
    assert scores == {"accuracy": 1.0, "returned": 1.0, "pages": 1}


def test_author_lists_in_any_order():
    assert fm.author_match(["Jane Roe", "John Doe"], "John Doe; Jane Roe")
    assert fm.author_match("By JOHN DOE", "John Doe")
    assert not fm.author_match(["John Doe"], ["John Doe", "Jane Roe"])
    assert not fm.author_match(None, "John Doe")


def test_field_accuracy_counts_returned_values():
    scores = fm.field_accuracy([("A", "a"), ("B", "a"), (None, "a"), ("X", None)], "title")
    assert scores == {"accuracy": 0.3333, "returned": 0.6667, "pages": 3}
