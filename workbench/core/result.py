"""What a render produces; the JSON contract (docs/render-json.md) is a view of these.

May import: the standard library only: it is the core's bottom layer, which every other core
module may use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, init=False)
class Request:
    """One call the model would get.

    Made tens of thousands of times a render, so its ``__init__`` is written out: a frozen
    dataclass's generated one sets each field through ``object.__setattr__``, which costs
    more than the rest of a spliced request (inferencers/sample_form.py).
    """

    prompt_list: Any  # str, or PromptList (items as the framework builds them)
    model_input: Any  # str for "lm"; [{role, prompt}] for "api"; [{role, content}] for chat
    label: Any = None  # PPL/LL label (a template key)
    turn: int | None = None  # 0-based, multi-turn inference
    model_text: str | None = None  # chat-template models: the chat template's output
    depends_on: tuple[int, ...] = ()  # turns whose model output this request contains
    extra: tuple[tuple[str, Any], ...] = ()  # e.g. ("continuation", ...) for LL
    tokens: Any = None  # core.tokens.counting.TokenCount: what the model gets (total, per section, how)
    truncation: Any = None  # core.inferencers.truncation.Truncation: a max_seq_len loop ran for it

    def __init__(self, prompt_list: Any, model_input: Any, label: Any = None, turn: int | None = None,
                 model_text: str | None = None, depends_on: tuple[int, ...] = (),
                 extra: tuple[tuple[str, Any], ...] = (), tokens: Any = None, truncation: Any = None) -> None:
        self.__dict__.update(prompt_list=prompt_list, model_input=model_input, label=label, turn=turn,
                             model_text=model_text, depends_on=depends_on, extra=extra, tokens=tokens,
                             truncation=truncation)

    def evolve(self, **changes: Any) -> Request:
        """``dataclasses.replace(self, **changes)`` at a quarter of its cost (it walks the fields
        and calls ``__init__``): a render makes one for every request it finishes."""
        unknown = changes.keys() - _REQUEST_FIELDS
        if unknown:
            raise TypeError(f"Request has no field {sorted(unknown)[0]!r}")
        made = object.__new__(Request)
        object.__setattr__(made, "__dict__", {**self.__dict__, **changes})
        return made


_REQUEST_FIELDS = frozenset(Request.__dataclass_fields__)

#: The seam before a scored continuation (LL, lm-eval), in every view and format that shows one.
CONTINUATION_SEAM = "continuation, scored after the input"


def scored_text(continuation: Any) -> str:
    """A request's scored continuation as text (a non-string, as its repr)."""
    return continuation if isinstance(continuation, str) else repr(continuation)
_set_dict = object.__setattr__  # a frozen dataclass's fields, all set at once


@dataclass(frozen=True, init=False)
class Sample:
    index: int  # position in the test split
    source_index: int  # position in the data file's split, before ranges
    ice_indices: tuple[int, ...]
    requests: tuple[Request, ...]

    def __init__(self, index: int, source_index: int, ice_indices: tuple[int, ...],
                 requests: tuple[Request, ...]) -> None:  # written out, as Request's is
        _set_dict(self, "__dict__", {"index": index, "source_index": source_index,
                                     "ice_indices": ice_indices, "requests": requests})


class Stamp:
    """A sample as its form and the row's values and numbers (core/inferencers/sample_form.py):
    what an export that knows forms writes without the sample's requests.
    It is the sample ``make()`` renders: anything that asks for its requests gets those."""

    __slots__ = ("_made", "form", "ice_indices", "index", "make", "measured", "sections", "source_index",
                 "totals", "values")

    def __init__(self, index: int, source_index: int, ice_indices: tuple[int, ...], form: Any,
                 values: list[str], totals: tuple[int, ...], measured: tuple[int | None, ...],
                 sections: tuple[tuple[int, ...], ...] | None, make: Any, made: Sample | None = None) -> None:
        self.index = index
        self.source_index = source_index
        self.ice_indices = ice_indices
        self.form = form  # sample_form.Form
        self.values = values  # the row's values, as the form's parts number them
        self.totals = totals  # each request's token count
        self.measured = measured  # each request's max_seq_len measure (None: no loop)
        self.sections = sections  # each request's tokens by section (None: not counted)
        self.make = make  # () -> the Sample, rendered the usual way
        self._made = made  # (the usual render, where it was made already)

    @property
    def requests(self) -> tuple[Request, ...]:
        if self._made is None:
            self._made = self.make()
        return self._made.requests


@dataclass(frozen=True)
class PairError:
    dataset: str | None
    model: str | None
    message: str
    file: str | None = None
    line: int | None = None
    hint: str | None = None
    rule: str | None = None  # the finding's id (core/findings.py), when a rule raised it


@dataclass(frozen=True)
class PairWarning:
    """A warning; one a rule raised (``rule``, core/findings.py) also says where and what to do."""

    dataset: str | None
    model: str | None
    message: str
    rule: str | None = None
    file: str | None = None
    line: int | None = None
    hint: str | None = None


@dataclass
class RenderResult:
    """Every (dataset, model) pair of a workspace, with the problems found on the way."""

    config: str
    pairs: list[Any] = field(default_factory=list)  # PairRenderer, in order
    errors: list[PairError] = field(default_factory=list)
    warnings: list[PairWarning] = field(default_factory=list)
    #: Judge pairs (``--judge``): (judge dataset, judge model) → (dataset, model) judged, the
    #: model None before a run (core/judge.py). Every other pair is a model's own request.
    judged: dict[tuple[str, str | None], tuple[str, str | None]] = field(default_factory=dict)


def _message_text(message: Any) -> str:
    if isinstance(message, Mapping):
        body = message.get("content", message.get("prompt"))
        return body if isinstance(body, str) else ("" if body is None else str(body))
    return message if isinstance(message, str) else str(message)


def request_text(request: Request) -> str:
    """What the model gets, as text (the chat template's output when there is one)."""
    if request.model_text is not None:
        return str(request.model_text)
    value = request.model_input
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(_message_text(m) for m in value)
    return str(value)
