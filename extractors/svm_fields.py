"""Paper 001: a two-stage linear SVM over DOM nodes for title, date, author and body.

algorithms.md section 2. Every candidate node of the page (the paper's block elements, see
:data:`CANDIDATE_TAGS`) gets the paper's four feature groups, computed from the shared node table
(:mod:`extractors.nodetable`; no second parse, no second walk of the tree):

1. text: characters, words, mean word length, sentences, mean sentence length;
2. position: direct children, depth, siblings (children of the parent), holds nested blocks;
3. the node: tag name, its CSS classes;
4. the paper's extension: character 2-, 3- and 4-grams of the class names and of the id, the same
   n-grams of the direct parent, each class/id of the node combined with each of the parent's, and
   the shares of letters, digits, punctuation and whitespace in the node's text.

Groups 1, 2 and the shares of group 4 are :data:`DENSE_FEATURES` (standardised with the training
mean and scale). The symbolic features of groups 3 and 4 are hashed into :data:`HASH_WIDTH` binary
columns: ``zlib.crc32`` of the UTF-8 string ``"<ns>:<token>"`` (namespaces ``t`` tag, ``c`` class,
``n`` class/id n-gram, ``p`` parent n-gram, ``x`` node-parent combination) modulo the width. The
hashing is written by hand rather than taken from scikit-learn's ``FeatureHasher`` because the
weights are applied at run time without scikit-learn, and a page's symbolic features depend only on
the (tag, class, id) of a node and its parent: their weighted sum is computed once per distinct
signature and cached, which is what keeps the step cheap.

Working phase, per field (:func:`predict`):

1. the candidate the field's stage-1 classifier scores highest is the field's node (for the
   optional fields date and author, only when its score is positive);
2. negative selection: the candidate descendants of that node that the field's stage-2 classifier
   rejects (score below 0) are removed with their subtrees; the remaining text is the value.

Deviation from the paper, stated: the paper uses "the same classifier" for both stages. A classifier
trained to find the node that holds the field (our stage-1 label: the node whose text matches the
gold best) scores every node inside it as "not the field's node", so it cannot tell a paragraph of
the story from an inset inside it. Stage 2 is therefore a second linear SVM on the same features,
trained on the candidates inside the gold node (label: most of its text belongs to the field).
The labelling rules are written down in :mod:`evaluation.training.fields`.

The weights live in ``extractors/models/svm_fields.npz`` with ``svm_fields.card.json``, read with
:func:`extractors.modelio.load_model` (no pickle); ``newscrawl train fields`` rebuilds them.
"""

from __future__ import annotations

import functools
import threading
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from extractors.attenuation import region_text
from extractors.modelio import LoadedModel, ModelError, load_model
from extractors.nodetable import BLOCK_TAGS, NodeTable

__all__ = ["CANDIDATE_TAGS", "DENSE_FEATURES", "FIELDS", "HASH_WIDTH", "MODEL_NAME",
           "FieldModel", "PageFeatures", "SvmFields", "default_model", "hashed_tokens",
           "load_field_model", "page_features", "policy_for", "predict"]

FIELDS = ("title", "date", "author", "body")
MODEL_NAME = "svm_fields"
#: The paper's candidate block elements (div, span, table, td, li, h1-h6), plus the elements
#: modern news markup puts these fields in: ``p`` (bylines, datelines), ``time``, ``a`` (author
#: links), ``article``/``section``/``main``/``header``/``address`` (HTML5's story containers).
CANDIDATE_TAGS = frozenset("div span table td li h1 h2 h3 h4 h5 h6 "
                           "p time a article section main header address".split())
