"""``newscrawl train fields``: paper 001's two-stage SVM (:mod:`extractors.svm_fields`) from data.

Reads datasets in the shared layout, parses each page once, computes every candidate's features,
labels the candidates by aligning the gold strings with them (rules below), splits train and
validation **by site** (a site's pages are all on one side: ``crc32(site) % 5 == 0`` is
validation, about a fifth), trains one scikit-learn ``LinearSVC`` per field and stage, prints the
validation table (and with ``--ablation`` the paper's table: feature groups 1, 1+2, 1+2+3,
1+2+3+4 with stage 1 only, then stage 2), and saves the model with its card.

Labelling rules (a page contributes to a field only when its gold has that field):

- Text units. Words are ``\\w+`` runs, lower-cased; a CJK character is a word of its own. Body
  alignment uses word *bigrams* (pairs of consecutive words inside one text segment), which,
  unlike single words, rarely occur in a comment or a "related" box by chance.
- title, stage 1: a candidate of 2-400 characters is positive when the word F1 (multisets) of its
  text against the gold title is at least 0.8.
- date, stage 1: a candidate of 4-120 characters that contains the gold year is positive when
  :func:`extractors.dates.parse_date` reads the gold day from its text.
- author, stage 1: a candidate of 2-250 characters is positive when its normalised text contains
  every gold name (:func:`evaluation.fieldmetrics.author_names`) and holds at most 4
  words more than the names ("By", "and", a role).
- body, stage 1: for every candidate of 20+ characters, precision = share of its bigrams found in
  the gold body's bigrams, recall = its found bigrams over the gold's (capped at 1), F1 of the two;
  positive when F1 >= 0.5 and >= 0.9 x the page's best F1 (nested wrappers of the story are all
  positives: they hold the same text).
- stage 2, every field: the candidates strictly inside the field's gold node (the positive with the
  best score above, the outermost on ties) are the examples; positive when most of the node's text
  belongs to the field: for the body, bigram precision >= 0.5 (nodes without a bigram are not
  used); for title and author, word precision >= 0.5 against the gold words; for the date, its text
  still reads as the gold day.

Training examples per page and field: every positive (at most 10) and up to ``--negatives``
negatives, half of them of a positive's tag (the hard ones: other headings, other bylines) and the
rest drawn at random (seeded); for stage 2, at most 100 of the candidates inside the gold node.
"""

from __future__ import annotations

import argparse
import logging
import random
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from evaluation.datasets import VALIDATION_BUCKETS, is_validation, site_of
from evaluation.training.corpus import dataset_folders, parsed_pages
from extractors.modelio import MODELS_DIR, save_model
from extractors.svm_fields import (CANDIDATE_TAGS, DENSE_FEATURES, FIELDS, HASH_NAMESPACES,
                                   HASH_WIDTH, MAX_CHARS, MIN_CHARS, MODEL_NAME, NGRAMS,
                                   FieldModel, PageFeatures, hashed_tokens, page_features,
                                   predict)

logger = logging.getLogger(__name__)

#: The sets with field or body gold whose licence lets a shipped model learn from them (gne is
#: GPL-3.0 "test input only", big9 "research use only": held out, see the data README).
DEFAULT_SETS = ("wcxb_dev", "trafilatura_eval", "readability_testpages", "htmldate_eval")
TITLE_F1 = 0.8
AUTHOR_EXTRA_WORDS = 4
BODY_F1 = 0.5
BODY_NEAR_BEST = 0.9
STAGE2_PRECISION = 0.5
MAX_POSITIVES = 10
#: Stage-2 examples per page and field (drawn at random when the gold node holds more).
MAX_INSIDE = 100
ABLATION = ((frozenset({1}), "1"), (frozenset({1, 2}), "1+2"), (frozenset({1, 2, 3}), "1+2+3"),
            (frozenset({1, 2, 3, 4}), "1+2+3+4"))
_WORD = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]|"
                   r"[^\W\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]+")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", nargs="+", metavar="DIR", default=list(DEFAULT_SETS),
                        help="dataset folders, or set names under $NEWSCRAWL_DATA "
                             f"(default: {' '.join(DEFAULT_SETS)})")
    parser.add_argument("-o", "--out", type=Path, default=MODELS_DIR, metavar="MODEL_DIR",
                        help="where svm_fields.npz and its card go (default: the package's models)")
    parser.add_argument("--ablation", action="store_true",
                        help="also train with feature groups 1, 1+2, 1+2+3 and print the paper's "
                             "ablation table (F1 per field on the validation sites)")
    parser.add_argument("--limit", type=int, default=None, metavar="N",
                        help="read N pages per set, evenly spaced (for a quick run)")
    parser.add_argument("--negatives", type=int, default=40, metavar="K",
                        help="negative examples per page and field (default 40)")
    parser.add_argument("-C", type=float, default=0.1, dest="c",
                        help="LinearSVC regularisation C (default 0.1)")
    parser.add_argument("--seed", type=int, default=1)


