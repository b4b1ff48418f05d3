"""Did a run send the prompts a render shows? Recorded prompts against rendered requests.

Pure: a sample's rendered requests and the records the run wrote for it in, out comes a
verdict. What is compared, by the record's shape:

- ``label: X`` entries (PPLInferencer): each label's ``prompt`` against the request of label X;
- ``origin_prompt`` a string (GenInferencer, local models): against the final input string;
- ``origin_prompt`` a list of ``{role, prompt}`` (API models, chat-template models): against
  the messages the model gets (chat-template models' roles mapped as OpenCompass maps them);
- AISBench's line per request: a multi-turn conversation (its lines share a ``uuid``) turn by
  turn, line k against the request of turn k; a repeated sample's draws each against the one
  request;
- OpenCompass's ChatInferencer, which records the chat before its parser: ``last`` the history
  against the rendered chat; ``every`` each turn's user message (a list of strings, or the
  dialogue mode's ``{"round", "user", "assistant"}`` per round) against the last message of
  that turn's chat; ``every_with_gt`` is not checked (its records mix samples, see below);
- anything else (a list per turn): not checked, and counted as such.

May import: render and every core module below it; nothing outside the core (loading, views and
the front ends build on this, not the reverse).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .inferencers.common_plans import EVERY_WITH_GT_MIXED
from .result import Request

MATCHED, DIFFERING, NOT_CHECKED = "matched", "differing", "not checked"
_CHAT_ROLES = {"HUMAN": "user", "BOT": "assistant", "SYSTEM": "system"}




@dataclass(frozen=True)
class Difference:
    """One prompt that differs: which request, and both texts as comparable strings."""

    label: Any
    recorded: str
    rendered: str
    turn: int | None = None  # multi-turn: the turn (0-based) whose prompt differs


@dataclass(frozen=True)
class Verdict:
    outcome: str  # MATCHED, DIFFERING or NOT_CHECKED
    differences: tuple[Difference, ...] = ()
    why: str | None = None  # NOT_CHECKED: what the record holds that is not compared
    #: rendered turns the run has no record of (a failed turn ends AISBench's conversation)
    unrecorded_turns: int = 0


@dataclass(frozen=True)
class RecordShape:
    """What a pair's records are and what its render sends, which says what to compare."""

    model_kind: str
    inferencer: str = ""  # the inferencer's class name
    infer_mode: str | None = None  # the multi-turn inferencers' infer_mode
    per_request: bool = False  # AISBench: a line per request, not a record per sample
    multiround: bool = False  # OpenCompass GenInferencer(multiround=True)


