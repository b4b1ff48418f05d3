"""Self-test before any run: can the config's evaluator read the answers its own prompt shows?

Two kinds of check per dataset (AISBench #525: a template whose answer format the evaluator's
pattern cannot read scores correct answers wrong):

- **exemplars**: the in-context examples' answers as the template writes them (the BOT turn of
  ``ice_template``, else of ``prompt_template``; the part after the last input column of a string
  template), filled from the first train rows the retriever would use (``fix_id_list``, else the
  first rows), run through the chain as a model's answer, against the row's own gold;
- **written**: answers typed into a dialogue template's BOT turns (their gold is not known: what
  is extracted is shown, with no verdict);
- **format**: the answer format the prompt asks for (``ANSWER: $LETTER``, ``The answer is (X)``,
  ``\\boxed{}``, ``答案是 X``), written with the first test row's gold.

A check the plain evaluator scores wrong is a finding, PW213 ``answer-format``
(:func:`answer_format_findings`): the text, what was extracted and the gold, one finding per
template (the exemplars, the asked format) however many of its checks fail. ``extract
--self-test``, ``lint`` and ``render`` all say it in these words. Pure: rows and config dicts in,
checks (and findings) out.

May import: the standard library, ``core.findings`` and the modules beside it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from ..errors import WorkbenchError
from ..findings import Finding
from .catalog import Unresolved
from .chain import PairFailure, PairPlan, Segmenter, apply_step, extract_pair, plan_pair

MAX_EXEMPLARS = 5
#: How long one dataset's checks may take in a bounded child (a dozen answers through its chain:
#: far more than a real config needs; a pattern that backtracks forever is cut here).
CHECK_TIMEOUT = 10.0

#: (what the prompt says, how a model following it answers): the formats shipped prompts ask for.
FORMATS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?i)\b(ANSWER\s*[:：]\s*)\$(?:LETTER|ANSWER)\b"), "{said}{gold}"),
    (re.compile(r"(?i)\b(the answer is\s*)\((?:X|LETTER)\)"), "{said}({gold})"),
    (re.compile(r"(?i)\b(the answer is\s*)\$?(?:X|\\boxed\{\})\$?"), "{said}{gold}"),
    (re.compile(r"\\boxed\{\}"), "\\boxed{{{gold}}}"),
    (re.compile(r"(答案(?:是|为)?\s*[:：]?\s*)(?:X|\$LETTER|\[[^\]]*\])"), "{said}{gold}"),
)


@dataclass(frozen=True)
class Check:
    """One answer run through the chain: ``source`` says where it came from (``exemplar 3``,
    ``format``), ``correct`` the evaluator's verdict (None when the framework scores it)."""

    source: str
    text: str
    extracted: Any
    gold: Any
    correct: bool | None


def _bot_prompt(template: Any, output_column: str) -> str | None:
    """The template's answer part: its BOT turn, or a string template's text from the line that
    holds ``{output_column}``."""
    if isinstance(template, str):
        marker = "{" + output_column + "}"
        at = template.find(marker)
        if at < 0:
            return None
        start = template.rfind("\n", 0, at) + 1
        return template[start:].replace("</E>", "")
    if isinstance(template, Mapping):
        rounds = template.get("round")
        if isinstance(rounds, list):
            bots = [r.get("prompt") for r in rounds if isinstance(r, Mapping) and r.get("role") == "BOT"
                    and isinstance(r.get("prompt"), str)]
            return bots[-1] if bots else None
    return None


def _sent_before_answer(template: Any, output_column: str) -> str:
    """The text the test prompt ends with where the model starts to answer: a string
    template's up to its ``{output_column}`` (all of it when it has none), else the last
    non-BOT turn's prompt of its round."""
    if isinstance(template, str):
        text = template.replace("</E>", "")
        at = text.find("{" + output_column + "}")
        return text if at < 0 else text[:at]
    rounds = template.get("round") if isinstance(template, Mapping) else None
    asked = [r.get("prompt") for r in rounds or () if isinstance(r, Mapping) and r.get("role") != "BOT"]
    return asked[-1] if asked and isinstance(asked[-1], str) else ""


