"""``opencompass.utils.text_postprocessors`` (OpenCompass 0.5.4), rewritten: the general-purpose
answer extractors most shipped configs name.

Each function returns what the real one returns for the same input, type included (a string, or
None where the real one gives None). Quirks are kept and said where they change a score:

- ``first_option_postprocess``: a missing comma after ``故选?\\s*([…])`` joins it to the next
  pattern, so neither matches alone (OpenCompass PR #2600); ``1.\\s?(.*?)$`` and ``(?i)ANSWER``
  make "Answer: Let's think step by step" read as an option letter when the options include
  it (#1933); and the function is not registered under its own name (see ``catalog``).
- ``general_cn_postprocess`` segments with jieba: not rewritten (``catalog`` refuses it).

May import: the standard library only.
"""

from __future__ import annotations

import re

#: ``first_option_postprocess``'s patterns in its order, ``§`` standing for the options. The
#: second line of the 故选 entry is the missing comma's doing: the two are one pattern.
_FIRST_OPTION = (
    r"答案是?\s*([§])",
    r"答案是?\s*：\s*([§])",
    r"答案是?\s*:\s*([§])",
    r"答案选项应?该?是\s*([§])",
    r"答案选项应?该?为\s*([§])",
    r"答案应该?是\s*([§])",
    r"答案应该?选\s*([§])",
    r"答案选项为?\s*：\s*([§])",
    r"答案选项为?\s+\(?\*?\*?([§])\*?\*?\)?",
    r"答案选项是?\s*:\s*([§])",
    r"答案为\s*([§])",
    r"答案选\s*([§])",
    r"选择?\s*([§])",
    r"故选?\s*([§])"
    r"只有选?项?\s?([§])\s?是?对",
    r"只有选?项?\s?([§])\s?是?错",
    r"只有选?项?\s?([§])\s?不?正确",
    r"只有选?项?\s?([§])\s?错误",
    r"说法不?对选?项?的?是\s?([§])",
    r"说法不?正确选?项?的?是\s?([§])",
    r"说法错误选?项?的?是\s?([§])",
    r"([§])\s?是正确的",
    r"([§])\s?是正确答案",
    r"选项\s?([§])\s?正确",
    r"所以答\s?([§])",
    r"所以\s?([§][.。$]?$)",
    r"所有\s?([§][.。$]?$)",
    r"[\s，：:,]([§])[。，,\.]?$",
    r"[\s，,：:][故即]([§])[。\.]?$",
    r"[\s，,：:]因此([§])[。\.]?$",
    r"[是为。]\s?([§])[。\.]?$",
    r"因此\s?([§])[。\.]?$",
    r"显然\s?([§])[。\.]?$",
    r"答案是\s?(\S+)(?:。|$)",
    r"答案应该是\s?(\S+)(?:。|$)",
    r"答案为\s?(\S+)(?:。|$)",
    r"(?i)ANSWER\s*:\s*([§])",
    r"[Tt]he answer is:?\s+\(?([§])\)?",
    r"[Tt]he answer is:?\s+\(?\*?\*?([§])\*?\*?\)?",
    r"[Tt]he answer is option:?\s+\(?([§])\)?",
    r"[Tt]he correct answer is:?\s+\(?([§])\)?",
    r"[Tt]he correct answer is option:?\s+\(?([§])\)?",
    r"[Tt]he correct answer is:?.*?boxed{([§])}",
    r"[Tt]he correct option is:?.*?boxed{([§])}",
    r"[Tt]he correct answer option is:?.*?boxed{([§])}",
    r"[Tt]he answer to the question is:?\s+\(?([§])\)?",
    r"^选项\s?([§])",
    r"^([§])\s?选?项",
    r"(\s|^)[§][\s。，,：:\.$]",
    r"1.\s?(.*?)$",
    r"1.\s?([§])[.。$]?$",
)
_CUSHION = (r"([§]):", r"([§])")


def first_option_postprocess(text: str, options: str, cushion: bool = True) -> str:
    """The first option letter the first matching pattern yields ('' when none does)."""
    patterns = _FIRST_OPTION + (_CUSHION if cushion else ())
    for pattern in patterns:
        text = text.strip()
        match = re.search(pattern.replace("§", options), text, re.DOTALL)
        if match:
            group = match.group(1)
            outputs = group if group is not None and group != "" else match.group(0)
            for option in options:
                if option in outputs:
                    return option
    return ""


def last_option_postprocess(text: str, options: str) -> str:
    found = re.findall(rf"([{options}])", text)
    return found[-1] if found else ""


def first_capital_postprocess(text: str) -> str:
    return next((c for c in text if c.isupper()), "")


def last_capital_postprocess(text: str) -> str:
    return next((c for c in reversed(text) if c.isupper()), "")


def first_capital_postprocess_multi(text: str) -> str:
    match = re.search(r"([A-D]+)", text)
    return match.group(1) if match else ""


def multiple_select_postprocess(text: str) -> str:
    return "".join(sorted({c for c in text if c.isupper()}))


def first_number_postprocess(text: str) -> float | None:
    match = re.search(r"(-?\d*\.?\d+)", text)
    return float(match.group(1)) if match else None


def general_postprocess(text: str) -> str:
    """Up to the first newline, period or comma; no punctuation, no English articles, one space."""
    cut = re.split(r"[\n.,]", text, maxsplit=1)[0]
    cut = re.sub(r"[^\w\s]", "", cut)
    cut = re.sub(r"\b(a|an|the)\b", "", cut, flags=re.IGNORECASE)
    return re.sub(r"\s+", " ", cut).strip()


def think_pred_postprocess(prediction: str, re_pattern: str) -> str:
    match = re.search(re_pattern, prediction)
    return match.group(1).strip() if match else prediction


def xml_tag_postprocessor(text: str, tag: str) -> str:
    """The last ``<tag>…</tag>``'s content, stripped (``tag`` written with its brackets)."""
    found = re.findall(rf"{tag}(.*?)</{tag[1:-1]}>", text, re.DOTALL)
    return found[-1].strip() if found else "NO ANSWER FOUND"


def match_answer_pattern(response_text: str, answer_pattern: str) -> str:
    match = re.search(answer_pattern, response_text)
    return match.group(1) if match else ""


def extract_non_reasoning_content(text: str, think_start_token: str = "<think>",
                                  think_end_token: str = "</think>") -> str:
    """The text outside ``<think>…</think>`` (after the last end tag when no start tag is there).

    The tokens go into the pattern unescaped, as the real function puts them."""
    if think_start_token not in text and think_end_token in text:
        return text.split(think_end_token)[-1].strip()
    return re.sub(rf"{think_start_token}(.*?){think_end_token}", "", text, flags=re.DOTALL).strip()
