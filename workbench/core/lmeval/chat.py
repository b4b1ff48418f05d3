"""lm-eval's chat path: ``HFLM.apply_chat_template`` over the workbench's chat-template sandbox.

What decides bytes here: the template is applied with ``add_generation_prompt`` unless the task
has a ``gen_prefix`` (then the prefix, the last assistant message, is continued:
``continue_final_message`` as transformers 5 does it, with a tag appended to the message and the
output cut at the tag); a template that raises (a ``TemplateError``) is tried once more with
every system message removed — the description and the system instruction with it — and a
second failure is the error lm-eval would raise.

May import: ``workbench.core.errors`` and ``workbench.core.tokens``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..errors import RenderError
from ..tokens.chat_apply import render_chat_template
from ..tokens.chat_template import ChatTemplate, ChatTemplateError

_TAG = "CONTINUE_FINAL_MESSAGE_TAG "


@dataclass
class ChatPath:
    """A chat template applied as lm-eval applies it; ``retried`` counts the contexts that
    were built again without their system message (said once per task as a warning)."""

    template: ChatTemplate
    special_tokens: Mapping[str, str | None] = field(default_factory=dict)
    retried: int = 0
    #: what a template's ``strftime_now`` reads (the loader passes ``datetime.now``)
    clock: Callable[[], datetime] | None = None

    def apply(self, messages: list[dict[str, str]], add_generation_prompt: bool) -> str:
        try:
            return self._once(messages, add_generation_prompt)
        except ChatTemplateError:
            self.retried += 1
            kept = [m for m in messages if m["role"] != "system"]
            try:
                return self._once(kept, add_generation_prompt)
            except ChatTemplateError as exc:
                raise RenderError(f"the chat template failed twice (with and without the system "
                                  f"message), so lm-eval raises: {exc.message}", file=exc.file,
                                  line=exc.line) from exc

    def _once(self, messages: list[dict[str, str]], add_generation_prompt: bool) -> str:
        if add_generation_prompt:
            return render_chat_template(self.template, messages, add_generation_prompt=True,
                                        special_tokens=self.special_tokens, clock=self.clock, reuse=False)
        if not messages:
            raise RenderError("continue_final_message is set but the conversation is empty: "
                              "transformers raises ValueError")
        final = messages[-1]["content"]
        if "content" not in self.template.source:
            raise RenderError('continue_final_message is set to "content" but this is not an accepted '
                              "field in the chat_template: transformers raises ValueError")
        tagged = [*messages[:-1], {**messages[-1], "content": final + _TAG}]
        text = render_chat_template(self.template, tagged, add_generation_prompt=False,
                                    special_tokens=self.special_tokens, clock=self.clock, reuse=False)
        if final.strip() not in text or _TAG.strip() not in text:
            raise RenderError("continue_final_message is set but the final message (the gen_prefix) "
                              "does not appear in the chat template's output: transformers raises "
                              "ValueError")
        at = text.rindex(_TAG.strip())
        if text[at:at + len(_TAG)] == _TAG:
            return text[:at]
        return text[:at].rstrip()


def plain_messages(messages: list[Any]) -> list[dict[str, str]]:
    """Messages as the template sees them: role and content only."""
    return [{"role": m.role, "content": m.content} for m in messages]
