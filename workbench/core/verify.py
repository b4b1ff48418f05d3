"""Did a run send the prompts a render shows? Recorded prompts against rendered requests.

Pure: a sample's rendered requests and the record OpenCompass wrote for it in, out comes a
verdict. What is compared, by the record's shape:

- ``label: X`` entries (PPLInferencer): each label's ``prompt`` against the request of label X;
- ``origin_prompt`` a string (GenInferencer, local models): against the final input string;
- ``origin_prompt`` a list of ``{role, prompt}`` (API models, chat-template models): against
  the messages the model gets (chat-template models' roles mapped as OpenCompass maps them);
- anything else (multi-round chat records): not checked, and counted as such.

May import: render and every core module below it; nothing outside the core (loading, views and
the front ends build on this, not the reverse).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .result import Request

MATCHED, DIFFERING, NOT_CHECKED = "matched", "differing", "not checked"
_CHAT_ROLES = {"HUMAN": "user", "BOT": "assistant", "SYSTEM": "system"}


@dataclass(frozen=True)
class Difference:
    """One prompt that differs: which request, and both texts as comparable strings."""

    label: Any
    recorded: str
    rendered: str


@dataclass(frozen=True)
class Verdict:
    outcome: str  # MATCHED, DIFFERING or NOT_CHECKED
    differences: tuple[Difference, ...] = ()
    why: str | None = None  # NOT_CHECKED: what the record holds that is not compared


def prompt_text(value: Any) -> str:
    """A prompt as text to compare and show: a string as it is; messages one block each."""
    if isinstance(value, str):
        return value
    if isinstance(value, Sequence):
        blocks = []
        for message in value:
            if isinstance(message, Mapping):
                role = message.get("role", "?")
                body = message.get("content", message.get("prompt"))
                extra = {k: v for k, v in message.items() if k not in ("role", "content", "prompt")}
                head = f"[{role}]"
                if extra:
                    head += " " + json.dumps(extra, ensure_ascii=False, sort_keys=True)
                text = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
                blocks.append(f"{head}\n{text}")
            else:
                blocks.append(json.dumps(message, ensure_ascii=False))
        return "\n".join(blocks)
    return json.dumps(value, ensure_ascii=False)


def _as_chat(recorded: Sequence[Any]) -> list[dict[str, Any]]:
    """OpenCompass's ``{role, prompt}`` list as the messages a chat-template model gets."""
    out = []
    for item in recorded:
        if not isinstance(item, Mapping):
            return list(recorded)
        role = item.get("role")
        out.append({"role": _CHAT_ROLES.get(role, role), "content": item.get("prompt")})
    return out


def _same(recorded: Any, rendered: Any, model_kind: str) -> tuple[bool, str, str]:
    if model_kind == "chat_template" and isinstance(recorded, list):
        recorded = _as_chat(recorded)
    if isinstance(rendered, list):
        rendered = [dict(m) if isinstance(m, Mapping) else m for m in rendered]
    a, b = prompt_text(recorded), prompt_text(rendered)
    if isinstance(recorded, str) != isinstance(rendered, str):
        return False, a, b
    same = recorded == rendered if isinstance(recorded, str) else json.dumps(recorded, ensure_ascii=False) \
        == json.dumps(rendered, ensure_ascii=False)
    return same, a, b


def verdict(record: Mapping[str, Any], requests: Sequence[Request], model_kind: str) -> Verdict:
    """Compare one sample's record with its rendered requests."""
    labels = {key[len("label: "):]: value for key, value in record.items()
              if isinstance(key, str) and key.startswith("label: ") and isinstance(value, Mapping)}
    if labels:
        by_label = {str(r.label): r for r in requests}
        differences = []
        for label, entry in labels.items():
            request = by_label.get(label)
            if request is None:
                differences.append(Difference(label, prompt_text(entry.get("prompt")), "(no such label)"))
                continue
            same, a, b = _same(entry.get("prompt"), request.model_input, model_kind)
            if not same:
                differences.append(Difference(label, a, b))
        for label in by_label:
            if label not in labels:
                rendered = prompt_text(by_label[label].model_input)
                differences.append(Difference(label, "(no such label)", rendered))
        return Verdict(DIFFERING if differences else MATCHED, tuple(differences))
    recorded = record.get("origin_prompt")
    if recorded is None:
        return Verdict(NOT_CHECKED, why="the record has no origin_prompt")
    if isinstance(recorded, list) and recorded and all(isinstance(turn, list) for turn in recorded):
        return Verdict(NOT_CHECKED, why="a multi-round record (a list per turn)")
    if not requests:
        return Verdict(DIFFERING, (Difference(None, prompt_text(recorded), "(no request)"),))
    same, a, b = _same(recorded, requests[0].model_input, model_kind)
    return Verdict(MATCHED) if same else Verdict(DIFFERING, (Difference(None, a, b),))
