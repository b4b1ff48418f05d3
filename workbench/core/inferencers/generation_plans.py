"""Inferencers built on generation that ask the model more than once per row: SC
(self-consistency), ToT (tree of thoughts), Attack (promptbench) and Agent (lagent), as in
OpenCompass 0.5.4 ``openicl/icl_inferencer``.

What the frameworks send and what a render can know differ here, so each plan says which
requests it shows (see tests/parity/README.md):

- SC: ``sc_size`` identical requests per row (one per draw);
- ToT: the problem prompt the tree search starts from; the model's requests are built from
  it by the dataset's prompt wrapper and by earlier answers;
- Attack: the prompt-selection phase, one request per ``original_prompt_list`` entry; the
  attacked variants depend on the model's scores;
- Agent: what the agent is handed per turn (the user's message and the history); the agent's
  protocol turns that into the LLM's prompts.

May import: the core's bottom layer, templates, models, retrievers and the other inferencer
modules (in the order plan → common/likelihood/generation plans → registry); not render, and
nothing outside the core.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import RenderError, UnsupportedError
from ..models.model_input import CHAT
from ..provenance import TEMPLATE, Origin, PStr
from ..render_notes import Notes
from ..result import Request
from ..spec import type_name
from ..templates.prompt_list import FillPairs, PromptType
from .common_plans import ChatPlan, GenPlan
from .plan import Engine, Plan
from .truncation import fit_examples

AGENT_MODELS = {"LagentAgent", "CodeAgent"}


def _positive_int(cfg: Mapping[str, Any], key: str, default: int, name: str) -> int:
    value = cfg.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RenderError(f"{name}: {key} must be a non-negative int, got {value!r}")
    return value


class _GenLike(GenPlan):
    """A GenInferencer subclass's prompt (its own ``multiround`` never applies)."""

    def __init__(self, name: str, cfg: Mapping[str, Any], notes: Notes) -> None:
        super().__init__(name, {k: v for k, v in cfg.items() if k != "multiround"}, notes)


class SCPlan(_GenLike):
    """``SCInferencer``: ``generate_from_template`` called ``sc_size`` times on each prompt."""

    def check(self, engine: Engine) -> None:
        self.size = _positive_int(self.cfg, "sc_size", 1, self.name)
        if self.size > 1:
            self.notes.warn(f"{self.name}: each row is sent {self.size} times (sc_size), the same "
                            "prompt every time; the answers are voted on afterwards")

    def requests(self, engine: Engine, index: int, ice_idx: Sequence[int]) -> list[Request]:
        (one,) = super().requests(engine, index, ice_idx)
        return [dataclasses.replace(one, extra=(*one.extra, ("draw", k))) for k in range(self.size)]


class ToTPlan(_GenLike):
    """``ToTInferencer``: the entry handed to ``tot_solve`` (saved as the origin prompt)."""

    def check(self, engine: Engine) -> None:
        wrapper = self.cfg.get("prompt_wrapper") or {}
        name = type_name(wrapper.get("type")) if isinstance(wrapper, Mapping) and wrapper.get("type") \
            else "the prompt wrapper"
        self.notes.warn(
            f"{self.name}: the request shown is the problem prompt the tree search starts from "
            f"(what OpenCompass saves as origin_prompt); every prompt the model receives is built "
            f"from it by {name} (dataset code the workbench does not run) and from earlier answers "
            f"(method_generate={self.cfg.get('method_generate', 'sample')!r}, "
            f"method_evaluate={self.cfg.get('method_evaluate', 'value')!r})"
        )

    def requests(self, engine: Engine, index: int, ice_idx: Sequence[int]) -> list[Request]:
        out = []
        for r in super().requests(engine, index, ice_idx):
            # what OpenCompass records: the model's parse_template output, before a chat-template
            # wrapper would turn it into chat messages
            parsed = r.model_input if engine.model.kind != CHAT or engine.prompter.raw \
                else engine.model.parser.parse(r.prompt_list, "gen")
            out.append(dataclasses.replace(r, model_input=parsed, extra=(*r.extra, ("tot_entry", True))))
        return out


class AttackPlan(Plan):
    """``AttackInferencer`` as ``OpenICLAttackTask`` drives it: ``predict(prompt)`` for every
    prompt of ``original_prompt_list`` (prompt selection), each filled into ``{adv_key}``."""

    def check(self, engine: Engine) -> None:
        if "adv_key" not in self.cfg:
            raise RenderError("AttackInferencer.__init__() missing 1 required positional argument: "
                              "'adv_key'", hint="adv_key names the template field the attack fills")
        prompts = self.cfg.get("original_prompt_list")
        if prompts is None:
            raise RenderError("OpenICLAttackTask reads infer_cfg.inferencer['original_prompt_list'] "
                              "(KeyError: 'original_prompt_list')",
                              hint="original_prompt_list=['prompt 1', ...]")
        if not isinstance(prompts, (list, tuple)) or not all(isinstance(p, str) for p in prompts):
            raise RenderError("AttackInferencer: original_prompt_list must be a list of strings")
        self.prompts = list(prompts)
        model = engine.model.spec.cfg if engine.model.spec else None
        if model is not None:
            if "max_seq_len" not in model:
                raise RenderError(
                    "OpenICLAttackTask copies the model config's max_seq_len into the inferencer, "
                    "and this model has none (KeyError: 'max_seq_len')",
                    hint="add max_seq_len=... to the model config",
                )
            if "max_out_len" not in self.cfg and not model.get("max_out_len"):
                raise RenderError("max_out_len must be specified! (AssertionError in "
                                  "OpenICLAttackTask)", hint="add max_out_len=... to the model config")
        self.notes.warn(
            f"{self.name}: shown is the prompt-selection phase (every row with each of the "
            f"{len(self.prompts)} original prompts in {{{self.cfg['adv_key']}}}); the attacked "
            "prompts promptbench tries next depend on the model's scores"
        )

    def requests(self, engine: Engine, index: int, ice_idx: Sequence[int]) -> list[Request]:
        key = str(self.cfg["adv_key"])
        replace = self.cfg.get("gen_field_replace_token", "") or ""
        out = []
        for k, adv in enumerate(self.prompts):
            value = PStr(adv, Origin(TEMPLATE, detail=f"original_prompt_list[{k}]")) \
                if engine.provenance else adv
            row = {**engine.test_row(index), key: adv}
            pairs = _with(engine.test_pairs(index), "{" + key + "}", value)

            def build(idx: Sequence[int], pairs: FillPairs = pairs,
                      row: Mapping[str, Any] = row) -> PromptType:
                return engine.prompter.for_gen(pairs, engine.ice(idx), engine.output_column,
                                               replace, row=row, origin=engine.row_origin())

            prompt, cut = (build(ice_idx), None) if engine.prompter.raw else \
                fit_examples(engine.limiter, ice_idx, build, "gen")
            out.append(Request(prompt_list=prompt, model_input=engine.model.parse(prompt, "gen"),
                               extra=(("adv_prompt", adv),), truncation=cut))
        return out