#: Longest text (characters, whitespace included) of a candidate for each field; None: any.
MAX_CHARS = {"title": 400, "date": 120, "author": 250, "body": None}
#: Shortest text of a candidate for each field.
MIN_CHARS = {"title": 2, "date": 4, "author": 2, "body": 20}
#: Fields whose stage-1 node is taken only when its score is positive (a page may not give one).
OPTIONAL = frozenset({"date", "author"})
HASH_BITS = 16
HASH_WIDTH = 1 << HASH_BITS
#: Groups: (group number, dense feature name).
DENSE_FEATURES = (
    (1, "log_chars"), (1, "log_words"), (1, "mean_word_length"), (1, "log_sentences"),
    (1, "mean_sentence_words"),
    (2, "log_children"), (2, "depth"), (2, "log_siblings"), (2, "nested_blocks"),
    (4, "share_letters"), (4, "share_digits"), (4, "share_punctuation"), (4, "share_whitespace"),
)
#: Hashed namespaces and the feature group each belongs to.
HASH_NAMESPACES = {"t": 3, "c": 3, "n": 4, "p": 4, "x": 4}
NGRAMS = (2, 3, 4)
#: Class strings longer than this are cut (utility-class pages carry hundreds of characters).
MAX_CLASS_CHARS = 120
#: Node-parent combinations per node (first tokens of each side).
MAX_COMBINED = 4
_SIGNATURE_CACHE_MAX = 100_000

_SENTENCE_END = np.array([ord(c) for c in ".!?。！？"], dtype=np.uint32)
_SPACE_CODES = np.array([9, 10, 11, 12, 13, 32, 0xA0, 0x3000], dtype=np.uint32)


@dataclass(slots=True)
class PageFeatures:
    """The candidates of one page and their features (groups 1-4)."""

    nodes: NodeTable
    rows: np.ndarray          # int32, candidate rows in document order
    chars: np.ndarray         # int64, subtree characters of each candidate (whitespace included)
    dense: np.ndarray         # float64 (len(rows), len(DENSE_FEATURES)), raw (not standardised)
    signature: np.ndarray     # int32, index into ``signatures`` for each candidate
    signatures: list[tuple]   # distinct (tag, class, id, parent tag, parent class, parent id)

    def hashed(self, groups: frozenset[int] = frozenset({3, 4})) -> list[np.ndarray]:
        """Hashed column indices of each distinct signature, of the given groups only."""
        return [hashed_tokens(s, groups) for s in self.signatures]


def page_features(nodes: NodeTable) -> PageFeatures:
    """Candidates and features of a page, vectorised over the node table."""
    n = len(nodes)
    tags = nodes.tag
    is_candidate = np.fromiter((t in CANDIDATE_TAGS for t in tags), dtype=bool, count=n)
    is_block = np.fromiter((t in BLOCK_TAGS for t in tags), dtype=np.int64, count=n)
    per_seg = _segment_counts(nodes.seg_text)  # (m, 6): chars words sentences letters digits punct
    csum = np.vstack((np.zeros((1, per_seg.shape[1]), dtype=np.int64), np.cumsum(per_seg, axis=0)))
    chars_all = csum[nodes.seg_hi, 0] - csum[nodes.seg_lo, 0]
    rows = np.flatnonzero(is_candidate & (chars_all > 0)).astype(np.int32)
    sums = (csum[nodes.seg_hi[rows]] - csum[nodes.seg_lo[rows]]).astype(np.float64)
    chars, words, sentences, letters, digits, punct = sums.T
    spaces = chars - letters - digits - punct
    safe_chars = np.maximum(chars, 1.0)
    safe_words = np.maximum(words, 1.0)
    block_csum = np.concatenate(([0], np.cumsum(is_block)))
    nested = block_csum[nodes.end[rows] + 1] - block_csum[rows + 1]
    parent = nodes.parent[rows]
    siblings = np.where(parent >= 0, nodes.n_children[np.maximum(parent, 0)], 0)
    dense = np.column_stack((
        np.log1p(chars), np.log1p(words), np.minimum(chars / safe_words, 30.0),
        np.log1p(sentences), np.log1p(words / np.maximum(sentences, 1.0)),
        np.log1p(nodes.n_children[rows]), nodes.depth[rows].astype(np.float64),
        np.log1p(siblings), (nested > 0).astype(np.float64),
        letters / safe_chars, digits / safe_chars, punct / safe_chars, spaces / safe_chars,
    ))
    index: dict[tuple, int] = {}
    signature = np.empty(len(rows), dtype=np.int32)
    ident, classes = nodes.ident, nodes.classes
    for k, row in enumerate(rows.tolist()):
        up = int(nodes.parent[row])
        key = (tags[row], classes[row], ident[row],
               tags[up] if up >= 0 else "", classes[up] if up >= 0 else "",
               ident[up] if up >= 0 else "")
        signature[k] = index.setdefault(key, len(index))
    return PageFeatures(nodes, rows, chars.astype(np.int64), dense, signature, list(index))


