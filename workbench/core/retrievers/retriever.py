"""Retrievers: which training rows become in-context examples, and how they are joined.

May import: the core's bottom layer, templates, replicas and the other retriever modules; not
models, inferencers or render, and nothing outside the core.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import RenderError
from ..provenance import GLUE, Origin, PStr, join
from ..render_notes import OC_VERSION, Notes
from ..spec import AISBENCH, OPENCOMPASS
from ..templates.prompt_list import FillPairs, PromptList, PromptType
from ..templates.prompt_template import PromptTemplate
from .embedding_retrievers import EmbedderLookup, embedding_picks

# Rank by sentence embeddings (core/retrievers/embedding_retrievers.py), with a local model the loader finds.
EMBEDDING_RETRIEVERS = {"TopkRetriever": "TopK", "VotekRetriever": "VoteK"}
SUPPORTED = ("ZeroRetriever, FixKRetriever, RandomRetriever, BM25Retriever, SlidingWindowRetriever, "
             "TopkRetriever, VotekRetriever")


@dataclass(frozen=True)
class Retriever:
    """A retriever's settings; ``pick`` gives the example indices per test row."""

    type_name: str
    ice_separator: str
    ice_eos_token: str
    ice_num: int
    params: Mapping[str, Any]

    def pick(self, train: Sequence[Mapping], test: Sequence[Mapping], input_columns: Sequence[str],
             embeddings: EmbedderLookup | None = None, notes: Notes | None = None,
             config_file: str | None = None, sort: str = "baseline") -> Sequence[Sequence[int]]:
        """Each test row's example indices (one shared tuple for every row where the retriever
        picks the same for all); ``embeddings`` finds the local sentence-embedding model
        TopK/VoteK rank with; ``sort`` is the CPU's numpy sort that orders tied scores
        (``replicas.numpy_argsort.SORTS``)."""
        name = self.type_name
        if name == "ZeroRetriever":
            return [()] * len(test)
        if name == "FixKRetriever":
            ids = self.params["fix_id_list"]
            if not isinstance(ids, (list, tuple)):
                raise RenderError(f"FixKRetriever: fix_id_list must be a list of ints, got {ids!r}",
                                  hint="e.g. fix_id_list=[0, 1, 2, 3, 4]")
            ids = list(ids)
            for i in ids:
                if not isinstance(i, int) or isinstance(i, bool):
                    raise RenderError(f"FixKRetriever: fix_id_list holds {i!r}, not an int index",
                                      hint="fix_id_list lists train rows by index, e.g. [0, 1, 2]")
                if not -len(train) <= i < len(train):
                    raise RenderError(
                        f"FixKRetriever: Index {i} is out of range of {len(train)}",
                        hint="fix_id_list indexes the train split; give more train rows "
                        "or smaller indices",
                    )
            return [tuple(ids)] * len(test)
        if name == "RandomRetriever":
            # imported here only for start-up time: most renders never pick at random
            from ..replicas.numpy_random import random_retriever_picks

            try:
                return random_retriever_picks(
                    self.params.get("seed", 43), len(train), len(test), self.ice_num
                )
            except (ValueError, TypeError) as exc:
                raise RenderError(f"RandomRetriever: {exc}") from None
        if name == "BM25Retriever":
            # imported here only for start-up time: the tokenizer compiles its patterns on import
            from .bm25 import bm25_picks

            try:
                return bm25_picks(
                    [corpus_text(r, input_columns) for r in train],
                    [corpus_text(r, input_columns) for r in test],
                    self.ice_num, sort=sort, notes=notes,
                )
            except ZeroDivisionError:  # rank_bm25 divides by the corpus size and its vocabulary
                raise RenderError(
                    "BM25Retriever: the train split has no words to index "
                    "(ZeroDivisionError in BM25Okapi, as in the framework)",
                    hint="give the train split rows with text in the input columns",
                ) from None
        if name in EMBEDDING_RETRIEVERS:
            return embedding_picks(name, self.params, self.ice_num,
                                   [corpus_text(r, input_columns, name) for r in train],
                                   [corpus_text(r, input_columns, name) for r in test],
                                   embeddings, notes, config_file, sort)
        if name == "SlidingWindowRetriever":
            try:
                k = int(self.params["k"])
            except (TypeError, ValueError, OverflowError):
                raise RenderError(f"SlidingWindowRetriever: k must be an int, got {self.params['k']!r}",
                                  hint="e.g. k=5") from None
            if test and k > 2 * len(train):
                # the padding indexes the train rows from len(train) - k: negative indices count
                # from the end, as the framework's dataset takes them, down to -len(train)
                raise RenderError(
                    f"SlidingWindowRetriever: k={k} pads the first test row with train rows from index "
                    f"{len(train) - k}, and the train split has {len(train)} (IndexError in the framework)",
                    hint="give k at most twice the number of train rows",
                )
            picks = []
            for current in range(len(test)):
                if current < k:
                    shots = list(range(max(0, current - k), current))
                    pad = k - len(shots)
                    shots = list(range(len(train) - pad, len(train))) + shots
                else:
                    shots = list(range(current - k, current))
                if shots and shots[-1] >= len(train):
                    raise RenderError(
                        f"SlidingWindowRetriever: test row {current} takes train rows up to "
                        f"{shots[-1]}, and the train split has {len(train)} (IndexError in the framework)",
                        hint="the window follows the test rows' positions; give the train split "
                        "as many rows as the test split",
                    )
                picks.append(shots)
            return picks
        raise AssertionError(name)

    def generate_ice(
        self,
        idx_list: Sequence[int],
        ice_template: PromptTemplate | None,
        label_of: Callable[[int], Any],
        pairs_of: Callable[[int, int], FillPairs],
        provenance: bool = False,
    ) -> PromptType:
        """The in-context examples for one test row (``BaseRetriever.generate_ice``).

        ``pairs_of(k, idx)`` gives the fill pairs of train row ``idx`` as example ``k``;
        ``label_of(idx)`` its output-column value.
        """
        if ice_template is None and idx_list:
            raise RenderError(
                "You have not specified ice_template while retrieving examples from "
                "train set! Please either specify ice_template or use `ZeroRetriever`.",
                hint="add an ice_template, or use ZeroRetriever",
            )
        if ice_template is not None and ice_template.prompt_type == "meta":
            separator, eos = "", ""
        else:
            separator, eos = self.ice_separator, self.ice_eos_token
            if provenance:
                separator = PStr(separator, Origin(GLUE, detail="ice_separator"))
                eos = PStr(eos, Origin(GLUE, detail="ice_eos_token"))
        items = [
            ice_template.generate_ice_item(pairs_of(k, idx), label_of(idx))  # type: ignore[union-attr]
            for k, idx in enumerate(idx_list)
        ]
        if items and isinstance(items[0], PromptList):
            out = PromptList()
            for item in items:
                out += item + separator
            out.append(eos)
            return out
        if any(isinstance(i, PromptList) for i in items):
            raise RenderError("in-context examples mix strings and dialogues")
        return join(separator, items) + eos if items else eos


