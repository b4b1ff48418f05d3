"""Token sections of a spliced sample, without replaying its fill.

A spliced request's model input is its skeleton's constant pieces joined with the row's values
(:mod:`.sample_splice`). Where each character came from follows the same cut: a value is the
test row's (section code ``t``, as the section replay and the provenance render code a filled
value), and a constant piece is what it was in every row of the skeleton. So the constant
pieces' codes are learned once per skeleton, from the traced twin of a row rendered the usual
way (section replay or provenance render), and each later splice joins its codes as the
skeleton joins its text: a few ``join`` calls, where a replay fills and lays out a twin.

Sound by rule; a skeleton's sections are not learned (its rows keep the usual way) unless:

- the traced twin's model input has the splice's shape, and every text in it is the splice's
  text, character for character;
- every value's span in it is coded ``t`` and is not empty (an empty value says nothing of
  its code; the next rows are tried, a few times);
- a constant piece met twice has the same codes both times.

May import: :mod:`.sample_splice` and the core's bottom layer (``tokens``, ``templates``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..result import Request
from ..templates.prompt_list import PromptList
from ..tokens.counting import SectionCoded, codes_of
from .sample_splice import CONSTANT_TYPES, Skeleton, compiled, split_stand_ins

#: Rows tried to learn a skeleton's sections before it keeps the usual way for good.
MAX_ATTEMPTS = 4

_TEXT, _LIST, _PROMPTS, _DICT, _SAME = range(5)
_ROW = "t"
_MESSAGE_TEXTS = ("content", "prompt")


class _NoShape(Exception):
    """The model input holds something this module does not copy."""


class SkeletonSections:
    """One skeleton's model inputs as shapes (texts as pieces), and its pieces' codes once learned.

    A text's pieces are indices into ``[*values, *pieces]``: below ``columns`` the row's value
    of that column, from it on a constant piece of the skeleton's texts.
    """

    def __init__(self, model_inputs: Sequence[Any], columns: int) -> None:
        self.columns = columns
        self.pieces: list[str] = []
        self.shapes = [self._shape(m) for m in model_inputs]
        self.codes: list[str] | None = None  # the pieces' codes, once learned
        self.coders: list[Callable[[Any, list[str]], Any]] | None = None  # and each request's coding
        self.attempts = 0

    # -- the shapes ------------------------------------------------------------------------
    def _shape(self, obj: Any) -> tuple:
        kind = type(obj)
        if kind is str:
            picks = []
            for part in split_stand_ins(obj):
                if type(part) is int:
                    if part >= self.columns:
                        raise _NoShape
                    picks.append(part)
                else:
                    picks.append(self.columns + len(self.pieces))
                    self.pieces.append(part)  # type: ignore[arg-type]
            return (_TEXT, tuple(picks))
        if kind is list:
            return (_LIST, [self._shape(x) for x in obj])
        if kind is PromptList and not obj.__dict__:
            return (_PROMPTS, [self._shape(x) for x in obj])
        if kind is dict:
            return (_DICT, [(k, self._shape(v)) for k, v in obj.items()])
        if kind in CONSTANT_TYPES:
            return (_SAME, obj)
        raise _NoShape

    # -- learning the pieces' codes ------------------------------------------------------------
    def learn(self, values: Sequence[str], traced: Sequence[Request | None]) -> None:
        """The pieces' codes from the traced twins of a row spliced with ``values`` (or of its
        real render, equal to the splice), when they say them by the rules above."""
        if self.codes is not None or self.attempts >= MAX_ATTEMPTS or len(traced) != len(self.shapes):
            return
        self.attempts += 1
        ext = [*values, *self.pieces]
        codes: list[str | None] = [None] * len(self.pieces)
        for shape, twin in zip(self.shapes, traced):
            if twin is None or not self._learn(shape, twin.model_input, ext, codes):
                return
        if any(c is None for c in codes):  # (never: every piece is in some text)
            return
        self.codes = codes  # type: ignore[assignment]
        self.coders = self._compile()

    def _learn(self, shape: tuple, twin: Any, ext: list[str], codes: list[str | None]) -> bool:
        tag, inner = shape
        if tag == _TEXT:
            return isinstance(twin, str) and self._learn_text(inner, twin, ext, codes)
        if tag == _SAME:
            return type(twin) is type(inner) and twin == inner
        if tag == _DICT:
            return isinstance(twin, dict) and list(twin) == [k for k, _ in inner] and all(
                self._learn(s, twin[k], ext, codes) for k, s in inner)
        return isinstance(twin, list) and len(twin) == len(inner) and all(
            self._learn(s, t, ext, codes) for s, t in zip(inner, twin))

    def _learn_text(self, picks: tuple[int, ...], twin: str, ext: list[str],
                    codes: list[str | None]) -> bool:
        text = str.__str__(twin)
        if text != "".join([ext[i] for i in picks]):
            return False
        coded = codes_of(twin)
        if len(coded) != len(text):
            return False
        at = 0
        for i in picks:
            n = len(ext[i])
            span = coded[at:at + n]
            at += n
            if i < self.columns:
                if not n or span != _ROW * n:
                    return False
                continue
            known = codes[i - self.columns]
            if known is None:
                codes[i - self.columns] = span
            elif known != span:
                return False
        return True

    # -- a spliced row's twins ----------------------------------------------------------------------
    def traced(self, values: Sequence[str], requests: Sequence[Request]) -> list[Request] | None:
        """Twins of a row's spliced ``requests`` whose model inputs carry their section codes
        (None: not learned). A splice's texts are its pieces joined in the shape's order (the
        skeleton's compiled function joins them so), so each text's codes, joined in the same
        order, are as long as it is."""
        coders = self.coders
        if coders is None or len(requests) != len(coders):
            return None
        codes = [_ROW * len(v) for v in values]
        codes += self.codes  # type: ignore[arg-type]
        return [request.evolve(model_input=coder(request.model_input, codes))
                for coder, request in zip(coders, requests)]

    def _compile(self) -> list[Callable[[Any, list[str]], Any]]:
        """For each request, ``lambda m, c: m`` with each text of ``m`` coded by ``c``."""
        made = []
        for shape in self.shapes:
            namespace: dict[str, Any] = {"SC": SectionCoded, "J": "".join, "PL": PromptList}
            source = f"def coded(m, c):\n    return {_source(shape, 'm', namespace)}\n"
            exec(compiled(source), namespace)
            made.append(namespace["coded"])
        return made


def _source(shape: tuple, path: str, namespace: dict[str, Any]) -> str:
    """An expression of the splice at ``path`` (of ``shape``) with its texts coded by ``c``."""
    tag, inner = shape
    if tag == _TEXT:
        parts = ", ".join(f"c[{i}]" for i in inner)
        return f"SC({path}, {parts if len(inner) == 1 else 'J((' + parts + ',))'})"
    if tag == _SAME:
        return path
    if tag == _DICT:
        items = []
        for k, s in inner:
            key = f"k{len(namespace)}"
            namespace[key] = k
            value = f"{path}[{key}]"
            # token counts read a message's text alone (its content, or an API item's prompt)
            items.append(f"{key}: {_source(s, value, namespace) if k in _MESSAGE_TEXTS else value}")
        return f"{{{', '.join(items)}}}"
    listed = f"[{', '.join(_source(s, f'{path}[{n}]', namespace) for n, s in enumerate(inner))}]"
    return f"PL({listed})" if tag == _PROMPTS else listed


def sections_of(skeleton: Skeleton) -> SkeletonSections | None:
    """The skeleton's sections, made on first use (None: its model inputs cannot be shaped)."""
    made = skeleton.sections
    if made is None:
        try:
            made = SkeletonSections(skeleton.model_inputs, skeleton.columns)
        except _NoShape:
            made = False
        skeleton.sections = made
    return made or None
