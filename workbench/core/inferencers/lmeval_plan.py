"""An lm-eval task's requests as a pair renders them: the task reaches the Workspace as one row per
doc (``loading/lmeval_tasks.task_dataset``) holding the ``Instance``\\ s :mod:`workbench.core.lmeval`
built for it, and this plan makes one request of each (its context, the continuation it scores,
its choice index, its ``until``, the messages a chat template was handed), so every view numbers
a task's docs as samples and its Instances as their requests.

May import: :mod:`.plan`, the top of ``workbench.core``, ``models``, ``lmeval``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import RenderError
from ..lmeval.prompt import OUTPUT_TYPES
from ..models.model_input import API
from ..provenance import ROW, Origin, PStr
from ..render_notes import Notes
from ..result import Request
from .plan import Engine, Plan

#: The key a task's stand-in inferencer config carries beside its ``type`` (the output type, as the
#: render JSON's ``inferencer`` names it), so no framework config's inferencer is taken for one.
TASK_MARK = "lm_eval_task"
#: The output types a model scores by likelihood (lm-eval's ``loglikelihood`` and
#: ``loglikelihood_rolling`` requests)
SCORED = ("loglikelihood", "multiple_choice", "loglikelihood_rolling")

#: lm-eval 0.4.13's refusal (``LocalChatCompletion.loglikelihood``, openai_completions.py): a chat
#: completions API returns no prompt log-probabilities.
CHAT_COMPLETIONS_REFUSAL = ("Loglikelihood is not supported for chat completions. Consider using the "
                            "completions API instead.")


SCORING_HINT = "render this task with a local model, or choose a generate_until task for an API model"


def scoring_refusal(output_type: str, kind: str, class_name: str) -> str | None:
    """Why a model of ``kind`` cannot take a task's requests as lm-eval runs them (None: it can):
    an API model takes messages (a chat completions wire, lm-eval's ``local-chat-completions``),
    which return no prompt log-probabilities to score with, even where the framework's own class
    asks vLLM for them (AISBench's VLLMCustomAPIChat); a model that takes one string (a local
    model, or a completions API such as VLLMCustomAPI: lm-eval's ``local-completions``) scores."""
    if output_type not in SCORED or kind != API:
        return None
    head = f"{class_name} is an API model, and lm-eval's API chat models cannot score {output_type} requests"
    if output_type == "loglikelihood_rolling":  # not refused by name: it fails on its way in
        return (f"{head}: their tok_encode returns the text itself, and the rolling windows join a "
                "token list to it (TypeError, lm-eval 0.4.13's TemplateAPI.loglikelihood_rolling)")
    return (f"{head}: {CHAT_COMPLETIONS_REFUSAL} (NotImplementedError, lm-eval 0.4.13's "
            "chat-completions models)")


def task_inferencer(output_type: str) -> dict[str, Any]:
    """The stand-in config's inferencer: the output type, marked as a task's."""
    return {"type": output_type, TASK_MARK: True}


def is_task_plan(name: str, cfg: Mapping[str, Any]) -> bool:
    """Whether an inferencer config is a task's stand-in (see :data:`TASK_MARK`)."""
    return cfg.get(TASK_MARK) is True and name in OUTPUT_TYPES


class TaskPlan(Plan):
    """A doc's Instances, one request each, as lm-eval built them."""

    needs_prompter = False

    def __init__(self, name: str, cfg: Mapping[str, Any], notes: Notes) -> None:
        super().__init__(name, cfg, notes)
        self.output_type = name
        self.parse_mode = "ppl" if self.output_type in SCORED else "gen"

    def check(self, engine: Engine) -> None:
        refusal = scoring_refusal(self.output_type, engine.model.kind, engine.model.class_name)
        if refusal is not None:
            raise RenderError(refusal, hint=SCORING_HINT,
                              key_path=("lm_eval", "output_type"))  # the task's line that asks for scoring

    def requests(self, engine: Engine, index: int, ice_idx: Sequence[int]) -> list[Request]:
        out = []
        for made in engine.test_row(index)["requests"]:
            context = made["context"]
            prompt = PStr(context, Origin(ROW, column="context")) if engine.provenance else context
            extra: tuple[tuple[str, Any], ...] = ()
            if made.get("continuation") is not None:
                extra += (("continuation", made["continuation"]),)
            if made.get("until") is not None:
                extra += (("until", made["until"]),)
            # the PromptList pane shows what lm-eval built before the model's side: the messages
            # handed to the chat template, else the context itself
            messages = made.get("messages")
            shown = [dict(m) for m in messages] if messages else prompt
            out.append(Request(prompt_list=shown, model_input=engine.model.parse(prompt, self.parse_mode),
                               label=made.get("label"), extra=extra))
        return out