def corpus_text(row: Mapping, input_columns: Sequence[str], retriever: str = "BM25Retriever") -> str:
    """``DatasetReader.generate_input_field_prompt``: input columns joined by spaces."""
    try:
        return " ".join(str(row[c]) for c in input_columns)
    except KeyError as exc:
        raise RenderError(f"{retriever}: the rows have no input column {exc}") from None


# A key a retriever does not take is refused before it is built, per framework, by the table
# read from the frameworks (core/config_keys.py, finding PW101).
_DEFAULTS = {
    # name: (ice_separator, ice_eos_token, ice_num)
    "ZeroRetriever": ("", "", 0),
    "FixKRetriever": ("\n", "\n", 1),
    "RandomRetriever": ("\n", "\n", 1),
    "BM25Retriever": ("\n", "\n", 1),
    "SlidingWindowRetriever": ("\n", "\n", 1),
    "TopkRetriever": ("\n", "\n", 1),
    "VotekRetriever": ("\n", "\n", 1),
}

# Retrievers no render can reproduce, and why (checked against OpenCompass 0.5.4's code).
REFUSED = {
    "DPPRetriever": (
        "DPPRetriever: TypeError: only integer scalar arrays can be converted to a scalar index "
        "(OpenCompass 0.5.4's dpp_search indexes the Python list fast_map_dpp returns with a numpy "
        "array, so it fails on the first test row, whatever the data)",
        "TopkRetriever with ice_num=candidate_num shows the candidates DPP would choose among",
    ),
    "MDLRetriever": (
        "MDLRetriever picks each test row's examples by running a causal language model "
        "(ce_model_name, default gpt2-xl) on every candidate prompt and keeping the candidate set "
        "of lowest entropy over the labels; the workbench runs no language model, so it cannot know "
        "which set wins",
        "TopkRetriever with the same ice_num shows MDL's first candidate (the nearest rows by "
        "embedding); the other candidates are seeded random draws from the candidate_num nearest",
    ),
    "ConERetriever": (
        "ConERetriever is not part of OpenCompass 0.5.4 (later releases score candidates with a "
        "language model, which the workbench does not run)",
        "use TopkRetriever, BM25Retriever or FixKRetriever",
    ),
}


