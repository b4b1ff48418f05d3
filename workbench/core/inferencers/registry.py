"""Which plan renders which inferencer: the registry of every plan, and :func:`build_plan`.

May import: every plan module of this package (it sits above them), the top of ``workbench.core``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import RenderError, UnsupportedError
from ..render_notes import Notes
from .common_plans import ChatPlan, CLPPlan, GenPlan, LabelPlan, MultiTurnPlan
from .generation_plans import GENERATION_PLANS
from .likelihood_plans import LIKELIHOOD_PLANS
from .lmeval_plan import TaskPlan, is_task_plan
from .plan import GEN_FAMILY, Plan

PLANS: dict[str, type[Plan]] = {
    **{n: GenPlan for n in GEN_FAMILY},
    "PPLInferencer": LabelPlan,
    "LLInferencer": LabelPlan,
    "CLPInferencer": CLPPlan,
    "ChatInferencer": ChatPlan,
    "MultiTurnGenInferencer": MultiTurnPlan,
    **LIKELIHOOD_PLANS,
    **GENERATION_PLANS,
}


#: Inferencers the frameworks ship that no shipped dataset config uses and the workbench does
#: not render (their requests come from code paths outside the template language).
NOT_RENDERED = {
    "ParallelGenInferencer": "OpenCompass's thread-pool GenInferencer",
    "ParallelChatInferencer": "OpenCompass's thread-pool ChatInferencer",
    "ChatMLInferencer": "OpenCompass's ChatML pipeline (chatml_datasets)",
    "ParallelChatMLInferencer": "OpenCompass's ChatML pipeline (chatml_datasets)",
}


def build_plan(name: str, cfg: Mapping[str, Any], notes: Notes) -> Plan:
    if is_task_plan(name, cfg):  # an lm-eval task's stand-in (not a framework's inferencer)
        return TaskPlan(name, cfg, notes)
    plans = PLANS
    if name in NOT_RENDERED:
        raise UnsupportedError(
            f"inferencer {name} ({NOT_RENDERED[name]}) is not rendered by the workbench; "
            f"supported: {', '.join(sorted(plans))}",
            hint="render with GenInferencer to see the prompts; the template still shows in the tree",
        )
    if name not in plans:
        raise RenderError(
            f"{name} is not an inferencer OpenCompass 0.5.4 or AISBench 3.1.20260630 ships "
            f"(KeyError in the ICL_INFERENCERS registry); the workbench renders: "
            f"{', '.join(sorted(plans))}",
            hint="check the inferencer's type; the template still shows in the tree",
        )
    replace_token = cfg.get("gen_field_replace_token")
    if replace_token is not None and not isinstance(replace_token, str):
        raise RenderError(f"{name}: gen_field_replace_token must be a str, got {replace_token!r}",
                          hint="it replaces the output column's field in the prompt, e.g. ''")
    plan = plans[name](name, cfg, notes)
    plan.needs_prompter = plan.needs_prompter and name not in ("ChatInferencer", "AgentInferencer")
    return plan