def words(text: str) -> list[str]:
    """Lower-cased words; a CJK character is one word.

    >>> words("Rain in Köln, 北京 2024")
    ['rain', 'in', 'köln', '北', '京', '2024']
    """
    return _WORD.findall(text.lower())


def bigrams(tokens: list[str]) -> list[tuple[str, str]]:
    return list(zip(tokens, tokens[1:]))




@dataclass(slots=True)
class Examples:
    """Training examples of one classifier: raw dense rows, signatures, labels."""

    dense: list[np.ndarray] = field(default_factory=list)
    signatures: list[tuple] = field(default_factory=list)
    labels: list[np.ndarray] = field(default_factory=list)

    def add(self, features: PageFeatures, picks: np.ndarray, labels: np.ndarray) -> None:
        if not len(picks):
            return
        self.dense.append(features.dense[picks])
        self.signatures += [features.signatures[i] for i in features.signature[picks]]
        self.labels.append(labels.astype(np.int8))

    def __len__(self) -> int:
        return len(self.signatures)


@dataclass(slots=True)
class HeldOut:
    """A validation page: its features (the tree released) and gold."""

    dataset: str
    features: PageFeatures
    gold: dict


@dataclass(slots=True)
class Corpus:
    examples: dict[tuple[str, int], Examples]
    held_out: list[HeldOut]
    sizes: dict[str, dict]


def label_page(features: PageFeatures, gold: dict) -> dict[str, tuple[np.ndarray, int | None,
                                                                      np.ndarray | None]]:
    """Per field with gold: (stage-1 labels over candidates, index of the gold node or None,
    stage-2 labels over candidates with -1 = not an example)."""
    out = {}
    if gold.get("title"):
        out["title"] = _short_labels(features, "title", words(str(gold["title"])),
                                     lambda text, want: _word_f1(words(text), want) >= TITLE_F1)
    if gold.get("author"):
        out["author"] = _author_labels(features, gold["author"])
    if gold.get("date"):
        out["date"] = _date_labels(features, gold["date"])
    if isinstance(gold.get("body"), str) and gold["body"].strip():
        out["body"] = _body_labels(features, gold["body"])
    return {k: v for k, v in out.items() if v is not None}


def _allowed(features: PageFeatures, name: str) -> np.ndarray:
    hi = MAX_CHARS[name]
    return (features.chars >= MIN_CHARS[name]) & (
        features.chars <= hi if hi is not None else True)


def _texts(features: PageFeatures, mask: np.ndarray) -> dict[int, str]:
    nodes = features.nodes
    return {int(k): " ".join(nodes.inner_text(int(features.rows[k])).split())
            for k in np.flatnonzero(mask)}


def _word_f1(found: list[str], want: list[str]) -> float:
    if not found or not want:
        return 0.0
    common = sum((Counter(found) & Counter(want)).values())
    if not common:
        return 0.0
    p, r = common / len(found), common / len(want)
    return 2 * p * r / (p + r)


def _precision(found: list[str], want: set) -> float:
    return sum(w in want for w in found) / len(found) if found else 0.0


def _short_labels(features, name, want_words, is_match, stage2=None):
    if not want_words:
        return None
    allowed = _allowed(features, name)
    texts = _texts(features, allowed)
    labels = np.zeros(len(features.rows), dtype=np.int8)
    quality = np.zeros(len(features.rows))
    for k, text in texts.items():
        if is_match(text, want_words):
            labels[k] = 1
            quality[k] = _word_f1(words(text), want_words) + 1e-6 * (len(features.rows) - k)
    if not labels.any():
        return labels, None, None
    best = int(np.argmax(quality))
    want = set(want_words)
    stage2 = stage2 or (lambda text: _precision(words(text), want) >= STAGE2_PRECISION)
    return labels, best, _inside_labels(features, best, stage2)


def _inside_labels(features: PageFeatures, best: int, keep_text) -> np.ndarray:
    rows, nodes = features.rows, features.nodes
    row = int(rows[best])
    inside = np.flatnonzero((rows > row) & (rows <= nodes.end[row]))
    labels = np.full(len(rows), -1, dtype=np.int8)
    for k in inside.tolist():
        text = " ".join(nodes.inner_text(int(rows[k])).split())
        if text:
            labels[k] = 1 if keep_text(text) else 0
    return labels