def _segment_counts(segments: list[str]) -> np.ndarray:
    """Per text segment: characters, words, sentence ends, letters, digits, punctuation.

    All segments are read as one UTF-32 array: a word starts at a non-space character after a
    space (or at the segment's start), and every CJK ideograph counts as a word; "letters" are the
    characters that are not spaces, digits or punctuation."""
    m = len(segments)
    if not m:
        return np.zeros((0, 6), dtype=np.int64)
    lengths = np.fromiter(map(len, segments), dtype=np.int64, count=m)
    codes = np.frombuffer("".join(segments).encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    owner = np.repeat(np.arange(m), lengths)
    space = np.isin(codes, _SPACE_CODES)
    digit = (codes >= 48) & (codes <= 57)
    punct = (((codes >= 33) & (codes <= 47)) | ((codes >= 58) & (codes <= 64))
             | ((codes >= 91) & (codes <= 96)) | ((codes >= 123) & (codes <= 126))
             | ((codes >= 0x2010) & (codes <= 0x206F)) | ((codes >= 0x3001) & (codes <= 0x303F))
             | ((codes >= 0xFF01) & (codes <= 0xFF0F)) | ((codes >= 0xFF1A) & (codes <= 0xFF20)))
    cjk = (codes >= 0x4E00) & (codes <= 0x9FFF)
    first = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    prev_space = np.concatenate(([True], space[:-1]))
    prev_space[first[lengths > 0]] = True
    starts = ~space & ~cjk & prev_space
    sentence = np.isin(codes, _SENTENCE_END)
    letters = ~space & ~digit & ~punct

    def count(mask: np.ndarray) -> np.ndarray:
        return np.bincount(owner[mask], minlength=m)

    return np.column_stack((lengths, count(starts) + count(cjk), count(sentence), count(letters),
                            count(digit), count(punct))).astype(np.int64)


_cache: dict[tuple, np.ndarray] = {}
_cache_lock = threading.Lock()


def hashed_tokens(signature: tuple, groups: frozenset[int] = frozenset({3, 4})) -> np.ndarray:
    """Hashed column indices (unique, sorted) of one node signature's symbolic features.

    >>> a = hashed_tokens(("div", "story body", "", "article", "", "main"))
    >>> b = hashed_tokens(("div", "story body", "", "article", "", "main"), frozenset({3}))
    >>> bool(len(a) > len(b) > 0), bool(np.isin(b, a).all())
    (True, True)
    """
    key = (signature, groups)
    found = _cache.get(key)
    if found is not None:
        return found
    cols = sorted(_columns(signature, groups))
    found = np.asarray(cols, dtype=np.int32)
    with _cache_lock:
        if len(_cache) >= _SIGNATURE_CACHE_MAX:
            _cache.clear()
        _cache[key] = found
    return found


def _columns(signature: tuple, groups: frozenset[int]) -> set[int]:
    """The hashed columns of :func:`_tokens`, with each class or id name's n-gram columns taken
    from a cache (a page repeats its few names on hundreds of nodes, and the n-grams' CRC-32 was
    most of the SVM's time)."""
    tag, cls, ident, ptag, pcls, pident = signature
    own = _names(cls, ident)
    parent = _names(pcls, pident)
    cols: set[int] = set()
    if 3 in groups:
        cols.add(_column("t", tag))
        cols.update(_column("c", c) for c in own if not c.startswith("#"))
    if 4 in groups:
        for name in own:
            cols.update(_ngram_columns("n", name))
        for name in parent:
            cols.update(_ngram_columns("p", name))
        left = own[:MAX_COMBINED] or [tag]
        right = parent[:MAX_COMBINED] or [ptag]
        cols.update(_column("x", f"{a}|{b}") for a in left for b in right)
    return cols


def _column(ns: str, token: str) -> int:
    return zlib.crc32(f"{ns}:{token}".encode("utf-8", "replace")) & (HASH_WIDTH - 1)


_ngram_cache: dict[tuple[str, str], tuple[int, ...]] = {}
#: Column of each n-gram, per namespace (short n-grams recur across every site's class names).
_gram_columns: dict[str, dict[str, int]] = {"n": {}, "p": {}}


def _ngram_columns(ns: str, name: str) -> tuple[int, ...]:
    key = (ns, name)
    found = _ngram_cache.get(key)
    if found is None:
        known = _gram_columns[ns]
        cols = set()
        for gram in _ngrams(name):
            col = known.get(gram)
            if col is None:
                col = known[gram] = _column(ns, gram)
            cols.add(col)
        found = tuple(cols)
        with _cache_lock:
            if len(_ngram_cache) >= _SIGNATURE_CACHE_MAX:
                _ngram_cache.clear()
            if len(known) >= 4 * _SIGNATURE_CACHE_MAX:
                known.clear()
            _ngram_cache[key] = found
    return found


def _tokens(signature: tuple) -> list[tuple[str, str]]:
    tag, cls, ident, ptag, pcls, pident = signature
    own = _names(cls, ident)
    parent = _names(pcls, pident)
    out = [("t", tag)] + [("c", c) for c in own if not c.startswith("#")]
    out += [("n", g) for name in own for g in _ngrams(name)]
    out += [("p", g) for name in parent for g in _ngrams(name)]
    left = own[:MAX_COMBINED] or [tag]
    right = parent[:MAX_COMBINED] or [ptag]
    out += [("x", f"{a}|{b}") for a in left for b in right]
    return out


def _names(cls: str, ident: str) -> list[str]:
    names = cls[:MAX_CLASS_CHARS].lower().split()
    if ident:
        names.append("#" + ident[:MAX_CLASS_CHARS].lower())
    return names


def _ngrams(name: str) -> list[str]:
    name = name.lstrip("#")
    return [name[i:i + k] for k in NGRAMS for i in range(len(name) - k + 1)]


@dataclass(frozen=True, slots=True)
class FieldModel:
    """Weights of the 2 x 4 classifiers: dense (standardised) part, hashed part and bias."""

    dense_mean: np.ndarray    # (len(DENSE_FEATURES),)
    dense_scale: np.ndarray   # (len(DENSE_FEATURES),)
    dense_w: np.ndarray       # (len(DENSE_FEATURES), 8): columns field x stage
    hashed_w: np.ndarray      # (HASH_WIDTH, 8)
    bias: np.ndarray          # (8,)
    card: dict
    path: Path | None = None

    @staticmethod
    def column(field: str, stage: int) -> int:
        return FIELDS.index(field) * 2 + (stage - 1)

    def to_arrays(self) -> dict[str, np.ndarray]:
        return {"dense_mean": self.dense_mean, "dense_scale": self.dense_scale,
                "dense_w": self.dense_w, "hashed_w": self.hashed_w.astype(np.float32),
                "bias": self.bias}

    def scores(self, features: PageFeatures) -> np.ndarray:
        """(len(rows), 8) decision values of every classifier for every candidate."""
        if not len(features.rows):
            return np.zeros((0, len(self.bias)))
        standard = (features.dense - self.dense_mean) / self.dense_scale
        hashed = features.hashed()
        counts = np.fromiter(map(len, hashed), dtype=np.int64, count=len(hashed))
        flat = np.concatenate(hashed) if counts.sum() else np.zeros(0, dtype=np.int32)
        summed = np.vstack((np.zeros((1, self.hashed_w.shape[1])),
                            np.cumsum(self.hashed_w[flat], axis=0)))
        ends = np.cumsum(counts)
        per_signature = summed[ends] - summed[ends - counts]
        return standard @ self.dense_w + per_signature[features.signature] + self.bias


def load_field_model(folder: str | Path | None = None) -> FieldModel:
    """The model in ``folder`` (None: the shipped one); :class:`ModelError` naming the file when
    it is missing, corrupt or not of this module's layout."""
    loaded = load_model(folder, MODEL_NAME)
    return _from_loaded(loaded)


def _from_loaded(loaded: LoadedModel) -> FieldModel:
    arrays, card = loaded.arrays, loaded.card
    k, columns = len(DENSE_FEATURES), 2 * len(FIELDS)
    expected = {"dense_mean": (k,), "dense_scale": (k,), "dense_w": (k, columns),
                "hashed_w": (HASH_WIDTH, columns), "bias": (columns,)}
    for key, shape in expected.items():
        value = arrays.get(key)
        if value is None or value.shape != shape or value.dtype.kind != "f":
            found = None if value is None else f"{value.dtype}{list(value.shape)}"
            raise ModelError(f"model file {loaded.path} is not a {MODEL_NAME} model: array "
                             f"{key!r} is {found}, expected float{list(shape)}")
        if not np.isfinite(value).all():
            raise ModelError(f"model file {loaded.path}: array {key!r} holds non-finite values")
    if card.get("hash_width") != HASH_WIDTH or card.get("dense_features") != [
            name for _, name in DENSE_FEATURES]:
        raise ModelError(f"model card {loaded.path.with_suffix('').with_suffix('.card.json')} "
                         f"describes other features (hash width {card.get('hash_width')}, dense "
                         f"{card.get('dense_features')}) than this code computes")
    scale = np.where(arrays["dense_scale"] > 0, arrays["dense_scale"], 1.0)
    return FieldModel(arrays["dense_mean"], scale, arrays["dense_w"],
                      arrays["hashed_w"].astype(np.float64), arrays["bias"], card, loaded.path)


@functools.cache
def default_model() -> FieldModel:
    """The shipped model, loaded once per process."""
    return load_field_model(None)


@dataclass(slots=True)
class SvmFields:
    """What the SVM found on a page: text per field (None when it found nothing), the chosen
    rows, and the rows stage 2 removed inside each."""

    values: dict[str, str | None]
    rows: dict[str, int | None]
    removed: dict[str, list[int]]
    body_keep: np.ndarray | None = None


def predict(features: PageFeatures, model: FieldModel, stages: int = 2,
            fields: tuple[str, ...] = FIELDS) -> SvmFields:
    """Both stages for each field (``stages=1``: the best node's whole text)."""
    nodes, rows, chars = features.nodes, features.rows, features.chars
    scores = model.scores(features)
    values: dict[str, str | None] = {}
    chosen: dict[str, int | None] = {}
    removed: dict[str, list[int]] = {}
    body_keep = None
    for field in fields:
        values[field], chosen[field], removed[field] = None, None, []
        lo, hi = MIN_CHARS[field], MAX_CHARS[field]
        allowed = (chars >= lo) & (chars <= hi if hi is not None else True)
        if not allowed.any():
            continue
        s1 = np.where(allowed, scores[:, model.column(field, 1)], -np.inf)
        best = int(np.argmax(s1))
        if field in OPTIONAL and s1[best] <= 0:
            continue
        row = int(rows[best])
        keep = nodes.subtree_mask(row)
        if stages >= 2:
            removed[field] = _negative_selection(features, scores[:, model.column(field, 2)],
                                                 best, keep)
        text = region_text(nodes, keep, drop_link_lines=False)
        if field != "body":
            text = " ".join(text.split())
        values[field], chosen[field] = text or None, row
        if field == "body":
            body_keep = keep
    return SvmFields(values, chosen, removed, body_keep)


def _negative_selection(features: PageFeatures, stage2: np.ndarray, best: int,
                        keep: np.ndarray) -> list[int]:
    """Clear from ``keep`` the subtrees of the candidates inside ``rows[best]`` that stage 2
    rejects; returns the removed rows (outermost only). Never removes everything."""
    nodes, rows = features.nodes, features.rows
    row = int(rows[best])
    end = int(nodes.end[row])
    inside = np.flatnonzero((rows > row) & (rows <= end))
    rejected = inside[stage2[inside] < 0]
    removed: list[int] = []
    trial = keep.copy()
    covered_to = -1
    for k in rejected.tolist():
        r = int(rows[k])
        if r <= covered_to:
            continue
        trial[r:int(nodes.end[r]) + 1] = False
        covered_to = int(nodes.end[r])
        removed.append(r)
    if removed and nodes.text[row] and (nodes.seg_len[trial[nodes.seg_owner]].sum() > 0):
        keep[:] = trial
        return removed
    return []


# --- the hook into extractors.extract ---------------------------------------------------------

#: Fields the SVM fills in :func:`extractors.extract` when metadata and the text rules found none
#: (source ``svm``). None, as measured on the held-out sites (docs/evaluation.md, "Paper 001"):
#: title and date fills change no score (metadata, the URL and the text rules leave almost no
#: page without them); the author fill raises the author accuracy a little, but only because that
#: metric counts pages with a gold author: of its 205 fills on held-out wcxb_dev and
#: trafilatura_eval pages 10 were right, 32 wrong and 163 put a non-author ("Video", "Tweet",
#: "Advertisement") on a page that names none.
DEFAULT_FILL: tuple[str, ...] = ()
#: Whether stage 2 (negative selection with the body's stage-2 classifier) cleans the default
#: chain's body inside its region. Off: it lowers body F1 (wcxb_dev held-out sites .790 -> .724).
DEFAULT_BODY_STAGE2 = False


@dataclass(frozen=True, slots=True)
class SvmPolicy:
    """What paper 001's SVM does inside :func:`extractors.extract`: which empty fields it fills
    (``title``, ``date``, ``author``), whether it cleans the body, with which model (None: the
    shipped one, loaded on first use)."""

    model: FieldModel | None = None
    fill: tuple[str, ...] = DEFAULT_FILL
    body_stage2: bool = DEFAULT_BODY_STAGE2

    @property
    def active(self) -> bool:
        return bool(self.fill) or self.body_stage2

    def resolved(self) -> FieldModel:
        return self.model if self.model is not None else default_model()


#: What ``--model DIR`` (``NEWSCRAWL_FIELDS_MODEL``) switches on: the SVM fills the title, date and
#: author that metadata and the text rules left empty, with the model in DIR. An opt-in: measured,
#: it is not better by default (see :data:`DEFAULT_FILL`).
OPT_IN_FILL = ("title", "date", "author")
#: ``--model shipped``: the opt-in with the model shipped in the package.
SHIPPED = "shipped"


def policy_for(model_dir: str | Path | None, **changes) -> SvmPolicy | None:
    """The policy of ``--model DIR`` (None without one, unless ``changes`` are given): fill
    :data:`OPT_IN_FILL` with the model in DIR (``shipped``: the package's). Raises
    :class:`ModelError` naming the file when the model cannot be used."""
    if not model_dir:
        return SvmPolicy(**changes) if changes else None
    model = None if str(model_dir) == SHIPPED else load_field_model(model_dir)
    return SvmPolicy(model=model, **{"fill": OPT_IN_FILL, **changes})


_FIELD_NAMES = {"title": "title", "date": "published", "author": "authors"}


def apply_policy(policy: SvmPolicy, nodes: NodeTable, fields, region: int | None,
                 body_keep: np.ndarray | None, fetched_at=None) -> np.ndarray | None:
    """Fill the empty fields ``policy.fill`` names (through :func:`extractors.fields.fill_guesses`,
    which reads dates and names as for metadata) and, with ``policy.body_stage2``, return
    ``body_keep`` (the rows of the body, whose region is row ``region``) less the candidates inside
    it that the body's stage-2 classifier rejects
    (None when nothing changes). Computes features only when there is something to do."""
    from extractors.fields import fill_guesses

    wanted = tuple(f for f in policy.fill if not getattr(fields, _FIELD_NAMES[f]))
    clean = policy.body_stage2 and region is not None and body_keep is not None
    if not wanted and not clean:
        return None
    model = policy.resolved()
    features = page_features(nodes)
    if wanted:
        found = predict(features, model, fields=wanted)
        fill_guesses(fields, {f: found.values[f] for f in wanted}, "svm", fetched_at)
    if not clean:
        return None
    scores = model.scores(features)[:, model.column("body", 2)]
    inside = np.flatnonzero((features.rows > region) & (features.rows <= nodes.end[region])
                            & body_keep[features.rows])
    keep = body_keep.copy()
    changed = False
    covered_to = -1
    for k in inside[scores[inside] < 0].tolist():
        row = int(features.rows[k])
        if row <= covered_to:
            continue
        keep[row:int(nodes.end[row]) + 1] = False
        covered_to = int(nodes.end[row])
        changed = True
    if not changed or not nodes.seg_len[keep[nodes.seg_owner]].sum():
        return None
    return keep
