"""One lm-eval task's docs to its requests, as ``ConfigurableTask.fewshot_context`` and
``construct_requests`` build them in lm-eval 0.4.13.

The rules that decide bytes (each tested, see docs/lm-eval.md):

* the description (and ``--system-instruction`` before it, joined by the ``fewshot_delimiter``
  unless either side already has whitespace there) is a system message; without a chat template
  it is glued to the first shot with no separator at all;
* each shot is the question, the ``target_delimiter``, the answer, then the ``fewshot_delimiter``;
  the evaluated doc ends its question with the ``target_delimiter`` only when a ``gen_prefix``
  needs one;
* the sampler draws n + 1 docs and drops the evaluated doc when the few-shot split is the test
  split (both unset counts as the same split);
* a YAML ``num_fewshot: 0`` wins over the command line's;
* under a chat template a multiple-choice continuation loses its ``target_delimiter`` (its
  leading space) unless a ``gen_prefix`` without trailing whitespace keeps it; without
  ``fewshot_as_multiturn`` the shots are folded into one user message.

May import: the standard library, ``workbench.core.errors``, the sibling modules.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import RenderError
from .chat import ChatPath, plain_messages
from .sampler import DEFAULT_SEED, NUMPY_SEED, RANDOM_SEED, Sampler

OUTPUT_TYPES = ("generate_until", "loglikelihood", "multiple_choice", "loglikelihood_rolling")


@dataclass
class Message:
    """lm-eval's ``Message``: a role, its content, and what follows it as plain text."""

    role: str
    content: str
    delimiter: str = ""

    def text(self) -> str:
        return self.content + self.delimiter


@dataclass(frozen=True)
class Options:
    """What the command line decides (lm-eval's ``simple_evaluate`` arguments)."""

    num_fewshot: int | None = None
    seed: int | None = DEFAULT_SEED
    #: the global seeds ``simple_evaluate`` sets before it builds the tasks (``random_seed``,
    #: ``numpy_random_seed``), which a task's ``process_docs`` may draw from; None: not seeded
    random_seed: int | None = RANDOM_SEED
    numpy_seed: int | None = NUMPY_SEED
    system_instruction: str | None = None
    chat: ChatPath | None = None
    fewshot_as_multiturn: bool = False


@dataclass
class Request:
    model_input: str
    continuation: Any = None
    label: int | None = None
    until: Any = None  # generation_kwargs' until as written (a list, or a string)
    messages: list[dict[str, str]] | None = None


@dataclass
class Sample:
    index: int
    shots: list[int]
    requests: list[Request] = field(default_factory=list)


def maybe_delimit(prefix: str | None, suffix: str | None, delimiter: str = " ") -> str:
    """Join two texts with ``delimiter`` unless either already has whitespace at the seam."""
    if not prefix:
        return suffix or ""
    if not suffix:
        return prefix
    if prefix[-1].isspace() or suffix[0].isspace():
        return prefix + suffix
    return prefix + delimiter + suffix


def _needs_delimiter(prefix: str, suffix: str) -> bool:
    return prefix != "" and not (prefix[-1].isspace() or suffix[0].isspace())


def _turn(q: Any, c: list | None, a: Any, gen_prefix: str | None, tgt_delim: str,
          few_delim: str) -> list[Message]:
    """``build_qa_turn``: the user message, and the answer (or the gen_prefix) after it."""
    if not isinstance(q, str):
        raise RenderError(f"doc_to_text gave {type(q).__name__} {q!r}, not a string: lm-eval raises "
                          "AssertionError (Context is not a string)")
    has_answer = a is not None and a != ""
    if (has_answer and not gen_prefix) or (gen_prefix and _needs_delimiter(q, gen_prefix)):
        delim = tgt_delim
    else:
        delim = ""
    messages = [Message("user", q, delim)]
    if has_answer:
        if c and isinstance(a, int):  # a bool too (True picks choice 1), as in lm-eval
            answer = _picked(c, a)
        elif isinstance(a, list):
            answer = a[0] if a else None
        else:
            answer = a
        if not isinstance(answer, str):
            raise RenderError(f"the answer is {type(answer).__name__} {answer!r}, not a string: lm-eval "
                              "raises AssertionError (Answer is not a string)")
        messages.append(Message("assistant", maybe_delimit(gen_prefix, answer, " "), few_delim))
    elif gen_prefix:
        messages.append(Message("assistant", gen_prefix))
    return messages