def _author_labels(features: PageFeatures, gold_author):
    from evaluation.fieldmetrics import author_names, normalise_text

    names = sorted(author_names(gold_author))
    if not names:
        return None
    limit = len(words(" ".join(names))) + AUTHOR_EXTRA_WORDS

    def match(text: str, _want) -> bool:
        norm = normalise_text(text)
        return all(n in norm for n in names) and len(words(text)) <= limit

    return _short_labels(features, "author", words(" ".join(names)), match)


def _date_labels(features: PageFeatures, gold_date):
    from extractors.dates import parse_date
    from evaluation.fieldmetrics import parse_date as parse_gold

    want = parse_gold(gold_date)
    if want is None or want.day is None:
        return None
    year = str(want.year)
    day = (want.year, want.month, want.day)

    def same_day(text: str, _want=None) -> bool:
        if year not in text:
            return False
        found, _ = parse_date(text)
        return found is not None and (found.when.year, found.when.month, found.when.day) == day

    return _short_labels(features, "date", [year], same_day, stage2=same_day)


def _body_labels(features: PageFeatures, body: str):
    nodes, rows = features.nodes, features.rows
    gold = set(bigrams(words(body)))
    if not gold:
        return None
    per_seg = [bigrams(words(s)) for s in nodes.seg_text]
    total = np.array([len(b) for b in per_seg], dtype=np.int64)
    found = np.array([sum(g in gold for g in b) for b in per_seg], dtype=np.int64)
    tc = np.concatenate(([0], np.cumsum(total)))
    fc = np.concatenate(([0], np.cumsum(found)))
    lo, hi = nodes.seg_lo[rows], nodes.seg_hi[rows]
    t, f = (tc[hi] - tc[lo]).astype(float), (fc[hi] - fc[lo]).astype(float)
    precision = np.divide(f, t, out=np.zeros_like(f), where=t > 0)
    recall = np.minimum(f / len(gold), 1.0)
    f1 = np.divide(2 * precision * recall, precision + recall,
                   out=np.zeros_like(f), where=precision + recall > 0)
    f1 = np.where(_allowed(features, "body"), f1, 0.0)
    top = float(f1.max()) if len(f1) else 0.0
    labels = ((f1 >= BODY_F1) & (f1 >= BODY_NEAR_BEST * top)).astype(np.int8)
    if not labels.any():
        return labels, None, None
    best = int(np.argmax(f1))  # the first (outermost) of equal F1s
    row = int(rows[best])
    inside = np.flatnonzero((rows > row) & (rows <= nodes.end[row]) & (t > 0))
    stage2 = np.full(len(rows), -1, dtype=np.int8)
    stage2[inside] = (precision[inside] >= STAGE2_PRECISION).astype(np.int8)
    return labels, best, stage2


