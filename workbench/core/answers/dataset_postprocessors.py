"""The postprocessors of OpenCompass 0.5.4's dataset modules, rewritten (gsm8k, bbh, needlebench,
mathbench, InfiniteBench, strategyqa, TheoremQA, humaneval).

Quirks kept, and said by ``catalog`` where they change a score: ``gsm8k_postprocess`` takes the
last number and its pattern has no thousands separator, so ``1,234`` reads as ``234``;
``gsm8k_dataset_postprocess`` raises IndexError on a reference without ``#### ``.

Those with a notion of matching (gsm8k's last number, bbh's letter, the atc box, InfiniteBench's
first number, TheoremQA's ``answer is``, humaneval's code block) compute their value through a
``trace_*`` function (:class:`~.trace.Traced`); the plain function is that value.

May import: the standard library, ``.math_answers`` and ``.trace``.
"""

from __future__ import annotations

import re

from .math_answers import trace_boxed_answer
from .trace import Traced, cut, last_match

_GSM8K_NUMBER = r"\-?\d+\.\d+|\-?\d+"


def trace_gsm8k(text: str) -> Traced:
    """The last number before the first 'Question:' ('NULL' when there is none)."""
    match = last_match(re.finditer(_GSM8K_NUMBER, text.split("Question:")[0]))  # a prefix of text
    if match is None:
        return Traced("NULL")
    return Traced(match.group(0), f"the last number before 'Question:' ({_GSM8K_NUMBER})", match.span(),
                  cut(*match.span()))


def gsm8k_postprocess(text: str) -> str:
    value: str = trace_gsm8k(text).value
    return value


def gsm8k_dataset_postprocess(text: str) -> str:
    return text.split("#### ")[1].replace(",", "")


def trace_bbh_mcq(text: str) -> Traced:
    """The letter after the first 'answer is ' (``(X)`` first, else any capital); the text after
    it, or the whole text, when there is none."""
    ans, at = text, 0
    parts = ans.split("answer is ")
    if len(parts) != 1:
        at = len(parts[0]) + len("answer is ")
        at += len(parts[1]) - len(parts[1].lstrip())
        ans = parts[1].strip()
    for pattern in (r"\(([A-Z])\)*", r"([A-Z])"):
        match = re.search(pattern, ans)
        if match:
            rule = pattern + (" after 'answer is '" if at else "")
            return Traced(match.group(1), rule, (match.start() + at, match.end() + at))
    return Traced(ans)


def bbh_mcq_postprocess(text: str) -> str:
    value: str = trace_bbh_mcq(text).value
    return value


def bbh_freeform_postprocess(text: str) -> str:
    ans = text
    parts = re.split(r"answer is\s*:?\s*", ans, flags=re.IGNORECASE)
    if len(parts) != 1:
        ans = parts[-1].strip()
    ans = ans.split("\n")[0].strip()
    if ans.endswith("."):
        ans = ans[:-1].strip()
    match = re.search(r"\*\*(.*?)\*\*", ans)
    if match:
        ans = match.group(1).strip()
    for words in (r"^(yes|no)\b", r"^(true|false)\b"):
        match = re.match(words, ans, flags=re.IGNORECASE)
        if match:
            return match.group(1).capitalize()
    if not re.search(r"\d\s*,\s*\d", ans):
        ans = re.sub(r"\s*,\s*", " ", ans)
    return re.sub(r"\s+", " ", ans).strip()


def identity(text: str) -> str:
    """needlebench_postprocess and needlebench_dataset_postprocess: the text as it is."""
    return text


def clean_atc_answer(text: str) -> str:
    if not text or text == "None":
        return "None"
    text = re.sub(r"\\text\{([^}]+)\}", r"\1", text)
    text = re.sub(r"\\boxed\{([^}]+)\}", r"\1", text)
    text = re.sub(r"\\[\[\]]", "", text)
    text = text.replace("\\\\", "").replace("\\", "")
    text = re.sub(r"\s+", " ", text).strip()
    return text.replace('"', "").replace("'", "").replace("~", " ")


def trace_needlebench_atc_v2(text: str) -> Traced:
    boxed = trace_boxed_answer(text, strip_double_curly_brace=True)
    return Traced(clean_atc_answer(boxed.value), boxed.rule, boxed.span) if boxed.value else Traced("None")


def needlebench_atc_postprocess_v2(text: str) -> str:
    value: str = trace_needlebench_atc_v2(text).value
    return value


def trace_infinitebench_first_number(text: str) -> Traced:
    pattern = r"\d+\.\d+|\d+"
    match = re.search(pattern, text)
    return Traced(match.group(0).strip(), pattern, match.span(), cut(*match.span())) if match \
        else Traced(None)


def infinitebench_first_number_postprocess(text: str) -> str | None:
    value: str | None = trace_infinitebench_first_number(text).value
    return value


def mathbench_postprocess(text: str, name: str) -> str:
    ans = text
    parts = ans.split("答案是" if "_cn" in name else "The answer is")
    split = len(parts) != 1
    if split:
        ans = parts[1].strip()
    numbers = re.findall(r"-?\d*\.?/?\d+|\d+", re.sub(r"(\d),(\d)", r"\1\2", ans))
    if numbers:
        return numbers[0] if split else numbers[-1]
    return ans


def strategyqa_pred_postprocess(text: str) -> str:
    text = text.split("\n\n")[0].split("answer is ")[-1]
    match = re.search(r"(yes|no)", text.lower())
    return match.group(1) if match else ""


def strategyqa_dataset_postprocess(text: object) -> str:
    return "yes" if str(text) == "True" else "no"


def trace_theoremqa(text: str) -> Traced:
    stripped = text.strip()
    lead = len(text) - len(text.lstrip())
    text = stripped
    pattern = r"answer is ([^\s]+)"
    match = re.search(pattern, text)  # findall's first
    if not match:
        return Traced(text)
    value = match.group(1).strip().strip(".,?!\"';:")
    return Traced(value, pattern, (match.start() + lead, match.end() + lead))


def theoremqa_postprocess(text: str) -> str:
    value: str = trace_theoremqa(text).value
    return value


def theoremqa_postprocess_v2(text: str) -> str:
    last = text.strip().strip("\n").split("\n")[-1]
    kept = ""
    for entry in last.split(" ")[::-1]:
        if entry in ("is", "be", "are") or entry.endswith(":"):
            break
        kept = entry + " " + kept
    return kept.strip().strip(".")


_CODE_BLOCK = r"```\w*\n(.*?)```"


def _code_block(text: str, last: bool) -> Traced:
    """The first (``last``: the last) fenced block's code, left-stripped; the text when none."""
    blocks = re.finditer(_CODE_BLOCK, text, re.DOTALL)
    match = last_match(blocks) if last else next(blocks, None)
    if match is None:
        value = text.lstrip()
        return Traced(value, source=cut(len(text) - len(value), len(text)))
    code = match.group(1)
    value = code.lstrip()
    return Traced(value, f"the {'last' if last else 'first'} code block ({_CODE_BLOCK})", match.span(),
                  cut(match.end(1) - len(value), match.end(1)))


def trace_humaneval_v2(text: str) -> Traced:
    return _code_block(text, last=False)


def humaneval_postprocess_v2(text: str) -> str:
    value: str = trace_humaneval_v2(text).value
    return value


def trace_humaneval_v3(text: str) -> Traced:
    return _code_block(text, last=True)


def humaneval_postprocess_v3(text: str) -> str:
    value: str = trace_humaneval_v3(text).value
    return value
