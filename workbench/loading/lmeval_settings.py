"""What lm-eval's command line decides about a task's prompts, as every command takes it
(``--num-fewshot``, ``--fewshot-seed``, ``--seed``, ``--system-instruction``,
``--apply-chat-template``, ``--fewshot-as-multiturn``), and the core's
:class:`~workbench.core.lmeval.prompt.Options` it makes: the one way from those options to a
render, for the render JSON and the Workspace alike.

``--fewshot-as-multiturn`` unset is lm-eval 0.4.13's own default, which its command line
decides (``EvaluatorConfig._validate_arguments``): on whenever a chat template is applied, so a
default ``lm_eval --apply_chat_template`` run sends the shots as turns.

May import: the core and every loading folder (config, rows, models, files); not views or a front
end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.lmeval.sampler import DEFAULT_SEED, NUMPY_SEED, RANDOM_SEED

if TYPE_CHECKING:
    from ..core.lmeval.prompt import Options

#: A ``--seed``: lm-eval's four slots (Python's random, numpy, torch, the few-shot sampler)
Seeds = tuple[int | None, int | None, int | None, int | None]

__all__ = ["TaskSettings"]

#: The words ``--fewshot-as-multiturn BOOL`` takes (lm-eval reads any other word as false; the
#: workbench refuses it instead, so a typo is not a silent setting).
TRUE_WORDS = ("true", "1", "yes")
FALSE_WORDS = ("false", "0", "no")


@dataclass(frozen=True)
class TaskSettings:
    """lm-eval's command-line choices for a task's prompts, as given (None: not given)."""

    num_fewshot: int | None = None
    #: lm-eval's ``fewshot_random_seed`` (None: its default, 1234)
    seed: int | None = None
    system_instruction: str | None = None
    apply_chat_template: bool = False
    #: None: not given, so lm-eval's default (see :attr:`multiturn`)
    fewshot_as_multiturn: bool | None = None
    #: lm-eval's ``--seed`` as :func:`parse_seed` reads it (None: not given, ``0,1234,1234,1234``)
    seeds: Seeds | None = None

    @property
    def multiturn(self) -> bool:
        """Shots as turns: as given, else on exactly when a chat template is applied (lm-eval
        0.4.13's command line; ``simple_evaluate`` defaults it on as well)."""
        return self.apply_chat_template if self.fewshot_as_multiturn is None else self.fewshot_as_multiturn

    def given(self) -> list[str]:
        """The options given on the command line, by flag."""
        return [flag for flag, value in (("--num-fewshot", self.num_fewshot),
                                         ("--fewshot-seed", self.seed),
                                         ("--seed", self.seeds),
                                         ("--system-instruction", self.system_instruction),
                                         ("--apply-chat-template", self.apply_chat_template or None),
                                         ("--fewshot-as-multiturn", self.fewshot_as_multiturn))
                if value is not None]

    def problem(self, chat_template: str | None) -> str | None:
        """Why these options cannot render (a usage error), as lm-eval refuses them: shots as
        turns without a chat template; a chat template to apply and none named."""
        if self.fewshot_as_multiturn and not self.apply_chat_template:
            return ("--fewshot-as-multiturn needs --apply-chat-template (lm-eval raises ValueError: "
                    "`apply_chat_template` must be set)")
        if self.seeds is not None and self.seed is not None:
            return ("--seed and --fewshot-seed both set the few-shot seed (--seed's fourth value): "
                    "give one of them")
        if self.seeds is not None and self.seeds[3] is None:
            return ("--seed with None for the few-shot seed: lm-eval then draws the shots from an "
                    "unseeded random.Random(None), a different set on every run, which no render can "
                    "show; give it a number")
        if self.apply_chat_template and not chat_template:
            return ("--apply-chat-template needs --chat-template DIR|FILE|NAME (the model's tokenizer "
                    "folder, a Jinja file or a built-in)")
        return None

    def options(self, chat_template: str | None) -> Options:
        """The core's options; ``chat_template`` (``--chat-template``) is applied only with
        ``--apply-chat-template``, as lm-eval applies none without it (a template that cannot be
        read raises its located WorkbenchError)."""
        # lazy: the prompt rules and the chat sandbox (jinja2) load only when a task renders
        from ..core.lmeval.prompt import Options
        from .lmeval_tasks import chat_path

        chat = chat_path(chat_template) if self.apply_chat_template and chat_template else None
        fewshot = DEFAULT_SEED if self.seed is None else self.seed
        seeds = self.seeds or (RANDOM_SEED, NUMPY_SEED, None, fewshot)
        return Options(num_fewshot=self.num_fewshot, seed=seeds[3], random_seed=seeds[0], numpy_seed=seeds[1],
                       system_instruction=self.system_instruction, chat=chat,
                       fewshot_as_multiturn=self.multiturn if chat is not None else False)

    def unapplied_chat(self, chat_template: str | None, tasks: Sequence[str]) -> str | None:
        """The warning for ``--chat-template`` given without ``--apply-chat-template`` where
        lm-eval tasks render (None: nothing to say): they render without it, as lm-eval does."""
        if not chat_template or self.apply_chat_template or not tasks:
            return None
        names = ", ".join(tasks[:5]) + (f" and {len(tasks) - 5} more" if len(tasks) > 5 else "")
        return (f"--chat-template is not applied to lm-eval tasks without --apply-chat-template (as "
                f"lm_eval applies none without --apply_chat_template): {names} "
                f"render{'s' if len(tasks) == 1 else ''} without a chat template; add "
                "--apply-chat-template to apply it")


def parse_bool(text: str) -> bool:
    """``--fewshot-as-multiturn BOOL``'s word (ValueError: not one of them)."""
    word = text.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ValueError(f"{text!r}: give true or false")


def parse_seed(text: str) -> Seeds:
    """``--seed`` as lm-eval 0.4.13's command line reads it (``_int_or_none_list_arg_type``):
    one integer for all four slots, or three or four comma-separated integers or ``None`` (a
    missing fourth is its default, 1234). ValueError: anything else, as lm-eval refuses it."""
    values: list[int | None] = []
    for item in text.split(","):
        word = item.strip().lower()
        if word == "none":
            values.append(None)
            continue
        try:
            values.append(int(word))
        except ValueError:
            raise ValueError(f"{item.strip()!r} is not an integer or None") from None
    if len(values) == 1:
        values *= 4
    elif len(values) not in (3, 4):
        raise ValueError("give one integer, or 4 integers or None separated by ',' "
                         "(python,numpy,torch,fewshot)")
    if len(values) == 3:
        values.append(DEFAULT_SEED)
    return (values[0], values[1], values[2], values[3])
