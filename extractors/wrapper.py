"""The PSNT wrapper: the paper's formula, a versioned JSON document, and its XPath translation.

Paper 004, section 3.6.1, writes a wrapper as

    Rpath(main structure)(N)(Rpath of the standard links below it)[Rpath of the information
    structures below it]

for example ``html.body.div.div.div.div.ul(1)(li.h3.a)[li]``: N = 1 for one main structure,
1 < N < 4 for a set of structures. :class:`Wrapper` holds those four parts plus whether the records
run from one link to the next (the third part ends at a link, section 3.6.2), the URLs of the two
pages it was induced from, when, and the format version. ``to_json``/``from_json`` round-trip it
as plain JSON (no pickle); ``xpaths`` compiles it to XPath 1.0 expressions lxml (or any XPath
engine) can run.

>>> w = Wrapper("html.body.div.ul", 1, "li.h3.a", "li")
>>> w.notation()
'html.body.div.ul(1)(li.h3.a)[li]'
>>> w.xpaths()["records"]
'/html/body/div/ul/li[h3/a]'
>>> Wrapper.from_json(w.to_json()) == w
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

__all__ = ["FORMAT", "MAX_MAIN_STRUCTURES", "VERSION", "Wrapper"]

FORMAT = "newscrawl/psnt-wrapper"
VERSION = 1
#: A set of main structures holds fewer than 4 (paper 004, 3.3.2: "|R| < 4"); N is 1, 2 or 3.
MAX_MAIN_STRUCTURES = 3

_TAG = re.compile(r"^[A-Za-z_][\w:-]*$")
_NCNAME = re.compile(r"^[A-Za-z_][\w-]*$")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(slots=True)
class Wrapper:
    """A wrapper in the paper's notation; see the module docstring."""

    main_rpath: str               # Rpath of the main structure(s), from the root: html.body.div.ul
    count: int                    # N: how many main structures (1..3)
    link_rpath: str               # Rpath of the standard links below a main structure: li.h3.a
    info_rpath: str               # Rpath of the information structures below it: li
    link_terminated: bool = False  # a record runs from one standard link to the next
    sources: list[str | None] = field(default_factory=lambda: [None, None])
    induced_at: str = field(default_factory=_now)
    version: int = VERSION

    def notation(self) -> str:
        """The paper's formula, e.g. ``html.body.div.ul(1)(li.h3.a)[li]``."""
        return f"{self.main_rpath}({self.count})({self.link_rpath})[{self.info_rpath}]"

    def to_json(self) -> dict:
        """A JSON-ready, versioned document (see :meth:`from_json`)."""
        return {
            "format": FORMAT, "version": self.version, "notation": self.notation(),
            "main_structure": {"rpath": self.main_rpath, "count": self.count},
            "standard_links": self.link_rpath, "information_structures": self.info_rpath,
            "link_terminated": self.link_terminated,
            "sources": list(self.sources), "induced_at": self.induced_at,
            "xpaths": self.xpaths(),
        }

    @classmethod
    def from_json(cls, data: dict) -> Wrapper:
        """Rebuild a wrapper from :meth:`to_json` output; ValueError naming the problem otherwise.

        >>> Wrapper.from_json({"format": "newscrawl/psnt-wrapper", "version": 9})
        Traceback (most recent call last):
        ...
        ValueError: unsupported wrapper version 9 (this code reads version 1)
        """
        if not isinstance(data, dict):
            raise ValueError(f"a wrapper is a JSON object, got {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise ValueError(f"not a PSNT wrapper: format is {data.get('format')!r}, "
                             f"expected {FORMAT!r}")
        if data.get("version") != VERSION:
            raise ValueError(f"unsupported wrapper version {data.get('version')!r} "
                             f"(this code reads version {VERSION})")
        main = data.get("main_structure")
        if not isinstance(main, dict):
            raise ValueError("main_structure missing or not an object")
        count = main.get("count")
        if not isinstance(count, int) or isinstance(count, bool) \
                or not 1 <= count <= MAX_MAIN_STRUCTURES:
            raise ValueError(f"main_structure.count must be 1..{MAX_MAIN_STRUCTURES}, "
                             f"got {count!r}")
        wrapper = cls(
            main_rpath=_rpath(main.get("rpath"), "main_structure.rpath"), count=count,
            link_rpath=_rpath(data.get("standard_links"), "standard_links"),
            info_rpath=_rpath(data.get("information_structures"), "information_structures"),
            link_terminated=_bool(data.get("link_terminated", False), "link_terminated"),
            sources=_sources(data.get("sources", [None, None])),
            induced_at=_text(data.get("induced_at"), "induced_at"), version=VERSION)
        if _link_below_info(wrapper.link_rpath, wrapper.info_rpath) is None:
            raise ValueError("inconsistent wrapper: the information structures "
                             f"({wrapper.info_rpath!r}) do not lie on the standard links' path "
                             f"({wrapper.link_rpath!r})")
        return wrapper

    def xpaths(self) -> dict[str, str]:
        """XPath 1.0 for the main structure, the standard links, the information structures, and
        ``records`` (the information structures holding at least one standard link)."""
        main = _xpath(self.main_rpath, absolute=True)
        info = _xpath(self.info_rpath)
        below_info = _link_below_info(self.link_rpath, self.info_rpath)
        records = f"{main}/{info}" + (f"[{_xpath(below_info)}]" if below_info else "")
        return {"main_structure": main, "standard_links": f"{main}/{_xpath(self.link_rpath)}",
                "information_structures": f"{main}/{info}", "records": records}


def _link_below_info(link_rpath: str, info_rpath: str) -> str | None:
    """The standard links' Rpath below an information structure (``h3.a`` for ``li.h3.a``/``li``;
    ``""`` when they are the links themselves; None when the links do not lie below it)."""
    if link_rpath == info_rpath:
        return ""
    return link_rpath[len(info_rpath) + 1:] if link_rpath.startswith(info_rpath + ".") else None


def _xpath(rpath: str, absolute: bool = False) -> str:
    """``html.body.div`` -> ``/html/body/div``; a tag that is no XPath name (``o:p``) by name()."""
    steps = [t if _NCNAME.match(t) else f"*[name()='{t}']" for t in rpath.split(".")]
    return ("/" if absolute else "") + "/".join(steps)


def _rpath(value: object, name: str) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{name} must be a non-empty Rpath string, got {value!r}")
    bad = [t for t in value.split(".") if not _TAG.match(t)]
    if bad:
        raise ValueError(f"{name}: {bad[0]!r} is not a tag name (in {value!r})")
    return value


def _bool(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, got {value!r}")
    return value


def _text(value: object, name: str) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{name} must be a non-empty string, got {value!r}")
    return value


def _sources(value: object) -> list[str | None]:
    if not isinstance(value, list) or not all(v is None or isinstance(v, str) for v in value):
        raise ValueError(f"sources must be a list of URLs or nulls, got {value!r}")
    return list(value)