def _model_part(answer: str, output_column: str, prompt: Any) -> str:
    """The exemplar's answer as a model writes it: the words before ``{output_column}`` on its
    line are not the model's when the test prompt already ends with them (MMLU's ``'Answer:
    {target}'`` exemplar after a prompt ending ``'Answer:'``: the model writes ``' B'``)."""
    at = answer.find("{" + output_column + "}")
    lead = answer[:at] if at > 0 else ""
    if lead.strip() and _sent_before_answer(prompt, output_column).rstrip().endswith(lead.rstrip()):
        return lead[len(lead.rstrip()):] + answer[at:]
    return answer


def _template(infer: Mapping[str, Any], key: str) -> Any:
    part = infer.get(key)
    return part.get("template") if isinstance(part, Mapping) else None


def _fill(text: str, row: Mapping[str, Any]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: str(row[m[1]]) if m[1] in row else m[0], text)


def _prompt_texts(template: Any) -> list[str]:
    if isinstance(template, str):
        return [template]
    if isinstance(template, Mapping):
        out = []
        for key in ("begin", "round", "end"):
            items = template.get(key)
            for item in items if isinstance(items, list) else [items] if items else []:
                if isinstance(item, Mapping) and isinstance(item.get("prompt"), str):
                    out.append(item["prompt"])
                elif isinstance(item, str):
                    out.append(item)
        return out
    return []


def asked_formats(prompt_template: Any, gold: Any) -> list[str]:
    """The answers a model following the prompt's own format instruction would give."""
    found = []
    for text in _prompt_texts(prompt_template):
        for pattern, answer in FORMATS:
            match = pattern.search(text)
            if match:
                said = match.group(1) if match.groups() else ""
                found.append(answer.format(said=said, gold=gold))
    return list(dict.fromkeys(found))


def _literal_answers(template: Any) -> list[str]:
    """A dialogue template's BOT turns written out in full (few-shot examples typed into the
    prompt, as GSM8K's shipped configs do): answers whose gold the config does not say."""
    rounds = template.get("round") if isinstance(template, Mapping) else None
    return [r["prompt"] for r in rounds or () if isinstance(r, Mapping) and r.get("role") == "BOT"
            and isinstance(r.get("prompt"), str) and r["prompt"].strip() and "{" not in r["prompt"]]


def _run(plan: PairPlan, source: str, text: str, gold: Any = None, known: bool = True) -> Check:
    record = {"prediction": text, "gold": gold} if known else {"prediction": text}
    answers = extract_pair(plan, [("0", record)])
    sample = answers.samples[0]
    return Check(source, text, sample.extracted, sample.gold, sample.correct)


