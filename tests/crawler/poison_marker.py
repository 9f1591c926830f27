"""A module named by a poisoned queue entry: importing it leaves a file behind (the test's proof).

It must never be imported by a crawl (the request serializer accepts no class by name); if it is,
the path in ``NEWSCRAWL_POISON_MARKER`` is created. This work at import is the point of the module.
"""

from __future__ import annotations

import os
from pathlib import Path

if os.environ.get("NEWSCRAWL_POISON_MARKER"):
    Path(os.environ["NEWSCRAWL_POISON_MARKER"]).write_text("imported\n")


class Boom:
    """A "request class" a poisoned entry names."""
