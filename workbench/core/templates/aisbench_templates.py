"""AISBench's own templates: MultiTurnPromptTemplate and MMPromptTemplate.

Both follow ais-bench-benchmark 3.1.20260630's code (not its docs, where they differ):
the multi-turn template fills only ``{question}``/``{answer}`` from the row's lists;
the multimodal one reads the row's ``content`` column, split on AISBench's tags.

May import: the core's bottom layer (errors, provenance, render_notes ...) and the other
template modules; nothing above (models, retrievers, inferencers, render) and nothing outside
the core.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ..errors import RenderError
from ..provenance import ROW, Origin, PStr
from ..render_notes import Notes
from .prompt_list import FillPairs, PromptList, safe_format
from .prompt_template import PromptTemplate

AIS_TEXT_START = "<AIS_TEXT_START>"
AIS_IMAGE_START = "<AIS_IMAGE_START>"
AIS_VIDEO_START = "<AIS_VIDEO_START>"
AIS_AUDIO_START = "<AIS_AUDIO_START>"
AIS_CONTENT_TAG = "<AIS_CONTENT_TAG>"

# (tag, prompt_mm key, key inside the part, fill field). The docs and configs write the
# prompt_mm keys as "image"/"video"/"audio"; "image_url" etc. are accepted too.
_MODALITIES = (
    (AIS_TEXT_START, "text", "text", "question"),
    (AIS_IMAGE_START, "image", "image_url", "image"),
    (AIS_VIDEO_START, "video", "video_url", "video"),
    (AIS_AUDIO_START, "audio", "audio_url", "audio"),
)


def round_bounds(template: PromptList) -> tuple[int, int]:
    """``get_round_index``: the slice of a PromptList between its round markers."""
    left, right = 1, -1
    for i, item in enumerate(template):
        if isinstance(item, dict) and item.get("section") == "round":
            if item.get("pos") == "begin":
                left = i + 1
            elif item.get("pos") == "end":
                right = i
    return left, right


class MultiTurnPromptTemplate(PromptTemplate):
    """One round template repeated for each (question, answer) pair of a row."""

    def generate_multiturn(self, row: Mapping[str, Any], provenance: bool = False) -> PromptList:
        if not isinstance(self.template, dict) or self.prompt_type != "meta":
            raise RenderError(
                f"{self.name}: MultiTurnPromptTemplate needs a dialogue template "
                "dict(round=[dict(role='HUMAN', prompt='{question}'), dict(role='BOT', prompt='{answer}')])",
            )
        template = self.encode(self.template, ice=False)
        left, right = round_bounds(template)
        head, body, tail = template[:left], template[left:right], template[right:]
        for column in ("question", "answer"):
            if column not in row:
                raise RenderError(
                    f"MultiTurnPromptTemplate reads the row's {column!r} column (a list, one "
                    f"item per turn), and this row has none",
                    hint="give each row 'question' and 'answer' lists of equal length",
                )
        questions, answers = row["question"], row["answer"]
        for column, value in (("question", questions), ("answer", answers)):
            if not isinstance(value, (list, tuple, str)):
                raise RenderError(
                    f"MultiTurnPromptTemplate pairs up the row's 'question' and 'answer' lists, and "
                    f"{column!r} is {type(value).__name__} (TypeError in zip)",
                    hint="give each row 'question' and 'answer' lists of equal length",
                )
        if isinstance(questions, str) or isinstance(answers, str):
            self.notes.warn(
                "'question'/'answer' is a string, not a list: AISBench pairs it up character "
                "by character"
            )
        dialog = PromptList()
        for turn, (q, a) in enumerate(zip(questions, answers)):
            pairs: FillPairs = [("{question}", _cell(q, "question", turn, provenance)),
                                ("{answer}", _cell(a, "answer", turn, provenance))]
            dialog += body.format(pairs)
        return head + dialog + tail


def _cell(value: Any, column: str, turn: int, provenance: bool) -> str:
    text = value if isinstance(value, str) else str(value)
    if provenance:
        return PStr(text, Origin(ROW, column=f"{column}[{turn}]"))
    return text


class MMPromptTemplate(PromptTemplate):
    """Multimodal rounds whose ``prompt_mm`` parts are filled from the row's ``content``."""

    def check_shape(self) -> None:
        t = self.template
        ok = isinstance(t, dict) and "round" in t and all(
            isinstance(d, dict) and "prompt_mm" in d for d in t["round"]
        )
        if not ok:
            self.notes.warn(
                "MMPromptTemplate expects a template with round items carrying prompt_mm"
            )

    def generate_mm(self, pairs: FillPairs, content: str | None) -> PromptList:
        self.check_shape()
        if isinstance(self.template, dict) and self.prompt_type != "meta":
            raise RenderError(
                f"{self.name}: MMPromptTemplate needs a dialogue template dict(round=[...]), "
                "not a label dict (KeyError: 'round')",
            )
        if content is not None and not isinstance(content, str):
            raise RenderError(
                f"MMPromptTemplate splits the row's 'content' column on its tags, and it is a "
                f"{type(content).__name__}, not a str",
                hint="put the tagged text/image/audio/video parts in a 'content' string",
            )
        template = self.encode(self.template, ice=False)
        out = PromptList()
        for item in template:
            if isinstance(item, dict):
                new_item = copy.deepcopy(item)
                if "prompt_mm" in item:
                    if content is None:
                        raise RenderError(
                            "MMPromptTemplate reads the row's 'content' column (tagged "
                            "<AIS_TEXT_START>…<AIS_CONTENT_TAG>…), and this row has none",
                            hint="put the tagged text/image/audio/video parts in a 'content' column",
                        )
                    new_item["prompt_mm"] = self._parts(item["prompt_mm"], content)
                out.append(new_item)
            else:
                out.append(safe_format(item, pairs))
        return out

    def _parts(self, mm: Any, content: str) -> list[dict]:
        if not isinstance(mm, Mapping):
            raise RenderError(f"prompt_mm must be a dict of modality parts, got {mm!r}")
        parts: list[dict] = []
        for segment in content.split(AIS_CONTENT_TAG):
            for tag, key, inner, field_name in _MODALITIES:
                if not segment.startswith(tag):
                    continue
                value = segment.replace(tag, "")
                spec = mm.get(key, mm.get(inner))
                if spec is None:
                    raise RenderError(
                        f"the row's content has a {key} part but prompt_mm has no {key!r} entry "
                        f"(KeyError: {key!r})",
                        hint=f"add \"{key}\": {{\"type\": \"{inner}\", \"{inner}\": {{\"url\": "
                        f"\"{{{field_name}}}\"}}}} to prompt_mm",
                    )
                part = copy.deepcopy(dict(spec))
                fill = [("{" + field_name + "}", value)]
                if key == "text":
                    part["text"] = safe_format(part.get("text", ""), fill)
                elif isinstance(part.get(inner), dict):
                    part[inner]["url"] = safe_format(part[inner].get("url", ""), fill)
                else:
                    part[inner] = safe_format(part.get(inner, ""), fill)
                parts.append(part)
                break
        return parts


def build_aisbench_template(kind: str, cfg: Mapping[str, Any], name: str, notes: Notes,
                            provenance: bool) -> PromptTemplate:
    cls = MultiTurnPromptTemplate if kind == "MultiTurnPromptTemplate" else MMPromptTemplate
    if "template" not in cfg:
        raise RenderError(f"{name} has no 'template'")
    return cls(cfg["template"], cfg.get("ice_token"), cfg.get("sep_token"), name=name,
               notes=notes, provenance=provenance)
