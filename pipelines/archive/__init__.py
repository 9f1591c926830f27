"""The archive room: every HTTP exchange of the crawl in WARC files, and the page item's pointer.

- :mod:`pipelines.archive.capture`: ``WarcCaptureMiddleware``, the downloader middleware that sees
  every exchange as received (``CAPTURE_MIDDLEWARES``);
- :mod:`pipelines.archive.writer`: ``WarcWriter``, the rolling, crash-safe ``.warc.gz`` files;
- :mod:`pipelines.archive.records`: the WARC records of one exchange (warcio);
- :mod:`pipelines.archive.index`: the CDXJ index beside each closed file;
- :mod:`pipelines.archive.recovery`: a crashed ``.open`` file cut back to its last whole record;
- :mod:`pipelines.archive.reader`: the HTML pages of a WARC file, read back
  (``newscrawl extract --warc``);
- :mod:`pipelines.archive.pipeline`: ``WarcArchivePipeline``, first in ``ITEM_PIPELINES``: checks
  each page item's pointer to its response record.

The room imports no other room.
"""