def _sample(labels: np.ndarray, features: PageFeatures, allowed: np.ndarray, k: int,
            rng: random.Random) -> np.ndarray:
    positives = np.flatnonzero(labels == 1)[:MAX_POSITIVES]
    negatives = np.flatnonzero((labels == 0) & allowed)
    if not len(positives) and not len(negatives):
        return positives
    tags = {features.nodes.tag[int(features.rows[p])] for p in positives}
    hard = [int(i) for i in negatives if features.nodes.tag[int(features.rows[i])] in tags]
    picked = rng.sample(hard, min(len(hard), k // 2))
    rest = sorted(set(negatives.tolist()) - set(picked))
    picked += rng.sample(rest, min(len(rest), k - len(picked)))
    return np.concatenate((positives, np.asarray(sorted(picked), dtype=np.int64))).astype(np.int64)


def read_corpus(folders: list[Path], limit: int | None, negatives: int, seed: int) -> Corpus:
    from evaluation.datasets import load_dataset

    rng = random.Random(seed)
    examples = {(f, s): Examples() for f in FIELDS for s in (1, 2)}
    held_out: list[HeldOut] = []
    sizes: dict[str, dict] = {}
    for folder in folders:
        dataset = load_dataset(folder, limit)
        size = Counter()
        sites: dict[str, set] = {"train": set(), "validation": set()}
        for page, parsed in parsed_pages(dataset, size, lambda gold: any(
                gold.get(k) for k in ("title", "date", "author", "body"))):
            gold = page.gold
            features = page_features(parsed.nodes)
            site = site_of(gold)
            side = "validation" if is_validation(site) else "train"
            sites[side].add(site)
            size[f"{side}_pages"] += 1
            if side == "validation":
                light = replace(features, nodes=replace(features.nodes, elements=[]))
                held_out.append(HeldOut(dataset.name, light, gold))
                continue
            for name, (labels, best, inside) in label_page(features, gold).items():
                size[f"train_{name}"] += 1
                size[f"train_{name}_aligned"] += int(best is not None)
                picks = _sample(labels, features, _allowed(features, name), negatives, rng)
                examples[(name, 1)].add(features, picks, labels[picks])
                if inside is not None:
                    use = np.flatnonzero(inside >= 0)
                    if len(use) > MAX_INSIDE:
                        use = np.asarray(sorted(rng.sample(use.tolist(), MAX_INSIDE)))
                    examples[(name, 2)].add(features, use, inside[use])
        size["train_sites"], size["validation_sites"] = len(sites["train"]), len(sites["validation"])
        sizes[dataset.name] = dict(sorted(size.items()))
        logger.info("%s: %s", dataset.name, sizes[dataset.name])
    return Corpus(examples, held_out, sizes)


def _standardise(corpus: Corpus) -> tuple[np.ndarray, np.ndarray]:
    blocks = [b for ex in corpus.examples.values() for b in ex.dense]
    allrows = np.vstack(blocks) if blocks else np.zeros((1, len(DENSE_FEATURES)))
    mean, scale = allrows.mean(axis=0), allrows.std(axis=0)
    return mean, np.where(scale > 0, scale, 1.0)


def train(corpus: Corpus, groups: frozenset[int], c: float, stages: tuple[int, ...] = (1, 2),
          base: FieldModel | None = None) -> FieldModel:
    """One LinearSVC per field and stage on the feature groups ``groups`` (the others' weights
    are 0); ``base`` supplies the classifiers of stages not trained here."""
    from scipy import sparse
    from sklearn.svm import LinearSVC

    mean, scale = _standardise(corpus)
    dense_cols = np.array([g in groups for g, _ in DENSE_FEATURES])
    hashed_groups = frozenset(g for g in groups if g in (3, 4))
    columns = 2 * len(FIELDS)
    dense_w = np.zeros((len(DENSE_FEATURES), columns)) if base is None else base.dense_w.copy()
    hashed_w = np.zeros((HASH_WIDTH, columns)) if base is None else base.hashed_w.copy()
    bias = np.zeros(columns) if base is None else base.bias.copy()
    for (name, stage), ex in corpus.examples.items():
        if stage not in stages:
            continue
        col = FieldModel.column(name, stage)
        labels = np.concatenate(ex.labels) if ex.labels else np.zeros(0)
        dense_w[:, col], hashed_w[:, col], bias[col] = 0.0, 0.0, -1.0
        if len(set(labels.tolist())) < 2:
            logger.warning("%s stage %d: %d examples of one class, not trained", name, stage,
                           len(labels))
            continue
        dense = ((np.vstack(ex.dense) - mean) / scale)[:, dense_cols]
        hashed = [hashed_tokens(s, hashed_groups) for s in ex.signatures]
        indptr = np.concatenate(([0], np.cumsum([len(h) for h in hashed])))
        indices = np.concatenate(hashed) if indptr[-1] else np.zeros(0, dtype=np.int32)
        symbolic = sparse.csr_matrix((np.ones(len(indices)), indices, indptr),
                                     shape=(len(hashed), HASH_WIDTH))
        design = sparse.hstack((sparse.csr_matrix(dense), symbolic)).tocsr()
        svm = LinearSVC(C=c, class_weight="balanced", max_iter=5000, random_state=0)
        t0 = time.perf_counter()
        svm.fit(design, labels)
        weights = svm.coef_[0]
        dense_w[dense_cols, col] = weights[:dense_cols.sum()]
        hashed_w[:, col] = weights[dense_cols.sum():]
        bias[col] = svm.intercept_[0]
        logger.info("%s stage %d: %d examples (%d positive), %.1f s", name, stage, len(labels),
                    int(labels.sum()), time.perf_counter() - t0)
    card = {"feature_groups": sorted(groups)}
    return FieldModel(mean, scale, dense_w, hashed_w, bias, card)


def validate(model: FieldModel, held_out: list[HeldOut], stages: int) -> dict[str, dict]:
    """Scores per field on the validation pages (all sets together, and per set): title and
    author word F1 against the gold string, date share of the gold day, body the evaluation's
    body F1 (shingles, :mod:`evaluation.metrics`)."""
    from extractors.dates import parse_date
    from evaluation.fieldmetrics import author_names, parse_date as parse_gold
    from evaluation.metrics import page_f1, shingle_match

    per: dict[str, dict[str, list[float]]] = {}
    for item in held_out:
        gold = item.gold
        found = predict(item.features, model, stages=stages).values
        scores: dict[str, float] = {}
        if gold.get("title"):
            scores["title"] = _word_f1(words(found["title"] or ""), words(str(gold["title"])))
        if gold.get("author") and author_names(gold["author"]):
            want = words(" ".join(sorted(author_names(gold["author"]))))
            scores["author"] = _word_f1(words(found["author"] or ""), want)
        if gold.get("date") and (want := parse_gold(gold["date"])) and want.day:
            got = parse_date(found["date"])[0] if found["date"] else None
            scores["date"] = float(got is not None and (got.when.year, got.when.month,
                                                        got.when.day) == (want.year, want.month,
                                                                          want.day))
        if isinstance(gold.get("body"), str) and gold["body"].strip():
            cjk = gold.get("lang") == "zh"
            scores["body"] = page_f1(shingle_match(gold["body"], found["body"] or "", cjk))
        for name, value in scores.items():
            for key in ("all", item.dataset):
                per.setdefault(key, {}).setdefault(name, []).append(value)
    return {key: {name: {"score": round(float(np.mean(v)), 4), "pages": len(v)}
                  for name, v in sorted(fields.items())} for key, fields in per.items()}


def _table(rows: list[tuple[str, dict]]) -> str:
    lines = ["| setting | " + " | ".join(FIELDS) + " |", "|---" * (len(FIELDS) + 1) + "|"]
    for label, scores in rows:
        cells = [f"{scores[f]['score']:.3f} ({scores[f]['pages']})" if f in scores else "-"
                 for f in FIELDS]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s", stream=sys.stderr)
    folders = dataset_folders(args.data, "fields")
    if folders is None:
        return 2
    t0 = time.perf_counter()
    corpus = read_corpus(folders, args.limit, args.negatives, args.seed)
    if not corpus.held_out or not any(len(e) for e in corpus.examples.values()):
        print("newscrawl train fields: no training or no validation page in the data",
              file=sys.stderr)
        return 2
    ablation: list[tuple[str, dict]] = []
    if args.ablation:
        for groups, label in ABLATION[:-1]:
            partial = train(corpus, groups, args.c, stages=(1,))
            ablation.append((f"groups {label}, stage 1", validate(partial, corpus.held_out, 1)["all"]))
    model = train(corpus, frozenset({1, 2, 3, 4}), args.c)
    one_stage = validate(model, corpus.held_out, 1)
    two_stages = validate(model, corpus.held_out, 2)
    ablation += [("groups 1+2+3+4, stage 1", one_stage["all"]),
                 ("groups 1+2+3+4, stages 1+2", two_stages["all"])]
    print("validation sites, two stages (per set):")
    print(_table(sorted((k, v) for k, v in two_stages.items())))
    print("\nablation (validation sites, all sets):" if args.ablation else "\nstages:")
    print(_table(ablation))
    card = {
        "description": "paper 001: two-stage linear SVM over DOM nodes (extractors/svm_fields.py)",
        "data": {"sets": [str(f) for f in folders], "sizes": corpus.sizes,
                 "examples": {f"{n}_stage{s}": len(e) for (n, s), e in corpus.examples.items()},
                 "split": f"by site: crc32(site) % {VALIDATION_BUCKETS} == 0 is validation",
                 "limit": args.limit},
        "features": {"dense": [f"group {g}: {n}" for g, n in DENSE_FEATURES],
                     "hashed": {"namespaces": HASH_NAMESPACES, "ngrams": list(NGRAMS),
                                "function": "zlib.crc32('<ns>:<token>' UTF-8) % hash_width"},
                     "candidate_tags": sorted(CANDIDATE_TAGS),
                     "min_chars": MIN_CHARS, "max_chars": MAX_CHARS},
        "dense_features": [n for _, n in DENSE_FEATURES],
        "hash_width": HASH_WIDTH,
        "columns": [f"{n}_stage{s}" for n in FIELDS for s in (1, 2)],
        "training": {"classifier": "sklearn.svm.LinearSVC", "C": args.c,
                     "class_weight": "balanced", "negatives_per_page": args.negatives,
                     "seed": args.seed, "seconds": round(time.perf_counter() - t0, 1)},
        "validation": {"two_stages": two_stages, "one_stage": one_stage},
        "ablation": [{"setting": label, "scores": scores} for label, scores in ablation],
    }
    path = save_model(args.out, MODEL_NAME, model.to_arrays(), card)
    print(f"\nmodel written to {path} ({path.stat().st_size / 1e6:.2f} MB) and its card")
    return 0
