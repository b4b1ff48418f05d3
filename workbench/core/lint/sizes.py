"""What the config declares against what the templates and the model use: columns, lengths,
thinking.

May import: ``context`` and the core modules it imports.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..findings import Finding
from ..templates.prompt_template import PromptTemplate
from .context import LintContext

#: How many rows the length rule measures (spread over the split).
LENGTH_SAMPLES = 100


def unused_column(ctx: LintContext) -> Iterator[Finding]:
    """PW210: an input column no template names changes no prompt (only what a retriever reads)."""
    engine = ctx.pair.engine(False)
    templates = [t for t in (engine.ice_template, engine.prompt_template) if t is not None]
    if not templates or any(type(t) is not PromptTemplate for t in templates):
        return  # dialogue, multimodal and raw templates fill columns by their own rules
    fields = ctx.fields()
    unused = [c for c in ctx.pair.reader.input_columns if str(c) not in fields]
    if unused:
        names = ", ".join(map(repr, unused))
        yield Finding("PW210", f"reader_cfg.input_columns lists {names}, which no template names: the "
                      "prompts never show it (a retriever that reads input columns still does)",
                      hint="name it in a template as {" + str(unused[0]) + "}, or drop it from input_columns",
                      key_path=("reader_cfg",))


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def over_max_seq_len(ctx: LintContext) -> Iterator[Finding]:
    """PW211: prompts that leave no room for the answer (the model cuts them, or the answer)."""
    spec = ctx.pair.model_spec
    if spec is None:
        return
    limit = _int(spec.cfg.get("max_seq_len"))
    inferencer = ctx.infer_cfg.get("inferencer")
    out = _int(spec.cfg.get("max_out_len")) or (
        _int(inferencer.get("max_out_len")) if isinstance(inferencer, Mapping) else None)
    if limit is None or out is None or ctx.pair.plan.parse_mode != "gen":
        return
    totals = sorted(total for i in ctx.spread(LENGTH_SAMPLES) for total in ctx.token_totals(i))
    if not totals:
        return
    p95 = totals[int(0.95 * (len(totals) - 1))]
    if p95 + out > limit:
        exact = all(r.tokens.exact for i in ctx.spread(3) for r in ctx.sample(i).requests if r.tokens)
        how = "" if exact else " (estimated: no tokenizer)"
        file, line = ctx.model_at("max_seq_len")
        yield Finding("PW211", f"the 95th-percentile prompt is {p95:,} tokens{how}; with max_out_len "
                      f"{out:,} that is {p95 + out:,}, over max_seq_len {limit:,}: the answer or the "
                      "prompt gets cut", hint="raise max_seq_len, lower max_out_len, or use fewer "
                      "in-context examples", file=file, line=line)


def thinking_undecided(ctx: LintContext) -> Iterator[Finding]:
    """PW212: a hybrid-thinking chat template whose default (think, or not) the config never chose."""
    text = ctx.pair.model_text
    template = text.template if text is not None else None
    spec = ctx.pair.model_spec
    if template is None or spec is None or "enable_thinking" not in template.source:
        return
    if "enable_thinking" in repr(spec.cfg):
        return
    file, line = ctx.model_at("chat_template_kwargs")
    yield Finding("PW212", f"{template.origin} reads enable_thinking, and the model config does not set "
                  "it: the model thinks or not by the template's default",
                  hint="set chat_template_kwargs=dict(enable_thinking=False) (or True) in the model config",
                  file=file, line=line)
