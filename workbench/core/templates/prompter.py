"""Which template builds the prompt: the retriever's rules for ice/prompt templates.

Mirrors ``BaseRetriever.generate_prompt_for_generate_task`` / ``generate_label_prompt``
and ``get_labels``, including the refusals, and the documented forms the framework
crashes on (ZeroRetriever with only an ice_template that has no ice_token).

May import: the core's bottom layer (errors, provenance, render_notes ...) and the other
template modules; nothing above (models, retrievers, inferencers, render) and nothing outside
the core.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from ..errors import RenderError
from ..provenance import Origin
from ..render_notes import OC_VERSION, Notes
from .prompt_list import FillPairs, PromptType
from .prompt_template import PromptTemplate
from .raw_prompt_template import RawPromptTemplate


class Prompter:
    def __init__(self, ice_template: PromptTemplate | None, prompt_template: PromptTemplate | None,
                 notes: Notes, zero_shot: bool) -> None:
        if ice_template is None and prompt_template is None:
            raise RenderError(
                "Both ice_template and prompt_template cannot be None simultaneously.",
                hint="add prompt_template=dict(type=PromptTemplate, template=...) to infer_cfg",
            )
        self.ice = ice_template
        self.prompt = prompt_template
        self.notes = notes
        self._main = self._choose(zero_shot)

    def _choose(self, zero_shot: bool) -> PromptTemplate:
        if self.prompt is not None and self.ice is not None:
            if self.prompt.ice_token is None:
                raise RenderError(
                    "ice_token of prompt_template is not provided",
                    hint="with an ice_template, the prompt_template must say where the examples "
                    "go: add ice_token='</E>' and put '</E>' in it",
                )
            return self.prompt
        if self.ice is not None:
            if self.ice.ice_token is None:
                if not zero_shot:
                    raise RenderError(
                        "ice_token of ice_template is not provided",
                        hint="the abbreviated form needs ice_token in the ice_template",
                    )
                # The docs call ZeroRetriever + a lone ice_template valid; the framework
                # refuses it. We use the ice_template as the prompt, as the docs say.
                self.notes.framework_fails(
                    OC_VERSION,
                    "NotImplementedError: ice_token of ice_template is not provided",
                    "the ice_template serves as the prompt template",
                )
            return self.ice
        return self.prompt  # type: ignore[return-value]

    @property
    def main(self) -> PromptTemplate:
        return self._main

    @property
    def raw(self) -> bool:
        """The prompt is RawPromptTemplate messages (a plain list), not a PromptList."""
        return isinstance(self._main, RawPromptTemplate)

    def for_gen(self, pairs: FillPairs, ice: PromptType, output_column: str | None,
                replace_token: str = "", row: Mapping[str, Any] | None = None,
                origin: Callable[[str], Origin] | None = None) -> PromptType:
        if isinstance(self._main, RawPromptTemplate):
            # RawPromptTemplate ignores output_field: the output column is not masked.
            return self._main.generate_item(pairs, row or {}, ice, origin)
        return self._main.generate_item(
            pairs, output_field=output_column, output_field_replace_token=replace_token,
            ice_field_replace_token=ice,
        )

    def for_label(self, pairs: FillPairs, ice: PromptType, label: Hashable,
                  remain_sep: bool = False, row: Mapping[str, Any] | None = None,
                  origin: Callable[[str], Origin] | None = None) -> PromptType:
        if isinstance(self._main, RawPromptTemplate):
            # generate_label_prompt_item is generate_item(entry): no examples, no label.
            return self._main.generate_item(pairs, row or {}, "", origin)
        return self._main.generate_label_prompt_item(pairs, ice, label, remain_sep)

    def labels(self, test_rows: Sequence[dict], output_column: str | None) -> list[Any]:
        """``get_labels``: the template dict's keys, else the output column's distinct values."""
        if self.prompt is not None:
            _no_labels_in_raw(self.prompt)
            if isinstance(self.prompt.raw, dict):
                return list(self.prompt.raw.keys())
        if self.ice is not None and self.ice.ice_token is not None:
            _no_labels_in_raw(self.ice)
        if self.ice is not None and self.ice.ice_token is not None and isinstance(self.ice.raw, dict):
            return list(self.ice.raw.keys())
        if output_column is None:
            raise RenderError("PPL needs labels: a label dict template or an output_column")
        values = []
        for row in test_rows:
            if output_column not in row:
                raise RenderError(f"the test rows have no output column {output_column!r}")
            values.append(row[output_column])
        try:
            distinct = list(set(values))
        except TypeError:
            raise RenderError(
                f"PPL labels come from the output column {output_column!r}, whose values are "
                "not hashable (TypeError in list(set(...)))"
            ) from None
        if not any(_hash_randomised(v) for v in distinct):
            # Numbers, None and tuples of them hash the same in every process, so
            # list(set(...)) here gives the framework's own order.
            return distinct
        # Strings hash differently in every run (PYTHONHASHSEED): the framework's order
        # changes from run to run; we show them sorted and say so.
        distinct.sort(key=lambda v: (type(v).__name__, repr(v)))
        self.notes.warn(
            "labels come from the output column's distinct values; the framework's order "
            "(list(set(...))) varies between runs, shown here sorted"
        )
        return distinct


def _no_labels_in_raw(template: Any) -> None:
    if isinstance(template, RawPromptTemplate):
        raise RenderError(
            f"{template.name}: PPL labels come from the template's `template` dict, and a "
            "RawPromptTemplate has none (AttributeError: 'RawPromptTemplate' object has no "
            "attribute 'template')",
            hint="give the inferencer labels=[...]",
        )


def _hash_randomised(value: Any) -> bool:
    if isinstance(value, (str, bytes)):
        return True
    if isinstance(value, (tuple, frozenset)):
        return any(_hash_randomised(v) for v in value)
    return False