def conversations(records: Sequence[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    """AISBench's lines of one sample as conversations, each its turns in the order written:
    every turn of a conversation shares its ``uuid`` (each draw of a repeated sample has its own)."""
    by_uuid: dict[Any, list[Mapping[str, Any]]] = {}
    for record in records:
        key = record.get("uuid")
        by_uuid.setdefault(key if isinstance(key, str) else id(record), []).append(record)
    return list(by_uuid.values())


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
    # a message's keys in any order: the prompt is the same (the order on the wire is the wire
    # view's to show; a run's dump sorts a config's dicts, rows keep theirs)
    same = recorded == rendered if isinstance(recorded, str) else json.dumps(recorded, ensure_ascii=False,
                                                                              sort_keys=True) \
        == json.dumps(rendered, ensure_ascii=False, sort_keys=True)
    return same, a, b


def verdict(records: Sequence[Mapping[str, Any]], requests: Sequence[Request], shape: RecordShape) -> Verdict:
    """Compare one sample's records (one for OpenCompass; AISBench a line per request) with its
    rendered requests."""
    if shape.per_request:
        return _per_request(records, requests, shape)
    record = records[0]
    labels = {key[len("label: "):]: value for key, value in record.items()
              if isinstance(key, str) and key.startswith("label: ") and isinstance(value, Mapping)}
    if labels:
        return _labels(labels, requests, shape.model_kind)
    if shape.inferencer == "ChatInferencer":
        return _chat(record, requests, shape)
    if shape.multiround:
        return _multiround(record, requests, shape)
    recorded = record.get("origin_prompt")
    if recorded is None:
        return Verdict(NOT_CHECKED, why="the record has no origin_prompt")
    if isinstance(recorded, list) and recorded and all(isinstance(turn, list) for turn in recorded):
        return Verdict(NOT_CHECKED, why="a multi-round record (a list per turn)")
    if not requests:
        return Verdict(DIFFERING, (Difference(None, prompt_text(recorded), "(no request)"),))
    same, a, b = _same(recorded, requests[0].model_input, shape.model_kind)
    return Verdict(MATCHED) if same else Verdict(DIFFERING, (Difference(None, a, b),))


def _labels(labels: Mapping[str, Mapping[str, Any]], requests: Sequence[Request], model_kind: str) -> Verdict:
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


def _per_request(records: Sequence[Mapping[str, Any]], requests: Sequence[Request],
                 shape: RecordShape) -> Verdict:
    """AISBench: each line against the request it answers."""
    if not requests:
        return Verdict(DIFFERING, (Difference(None, prompt_text(records[0].get("origin_prompt")),
                                              "(no request)"),))
    multi_turn = any(r.turn is not None for r in requests)
    differences: list[Difference] = []
    compared = unrecorded = 0
    for number, conversation in enumerate(conversations(records) if multi_turn else [[r] for r in records]):
        for k, line in enumerate(conversation):
            turn = k if multi_turn else None
            recorded = line.get("origin_prompt")
            if k >= len(requests):
                differences.append(Difference(None, prompt_text(recorded), "(no such turn)", turn))
                continue
            if "origin_prompt" not in line:
                continue  # (the caller names the record that lacks it)
            request = requests[k]
            # the render's histories hold the first conversation's answers: another's later turns
            # (a repeated multi-turn sample) answered other things
            if number and request.depends_on:
                continue
            compared += 1
            same, a, b = _same(recorded, request.model_input, shape.model_kind)
            if not same:
                differences.append(Difference(None, a, b, turn))
        if multi_turn and number == 0:
            unrecorded += max(0, len(requests) - len(conversation))
    if differences:
        return Verdict(DIFFERING, tuple(differences), unrecorded_turns=unrecorded)
    if not compared:
        return Verdict(NOT_CHECKED, why="the record has no origin_prompt", unrecorded_turns=unrecorded)
    return Verdict(MATCHED, unrecorded_turns=unrecorded)


def _chat(record: Mapping[str, Any], requests: Sequence[Request], shape: RecordShape) -> Verdict:
    """OpenCompass's ChatInferencer records the chat (``{role, content}``) before its parser."""
    mode = shape.infer_mode or "last"
    if mode == "every_with_gt":
        return Verdict(NOT_CHECKED, why=EVERY_WITH_GT_MIXED)
    recorded = record.get("origin_prompt")
    if mode == "last":
        if not isinstance(recorded, list):
            return Verdict(NOT_CHECKED, why="the record's origin_prompt is not a chat")
        if not requests:
            return Verdict(DIFFERING, (Difference(None, prompt_text(recorded), "(no request)"),))
        same, a, b = _same_chat(recorded, requests[0].prompt_list)
        return Verdict(MATCHED) if same else Verdict(DIFFERING, (Difference(None, a, b, requests[0].turn),))
    # every: each turn's user message; dialogue mode keeps them in prediction, one round each
    prediction = record.get("prediction")
    if recorded is None and isinstance(prediction, list) and all(isinstance(p, Mapping) for p in prediction):
        users = [p.get("user") for p in prediction]
    elif isinstance(recorded, list):
        users = list(recorded)
    else:
        return Verdict(NOT_CHECKED, why="the record has neither a list of turns nor dialogue rounds")
    differences = []
    for k, user in enumerate(users):
        if k >= len(requests):
            differences.append(Difference(None, prompt_text(user), "(no such turn)", k))
            continue
        last = _last_content(requests[k].prompt_list)
        if user != last:
            differences.append(Difference(None, prompt_text(user), prompt_text(last), k))
    unrecorded = max(0, len(requests) - len(users))
    return Verdict(DIFFERING if differences else MATCHED, tuple(differences), unrecorded_turns=unrecorded)


def answer_slots(chat: Any) -> list[int] | None:
    """GenInferencer(multiround=True)'s turns: where its chat's empty assistant messages are, as
    positions among its assistant messages (``prediction`` holds every assistant message's
    content, the given ones too); None when ``chat`` is not a list of messages."""
    if not isinstance(chat, list) or not all(isinstance(m, Mapping) for m in chat):
        return None
    assistants = [m for m in chat if m.get("role") == "assistant"]
    return [k for k, m in enumerate(assistants) if not m.get("content")] if assistants else None


def _multiround(record: Mapping[str, Any], requests: Sequence[Request], shape: RecordShape) -> Verdict:
    """GenInferencer(multiround=True) records the chat as parsed before any answer, and every
    assistant message's content after the last: turn k's history is that chat up to its k-th
    empty assistant message, the answers filled in."""
    chat, answers = record.get("origin_prompt"), record.get("prediction")
    slots = answer_slots(chat)
    if slots is None or not isinstance(chat, list) or not isinstance(answers, list):
        return Verdict(NOT_CHECKED, why="a multiround record whose origin_prompt is not a chat")
    filled: list[Any] = []
    position = 0
    ends = []  # where each turn's history ends
    for message in chat:
        if message.get("role") == "assistant":
            if position in slots:
                ends.append(len(filled))
                answer = answers[position] if position < len(answers) else message.get("content")
                message = {**message, "content": answer}
            position += 1
        filled.append(message)
    differences = []
    for k, end in enumerate(ends):
        if k >= len(requests):
            differences.append(Difference(None, prompt_text(filled[:end]), "(no such turn)", k))
            continue
        same, a, b = _same(filled[:end], requests[k].model_input, shape.model_kind)
        if not same:
            differences.append(Difference(None, a, b, k))
    unrecorded = max(0, len(requests) - len(ends))
    return Verdict(DIFFERING if differences else MATCHED, tuple(differences), unrecorded_turns=unrecorded)


def _last_content(chat: Any) -> Any:
    """The content of a chat's last message (the user message a turn answers)."""
    if isinstance(chat, Sequence) and not isinstance(chat, str) and chat and isinstance(chat[-1], Mapping):
        return chat[-1].get("content")
    return chat


def _same_chat(recorded: Sequence[Any], rendered: Any) -> tuple[bool, str, str]:
    """The chat a ChatInferencer recorded against the rendered one, message by message."""
    def plain(chat: Any) -> Any:
        if isinstance(chat, str) or not isinstance(chat, Sequence):
            return chat
        return [{"role": m.get("role"), "content": m.get("content")} if isinstance(m, Mapping) else m
                for m in chat]

    a, b = plain(recorded), plain(rendered)
    return (json.dumps(a, ensure_ascii=False) == json.dumps(b, ensure_ascii=False),
            prompt_text(a), prompt_text(b))
