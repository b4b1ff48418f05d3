"""What every inferencer plan builds on: the Engine (one pair's templates, retriever, model and
rows) and the Plan base class, one subclass per inferencer type.

May import: the top of ``workbench.core``, ``templates``, ``models`` and ``retrievers``; not the
plan modules (they import this).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import RenderError
from ..models.model_input import ModelAdapter
from ..provenance import ICE, PREDICTION, ROW, Origin, PStr
from ..render_notes import Notes
from ..result import Request
from ..retrievers.retriever import Retriever
from ..templates.prompt_list import FillPairs, PromptType
from ..templates.prompt_template import PromptTemplate
from ..templates.prompter import Prompter
from ..templates.raw_prompt_template import RawPromptTemplate
from .truncation import Limiter

GEN_FAMILY = {"GenInferencer", "GLMChoiceInferencer", "LMMGenInferencer"}
PPL_FAMILY = {"PPLInferencer", "LLInferencer"}
#: The inferencers whose ``inference`` reads the gold answers as the test split's output column
#: whole (``dataset['test'][output_column]``, or AISBench's ``retriever.get_gold_ans()``) when
#: ``reader_cfg.output_column`` is set: OpenCompass's GLMChoice, Chat, Agent and scoring-only
#: inferencers do not.
READS_GOLD = {"GenInferencer", "LMMGenInferencer", "PPLInferencer", "LLInferencer", "CLPInferencer",
              "SCInferencer", "ToTInferencer", "AttackInferencer", "MultiTurnGenInferencer"}
Predictions = Callable[[int, int], "str | None"]  # (sample index, turn) -> model output


def placeholder(turn: int) -> str:
    """What stands in for a model output the render does not have."""
    return f"‹prediction turn {turn}›"


#: Said when a run (``--run``) has no answer for a turn a later turn's history holds.
UNRECORDED_ANSWER = ("the run recorded no answer for a turn that a later turn's history holds "
                     "(a failed or missing request): that history shows the stand-in ‹prediction turn N› "
                     "instead")
#: Said when a run (``--run``) has no record at all of a sample whose later turns need answers.
UNRECORDED_SAMPLE = ("the run (--run) has no record of this sample, so its later turns' histories show the "
                     "stand-ins ‹prediction turn N›")


@dataclass
class Engine:
    """Everything needed to build one row's requests (a fast and a provenance variant exist)."""

    ice_template: PromptTemplate | None
    prompt_template: PromptTemplate | None
    prompter: Prompter | None
    model: ModelAdapter
    retriever: Retriever
    output_column: str | None
    input_columns: Sequence[str]
    notes: Notes
    provenance: bool
    test_pairs: Callable[[int], FillPairs]
    ice_pairs: Callable[[int, int], FillPairs]
    train_label: Callable[[int], Any]
    test_row: Callable[[int], Mapping[str, Any]]
    predictions: Predictions | None = None
    all_test_rows: Callable[[], Sequence[Mapping[str, Any]]] = field(default=lambda: [])
    limiter: Limiter | None = None  # OpenCompass's max_seq_len loop, when the model config sets one
    train_row: Callable[[int], Mapping[str, Any]] = field(default=lambda i: {})
    #: whether the run behind ``predictions`` has a record of a sample (None: not known)
    recorded: Callable[[int], bool] | None = None

    def ice(self, idx_list: Sequence[int]) -> PromptType:
        if isinstance(self.ice_template, RawPromptTemplate):
            return self._raw_ice(idx_list)
        return self.retriever.generate_ice(idx_list, self.ice_template, self.train_label,
                                           self.ice_pairs, self.provenance)

    def _raw_ice(self, idx_list: Sequence[int]) -> list:
        """``generate_ice``'s raw branch: every example's messages, one list, no separators."""
        out: list = []
        for k, idx in enumerate(idx_list):
            self.train_label(idx)  # the framework reads the label first (KeyError without it)
            origin = (lambda c, k=k: Origin(ICE, column=c, example=k)) if self.provenance else None
            out.extend(self.ice_template.generate_ice_item(  # type: ignore[union-attr]
                self.ice_pairs(k, idx), self.train_row(idx), origin))
        return out

    def row_origin(self) -> Callable[[str], Origin] | None:
        return (lambda c: Origin(ROW, column=c)) if self.provenance else None

    def gen_prompt(self, index: int, idx_list: Sequence[int], replace_token: str = "",
                   output_column: Any = "") -> PromptType:
        """``generate_prompt_for_generate_task``: the prompt a generation-style inferencer builds."""
        column = self.output_column if output_column == "" else output_column
        return self.prompter.for_gen(  # type: ignore[union-attr]
            self.test_pairs(index), self.ice(idx_list), column, replace_token,
            row=self.test_row(index), origin=self.row_origin())

    def output(self, index: int, turn: int) -> str:
        text = self.predictions(index, turn) if self.predictions else None
        if text is None and self.predictions:
            known = self.recorded is None or self.recorded(index)
            self.notes.warn(UNRECORDED_ANSWER if known else UNRECORDED_SAMPLE)
        value = placeholder(turn) if text is None else text
        return PStr(value, Origin(PREDICTION, detail=f"turn {turn}")) if self.provenance else value


class Plan:
    """One inferencer's way of turning a row into requests."""

    name: str = ""
    needs_prompter = True
    #: the mode its requests are parsed in: in ``gen`` the meta template stops at the generating
    #: role (what finding PW201 looks for); ``ppl`` lays out every turn
    parse_mode = "gen"

    def __init__(self, name: str, cfg: Mapping[str, Any], notes: Notes) -> None:
        self.name = name
        self.cfg = cfg
        self.notes = notes

    def check(self, engine: Engine) -> None:
        """Refusals that hold for the whole pair (e.g. PPL on an API model)."""

    def check_gold(self, engine: Engine) -> None:
        """The gold answers' column, where this inferencer reads it and no test row has it: a
        split's columns are its rows' (a ``datasets.Dataset``), so the real run stops there."""
        out, rows = engine.output_column, engine.all_test_rows()
        if self.name not in READS_GOLD or not out or not rows or any(out in row for row in rows):
            return
        raise RenderError(
            f"{self.name} reads the gold answers as the test split's {out!r} column, and no test "
            f"row has it (the real run stops with KeyError: \"Column {out} not in the dataset\")",
            hint=f"give the test rows the column {out!r} (None where the answer is not known), or set "
            "reader_cfg.output_column to the column that holds the answers",
        )

    def requests(self, engine: Engine, index: int, ice_idx: Sequence[int]) -> list[Request]:
        raise NotImplementedError

