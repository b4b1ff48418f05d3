"""The sides of ``workbench compare``: what each framework's own render of a benchmark sends,
made into :class:`~workbench.core.side_by_side.Side` records (an OpenCompass/AISBench pair from
the usual renderer, an lm-eval task from its renderer), and the shipped benchmark mapping
(``shipped_configs/benchmarks.json``: which config and which task, how their rows line up).

Not ``headless/compare.py`` (two renders of one framework: snapshots, ``diff``).

May import: views, loading, bundled and the core; not ``tui`` or the commands.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..bundled import bundled
from ..core.errors import WorkbenchError
from ..core.side_by_side import Side, SideRow, row_key

__all__ = ["Benchmark", "SideSpec", "benchmarks", "lmeval_side", "opencompass_side"]

#: How OpenCompass's and AISBench's inferencers ask for the answer.
_SCORED = {"PPLInferencer": "perplexity", "LLInferencer": "continuation", "CLPInferencer": "continuation",
           "InferencePPLOnlyInferencer": "perplexity"}
#: How lm-eval's output types ask for it.
_OUTPUT_TYPES = {"generate_until": "generation", "loglikelihood": "continuation",
                 "multiple_choice": "continuation", "loglikelihood_rolling": "perplexity"}
#: lm-eval's HFLM default for ``max_gen_toks`` (lm_eval/models/huggingface.py, 0.4.13).
LMEVAL_MAX_GEN_TOKS = 256
FRAMEWORK_WORDS = {"opencompass": "OpenCompass 0.5.4", "ais_bench": "AISBench 3.1.20260630",
                   "lm-eval": "lm-eval 0.4.13"}


@dataclass(frozen=True)
class SideSpec:
    """One side of a shipped benchmark: the config (under ``shipped_configs/``), which dataset abbr
    or task of it, and the column its rows are aligned by (None: no column holds the same text on
    every side, so rows are aligned by position; the benchmark's note says why)."""

    framework: str
    config: str
    name: str
    key: str | None

    def for_subject(self, subject: str | None) -> SideSpec:
        fill = (lambda text: text.replace("{subject}", subject)) if subject else (lambda text: text)
        return SideSpec(self.framework, fill(self.config), fill(self.name), self.key)

    def path(self) -> Path:
        return bundled("shipped_configs") / self.config


@dataclass(frozen=True)
class Benchmark:
    name: str
    title: str
    sides: tuple[SideSpec, ...]
    subjects: tuple[str, ...] = ()
    default_subject: str | None = None
    note: str | None = None


def benchmarks() -> dict[str, Benchmark]:
    """The shipped mapping, by name."""
    raw = json.loads((bundled("shipped_configs") / "benchmarks.json").read_text(encoding="utf-8"))
    out = {}
    for name, entry in raw["benchmarks"].items():
        sides = tuple(SideSpec(s["framework"], s["config"], s["name"], s["key"]) for s in entry["sides"])
        out[name] = Benchmark(name, entry["title"], sides, tuple(entry.get("subjects") or ()),
                              entry.get("default_subject"), entry.get("note"))
    return out


def _messages(value: Any) -> tuple[tuple[str, str], ...] | None:
    if not isinstance(value, list) or not all(isinstance(m, Mapping) and "content" in m for m in value):
        return None
    return tuple((str(m.get("role")), str(m.get("content"))) for m in value)


def _final(request: Any) -> str:
    if request.model_text is not None:
        return request.model_text
    if isinstance(request.model_input, str):
        return request.model_input
    return json.dumps(request.model_input, ensure_ascii=False)


def template_shots(prompt_list: Any) -> int:
    """Shots written in a dialogue template itself (gsm8k's four worked answers): the BOT turns
    outside the in-context examples that a later HUMAN turn follows."""
    if isinstance(prompt_list, str):
        return 0
    depth, bots, shots = 0, 0, 0
    for item in prompt_list or ():
        if not isinstance(item, Mapping):
            continue
        if item.get("section") == "ice":
            depth += 1 if item.get("pos") == "begin" else -1
            continue
        if depth or "role" not in item:
            continue
        if item["role"] == "BOT" and item.get("prompt"):
            bots += 1
        elif item["role"] == "HUMAN" and bots:
            shots, bots = shots + bots, 0
    return shots


def opencompass_side(pair: Any, config: str, key: str, framework: str, chat_template: str | None,
                     limit: int | None) -> Side:
    """A rendered dataset × model pair as a side: its first request per row, keyed by ``key``."""
    rows = []
    count = len(pair) if limit is None else min(limit, len(pair))
    for index in range(count):
        sample = pair.sample(index)
        first = sample.requests[0]
        row = pair.splits.test[index]
        written = template_shots(first.prompt_list)
        retrieved = len(sample.ice_indices)
        continuations = tuple(str(v) for k, v in first.extra if k == "continuation")
        rows.append(SideRow(
            key=row_key(row.get(key, "") if isinstance(row, Mapping) else row), index=index,
            final=_final(first),
            messages=_messages(first.model_input) if first.model_text is not None else None,
            shots=written + retrieved, shot_ids=tuple(sample.ice_indices),
            shot_source="retriever" if retrieved else "template" if written else "none",
            continuations=continuations))
    inferencer = pair.inferencer
    request = _SCORED.get(inferencer, "generation")
    model_cfg = pair.model_spec.cfg if pair.model_spec is not None else {}
    infer = pair.infer_cfg.get("inferencer") or {}
    generation = {}
    if request == "generation":
        kwargs = model_cfg.get("generation_kwargs") or {}
        generation = {
            "max_new_tokens": infer.get("max_out_len", model_cfg.get("max_out_len")),
            "stop": tuple(infer.get("stopping_criteria") or ()) + tuple(model_cfg.get("stop_words") or ()),
            "sampling": _sampling(kwargs.get("do_sample"), kwargs.get("temperature")),
        }
    chat = None
    if pair.model_kind == "chat_template":  # the template given, else the model folder's
        chat = chat_template or Path(str(model_cfg.get("path") or "the model's")).name
    return Side(FRAMEWORK_WORDS.get(framework, framework), config, pair.dataset_abbr, request, chat,
                {"add_generation_prompt": True} if chat else {}, generation,
                _oc_extraction(pair.dataset.cfg, model_cfg), tuple(rows))


def _sampling(do_sample: Any, temperature: Any) -> str:
    if not do_sample or temperature in (0, 0.0):
        return "greedy"
    return f"sampled, temperature {temperature}"


def _oc_extraction(dataset_cfg: Mapping[str, Any], model_cfg: Mapping[str, Any]) -> tuple[str, ...]:
    """The task's postprocessors and evaluator, in the order the evaluation runs them (the chain
    of core/answers; the types as written where it cannot plan the pair)."""
    # lazy: the answers package (its postprocessor tables) loads only for an OpenCompass side
    from ..core.answers.chain import plan_pair

    try:
        plan = plan_pair(dataset_cfg, model_cfg)
    except WorkbenchError:
        eval_cfg = dataset_cfg.get("eval_cfg") or {}
        steps = [f"{k}: {_type(eval_cfg[k])}" for k in ("pred_postprocessor",) if k in eval_cfg]
        evaluator = eval_cfg.get("evaluator") or {}
        return (*steps, f"evaluator: {_type(evaluator)}") if evaluator else tuple(steps)
    steps = [f"{step.written}{_kwargs(step.kwargs)}" for step in plan.pred_steps]
    if plan.evaluator_name:
        steps.append(f"evaluator {plan.evaluator_name.rsplit('.', 1)[-1]}")
    return tuple(steps)


def _type(cfg: Any) -> str:
    written = cfg.get("type") if isinstance(cfg, Mapping) else cfg
    return str(getattr(written, "__name__", written)).rsplit(".", 1)[-1]


def _kwargs(kwargs: Mapping[str, Any]) -> str:
    return f"({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})" if kwargs else ""


def lmeval_side(task: Any, config: str, key: str, chat_template: str | None, limit: int | None) -> Side:
    """A rendered lm-eval task as a side: its first request per doc (every choice's continuation),
    keyed by the doc's ``key`` column."""
    rows = []
    samples = task.samples if limit is None else task.samples[:limit]
    for sample in samples:
        first = sample.requests[0]
        doc = task.docs[sample.index]["doc"] if sample.index < len(task.docs) else {}
        continuations = tuple(str(r.continuation) for r in sample.requests if r.continuation is not None)
        rows.append(SideRow(
            key=row_key(doc.get(key, "") if isinstance(doc, Mapping) else doc), index=sample.index,
            final=first.model_input, messages=_messages(first.messages), shots=len(sample.shots),
            shot_ids=tuple(sample.shots), shot_source="sampler" if sample.shots else "none",
            continuations=continuations))
    output_type = task.output_type or "generate_until"
    request = _OUTPUT_TYPES.get(output_type, output_type)
    fields = task.fields
    generation = {}
    if request == "generation":
        written = fields.get("generation_kwargs")
        kwargs = written if isinstance(written, Mapping) else {}
        until = task.resolved.get("until", kwargs.get("until"))
        generation = {
            "max_new_tokens": kwargs.get("max_gen_toks", LMEVAL_MAX_GEN_TOKS),
            "stop": tuple(until) if isinstance(until, list) else (until,) if until else (),
            "sampling": _sampling(kwargs.get("do_sample"), kwargs.get("temperature")),
        }
    kwargs_used = {}
    if chat_template:
        prefix = bool(task.resolved.get("gen_prefix_config"))
        kwargs_used = {"continue_final_message": True} if prefix else {"add_generation_prompt": True}
    return Side(FRAMEWORK_WORDS["lm-eval"], config, task.name, request, chat_template, kwargs_used,
                generation, _lmeval_extraction(fields, output_type), tuple(rows))


def _lmeval_extraction(fields: Mapping[str, Any], output_type: str) -> tuple[str, ...]:
    """The task's filters (the first, which lm-eval reports first), else what it scores."""
    metrics = [m.get("metric") for m in fields.get("metric_list") or () if isinstance(m, Mapping)]
    scored = f"metric {', '.join(str(m) for m in metrics)}" if metrics else "metric (the task's default)"
    if output_type != "generate_until":
        return ("the choice with the highest loglikelihood", scored)
    filters = [f for f in fields.get("filter_list") or () if isinstance(f, Mapping)]
    if not filters:
        return ("the whole output (no filter_list)", scored)
    steps = []
    for step in filters[0].get("filter") or ():
        if not isinstance(step, Mapping):
            continue
        words = str(step.get("function"))
        if "regex_pattern" in step:
            words += f" {step['regex_pattern']!r}"
        if "group_select" in step:
            words += f" (group_select={step['group_select']})"
        steps.append(words)
    return (f"filter {filters[0].get('name')}: " + " → ".join(steps), scored)
