"""Inferencers that score a prompt instead of generating: PPLOnly, InferencePPLOnly,
MinkPercent and SWCELoss (OpenCompass 0.5.4 ``openicl/icl_inferencer``).

Each builds its prompt as ``generate_prompt_for_generate_task`` does (the GenInferencer
path, without ``gen_field_replace_token``), asserts ``output_column=None``, and hands the
model a ``mode='ppl'`` parse — except SWCELoss, which tokenizes the unparsed prompt itself.

May import: the core's bottom layer, templates, models, retrievers and the other inferencer
modules (in the order plan → common/likelihood/generation plans → registry); not render, and
nothing outside the core.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import RenderError
from ..models.model_classes import lookup_model_class
from ..models.model_input import API, CHAT, ModelAdapter
from ..result import Request
from ..templates.prompt_list import PromptList, PromptType
from ..templates.raw_prompt_template import RawPromptTemplate
from .plan import Engine, Plan
from .truncation import fit_examples

#: Where each scoring method is implemented (class name → defined there, inherited below).
_IMPLEMENTED_BY = {
    "get_ppl_tokenwise": {"HuggingFacewithChatTemplate"},
    "get_mink_percent": {"HuggingFace", "InternTrain"},
    "get_logits": {"HuggingFace", "GLM130B", "InternTrain"},
}


def implements(model: ModelAdapter, method: str) -> bool:
    """Whether the model's class (or a base class) implements ``method``.

    A class the frameworks do not ship is given the benefit of the doubt.
    """
    if model.info is None:
        return True
    owners = _IMPLEMENTED_BY[method]
    seen: set[str] = set()
    stack = [model.info]
    while stack:
        info = stack.pop()
        if info.name in owners:
            return True
        for base in info.bases:
            if base in seen:
                continue
            seen.add(base)
            found = lookup_model_class(base, framework=info.framework)
            if found is not None:
                stack.append(found)
    return False


class _ScoringPlan(Plan):
    """One request per row: the generation prompt, parsed in ``ppl`` mode."""

    method = "get_ppl"
    parse_mode = "ppl"

    def check(self, engine: Engine) -> None:
        if engine.output_column is not None:
            raise RenderError(
                f"{self.name} supports `output_column=None` only. (AssertionError; the reader's "
                f"output_column is {engine.output_column!r})",
                hint="set reader_cfg output_column=None",
            )
        self.check_model(engine.model)

    def check_model(self, model: ModelAdapter) -> None:
        if model.spec is None:
            return
        refusal = model.ppl_refusal() if self.method == "get_ppl" else None
        if refusal is None and self.method != "get_ppl" and not implements(model, self.method):
            if self.method == "get_mink_percent":
                refusal = (f"'{model.class_name}' object has no attribute 'get_mink_percent' "
                           "(AttributeError)")
            else:
                # BaseModel.get_ppl_tokenwise(inputs, mask_length) is handed the label spans too
                refusal = ("BaseModel.get_ppl_tokenwise() takes from 2 to 3 positional arguments "
                           f"but 4 were given (TypeError: only HuggingFacewithChatTemplate's own "
                           f"get_ppl_tokenwise takes the label spans, and {model.class_name} "
                           "inherits the base one)")
        if refusal is None and model.info is None and model.kind == API:
            refusal = f"{model.kind} models cannot do PPL"
        if refusal:
            raise RenderError(refusal, hint=f"{self.name} needs a local model that scores tokens "
                              f"({self.method})")

    def prompt(self, engine: Engine, index: int, ice_idx: Any) -> Any:
        def build(idx: Sequence[int]) -> PromptType:
            return engine.gen_prompt(index, idx, "")

        if engine.prompter.raw:  # type: ignore[union-attr]
            return build(ice_idx), None
        return fit_examples(engine.limiter, ice_idx, build, "gen")

    def requests(self, engine: Engine, index: int, ice_idx: Sequence[int]) -> list[Request]:
        prompt, cut = self.prompt(engine, index, ice_idx)
        return [Request(prompt_list=prompt, model_input=engine.model.parse(prompt, "ppl"),
                        extra=self.extra(engine, index), truncation=cut)]

    def extra(self, engine: Engine, index: int) -> tuple:
        return ()


class PPLOnlyPlan(_ScoringPlan):
    """``PPLOnlyInferencer``: ``get_ppl_from_template`` of each prompt."""


class MinkPercentPlan(_ScoringPlan):
    """``MinKPercentInferencer``: ``get_mink_percent`` of the ``ppl``-mode parse."""

    method = "get_mink_percent"


class InferencePPLOnlyPlan(_ScoringPlan):
    """``InferencePPLOnlyInferencer``: ``get_ppl_tokenwise`` with each row's ``label`` spans.

    Chat-template classes hand the parsed prompt to the tokenizer through
    ``_convert_base_messages``: the role prompts joined with nothing, no chat template.
    """

    method = "get_ppl_tokenwise"

    def extra(self, engine: Engine, index: int) -> tuple:
        row = engine.test_row(index)
        if "label" not in row:
            raise RenderError(
                "InferencePPLOnlyInferencer reads each test row's 'label' column (the token spans "
                "to score), and it is missing (KeyError: 'label')",
                hint="the rows need a 'label' column",
            )
        return (("label_spans", row["label"]),)

    def requests(self, engine: Engine, index: int, ice_idx: Sequence[int]) -> list[Request]:
        out = super().requests(engine, index, ice_idx)
        if engine.model.kind != CHAT:
            return out
        # the chat wrapper's get_ppl_tokenwise joins the parsed role prompts
        request = out[0]
        parsed = engine.model.parser.parse(request.prompt_list, "ppl")
        text = parsed if isinstance(parsed, str) else "".join(
            item["prompt"] for item in parsed if isinstance(item, Mapping))
        return [Request(prompt_list=request.prompt_list, model_input=text, extra=request.extra,
                        truncation=request.truncation)]


class SWCELossPlan(Plan):
    """``SWCELossInferencer``: the rows' prompts, tokenized as they are, cut into windows.

    The model never sees a meta template: each row's prompt (built with no in-context
    examples from the prompt_template alone) goes to ``model.tokenizer.encode``; the token ids
    of all rows are concatenated and the model scores windows of ``block_size + 1`` tokens
    every ``stride`` tokens.  A request here is one row's text as it is encoded.
    """

    parse_mode = "ppl"  # no meta template at all: nothing stops at a generating role

    def check(self, engine: Engine) -> None:
        if engine.prompt_template is None:
            raise RenderError("Leaving prompt as empty is not supported (NotImplementedError: "
                              "SWCELossInferencer builds prompts from the prompt_template only)",
                              hint="add a prompt_template")
        model = engine.model
        if model.spec is not None and model.kind == API:
            raise RenderError(
                f"SWCELossInferencer encodes with model.tokenizer and runs model.model itself; "
                f"{model.class_name} is an API model without them (AttributeError: 'NoneType' "
                "object has no attribute 'vocab_size')",
                hint="use a local Hugging Face model",
            )
        if engine.output_column is not None:
            raise RenderError(
                f"SWCELossInferencer supports `output_column=None` only. (AssertionError; the "
                f"reader's output_column is {engine.output_column!r})",
                hint="set reader_cfg output_column=None",
            )
        block, stride = self.cfg.get("block_size", 1900), self.cfg.get("stride", 512)
        self.notes.warn(
            f"SWCELossInferencer: the model gets the token ids of every row's prompt, concatenated "
            f"and cut into windows of {block}+1 tokens every {stride} tokens; each request shows "
            "one row's text as it is tokenized (no meta template, no chat template)"
        )

    def requests(self, engine: Engine, index: int, ice_idx: Sequence[int]) -> list[Request]:
        if isinstance(engine.prompt_template, RawPromptTemplate):
            raise RenderError(
                "SWCELossInferencer hands the prompt to tokenizer.encode unparsed, and "
                "RawPromptTemplate messages are a list, which the tokenizer cannot encode",
                hint="write the prompt_template as a string, e.g. template='{content}'",
            )
        prompt = engine.prompt_template.generate_item(  # type: ignore[union-attr]
            engine.test_pairs(index), output_field=engine.output_column,
            ice_field_replace_token="")
        if isinstance(prompt, PromptList) or not isinstance(prompt, str):
            raise RenderError(
                "SWCELossInferencer hands the prompt to tokenizer.encode unparsed, so it must be "
                "a string template (the tokenizer cannot encode a PromptList)",
                hint="write the prompt_template as a string, e.g. template='{content}'",
            )
        return [Request(prompt_list=prompt, model_input=prompt)]


LIKELIHOOD_PLANS: dict[str, type[Plan]] = {
    "PPLOnlyInferencer": PPLOnlyPlan,
    "MinKPercentInferencer": MinkPercentPlan,
    "InferencePPLOnlyInferencer": InferencePPLOnlyPlan,
    "SWCELossInferencer": SWCELossPlan,
}
