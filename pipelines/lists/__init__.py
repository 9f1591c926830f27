"""The list room: a list page's records by a PSNT wrapper (paper 004) and the ``NewsList`` item.

- :mod:`pipelines.lists.stage`: ``ListStage``, the room's door: whether a template has a wrapper
  (then its page is not held for a sibling), and ``news_list``, the one call the hall makes with a
  list page's extraction and sibling: records by a known or induced wrapper, the fallbacks, the
  item; ``publish`` hands the records to the spider;
- :mod:`pipelines.lists.wrapper_store`: ``WrapperStore``, the wrappers of a crawl by template key
  (JSON files, or a Redis hash), their drift;
- :mod:`pipelines.lists.record_board`: ``RecordBoard``, where the spider waits for a list page's
  records to request them first.

The room imports neither the sibling room (a sibling comes from the hall as a value) nor the hall.
"""