def _picked(choices: Any, a: int) -> Any:
    """``choices[a]``: a list's or a string's item, a dict's value (lm-eval indexes what
    ``doc_to_choice`` gave, whatever it is)."""
    if isinstance(choices, dict):
        if a not in choices:
            raise RenderError(f"doc_to_target {a} is not a key of the choices (a dict, keys "
                              f"{', '.join(map(repr, list(choices)[:5]))}): lm-eval raises KeyError")
        return choices[a]
    if not isinstance(choices, list | str):
        raise RenderError(f"doc_to_target {a} indexes choices that are a {type(choices).__name__}: "
                          "lm-eval raises TypeError")
    if not -len(choices) <= a < len(choices):
        raise RenderError(f"doc_to_target {a} is not an index of the {len(choices)} choices: lm-eval "
                          "raises IndexError")
    return choices[a]


def each_choice(choices: Any) -> list:
    """What lm-eval's ``for cont in choices`` goes over: a list's items, a string's characters
    (lm-eval logs "doc_to_choice must return list" and goes on), a dict's keys."""
    if isinstance(choices, list):
        return choices
    if isinstance(choices, str | dict):
        return list(choices)
    raise RenderError(f"doc_to_choice gave {type(choices).__name__} {str(choices)[:40]!r}, which lm-eval "
                      "cannot go over: it raises TypeError")


def _single_turn(messages: list[Message]) -> list[dict[str, str]]:
    """``multiturn_to_singleturn``: everything but the system message and a final assistant
    prefix folded into one user message (the last folded message loses its delimiter)."""
    system = messages[0] if messages[0].role == "system" else None
    rest = list(messages[1:] if system else messages)
    if rest[-1].role == "assistant":
        folded, last = rest[:-1], [rest[-1]]
    else:
        folded, last = rest, []
    text = "".join(m.text() for m in folded[:-1]) + folded[-1].content
    out = [{"role": "user", "content": text}, *plain_messages(last)]
    return ([{"role": "system", "content": system.content}] if system else []) + out


def _context(messages: list[Message], options: Options, gen_prefix: str | None) -> tuple[str, list | None]:
    chat = options.chat
    if chat is None:
        return "".join(m.text() for m in messages), None
    shaped = plain_messages(messages) if options.fewshot_as_multiturn else _single_turn(messages)
    return chat.apply(shaped, add_generation_prompt=not gen_prefix), shaped


def shot_count(task: Mapping[str, Any], options: Options) -> int:
    """The shots every doc gets: the YAML's ``num_fewshot: 0`` wins over the command line;
    otherwise the command line, else the YAML, else 0."""
    own = task.get("num_fewshot")
    if options.num_fewshot is not None and own != 0:
        return options.num_fewshot
    return own or 0


