"""Date strings as found on pages, read into datetimes: fast patterns first, then dateparser.

Most dates on news pages are ISO 8601 (JSON-LD, ``article:published_time``, ``<time datetime>``),
numeric (``2019/09/07``, ``07.09.2019``), Chinese (``2019年9月7日 13:43``) or an English or German
month name (``March 3, 2014``); those are read by the patterns below in microseconds.
Everything else (Russian and other month names, relative dates such as ``3 hours ago`` or
``2 小时前``) goes to ``dateparser``, restricted to the page's language and English: a call costs
1-20 ms once its locale is loaded, and 2.6 s on a string that is no date with language detection
on, so it only sees short strings that hold a digit or a relative-date word.

A date is refused (``None`` with the reason) when before ``MIN_YEAR`` or more than
``MAX_FUTURE`` after the page was fetched. ``FoundDate.iso()`` keeps what the page gave: the UTC
offset when a zone or offset was given (zone names such as ``EST`` or ``Europe/Berlin`` included),
no offset when only a wall-clock time was, the date alone when only a day was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, timezone
from email.utils import parsedate_to_datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

__all__ = ["FoundDate", "first_date_in", "is_dateline", "other_reading", "parse_date", "url_date"]

#: Earliest accepted year: the web's news archives start in the mid-1990s (htmldate uses 1995);
#: 1990 keeps a margin for digitised archives. Earlier years on pages are birth dates, history.
MIN_YEAR = 1990
#: Latest accepted date relative to fetched_at: one day covers time zones and clock skew.
MAX_FUTURE = timedelta(days=1)
#: Longest string handed to dateparser (a date with weekday, time and zone fits in 60 chars).
MAX_DATEPARSER_CHARS = 60

#: :data:`_ISO`, :data:`_DMY` and :data:`_MDY` start with their first character (a digit; the
#: year's "1" or "2"), the "no digit before" look-behind tested after it, one character wider
#: (``(?<!\d{3})`` after the year's first two digits, ``(?<![\d.]\d)`` after the day's first):
#: the same matches, but Python's re then skips in C to the characters a match can start with
#: instead of trying the look-behind at every character. A whole search of 1 500 characters of
#: page text 0.027 -> 0.009 ms (_ISO), 0.043 -> 0.013 (_DMY), 0.039 -> 0.013 (_MDY) (median, CPU,
#: best of 5, 100 texts of aeb and big9; docs/evaluation.md, "Speed: a thirteenth cut").
_ISO = re.compile(
    r"(?P<y>(?:1[5-9]|20)(?<!\d{3})\d\d)\s*(?P<s>[-/.年])\s*(?P<m>\d{1,2})\s*(?:(?P=s)|月)\s*"
    r"(?P<d>\d{1,2})(?!\d)(?:\s*日)?"
    r"(?:(?:T|\s+|,\s*|日\s*)(?P<H>\d{1,2})[:時时](?P<M>\d{2})(?::(?P<S>\d{1,2})(?:[.,]\d+)?)?)?"
    r"\s*(?P<tz>Z|[+-]\d{2}:?\d{2}|UTC|GMT)?")
_DMY = re.compile(r"(?P<d>\d(?<![\d.]\d)\d?)\.\s?(?P<m>\d{1,2})\.\s?(?P<y>(?:19|20)\d\d)(?!\d)"
                  r"(?:(?:,|\s*[-|])?\s+(?:um\s+)?(?P<H>\d{1,2}):(?P<M>\d{2}))?")
_MDY = re.compile(r"(?P<m>\d(?<![\d/]\d)\d?)/(?P<d>\d{1,2})/(?P<y>(?:19|20)\d\d)(?!\d)")
#: "01-11-2023 10:29": day, month, year with hyphens (read day first, see :func:`_dashed`).
_DASHED = re.compile(r"^(?P<d>\d{1,2})-(?P<m>\d{1,2})-(?P<y>(?:19|20)\d\d)"
                     r"(?:,?\s+(?P<H>\d{1,2}):(?P<M>\d{2})(?::(?P<S>\d{2}))?)?\s*$")
_COMPACT = re.compile(r"^(?P<y>(?:19|20)\d\d)(?P<m>[01]\d)(?P<d>[0-3]\d)"
                      r"(?:T?(?P<H>[0-2]\d)(?P<M>[0-5]\d)(?P<S>[0-5]\d)?)?(?P<tz>Z)?$")
_MONTHS = {
    "jan": 1, "january": 1, "januar": 1, "jänner": 1, "janvier": 1, "feb": 2, "february": 2,
    "februar": 2, "février": 2, "mar": 3, "march": 3, "märz": 3, "mars": 3, "apr": 4, "april": 4,
    "avril": 4, "may": 5, "mai": 5, "jun": 6, "june": 6, "juni": 6, "juin": 6, "jul": 7,
    "july": 7, "juli": 7, "juillet": 7, "aug": 8, "august": 8, "août": 8, "sep": 9, "sept": 9,
    "september": 9, "septembre": 9, "oct": 10, "october": 10, "okt": 10, "oktober": 10,
    "octobre": 10, "nov": 11, "november": 11, "novembre": 11, "dec": 12, "december": 12,
    "dez": 12, "dezember": 12, "décembre": 12,
    # the German and French abbreviations (Duden's "Mär."/Austrian "Jän.", the Académie's
    # "janv.", "févr.", "avr.", "juil.", "déc."; "fév." as written too): htmldate_eval 0.943 ->
    # 0.944 (eatsmarter.de), no other page of the date sets changes (docs/evaluation.md, "Dates,
    # fifteenth round")
    "mär": 3, "jän": 1, "janv": 1, "févr": 2, "fév": 2, "avr": 4, "juil": 7, "déc": 12,
}
_MONTH = "(?P<mon>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_TIME = (r"(?:(?:,|\s+at|\s+um|\s*-|\s*\|)?\s+(?P<H>\d{1,2})[:.](?P<M>\d{2})(?::(?P<S>\d{2}))?"
         r"\s*(?P<ap>[ap]\.?m\.?)?(?:\s*(?P<tz>[A-Z]{2,5}|[+-]\d{2}:?\d{2}))?)?")
#: A look-ahead for the characters a :data:`_NAMED` date can start with: a digit (the day
#: first) or a month's first letter (the month first), tested with the pattern's own ``(?i)``,
#: so it passes exactly the characters the two alternatives can start with. Without it the
#: search tried the ~60 month names at every character: 0.150 -> 0.081 ms a whole search of
#: the 1 500 characters after a headline (median, warm, 100 texts of aeb and big9), the same
#: matches on 600 texts of aeb, big9, cx_163, trafilatura_eval and wcxb_dev; ``first_date_in``
#: in the chain, mean a page, big9 0.151 -> 0.136 ms, aeb 0.081 -> 0.071 (docs/evaluation.md,
#: "Speed: a twelfth cut").
_NAMED_FIRST = r"(?=[\d" + "".join(sorted({month[0] for month in _MONTHS})) + "])"
_NAMED = re.compile(
    r"(?i)(?<![\w])" + _NAMED_FIRST + r"(?:(?P<d1>\d{1,2})(?:st|nd|rd|th)?\.?\s+(?:of\s+)?"
    + _MONTH.replace("mon", "mon1") + r",?\s+(?P<y1>(?:19|20)\d\d)|" + _MONTH + r"\s+(?P<d2>\d{1,2})(?:st|nd|rd|th)?,?\s+"
    r"(?P<y2>(?:19|20)\d\d))(?!\d)" + _TIME)
_IANA = re.compile(r"\b([A-Z][a-z]+/[A-Z][A-Za-z_]+)\b")
#: Zone abbreviations seen on news pages, as UTC offsets in minutes.
ZONE_ABBREVIATIONS = {
    "UTC": 0, "GMT": 0, "Z": 0, "WET": 0, "BST": 60, "IST": 330, "CET": 60, "MEZ": 60, "CEST": 120,
    "MESZ": 120, "EET": 120, "EEST": 180, "MSK": 180, "EST": -300, "EDT": -240, "CST": -360,
    "CDT": -300, "MST": -420, "MDT": -360, "PST": -480, "PDT": -420, "AKST": -540, "HST": -600,
    "JST": 540, "KST": 540, "HKT": 480, "SGT": 480, "AEST": 600, "AEDT": 660, "NZST": 720,
}
#: What a string needs before dateparser sees it: a year, or a relative-date word (a bare time
#: such as "2:33 PM" would come back as today).
_RELATIVE_HINT = re.compile(r"(?i)(?:19|20)\d\d|ago|yesterday|today|heute|gestern|vor\s+\d|"
                            r"вчера|сегодня|назад|昨天|今天|前|hier|aujourd|il y a|hace")


@dataclass(frozen=True, slots=True)
class FoundDate:
    """A date read from a string: ``when`` is aware when the string gave an offset or zone."""

    when: datetime
    has_time: bool
    raw: str

    def iso(self) -> str:
        """ISO 8601: the date alone, the wall-clock time, or the time with its UTC offset.

        >>> FoundDate(datetime(2019, 9, 7, 13, 43, tzinfo=timezone(timedelta(hours=8))), True,
        ...           "").iso()
        '2019-09-07T13:43:00+08:00'
        """
        if not self.has_time:
            return self.when.date().isoformat()
        return self.when.isoformat(timespec="seconds")

    def day(self) -> date:
        return self.when.date()


#: Words a dateline may hold besides numbers: month and weekday names (English, German, French,
#: Spanish, Italian, Portuguese), the labels around a date ("Aktualisiert:", "Published on",
#: "mis à jour le") and zone names. See :func:`is_dateline`.
_DATELINE_WORDS = frozenset(_MONTHS) | frozenset("""
    january february march april may june july august september october november december
    jänner märz oktober dezember février fevrier avril juin juillet aout décembre decembre
    enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre
    diciembre gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre janeiro
    fevereiro março maio junho julho setembro outubro novembro dezembro
    monday tuesday wednesday thursday friday saturday sunday mon tue wed thu fri sat sun
    montag dienstag mittwoch donnerstag freitag samstag sonntag mo di mi do fr sa so
    lundi mardi mercredi jeudi vendredi samedi dimanche lunes martes miércoles jueves viernes
    sábado domingo
    updated update published posted aktualisiert veröffentlicht erstellt stand am um on at uhr
    publié publie mis à a jour le actualizado publicado el de di del pubblicato aggiornato il
    last modified date datum created the of am pm a.m. p.m.""".split()) | frozenset(
    z.lower() for z in ZONE_ABBREVIATIONS)
_DATELINE_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)|\b\d{1,2}[./-]\d{1,2}[./-]\d{2}\b")
_DATELINE_TOKEN = re.compile(r"[^\W\d_]+\.?|\d+|\S")
#: A dateline is short: longer lines are sentences that mention a date.
MAX_DATELINE_CHARS = 60


def is_dateline(line: str) -> bool:
    """Whether ``line`` is a date and nothing else: numbers, month and weekday names, a label
    ("Aktualisiert:", "Published on") and punctuation, with a year (or a ``d.m.yy`` date) in it.
    The body keeps no such line at its head (``extractors.extract``): the gold of the body sets
    leaves the dateline out with the byline.

    >>> [is_dateline(s) for s in ("11 Jan 2019", "Aktualisiert: 03.04.2020, 12:30 Uhr",
    ...                           "Published on March 3, 2020 at 5:00 pm", "Mittwoch, 12. Juni 2019")]
    [True, True, True, True]
    >>> [is_dateline(s) for s in ("In 2019 we ate", "TR 7/2019", "12. Juni")]
    [False, False, False]
    """
    text = line.strip()
    if not text or len(text) > MAX_DATELINE_CHARS or not _DATELINE_YEAR.search(text):
        return False
    for token in _DATELINE_TOKEN.findall(text.lower()):
        if not (token.isdigit() or not token[0].isalnum() or token in _DATELINE_WORDS
                or token.rstrip(".") in _DATELINE_WORDS):
            return False
    return True


def parse_date(text: str | None, fetched_at: datetime | None = None,
               languages: tuple[str, ...] = ()) -> tuple[FoundDate | None, str | None]:
    """(the date in ``text``, None) or (None, why not). ``fetched_at`` (aware) anchors relative
    dates and the future check; ``languages`` are ISO 639-1 codes tried by dateparser.

    >>> parse_date("2019年9月7日 13:43")[0].iso(), parse_date("March 3, 2014 10:00 EST")[0].iso()
    ('2019-09-07T13:43:00', '2014-03-03T10:00:00-05:00')
    >>> parse_date("2099-01-01", datetime(2024, 5, 1, tzinfo=UTC))
    (None, 'in the future: 2099-01-01 after 2024-05-01')

    A year and a clock time are not a day: the month and day of ``2022 - 14:45`` are not read
    out of the hour (a dateline such as ``Di., 25.01.2022 - 14:45`` was once 4 January):

    >>> parse_date("Di., 25.01.2022 - 14:45")[0].iso(), parse_date("Thu, 09/25/2025 - 11:38")[0].iso()
    ('2022-01-25T14:45:00', '2025-09-25')
    """
    if not text or not (raw := text.strip()):
        return None, "empty"
    raw = raw[:300]
    found = _fast(raw, languages)
    if found is None and len(raw) <= MAX_DATEPARSER_CHARS and _RELATIVE_HINT.search(raw):
        found = _dateparser(raw, fetched_at, languages)
    if found is None:
        return None, "no date"
    return _checked(found, fetched_at)


def url_date(url: str | None) -> FoundDate | None:
    """The day in a URL path (``/2019/09/07/``, ``/2019-09-07-``, ``/20190907/``), if any.

    >>> url_date("https://a.org/news/2019/9/07/rain-falls").iso()
    '2019-09-07'
    """
    if not url:
        return None
    match = _URL_DATE.search(url)
    if not match:
        return None
    try:
        when = datetime(int(match["y"]), int(match["m"]), int(match["d"]))
    except ValueError:
        return None
    return FoundDate(when, False, match.group())


_URL_DATE = re.compile(r"[/_-](?P<y>(?:19|20)\d\d)(?P<s>[/_-]?)(?P<m>[01]?\d)(?P=s)(?P<d>[0-3]?\d)"
                       r"(?=[/_.-]|$)")


def _fast(raw: str, languages: tuple[str, ...] = ()) -> FoundDate | None:
    for reader in (_iso, _named, _dmy, _mdy, _dashed, _rfc2822):
        found = reader(raw) if reader is not _dashed else _dashed(raw, languages)
        if found is not None:
            return found
    return None


def _iso(raw: str) -> FoundDate | None:
    match = _ISO.search(raw) or _COMPACT.search(raw)
    if not match:
        return None
    return _build(raw, match["y"], match["m"], match["d"], match["H"], match["M"],
                  match.groupdict().get("S"), _zone(match["tz"], raw))


def _named(raw: str) -> FoundDate | None:
    match = _NAMED.search(raw)
    if not match:
        return None
    month = _MONTHS[(match["mon1"] or match["mon"]).lower().rstrip(".")]
    hour = match["H"]
    if hour is not None and match["ap"]:
        hour = str(int(hour) % 12 + (12 if match["ap"].lower().startswith("p") else 0))
    return _build(raw, match["y1"] or match["y2"], month, match["d1"] or match["d2"], hour,
                  match["M"], match["S"], _zone(match["tz"], raw))


def _dmy(raw: str) -> FoundDate | None:
    match = _DMY.search(raw)
    if not match:
        return None
    return _build(raw, match["y"], match["m"], match["d"], match["H"], match["M"], None,
                  _zone(None, raw))


def _mdy(raw: str) -> FoundDate | None:
    match = _MDY.search(raw)
    if not match:
        return None
    month, day = int(match["m"]), int(match["d"])
    if month > 12:  # 25/12/2019: day first
        month, day = day, month
    return _build(raw, match["y"], month, day, None, None, None, None)


def _dashed(raw: str, languages: tuple[str, ...] = ()) -> FoundDate | None:
    """A whole value "DD-MM-YYYY [HH:MM]": day first, or month first on an English page
    (``languages[0] == "en"``), unless one reading is impossible ("09-25-2025", "25-09-2025").

    dateparser, which read these before, took the month first whatever the page's language:
    "01-11-2023 10:29", a ``<time>`` on the Austrian exxpress.at, was 11 January instead of 1
    November, while nationalgeographic.com's "03-09-2026" is 9 March. Where the page's other
    dates confirm the other reading, :func:`other_reading` gives it (fields).

    >>> _dashed("01-11-2023 10:29").iso(), _dashed("03-09-2026", ("en",)).iso()
    ('2023-11-01T10:29:00', '2026-03-09')
    """
    match = _DASHED.match(raw)
    if not match:
        return None
    day, month = int(match["d"]), int(match["m"])
    if (languages[:1] == ("en",) and day <= 12) or month > 12:
        day, month = month, day
    return _build(raw, match["y"], month, day, match["H"], match["M"], match["S"], None)


_AMBIGUOUS = re.compile(r"(?<![\d./-])(?P<a>\d{1,2})(?P<s>[-/.])(?P<b>\d{1,2})(?P=s)"
                        r"(?:19|20)\d\d(?![\d./-])")


def other_reading(found: FoundDate) -> FoundDate | None:
    """The same date with day and month exchanged, when its string is a numeric date that
    reads either way ("02-12-2025", "11/01/2023", "09.10.2024": both numbers 12 or under, not
    equal), else None.

    >>> other_reading(parse_date("02-12-2025")[0]).iso(), other_reading(parse_date("2025-12-02")[0])
    ('2025-02-12', None)
    """
    match = _AMBIGUOUS.search(found.raw)
    if not match or len(_AMBIGUOUS.findall(found.raw)) != 1:
        return None
    first, second = int(match["a"]), int(match["b"])
    if first == second or first > 12 or second > 12:
        return None
    if {found.when.month, found.when.day} != {first, second}:
        return None
    try:
        return FoundDate(found.when.replace(month=found.when.day, day=found.when.month),
                         found.has_time, found.raw)
    except ValueError:
        return None


def _rfc2822(raw: str) -> FoundDate | None:
    if "," not in raw or len(raw) > 40:
        return None
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError):
        return None
    return FoundDate(when, True, raw) if when is not None else None


def _build(raw: str, y, m, d, hour, minute, second, zone) -> FoundDate | None:
    try:
        when = datetime(int(y), int(m), int(d), int(hour or 0), int(minute or 0), int(second or 0))
    except (TypeError, ValueError):
        return None
    if hour is not None and zone is not None:
        when = when.replace(tzinfo=zone)
    return FoundDate(when, hour is not None, raw)


def _zone(token: str | None, raw: str) -> timezone | ZoneInfo | None:
    """The zone of an offset (``+0100``), an abbreviation (``EST``) or an IANA name in ``raw``."""
    if token:
        if token[0] in "+-":
            digits = token[1:].replace(":", "")
            minutes = int(digits[:2]) * 60 + int(digits[2:])
            return timezone(timedelta(minutes=-minutes if token[0] == "-" else minutes))
        if token.upper() in ZONE_ABBREVIATIONS:
            return timezone(timedelta(minutes=ZONE_ABBREVIATIONS[token.upper()]))
    named = _IANA.search(raw)
    if named:
        try:
            return ZoneInfo(named.group(1))
        except (ZoneInfoNotFoundError, ValueError):
            return None
    return None


def _dateparser(raw: str, fetched_at: datetime | None, languages: tuple[str, ...]
                ) -> FoundDate | None:
    import dateparser  # imported on first use: loading it costs ~0.25 s

    base = (fetched_at or datetime.now(UTC)).astimezone(UTC).replace(tzinfo=None)
    langs = [lang for lang in dict.fromkeys((*languages, "en")) if lang]
    settings = {"RELATIVE_BASE": base, "RETURN_AS_TIMEZONE_AWARE": False,
                "PREFER_DATES_FROM": "past", "PARSERS": ["relative-time", "absolute-time"]}
    try:
        when = dateparser.parse(raw, languages=langs, settings=settings)
    except Exception:  # dateparser raises assorted errors on odd input; no date is the answer
        return None
    if when is None:
        return None
    has_time = bool(re.search(r"\d[:时時]\d|hour|minute|час|минут|小时|分钟|stunde|heure", raw,
                              re.IGNORECASE))
    zone = _zone(None, raw)
    if has_time and zone is None and not re.search(r"(?:19|20)\d\d", raw):
        zone = UTC  # relative ("3 hours ago"): computed from fetched_at, which is UTC
    if has_time and zone is not None:
        when = when.replace(tzinfo=zone)
    return FoundDate(when, has_time, raw)


def _checked(found: FoundDate, fetched_at: datetime | None) -> tuple[FoundDate | None, str | None]:
    if found.when.year < MIN_YEAR:
        return None, f"before {MIN_YEAR}: {found.iso()}"
    limit = fetched_at or datetime.now(UTC)
    when = found.when if found.when.tzinfo else found.when.replace(tzinfo=UTC)
    if when - limit > MAX_FUTURE:
        return None, f"in the future: {found.iso()} after {limit.date().isoformat()}"
    return found, None


def first_date_in(text: str, fetched_at: datetime | None = None) -> FoundDate | None:
    """The earliest valid date written in a longer ``text`` (patterns only, no dateparser).

    >>> first_date_in("Posted by Ann on 3 March 2014. Updated 2015-01-02").iso()
    '2014-03-03'
    """
    found: list[tuple[int, FoundDate]] = []
    for pattern in (_ISO, _NAMED, _DMY, _MDY):
        for match in pattern.finditer(text):
            date_found = _fast(match.group())
            if date_found is not None and _checked(date_found, fetched_at)[0] is not None:
                found.append((match.start(), date_found))
                break
    return min(found, key=lambda x: x[0])[1] if found else None
