"""The postprocessors of OpenCompass 0.5.4's dataset modules, rewritten (gsm8k, bbh, needlebench,
mathbench, InfiniteBench, strategyqa, TheoremQA, humaneval).

Quirks kept, and said by ``catalog`` where they change a score: ``gsm8k_postprocess`` takes the
last number and its pattern has no thousands separator, so ``1,234`` reads as ``234``;
``gsm8k_dataset_postprocess`` raises IndexError on a reference without ``#### ``.

May import: the standard library and ``.math_answers``.
"""

from __future__ import annotations

import re

from .math_answers import extract_boxed_answer


def gsm8k_postprocess(text: str) -> str:
    numbers = re.findall(r"\-?\d+\.\d+|\-?\d+", text.split("Question:")[0])
    return numbers[-1] if numbers else "NULL"


def gsm8k_dataset_postprocess(text: str) -> str:
    return text.split("#### ")[1].replace(",", "")


def bbh_mcq_postprocess(text: str) -> str:
    ans = text
    parts = ans.split("answer is ")
    if len(parts) != 1:
        ans = parts[1].strip()
    match = re.search(r"\(([A-Z])\)*", ans) or re.search(r"([A-Z])", ans)
    return match.group(1) if match else ans


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


def needlebench_atc_postprocess_v2(text: str) -> str:
    boxed = extract_boxed_answer(text, strip_double_curly_brace=True)
    return clean_atc_answer(boxed) if boxed else "None"


def infinitebench_first_number_postprocess(text: str) -> str | None:
    match = re.search(r"\d+\.\d+|\d+", text)
    return match.group(0).strip() if match else None


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


def theoremqa_postprocess(text: str) -> str:
    text = text.strip()
    found = re.findall(r"answer is ([^\s]+)", text)
    return found[0].strip().strip(".,?!\"';:") if found else text


def theoremqa_postprocess_v2(text: str) -> str:
    last = text.strip().strip("\n").split("\n")[-1]
    kept = ""
    for entry in last.split(" ")[::-1]:
        if entry in ("is", "be", "are") or entry.endswith(":"):
            break
        kept = entry + " " + kept
    return kept.strip().strip(".")


def humaneval_postprocess_v2(text: str) -> str:
    blocks = re.findall(r"```\w*\n(.*?)```", text, re.DOTALL)
    return (blocks[0] if blocks else text).lstrip()


def humaneval_postprocess_v3(text: str) -> str:
    blocks = re.findall(r"```\w*\n(.*?)```", text, re.DOTALL)
    return (blocks[-1] if blocks else text).lstrip()
