"""``render --format text``: what the model receives, request by request, in plain text."""

from __future__ import annotations

import json
from typing import TextIO

from ..core.render import PairRenderer
from ..core.result import RenderResult, Request


def _model_input_text(request: Request) -> str:
    value = request.model_input
    if isinstance(value, str):
        return value
    lines = []
    for message in value:
        if isinstance(message, dict):
            role = message.get("role")
            body = message.get("content", message.get("prompt"))
            body = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
            lines.append(f"[{role}]\n{body}")
        else:
            lines.append(str(message))
    return "\n".join(lines)


def write_pair_text(pair: PairRenderer, out: TextIO) -> None:
    for sample in pair.samples():
        for request in sample.requests:
            tags = [f"sample {sample.index}"]
            if request.label is not None:
                tags.append(f"label {request.label!r}")
            if request.turn is not None:
                tags.append(f"turn {request.turn}")
            out.write(f"=== {pair.dataset_abbr} · {pair.model_abbr or '(no model)'} · "
                      f"{' · '.join(tags)} ===\n")
            out.write(_model_input_text(request))
            out.write("\n")
            if request.model_text is not None:
                out.write("--- chat template text ---\n")
                out.write(request.model_text)
                out.write("\n")


def write_render_text(result: RenderResult, out: TextIO) -> None:
    for pair in result.pairs:
        write_pair_text(pair, out)
