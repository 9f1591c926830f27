"""The sinks room: where the news items go, last in ``ITEM_PIPELINES``.

- :mod:`pipelines.sinks.jsonl`: ``JsonlSinkPipeline``, items as JSON lines in size-rotated files,
  crash-safe;
- :mod:`pipelines.sinks.redis_stream`: ``RedisStreamPipeline``, every item once in a Redis Stream;
- :mod:`pipelines.sinks.stream_groups`: the stream's consumer groups, and how far it may be trimmed;
- :mod:`pipelines.sinks.serialize`: one item, one line of strict JSON.

The room imports neither the sibling nor the list room, nor the hall: it takes items as they come.
"""
