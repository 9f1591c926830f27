"""The sibling room: the same-template page an article (or a list page) is paired with (paper 003).

- :mod:`pipelines.siblings.pairing`: ``SiblingPairing``, the room's door: store the page, find its
  sibling, or hold the page until one comes (the hall calls ``find`` once per page);
- :mod:`pipelines.siblings.store`: ``SiblingStore``, the last pages of each template key (memory or
  Redis);
- :mod:`pipelines.siblings.hold`: ``SiblingHold``, the bounded area where pages wait for a sibling;
- :mod:`pipelines.siblings.parsed_pages`: ``PageCache``, parsed pages kept so that a page and its
  sibling are parsed once.

The room imports neither the list room nor the hall; the reasons it gives are in
:mod:`pipelines.reasons`.
"""
