"""Role tags and special tokens written where the model's template adds them; SYSTEM content lost.

May import: ``context`` and the core modules it imports.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from ..findings import Finding
from ..models.model_input import API, CHAT, LM
from .context import ROW_LIMIT, LintContext, plural

#: Chat markup of the common families (ChatML, Llama 2/3, Gemma, Mistral, BOS/EOS).
SPECIAL = re.compile(r"<\|[a-z_]{2,30}\|>|\[/?INST\]|<s>|</s>|<start_of_turn>|<end_of_turn>|<bos>|<eos>")


def _model_adds_markup(ctx: LintContext) -> str | None:
    """What adds role markup to this pair's input (None: the template's text goes as written)."""
    kind = ctx.pair.model_kind
    if kind == CHAT:
        return "the model's chat template"
    if kind == API:
        return "the API server's chat template"
    spec = ctx.pair.model_spec
    meta = spec.cfg.get("meta_template") if spec is not None and kind == LM else None
    if isinstance(meta, Mapping) and any(
            isinstance(turn, Mapping) and (turn.get("begin") or turn.get("end"))
            for turn in [*meta.get("round", ()), *meta.get("reserved_roles", ())]):
        return "the model's meta template"
    return None


def in_template(ctx: LintContext) -> Iterator[Finding]:
    """PW207: `<|im_start|>` typed into a template the model's template wraps again."""
    adds = _model_adds_markup(ctx)
    if adds is None:
        return
    for path, text in ctx.template_texts():
        match = SPECIAL.search(text)
        if match is not None:
            yield Finding("PW207", f"{path[1]} writes {match.group()!r}, and {adds} adds the role markup "
                          "itself: the model gets it twice, or inside a turn as plain text",
                          hint=f"remove {match.group()!r} from the template; say roles with "
                          "round=[dict(role=...)]",
                          key_path=path[:3])
            return


def in_rows(ctx: LintContext) -> Iterator[Finding]:
    """PW208: rows that hold chat markup, sent inside a turn the model's template marks up."""
    adds = _model_adds_markup(ctx)
    if adds is None:
        return
    rows = ctx.pair.splits.test[:ROW_LIMIT]
    hits, first = ctx.of_dataset("PW208", partial(_markup_in_rows, ctx, rows))
    if first is not None:
        scope = f"the first {len(rows):,}" if len(ctx.pair.splits.test) > len(rows) else f"{len(rows):,}"
        yield Finding("PW208", f"{plural(hits, 'test row')} of {scope} hold chat markup ({first[1]!r} in "
                      f"{first[0]!r}) that {adds} also writes: the model reads it as a turn boundary if "
                      "the tokenizer makes it a control token",
                      hint="escape or strip the markup from the rows, or check the seams with render "
                      "--format tokens", key_path=("reader_cfg",))


def _markup_in_rows(ctx: LintContext, rows: Sequence[Any]) -> tuple[int, tuple[str, str] | None]:
    """How many of ``rows`` hold chat markup in a column the templates fill, and the first
    (column, markup)."""
    columns = [c for c in ctx.pair.reader.input_columns if c in ctx.fields()]
    hits, first = 0, None
    for row in rows:
        for column in columns:
            value = row.get(column) if isinstance(row, Mapping) else None
            match = SPECIAL.search(value) if isinstance(value, str) else None
            if match is not None:
                hits += 1
                first = first or (column, match.group())
                break
    return hits, first


def _texts_sent(request: Any) -> tuple[str, list[tuple[str, str]]]:
    """The whole text sent, and (role, text) of each message where the input is a list."""
    if isinstance(request.model_text, str):
        return request.model_text, []
    if isinstance(request.model_input, str):
        return request.model_input, []
    messages = []
    for message in request.model_input or ():
        if isinstance(message, Mapping):
            text = message.get("content", message.get("prompt"))
            messages.append((str(message.get("role")), text if isinstance(text, str) else str(text)))
    return "\n".join(t for _, t in messages), messages


def system_dropped(ctx: LintContext) -> Iterator[Finding]:
    """PW209: the SYSTEM prompt a model class drops, or folds into another turn (as rendered)."""
    for sample in ctx.first_samples(1):
        for request in sample.requests:
            items = request.prompt_list if isinstance(request.prompt_list, list) else []
            systems = [str(item.get("prompt")).strip() for item in items if isinstance(item, Mapping)
                       and item.get("role") == "SYSTEM" and str(item.get("prompt") or "").strip()]
            if not systems:
                continue
            sent, messages = _texts_sent(request)
            where = ctx.pair.model_spec.cfg.get("type") if ctx.pair.model_spec is not None else None
            name = str(where).rsplit(".", 1)[-1] if where else "the model"
            for text in systems:
                shown = repr(text if len(text) <= 40 else text[:40] + "…")
                if text not in sent:
                    yield Finding("PW209", f"the SYSTEM prompt {shown} is not in what {name} sends: the "
                                  "model class drops it", hint="give the model's meta_template a SYSTEM "
                                  "role (reserved_roles), or put the text in the HUMAN turn",
                                  key_path=_system_path(ctx))
                    return
                if messages and not any(text in t for r, t in messages if r.lower() == "system"):
                    yield Finding("PW209", f"the SYSTEM prompt {shown} is sent inside another turn, not as "
                                  f"a system message: {name}'s parser merges it",
                                  hint="give the model's meta_template a SYSTEM role with api_role='SYSTEM'",
                                  key_path=_system_path(ctx))
                    return
        return


def _system_path(ctx: LintContext) -> tuple:
    for path, _ in ctx.template_texts():
        if "begin" in path:
            return path[:path.index("begin") + 1]
    return ("infer_cfg", "prompt_template")
