"""Render (dataset, model) pairs: a pure function of the specs and the rows.

``PairRenderer`` validates a pair up front (so problems surface as errors before
any export) and then renders samples on demand: all of them for an export, one
with provenance for the pane that shows it.

May import: every core module below it (inferencers, models, retrievers, templates, tokens,
dataset_reader, replicas, the bottom layer); not lazy_pairs, lengths, verify or warning_groups,
and nothing outside the core.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from typing import Any

from .config_keys import check_pair_keys
from .dataset_reader import ReaderConfig, Splits, build_splits
from .errors import BuilderError, InputCut, RenderError, UnsupportedError
from .findings import Finding
from .inferencers.common_plans import EVERY_WITH_GT_MIXED
from .inferencers.plan import Engine, Plan
from .inferencers.registry import build_plan
from .inferencers.sample_form import Forms, splices, stand_in
from .inferencers.truncation import TRUNCATING, Limiter, Replay, TruncationTally
from .memo import RoundCache
from .models.meta_template import UNSENT_PROMPT, unsent_item
from .models.model_input import ModelAdapter
from .models.model_text import ModelText
from .models.wire import WireCall, row_max_out_len, wire_class, wire_for
from .provenance import ICE, ROW, Origin, PStr
from .reference import reference
from .refusals import refuse
from .render_notes import AIS_VERSION, OC_VERSION, Notes
from .replicas.numpy_argsort import numpy_sort
from .result import PairWarning, Request, Sample, Stamp
from .retrievers.embedding_retrievers import EmbedderLookup
from .retrievers.retriever import Retriever, build_retriever
from .spec import AISBENCH, OPENCOMPASS, DatasetSpec, ModelSpec, Source, locate, role_path, type_name
from .templates.aisbench_templates import MMPromptTemplate, MultiTurnPromptTemplate, build_aisbench_template
from .templates.prompt_list import (
    BRACED,
    FillPairs,
    PromptType,
    fill_pairs,
    fill_token,
    iter_texts,
    written_fields,
)
from .templates.prompt_template import PromptTemplate, build_template
from .templates.prompter import Prompter
from .templates.raw_prompt_template import RawPromptTemplate, build_raw_template
from .tokens.counting import length_estimate

# (dataset abbr, model abbr, sample index, turn) -> a model output, or None
PredictionLookup = Callable[[str, "str | None", int, int], "str | None"]
# (the dataset, how to build its splits) -> the splits, built once per dataset
SplitsMemo = Callable[[DatasetSpec, Callable[[], Splits]], Splits]

TEMPLATE_CLASSES = {"PromptTemplate", "MultiTurnPromptTemplate", "MMPromptTemplate", "RawPromptTemplate"}
INFERENCER, RETRIEVER = ("infer_cfg", "inferencer"), ("infer_cfg", "retriever")
UNFILLED = "PW202"


@dataclass(frozen=True)
class RenderOptions:
    predictions: PredictionLookup | None = None
    # finds the local sentence-embedding model TopK/VoteK rank with (the loader's)
    embeddings: EmbedderLookup | None = None
    # model_text, token counts and the max_seq_len loop; off where only the prompts matter
    measure: bool = True
    # token counts by section (meta template, examples, test row) for every sample; they need
    # a second, provenance-carrying render, so exports ask for them only where they are shown
    # (a sample rendered with provenance, as the panes do, always has them)
    token_sections: bool = False
    # later samples splice their rows into requests rendered once per example set
    # (inferencers/sample_form.py); off only to check the splice against the real render
    splice: bool = True
    # every cache and compiled path off (core/reference.py): the interpreter renders every
    # sample, as a bug report should; made under the process's switch (``--reference``)
    reference: bool = field(default_factory=reference)
    # the CPU whose numpy sort orders tied retriever scores (replicas/numpy_argsort.py): the
    # process's, which the loader sets from the machine or WORKBENCH_NUMPY_SORT
    numpy_sort: str = field(default_factory=numpy_sort)


@contextmanager
def about(key_path: tuple) -> Iterator[None]:
    """A RenderError raised inside is about this part of the dataset's config (unless it names
    a finer part itself)."""
    try:
        yield
    except RenderError as exc:
        exc.at(key_path)
        raise


#: Keys only an OpenCompass custom dataset has (advanced_guides/custom_dataset.md).
CUSTOM_DATASET_KEYS = ("data_type", "infer_method", "meta_path")


def _no_infer_cfg(dataset: DatasetSpec) -> RenderError:
    """No infer_cfg; for a custom dataset (no ``type``) that is expected, and the message says why."""
    cfg = dataset.cfg
    given = [k for k in CUSTOM_DATASET_KEYS if k in cfg]
    if "type" not in cfg and (given or ("reader_cfg" not in cfg and isinstance(cfg.get("path"), str))):
        keys = "".join(f", {k}={cfg[k]!r}" for k in given)
        return RenderError(
            f"dataset {dataset.abbr!r} has no infer_cfg: it is an OpenCompass custom dataset (no "
            f"`type`{keys}), whose reader_cfg and infer_cfg OpenCompass builds at run time from the "
            "data file and its .meta.json (make_custom_dataset_config), so the config holds no prompt "
            "to show",
            hint="to see its prompts here, write it as a regular dataset: type=..., "
            "reader_cfg=dict(input_columns=[...], output_column=...), infer_cfg=dict(prompt_template=..., "
            "retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer))",
        )
    return RenderError(f"dataset {dataset.abbr!r} has no infer_cfg dict",
                       hint="add infer_cfg=dict(prompt_template=..., retriever=..., inferencer=...)")


def _pairs(row: Mapping[str, Any], origin: Callable[[str], Origin] | None) -> FillPairs:
    if origin is None:
        return fill_pairs(row)
    out: FillPairs = []
    for k, v in row.items():
        text = v if isinstance(v, str) else str(v)
        out.append((fill_token(k), PStr(text, origin(str(k)))))
    return out


def _row_pairs(rows: Sequence[Mapping[str, Any]],
               origin: Callable[[str], Origin] | None) -> Callable[[int], FillPairs]:
    """``_pairs`` of ``rows[i]``, the last one kept: a PPL sample asks once per label, a
    multi-turn one once per turn (callers never modify the list). One tuple, replaced whole,
    so two threads rendering the same cached pair never see one row's index with another's
    pairs."""
    last: list[tuple[int, FillPairs] | None] = [None]

    def pairs(i: int) -> FillPairs:
        kept = last[0]
        if kept is not None and kept[0] == i:
            return kept[1]
        made = _pairs(rows[i], origin)
        last[0] = (i, made)
        return made

    return pairs


@lru_cache(maxsize=4096)
def _row_origin(column: str) -> Origin:
    return Origin(ROW, column=column)


@lru_cache(maxsize=4096)
def _ice_origin(column: str, example: int) -> Origin:
    return Origin(ICE, column=column, example=example)


class PairRenderer:
    """One dataset seen through one model (or through no model)."""

    def __init__(self, dataset: DatasetSpec, model: ModelSpec | None,
                 options: RenderOptions | None = None, splits_memo: SplitsMemo | None = None) -> None:
        self.dataset = dataset
        self.model_spec = model
        self.options = options or RenderOptions()
        self.notes = Notes()
        self.model_text: ModelText | None = None
        self.limiter: Limiter | None = None
        self.tally: TruncationTally | None = None
        #: samples whose input the model class would cut before sending (``verify`` says so:
        #: a run records them uncut)
        self.cut_inputs: set[int] = set()
        cfg = dataset.cfg
        infer_cfg = cfg.get("infer_cfg")
        if not isinstance(infer_cfg, Mapping):
            raise _no_infer_cfg(dataset)
        self.infer_cfg = infer_cfg
        if "reader_cfg" not in cfg:
            raise RenderError(f"dataset {dataset.abbr!r} has no reader_cfg",
                              hint="add reader_cfg=dict(input_columns=[...], output_column=...)")
        check_pair_keys(dataset, model)  # the real run stops at a key its class does not take
        with about(("reader_cfg",)):
            self.reader = ReaderConfig.from_cfg(cfg["reader_cfg"])
        if dataset.rows is None:
            raise RenderError(f"dataset {dataset.abbr!r} has no rows", hint="pass --data FILE")
        n, k = cfg.get("n", 1), cfg.get("k", 1)
        try:
            k_over_n = (max(k) if isinstance(k, list) and k else k) > n
        except TypeError:
            raise RenderError(f"dataset k={k!r} and n={n!r} must be ints (k may be a list of ints)",
                              hint="e.g. n=4, k=[1, 2, 4]") from None
        if k_over_n:
            raise RenderError("Maximum value of `k` must less than or equal to `n`")
        def splits() -> Splits:
            return build_splits(dataset.rows, self.reader, dataset.abbr, dataset.framework, n)

        # every model of a dataset reads the same splits: a suite normalises its rows once
        self.splits: Splits = splits_memo(dataset, splits) if splits_memo is not None else splits()
        self._warn_list_splits(dataset)
        inferencer_cfg = infer_cfg.get("inferencer")
        if not isinstance(inferencer_cfg, Mapping) or "type" not in inferencer_cfg:
            raise RenderError("infer_cfg.inferencer must be a dict with a type",
                              hint="e.g. inferencer=dict(type=GenInferencer)", key_path=INFERENCER)
        self.inferencer = type_name(inferencer_cfg["type"])
        with about(INFERENCER):
            self.plan: Plan = build_plan(self.inferencer, inferencer_cfg, self.notes)
        if "retriever" not in infer_cfg:
            raise RenderError("infer_cfg has no retriever", hint="e.g. retriever=dict(type=ZeroRetriever)",
                              key_path=("infer_cfg",))
        with about(RETRIEVER):
            self.retriever: Retriever = build_retriever(infer_cfg["retriever"], infer_cfg,
                                                        self.notes, type_name, dataset.framework)
        self._engines: dict[bool, Engine] = {}
        # token sections: how many samples were rendered a second time, with provenance (_traced)
        self.provenance_renders = 0
        self._ice_cache: dict[tuple[int, ...], Any] = {}
        self._traced_ice_cache: dict[tuple[int, ...], Any] = {}
        self._ice_checked: set[tuple[int, ...]] = set()  # (the reference mode's leak checks)
        fast = self.engine(False)
        self.model_kind = fast.model.kind
        info = fast.model.info
        self.wire_class = info.name if info is not None and info.is_api and wire_class(info.name) else None
        self.wire_framework = info.framework if info is not None else None
        if model is not None and model.framework != dataset.framework:
            names = {AISBENCH: "AISBench", "opencompass": "OpenCompass"}
            self.notes.warn(
                f"the dataset is an {names.get(dataset.framework, dataset.framework)} config and the "
                f"model an {names.get(model.framework, model.framework)} one: neither framework runs "
                "this pair as written; rendered with the dataset's templates and the model's parser"
            )
        with about(INFERENCER):
            self.plan.check(fast)
        with about(RETRIEVER):
            picks = self.retriever.pick(self.splits.train, self.splits.test, self.reader.input_columns,
                                        self.options.embeddings, self.notes, dataset.source.file,
                                        self.options.numpy_sort)
        self.picks = _interned(picks)
        self._warn_unfilled(fast, self._warn_missing_inputs(fast))
        self._warn_dropped_examples(fast)
        # later samples are made from forms: requests rendered once per example set
        # (inferencers/sample_form.py); stamps where there is no wire and no recorded output
        self._forms = None
        if self.options.splice and not self.options.reference:
            if splices(self.plan, fast):
                repeated = {key for key, n in Counter(self.picks).items() if n > 1}
                sections = self.options.token_sections and self.model_text is not None
                self._forms = Forms(self.plan, fast, self.splits.test, model, self.limiter, self.notes,
                                    repeated, self.model_text, self._stand_ins_traced if sections else None,
                                    length_estimate(self.model_spec is not None))
            else:
                refuse("plan-reads-row")
        #: the forms, where this pair's rows can be stamps (no wire, no recorded outputs)
        self._stamper = self._forms if self.wire_class is None and self.options.predictions is None else None
        if self.splits.test:
            self._first = self.sample(0)
            self._warn_unsent(self._first)
            with about(INFERENCER):  # (after the prompts: the real run builds them first)
                self.plan.check_gold(fast)

    # -- set-up ------------------------------------------------------------------
    def _template(self, key: str, notes: Notes,
                  provenance: bool) -> PromptTemplate | RawPromptTemplate | None:
        with about(("infer_cfg", key)):
            return self._build_template(key, notes, provenance)

    def _build_template(self, key: str, notes: Notes,
                        provenance: bool) -> PromptTemplate | RawPromptTemplate | None:
        cfg = self.infer_cfg.get(key)
        if cfg is None:
            return None
        if not isinstance(cfg, Mapping):
            raise RenderError(f"{key} must be a dict(type=PromptTemplate, template=...), got {cfg!r}")
        kind = type_name(cfg.get("type", "PromptTemplate"))
        if kind not in TEMPLATE_CLASSES:
            raise UnsupportedError(f"{key}: template class {kind} is not supported "
                              f"(supported: {', '.join(sorted(TEMPLATE_CLASSES))})",
                              hint="a dataset's own template class builds prompts in Python code "
                              "the workbench does not run")
        if kind == "RawPromptTemplate":
            if self.dataset.framework == AISBENCH:
                raise RenderError(f"{key}: AISBench 3.1.20260630 has no RawPromptTemplate "
                                  "(it is OpenCompass's)", hint="use PromptTemplate")
            return build_raw_template(cfg, key, notes, provenance)
        if kind != "PromptTemplate":
            return build_aisbench_template(kind, cfg, key, notes, provenance)
        return build_template(cfg, key, notes, provenance)

    def engine(self, provenance: bool) -> Engine:
        if provenance in self._engines:
            return self._engines[provenance]
        # The provenance engine repeats the fast one's checks; keep its notes apart.
        notes = self.notes if not provenance else Notes()
        ice_t = self._template("ice_template", notes, provenance)
        prompt_t = self._template("prompt_template", notes, provenance)
        if ice_t is None and prompt_t is None:
            # OpenICLInferTask asserts this for every inferencer.
            raise RenderError(
                "Both ice_template and prompt_template cannot be None simultaneously.",
                hint="add prompt_template=dict(type=PromptTemplate, template=...) to infer_cfg",
            )
        prompter = None
        if self.plan.needs_prompter:
            prompter = Prompter(ice_t, prompt_t, notes, self.retriever.type_name == "ZeroRetriever")
        model = ModelAdapter(self.model_spec, notes, provenance)
        if not provenance and self.model_spec is not None and self.options.measure:
            self._set_up_model_text(model, notes)
        train, test = self.splits.train, self.splits.test
        out = self.reader.output_column

        def train_label(idx: int) -> Any:
            row = train[idx]
            if out is None or out not in row:
                raise RenderError(
                    f"in-context example {idx} has no output column {out!r}",
                    hint="the ice_template's label comes from reader_cfg.output_column; "
                    "give the train rows that column",
                )
            return row[out]

        if provenance:
            test_pairs = _row_pairs(test, _row_origin)
            ice_pairs = lambda k, idx: _pairs(train[idx], lambda c: _ice_origin(c, k))  # noqa: E731
        else:
            test_pairs = _row_pairs(test, None)
            ice_pairs = lambda k, idx: _pairs(train[idx], None)  # noqa: E731
        predictions = recorded = None
        if self.options.predictions is not None:
            lookup = self.options.predictions
            predictions = lambda i, turn: lookup(self.dataset.abbr, self.model_abbr, i, turn)  # noqa: E731
            has = getattr(lookup, "recorded", None)  # a run's lookup knows which samples it recorded
            if has is not None:
                recorded = lambda i: has(self.dataset.abbr, self.model_abbr, i)  # noqa: E731
        engine = Engine(
            ice_template=ice_t, prompt_template=prompt_t, prompter=prompter, model=model,
            retriever=self.retriever, output_column=out, input_columns=self.reader.input_columns,
            notes=notes, provenance=provenance, test_pairs=test_pairs, ice_pairs=ice_pairs,
            train_label=train_label, test_row=lambda i: test[i], predictions=predictions, recorded=recorded,
            all_test_rows=lambda: test, limiter=self.limiter, train_row=lambda i: train[i],
        )
        # the examples depend only on which rows they are: built once per set, for both engines
        # (a provenance engine building them per sample also kept every sample's prepared
        # template alive in the templates' caches: hundreds of MB over a suite's text export)
        engine.ice = self._cached_ice(engine, provenance)  # type: ignore[method-assign,assignment]
        self._engines[provenance] = engine
        return engine

    def _set_up_model_text(self, model: ModelAdapter, notes: Notes) -> None:
        """The model's chat template, tokenizer and max_seq_len loop (see core/models/model_text.py)."""
        text = ModelText(model, notes)
        self.model_text = text
        limit = model.spec.cfg.get("max_seq_len") if model.spec else None
        if not isinstance(limit, int) or isinstance(limit, bool) or self.inferencer not in TRUNCATING:
            return
        if self.dataset.framework != OPENCOMPASS:
            if type_name(self.infer_cfg["retriever"].get("type", "")) != "ZeroRetriever":
                notes.warn(f"max_seq_len={limit}: AISBench never drops in-context examples to fit it")
            return
        self.limiter = Limiter(limit, text.oc_token_len, text.oc_get_token_len, text.measure_exact,
                               text.measure.method)
        self.tally = TruncationTally(limit, text.measure_exact, text.measure.method)

    def _cached_ice(self, engine: Engine, provenance: bool) -> Callable[[Sequence[int]], PromptType]:
        original = Engine.ice.__get__(engine)
        cache = self._traced_ice_cache if provenance else self._ice_cache

        def ice(idx_list: Sequence[int]) -> PromptType:
            key = tuple(idx_list)
            if self.options.reference:  # built again every time; checked once a set
                made = original(idx_list)
                if not provenance and key not in self._ice_checked:
                    self._ice_checked.add(key)
                    self._check_ice_leak(key, made)
                return made
            if key not in cache:
                if len(cache) > 4096:
                    cache.clear()
                cache[key] = original(idx_list)
                if not provenance:  # the fast engine's check speaks for both
                    self._check_ice_leak(key, cache[key])
            return cache[key]

        return ice

    def _check_ice_leak(self, key: tuple[int, ...], ice: Any) -> None:
        """OpenCompass fills the whole prompt once, after inserting the examples."""
        if not key:
            return
        text = "".join(iter_texts(ice))
        columns = {str(c) for row in self.splits.test[:1] for c in row}
        leaked = sorted({m for m in BRACED.findall(text) if m in columns})
        for name in leaked:
            self.notes.warn(
                f"an in-context example contains '{{{name}}}', which the test row's {name!r} "
                "fills: the framework fills the whole prompt once, after inserting the examples"
            )

    def _warn_missing_inputs(self, engine: Engine) -> set[str]:
        """Input columns the rows lack (neither framework checks them); returns their names.

        A template fills fields from the whole row, not from ``input_columns``: a listed column
        no template names changes no prompt, only what retrievers that read the input columns
        (BM25, TopK...) look up.
        """
        missing: set[str] = set()
        used = (("test", self.splits.test), ("train", self.splits.train if any(self.picks) else []))
        templates = [t for t in (engine.ice_template, engine.prompt_template) if t is not None]
        fields = {m for t in templates for text in iter_texts(t.raw) for m in BRACED.findall(text)}
        for split, rows in used:
            have = {str(c) for c in rows[0]} if rows else None
            for column in map(str, self.reader.input_columns):
                if have is None or column in have or column in missing:
                    continue
                missing.add(column)
                said = f"reader_cfg.input_columns lists {column!r}, but the {split} rows have no such column"
                if column in fields:
                    self.notes.warn(f"{said}, so {{{column}}} is sent as written (the frameworks do not "
                                    "check input columns)")
                    continue
                close = difflib.get_close_matches(column, sorted(have), n=1)
                self.notes.warn(f"{said} and no template names {{{column}}}: the prompts are the same, but a "
                                "retriever that reads the input columns (BM25, TopK, VoteK...) fails with "
                                f"KeyError: {column!r}" + (f" (a typo of {close[0]!r}?)" if close else ""))
        return missing

    def _warn_unfilled(self, engine: Engine, warned: set[str] | None = None) -> None:
        columns: set[str] = set()
        for row in (*self.splits.train[:1], *self.splits.test[:1]):
            columns.update(str(c) for c in row)
        templates = [t for t in (engine.ice_template, engine.prompt_template) if t is not None]
        for template in templates:
            if isinstance(template, RawPromptTemplate):
                main = engine.prompter is not None and engine.prompter.main is template
                template.warn_fields(columns, self.reader.output_column if main else None)
                continue
            if isinstance(template, MultiTurnPromptTemplate):
                filled = {"question", "answer"}
            elif isinstance(template, MMPromptTemplate):
                filled = columns | {"question", "image", "video", "audio"}
            else:
                filled = columns
            found = {m for text in iter_texts(template.raw) for m in written_fields(text)}
            for name in sorted(found - filled - (warned or set())):
                self.notes.find(Finding(
                    UNFILLED,
                    f"{template.name}: {{{name}}} matches no column of the rows, so it is sent "
                    "as written",
                    hint=f"name a column of the rows, or add a column {name!r} to them",
                    key_path=("infer_cfg", template.name)))

    def _warn_list_splits(self, dataset: DatasetSpec) -> None:
        if not isinstance(dataset.rows, list):
            return
        for key, split in (("train_split", self.reader.train_split), ("test_split", self.reader.test_split)):
            if split not in ("train", "test"):
                self.notes.framework_fails(
                    AIS_VERSION if dataset.framework == AISBENCH else OC_VERSION,
                    f"KeyError: {split!r} (DatasetReader wraps a plain list of rows as 'train' and "
                    f"'test', then looks up reader_cfg.{key})",
                    "the list serves as both splits, as the render contract says",
                )

    def _warn_unsent(self, first: Sample | Stamp) -> None:
        """PW201 once per pair, from its first sample: the generating turn's own prompt is laid
        out by no request (the same for every row: it is the template's shape)."""
        parser = getattr(self.engine(False).model, "parser", None)
        if parser is None or self.plan.parse_mode != "gen":
            return
        for request in first.requests:
            index = unsent_item(parser, request.prompt_list) if request.label is None else None
            if index is None:
                continue
            item = request.prompt_list[index]
            role, text = item.get("role"), str(item.get("prompt"))
            shown = repr(text if len(text) <= 40 else text[:40] + "…")
            self.notes.find(Finding(
                UNSENT_PROMPT,
                f"the generating {role} turn's prompt {shown} is never sent: the "
                f"meta template generates at {role}'s begin, so the model input ends there",
                hint=f"put that text at the end of the turn before (e.g. the HUMAN prompt), or leave the "
                f"{role} turn's prompt empty",
                key_path=self._turn_path(role)))
            return

    def _turn_path(self, role: Any) -> tuple:
        """Where the template writes the last turn of ``role`` (its round's item), for a finding."""
        for key in ("prompt_template", "ice_template"):
            template = self.infer_cfg.get(key)
            body = template.get("template") if isinstance(template, Mapping) else None
            turns = body.get("round") if isinstance(body, Mapping) else None
            if isinstance(turns, list):
                found = [i for i, t in enumerate(turns)
                         if isinstance(t, Mapping) and role in (t.get("role"), t.get("fallback_role"))]
                if found:
                    return ("infer_cfg", key, "template", "round", found[-1])
        return ("infer_cfg", "prompt_template")

    def _warn_dropped_examples(self, engine: Engine) -> None:
        main = engine.prompter.main if engine.prompter else None
        if main is None or main.ice_token is None or not any(self.picks):
            return
        if isinstance(main, RawPromptTemplate):
            used = main.uses_ice_token
        else:
            used = any(main.ice_token in text for text in iter_texts(main.raw))
        if not used:
            self.notes.warn(
                f"{main.name} declares ice_token {main.ice_token!r} but never uses it, so the "
                "retrieved in-context examples are built and then dropped"
            )

    # -- rendering ----------------------------------------------------------------
    @property
    def dataset_abbr(self) -> str:
        return self.dataset.abbr

    @property
    def model_abbr(self) -> str | None:
        return self.model_spec.abbr if self.model_spec else None

    def unsent_item(self, request: Request) -> int | None:
        """The PromptList item this request's meta template never sends (PW201), for the view to
        mark; None when it sends every item (PPL requests lay out every turn)."""
        if request.label is not None or self.plan.parse_mode != "gen" or not self.notes.found(UNSENT_PROMPT):
            return None
        parser = getattr(self.engine(False).model, "parser", None)
        return unsent_item(parser, request.prompt_list) if parser is not None else None

    def warnings(self) -> list[PairWarning]:
        """What the render found, as a result lists it (findings located in the dataset's config)."""
        def where(path: tuple) -> tuple[str | None, int | None]:
            found = locate(self.dataset, path)
            return found.file, found.line
        return self.notes.pair_warnings(self.dataset_abbr, self.model_abbr, where)

    def __len__(self) -> int:
        return len(self.splits.test)

    def sample(self, index: int, provenance: bool = False, for_stamp: bool = False) -> Sample:
        """The sample: a spliced row its checked form stamps finished by the form, any other
        by the model's side itself; a row rendered for real checks its form's stamp where that
        is not checked yet. ``for_stamp``: asked by :meth:`stamp` for a row its form did not
        stamp (finished by the model's side; it may check the form too)."""
        if not provenance and index == 0 and hasattr(self, "_first"):
            return self._first
        ice_idx = self.picks[index]
        forms = self._forms if not provenance else None
        values = None
        if forms is None:
            requests: Sequence[Request] = self.plan.requests(self.engine(provenance), index, ice_idx)
        else:
            requests, values = forms.splice(index, ice_idx, self._rendered)
        stamper = self._stamper if not provenance else None
        # a spliced row its form stamps is finished by it (a row no model counts is its splice
        # as it is: the form adds nothing to it)
        stamped = None
        if stamper is not None and not for_stamp and self.model_text is not None and values is not None:
            stamped = stamper.stamped(index, ice_idx, values)
        if stamped is not None:  # the model text, counts and record the form gives the row
            form, values, numbers = stamped
            requests = form.finished(requests, values, numbers)
        elif self.model_text is not None:
            if provenance:
                traced = requests
            elif self.options.token_sections:
                traced = self._traced(index, requests) or [None] * len(requests)
            else:
                traced = [None] * len(requests)
            requests = [self.model_text.finish(r, t) for r, t in zip(requests, traced)]
            if self.wire_class is not None:
                requests = [self._with_wire(index, r) for r in requests]
        if self.options.predictions is not None:
            requests = [self._with_recorded_output(index, r) for r in requests]
        if self.tally is not None:
            self.tally.add(index, [r.truncation for r in requests if r.truncation is not None])
        made = Sample(index, self.splits.test_source[index], tuple(ice_idx), tuple(requests))
        if stamper is not None and stamped is None and (values is None or for_stamp):
            stamper.check(index, ice_idx, made.requests)
        return made

    def stamp(self, index: int) -> Sample | Stamp:
        """Sample ``index`` as a stamp of its form where it can be one (inferencers/sample_form.py),
        else the sample itself. A stamp carries no requests until asked, and then gets them from
        :meth:`sample` (spliced, finished by the form): an export that knows forms writes it from
        its form."""
        forms = self._stamper
        if forms is None:
            if self._forms is not None:
                refuse("pair-not-stamped")
            return self.sample(index)
        ice_idx = self.picks[index]
        stamped = forms.stamped(index, ice_idx)
        if stamped is None:
            return self.sample(index, for_stamp=True)
        form, values, (totals, measured, sections) = stamped
        if self.tally is not None:
            self.tally.add(index, ())  # a stamp's prompts fit: no example is dropped
        return Stamp(index, self.splits.test_source[index], ice_idx, form, values, totals, measured,
                     sections, partial(self.sample, index))

    def _rendered(self, index: int, ice_idx: Sequence[int]) -> Sequence[Request]:
        """The sample's requests rendered for real (the forms' way out; the engine is looked
        up only here: a spliced sample needs none)."""
        return self.plan.requests(self.engine(False), index, ice_idx)

    def _with_recorded_output(self, index: int, request: Request) -> Request:
        """The answer a run recorded for this request (``--run``), shown beside it."""
        lookup = self.options.predictions
        if self.inferencer == "ChatInferencer" and self.plan.cfg.get("infer_mode") == "every_with_gt":
            self.notes.warn(f"{EVERY_WITH_GT_MIXED}: the run's answers are not shown beside its requests")
            return request
        # ChatInferencer's infer_mode='last' (its default) sends one request, for the last turn,
        # and records its answer as the sample's one prediction, a string
        last = self.inferencer == "ChatInferencer" and self.plan.cfg.get("infer_mode", "last") == "last"
        turn = 0 if last else request.turn or 0
        answer = lookup(self.dataset.abbr, self.model_abbr, index, turn) if lookup else None
        if answer is None:
            return request
        return replace(request, extra=(*request.extra, ("recorded_output", answer)))

    def _with_wire(self, index: int, request: Request) -> Request:
        """An API model's request with the HTTP request its class would send (``wire``)."""
        spec = self.model_spec
        if spec is None or self.model_text is None or self.wire_class is None:
            return request
        counter = self.model_text.counter
        call = WireCall(self.wire_class, spec.cfg, request.model_input, self._wire_max_out_len(index),
                        counter.count, exact=bool(getattr(counter, "exact", False)),
                        ppl=request.label is not None)
        try:
            wire = wire_for(call)
        except BuilderError:
            raise  # a builder that broke: the pair's error, not a note beside its requests
        except RenderError as exc:
            if isinstance(exc, InputCut):
                self.cut_inputs.add(index)
            self.notes.warn(f"no request on the wire: {exc.message}" + (f" ({exc.hint})" if exc.hint else ""))
            return request
        if wire is None:
            return request
        return replace(request, extra=(*request.extra, ("wire", wire)))

    def _wire_max_out_len(self, index: int) -> Any:
        """The ``max_out_len`` the inferencer hands the class (see ``WireCall``)."""
        spec = self.model_spec
        assert spec is not None
        if self.wire_framework == AISBENCH:
            # AISBench: a test row's own max_out_len, when reader_cfg lists that column, wins
            row = self.splits.test[index]
            if "max_out_len" not in self.reader.input_columns or "max_out_len" not in row:
                return None
            mode = str(self.plan.cfg.get("infer_mode", "every"))
            return row_max_out_len(row["max_out_len"], self.inferencer, mode)
        inferencer = self.infer_cfg.get("inferencer") or {}
        value = inferencer.get("max_out_len", spec.cfg.get("max_out_len"))
        return value if isinstance(value, int) else None

    def _traced(self, index: int, requests: Sequence[Request], pairs: FillPairs | None = None
                ) -> Sequence[Request] | None:
        """Row ``index``'s requests rendered again with provenance, for token counts by section
        (None: unavailable); ``pairs``: fill pairs in place of the row's own (a form's stand-ins)."""
        self.provenance_renders += 1
        traced = self.engine(True)
        replay = Replay([r.truncation for r in requests]) if self.limiter else None
        engine = replace(traced, limiter=replay,
                         test_pairs=traced.test_pairs if pairs is None else lambda i: pairs)
        engine.ice = traced.ice  # type: ignore[method-assign]  # the pair's cached examples
        try:
            made = self.plan.requests(engine, index, self.picks[index])
        except (RenderError, IndexError):
            return None
        return made if len(made) == len(requests) else None

    def _stand_ins_traced(self, index: int, requests: Sequence[Request]) -> Sequence[Request] | None:
        """A form's stand-in requests rendered with provenance (None: unknown), a stand-in the
        test row's as the row's values are (row ``index`` is of that form's example set)."""
        coded: FillPairs = [(token, PStr(stand_in(n), _row_origin(token[1:-1])))
                            for n, (token, _) in enumerate(self.engine(False).test_pairs(index))]
        return self._traced(index, requests, coded)

    def samples(self) -> Iterator[Sample]:
        return self._every(self.sample)

    def stamps(self) -> Iterator[Sample | Stamp]:
        """Every sample, as a stamp where it can be one (see :meth:`stamp`)."""
        return self._every(self.stamp)

    def _every(self, make: Callable[[int], Any]) -> Iterator[Any]:
        for i in range(len(self)):
            yield make(i)
        if self.tally is not None:
            for message in self.tally.messages(len(self)):
                self.notes.warn(message)