def build_samples(task: Mapping[str, Any], options: Options) -> Iterator[Sample]:
    """The task's samples in doc order; a doc lm-eval would raise on raises ``RenderError``
    (the samples before it have been yielded)."""
    output_type = task["output_type"]
    if output_type not in OUTPUT_TYPES:
        raise RenderError(f"output_type {output_type!r} is not one of {', '.join(OUTPUT_TYPES)}: "
                          "lm-eval raises ValueError")
    fewshot = task["fewshot"]
    pool: Sequence[Mapping[str, Any]] = task["pool"]
    n_shots = shot_count(task, options)
    sampler = Sampler(fewshot["sampler"], [entry["doc"] for entry in pool], options.seed)
    same_split = fewshot["split"] == task.get("test_split")
    multiple_input = task.get("multiple_input") or 0
    has_choice = task.get("has_choice", False)
    for index, entry in enumerate(task["docs"]):
        _raise_for(entry, index, "doc")
        messages: list[Message] = []
        system = maybe_delimit(options.system_instruction, entry.get("description") or None,
                               task["fewshot_delimiter"])
        if system:
            messages.append(Message("system", system))
        shots = sampler.draw(n_shots, entry["doc"] if same_split else None) if n_shots > 0 else []
        for position in shots:
            shot = pool[position]
            _raise_for(shot, position, "few-shot doc")
            q, c = shot["text"], shot.get("choices")
            if multiple_input:
                q, c = _choice_at(c, q), None
            messages += _turn(q, c, shot["target"], shot.get("gen_prefix"),
                              fewshot["target_delimiter"], fewshot["fewshot_delimiter"])
        gen_prefix = entry.get("gen_prefix")
        sample = Sample(index, shots)
        if multiple_input:
            sample.requests = _multiple_input(task, entry, messages, gen_prefix, options)
        else:
            messages += _turn(entry["text"], entry.get("choices") if has_choice else None, None,
                              gen_prefix, task["target_delimiter"], "")
            context, shaped = _context(messages, options, gen_prefix)
            sample.requests = _requests(task, entry, context, shaped, options)
        yield sample


def _choice_at(choices: Any, q: Any) -> str:
    if not isinstance(choices, list) or not isinstance(q, int) or not -len(choices) <= q < len(choices):
        raise RenderError(f"a multiple-input doc_to_text gave {q!r}, not an index of its choices: "
                          "lm-eval raises")
    return choices[q]


def _raise_for(entry: Mapping[str, Any], index: int, what: str) -> None:
    error = entry.get("error")
    if error:
        raise RenderError(f"{what} {index}: {error['message']}", file=error.get("file"),
                          line=error.get("line"), hint=error.get("hint"))


def _continuation_delimiter(task: Mapping[str, Any], options: Options) -> str:
    delim = task["target_delimiter"]
    if options.chat is not None:
        prefix = task.get("gen_prefix_config")
        return delim if prefix and not prefix[-1].isspace() else ""
    return delim


def _multiple_input(task: Mapping[str, Any], entry: Mapping[str, Any], messages: list[Message],
                    gen_prefix: str | None, options: Options) -> list[Request]:
    choices = entry.get("choices")
    if not isinstance(choices, list):
        raise RenderError("multiple inputs require choices to be a list: lm-eval raises AssertionError")
    delim = _continuation_delimiter(task, options)
    target = entry["target"]
    out = []
    for label, choice in enumerate(choices):
        turn = messages + _turn(choice, None, None, gen_prefix, "", "")
        context, shaped = _context(turn, options, gen_prefix)
        out.append(Request(context, f"{delim}{target}", label, messages=shaped))
    return out


def _requests(task: Mapping[str, Any], entry: Mapping[str, Any], context: str, shaped: list | None,
              options: Options) -> list[Request]:
    output_type = task["output_type"]
    if output_type == "generate_until":
        return [Request(context, until=task["until"], messages=shaped)]
    if output_type == "loglikelihood":
        return [Request(context, entry["target"], messages=shaped)]
    if output_type == "loglikelihood_rolling":
        return [Request(entry["target"], messages=None)]
    choices = each_choice(entry.get("choices"))
    delim = _continuation_delimiter(task, options)
    out = [Request(context, f"{delim}{choice}", label, messages=shaped)
           for label, choice in enumerate(choices)]
    if task.get("mutual_info"):  # acc_mutual_info: each choice scored again without a context
        out += [Request("", f"{delim}{choice}", label) for label, choice in enumerate(choices)]
    return out