# AISBench 3.1's retrievers take the templates themselves (BaseRetriever builds them), and its
# saved config copies infer_cfg's into the retriever (cli/config_manager.py).
_AISBENCH_TEMPLATES = ("prompt_template", "ice_template")


def build_retriever(cfg: Any, infer_cfg: Mapping[str, Any], notes: Notes,
                    type_name: Callable[[Any], str], framework: str = OPENCOMPASS) -> Retriever:
    """A Retriever from ``infer_cfg.retriever`` (and an old-style inferencer fix_id_list)."""
    inferencer_cfg = infer_cfg.get("inferencer") or {}
    if not isinstance(cfg, Mapping) or "type" not in cfg:
        raise RenderError(
            "infer_cfg.retriever must be a dict with a type",
            hint="e.g. retriever=dict(type=ZeroRetriever)",
        )
    name = type_name(cfg["type"])
    if name in REFUSED:
        message, hint = REFUSED[name]
        raise RenderError(message, hint=hint)
    if name not in _DEFAULTS:
        raise RenderError(f"unknown retriever {name}; supported: {SUPPORTED}")
    separator, eos, ice_num = _DEFAULTS[name]
    params = {k: v for k, v in cfg.items() if k != "type"}
    if framework == AISBENCH:
        _drop_template_copies(params, infer_cfg, name, notes)
    if name == "FixKRetriever" and "fix_id_list" not in params:
        old = inferencer_cfg.get("fix_id_list")
        if old:
            # Older docs put fix_id_list on the inferencer; OpenCompass now refuses it.
            notes.framework_fails(
                OC_VERSION,
                "ValueError: Passing fix_id_list to Inferencer is no longer allowed. "
                "Please pass it to FixKRetriever instead.",
                "the inferencer's fix_id_list is used by FixKRetriever",
            )
            params["fix_id_list"] = old
        else:
            raise RenderError(
                "FixKRetriever needs fix_id_list",
                hint="e.g. retriever=dict(type=FixKRetriever, fix_id_list=[0, 1, 2, 3, 4])",
            )
    elif inferencer_cfg.get("fix_id_list"):
        raise RenderError(
            "Passing fix_id_list to Inferencer is no longer allowed. "
            "Please pass it to FixKRetriever instead.",
            hint="move fix_id_list into retriever=dict(type=FixKRetriever, fix_id_list=[...])",
        )
    if name == "SlidingWindowRetriever" and "k" not in params:
        raise RenderError("SlidingWindowRetriever needs k", hint="e.g. k=5")
    ice_num = params.get("ice_num", ice_num)
    if isinstance(ice_num, bool) or not isinstance(ice_num, int):
        raise RenderError(f"{name}: ice_num must be an int, got {ice_num!r}")
    return Retriever(
        type_name=name,
        ice_separator=_str_param(params, "ice_separator", separator, name),
        ice_eos_token=_str_param(params, "ice_eos_token", eos, name),
        ice_num=ice_num,
        params=params,
    )


def _drop_template_copies(params: dict[str, Any], infer_cfg: Mapping[str, Any], name: str,
                          notes: Notes) -> None:
    """AISBench's infer tasks set the retriever's templates from ``infer_cfg`` before building it
    (``infer_cfg.get(key, None)``, tasks/openicl_api_infer.py and openicl_infer.py), so a
    retriever's own ``prompt_template``/``ice_template`` never reaches a prompt: dropped here, with
    a warning when it is not the copy the saved config holds."""
    for key in _AISBENCH_TEMPLATES:
        if key in params and params.pop(key) != infer_cfg.get(key):
            notes.warn(f"{name}'s own {key} differs from infer_cfg's: AISBench 3.1 sets the retriever's "
                       f"{key} from infer_cfg before building it, so infer_cfg's is the one rendered")


def _str_param(params: Mapping[str, Any], key: str, default: str, name: str) -> str:
    value = params.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str):
        raise RenderError(f"{name}: {key} must be a str, got {value!r}")
    return value