def _interned(picks: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """Each sample's example indices as a tuple, one object per distinct set (a FixK
    retriever's one for every row): a sample and the forms' key take it as it is."""
    if picks and len(set(map(id, picks))) == 1:  # the same object for every row, found in C
        return [tuple(picks[0])] * len(picks)
    distinct: dict[tuple[int, ...], tuple[int, ...]] = {}
    out = []
    last: Any = None
    made: tuple[int, ...] = ()
    for p in picks:
        if p is not last:  # (a retriever that picks the same for every row hands one object)
            key = tuple(p)
            last, made = p, distinct.setdefault(key, key)
        out.append(made)
    return out


def error_source(exc: RenderError, dataset: DatasetSpec, model: ModelSpec | None) -> Source:
    """Where an error points: its own file (a chat template's), else the line the part of the
    config it names was written on, else the dataset's dict."""
    if exc.file:
        return Source(exc.file, exc.line)
    written = role_path(dataset, exc.role) if exc.role is not None else None
    if written is not None:
        return locate(dataset, written)
    spec = model if exc.in_model else dataset
    if exc.key_path is not None and spec is not None:
        return locate(spec, exc.key_path)
    return dataset.source


class RenderCache:
    """Pairs (or their errors) from the last render, by the content of their inputs.

    A render is a pure function of the dataset, the model and the options, so a reload
    reuses every pair whose inputs did not change and re-renders only what a save touched.
    Inputs without a content version (rows the loader cannot vouch for) are never cached.
    Each ``render_workspace`` is a round: pairs the last render did not use are dropped.
    """

    def __init__(self) -> None:
        self._pairs: RoundCache[PairRenderer | RenderError] = RoundCache()

    @property
    def hits(self) -> int:
        return self._pairs.hits

    def __len__(self) -> int:
        return len(self._pairs)

    def next_round(self) -> None:
        self._pairs.next_round()

    @staticmethod
    def key(dataset: DatasetSpec, model: ModelSpec | None, options: RenderOptions) -> Any:
        data = dataset.content_key()
        if data is None:
            return None
        # the options' lookups are compared by identity, and held alive by the key
        return (data, model.content_key() if model is not None else None, options)

    def pair(self, dataset: DatasetSpec, model: ModelSpec | None,
             options: RenderOptions | None, splits_memo: SplitsMemo | None = None) -> PairRenderer:
        options = options or RenderOptions()
        key = self.key(dataset, model, options)
        found = self._pairs.get(key) if key is not None else None
        if found is None:
            try:
                found = PairRenderer(dataset, model, options, splits_memo)
            except RenderError as exc:
                found = exc
            if key is not None:
                self._pairs.put(key, found)
        if isinstance(found, RenderError):
            raise found
        return found