def _with(pairs: FillPairs, token: str, value: str) -> FillPairs:
    """``{**row, **extra}``: an existing column keeps its place, a new one comes last."""
    if any(t == token for t, _ in pairs):
        return [(t, value if t == token else v) for t, v in pairs]
    return [*pairs, (token, value)]


class AgentPlan(ChatPlan):
    """``AgentInferencer``: ChatInferencer's chats, handed turn by turn to a lagent agent."""

    def check(self, engine: Engine) -> None:
        model = engine.model
        if model.spec is not None and type_name(model.spec.cfg.get("type")) not in AGENT_MODELS:
            raise RenderError(
                f"AgentInferencer drives an agent model (opencompass.models.lagent: "
                f"{', '.join(sorted(AGENT_MODELS))}) through model.agent, and "
                f"{model.class_name} is not one (AttributeError: '{model.class_name}' object has "
                "no attribute 'agent')",
                hint="use a LagentAgent/CodeAgent model config, or GenInferencer for plain models",
            )
        self.notes.warn(
            f"{self.name}: each request shows what the agent is handed (the user's message after "
            "the history); the agent's protocol (lagent) builds the LLM's prompts from it, with "
            "tool calls in between"
        )

    def requests(self, engine: Engine, index: int, ice_idx: Sequence[int]) -> list[Request]:
        chat = self._chat(engine, engine.test_row(index))
        mode = self.cfg.get("infer_mode", "last")
        if mode not in ("every", "every_with_gt", "last"):
            raise RenderError(f"infer_mode must be every, every_with_gt or last, not {mode!r}")
        answers = [i for i, m in enumerate(chat) if m.get("role") == "assistant"]
        if not answers:
            if mode == "last":
                raise RenderError("infer_mode='last' answers the last assistant message, and the chat "
                                  "has none (IndexError: list index out of range)")
            return []

        def ask(history: list, query: dict, turn: int, depends: tuple = ()) -> Request:
            messages = [dict(m) for m in history] + [dict(query)]
            return Request(prompt_list=messages, model_input=messages, turn=turn, depends_on=depends)

        if mode == "last":
            user = answers[-1] - 1
            return [ask(chat[:user], chat[user], len(answers) - 1)]
        history = list(chat[:answers[0] - 1])
        out = []
        previous = 0
        for turn, i in enumerate(answers):
            if mode == "every_with_gt":
                for m in chat[previous:i - 1]:
                    if m.get("role") in ("assistant", "user"):
                        history.append({"role": m["role"], "content": m.get("content")})
                out.append(ask(history, chat[i - 1], turn))
                history.append(chat[i - 1])
                previous = i
            else:
                out.append(ask(history, chat[i - 1], turn, tuple(range(turn))))
                # the agent's inner steps for this turn (the query, its answer and any tool calls)
                # join the history; its answer stands for them here
                history += [dict(chat[i - 1]), {"role": "assistant", "content": engine.output(index, turn)}]
        return out


class BFCLPlan(Plan):
    """AISBench ``BFCLV3FunctionCallInferencer``: function-calling prompts from bfcl-eval."""

    def check(self, engine: Engine) -> None:
        info = engine.model.info
        if info is not None and not info.is_api:
            raise RenderError(
                f"{self.name} runs through AISBench's async API path only; for a local model "
                f"OpenICLInferTask calls inference(), which it does not have (AttributeError: "
                f"'{self.name}' object has no attribute 'inference')",
                hint="render it with an API model (e.g. VLLMCustomAPIChat)",
            )
        raise UnsupportedError(
            f"{self.name} builds its requests with the bfcl-eval package (the row's function docs "
            "made into a system prompt or tools, then function calls executed between turns), "
            "which the workbench does not reproduce",
            hint="the dataset's template still shows in the tree",
        )

    def requests(self, engine: Engine, index: int, ice_idx: Sequence[int]) -> list[Request]:
        return []


GENERATION_PLANS: dict[str, type[Plan]] = {
    "BFCLV3FunctionCallInferencer": BFCLPlan,
    "SCInferencer": SCPlan,
    "ToTInferencer": ToTPlan,
    "AttackInferencer": AttackPlan,
    "AgentInferencer": AgentPlan,
}