def self_test_rows(dataset: Mapping[str, Any], train: Sequence[Mapping[str, Any]],
                   test: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The rows the self-test reads (plain data, small enough to send to a child): ``exemplars``,
    [index, row] of the train rows the retriever would show (``fix_id_list``, else the first
    rows; at most :data:`MAX_EXEMPLARS`), and ``test``, the first test row (none if empty)."""
    infer = dataset.get("infer_cfg") or {}
    retriever = infer.get("retriever") or {}
    ids = retriever.get("fix_id_list") if isinstance(retriever, Mapping) else None
    chosen = [i for i in ids if isinstance(i, int) and 0 <= i < len(train)] if isinstance(ids, list) \
        else list(range(min(MAX_EXEMPLARS, len(train))))
    return {"exemplars": [[i, dict(train[i])] for i in chosen[:MAX_EXEMPLARS]],
            "test": [dict(test[0])] if len(test) else []}


def model_key(dataset: Mapping[str, Any], model: Mapping[str, Any] | None) -> str:
    """What of a model the chain reads (its pred_postprocessor; its meta template where the
    dataset has a pred_role): pairs that agree on it share one self-test."""
    if model is None:
        return ""
    eval_cfg = dataset.get("eval_cfg") or {}
    role = model.get("meta_template") if "pred_role" in eval_cfg else None
    return repr((model.get("pred_postprocessor"), role))


def self_test(dataset: Mapping[str, Any], model: Mapping[str, Any], train: Sequence[Mapping[str, Any]],
              test: Sequence[Mapping[str, Any]], segmenter: Segmenter | None = None) -> list[Check]:
    """Every check of one dataset (with ``model``'s postprocessor, if any; ``segmenter`` as for
    :func:`~.chain.plan_pair`): :func:`checks_of` the rows :func:`self_test_rows` picks."""
    return checks_of(dataset, model, self_test_rows(dataset, train, test), segmenter)


def checks_of(dataset: Mapping[str, Any], model: Mapping[str, Any], rows: Mapping[str, Any],
              segmenter: Segmenter | None = None) -> list[Check]:
    """Every check of one dataset over ``rows`` (:func:`self_test_rows`'s).

    Raises PairFailure / Unresolved as :func:`~.chain.plan_pair` does; a check the real code
    fails on is a PairFailure naming it."""
    plan = plan_pair(dataset, model, segmenter=segmenter)
    reader = dataset.get("reader_cfg") or {}
    column = reader.get("output_column")
    infer = dataset.get("infer_cfg") or {}
    checks: list[Check] = []
    if not column:
        return checks
    ice = _template(infer, "ice_template")
    prompt = _template(infer, "prompt_template")
    if ice is not None:
        answer = _bot_prompt(ice, column)
        if answer is not None:
            answer = _model_part(answer, column, prompt)
        for i, row in rows["exemplars"]:
            if answer is None or column not in row:
                break
            try:
                checks.append(_run(plan, f"exemplar {i}", _fill(answer, row), row[column]))
            except PairFailure as exc:
                raise PairFailure(f"exemplar {i}: {exc.message}", stage=exc.stage, hint=exc.hint) from exc
    for k, text in enumerate(_literal_answers(prompt)[:MAX_EXEMPLARS]):
        try:
            checks.append(_run(plan, f"written {k}", text, known=False))
        except PairFailure as exc:
            raise PairFailure(f"the template's written answer {k}: {exc.message}", stage=exc.stage,
                              hint=exc.hint) from exc
    test = rows["test"]
    if test and column in test[0]:
        gold = test[0][column]
        if plan.gold_step is not None:  # a model following the format writes the processed gold
            try:
                gold = apply_step(plan.gold_step, [gold], ["0"])[0]
            except PairFailure as exc:
                raise PairFailure(f"the first test row's gold: {exc.message}", stage=exc.stage,
                                  hint=exc.hint) from exc
        for text in asked_formats(prompt, gold):
            try:
                checks.append(_run(plan, "format", text, test[0][column]))
            except PairFailure as exc:
                raise PairFailure(f"the asked format {text!r}: {exc.message}", stage=exc.stage,
                                  hint=exc.hint) from exc
    return checks


#: (what a failing check reads, where its template is) per kind of check.
_KINDS = {
    "exemplar": ("the template's own exemplar", "ice_template", "exemplars"),
    "format": ("the answer format the prompt asks for", "prompt_template", "asked formats"),
}


def checks_answer(checks: Callable[[], Sequence[Check]]) -> dict[str, Any]:
    """A dataset's self-test as the plain answer a bounded child sends back: ``{"checks": [...]}``,
    else ``{"error", "hint", "kind"}`` with ``kind`` ``fails`` (the real task fails on it),
    ``not-rewritten`` (a postprocessor the workbench does not rewrite) or ``unreadable``."""
    try:
        found = checks()
    except PairFailure as exc:
        return {"error": exc.message, "hint": exc.hint, "kind": "fails"}
    except Unresolved as exc:
        return {"error": exc.message, "hint": exc.hint, "kind": "not-rewritten"}
    except WorkbenchError as exc:
        return {"error": exc.message, "hint": exc.hint, "kind": "unreadable"}
    return {"checks": [asdict(check) for check in found]}


def answer_format_findings(checks: Sequence[Mapping[str, Any]]) -> list[Finding]:
    """PW213 for a dataset's checks (as :class:`Check` fields: the bounded child answers dicts):
    one finding per kind whose checks the evaluator scores wrong, the first such check said whole."""
    found = []
    for kind, (what, key, many) in _KINDS.items():
        mine = [c for c in checks if str(c["source"]).split(" ")[0] == kind]
        wrong = [c for c in mine if c["correct"] is False]
        if not wrong:
            continue
        first = wrong[0]
        counted = f" ({len(wrong)} of {len(mine)} {many})" if len(mine) > 1 else ""
        found.append(Finding(
            "PW213",
            f"the evaluator cannot read {what}: {first['source']} {first['text']!r} is extracted as "
            f"{first['extracted']!r} against the gold {first['gold']!r}{counted}; a model that answers "
            "so is scored wrong",
            hint=f"make the {key}'s answer and the postprocessor's pattern agree (workbench extract "
                 "CONFIG --self-test shows every check)",
            key_path=("infer_cfg", key, "template")))
    return found
