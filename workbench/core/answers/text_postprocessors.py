"""``opencompass.utils.text_postprocessors`` (OpenCompass 0.5.4), rewritten: the general-purpose
answer extractors most shipped configs name.

Each function returns what the real one returns for the same input, type included (a string, or
None where the real one gives None). Quirks are kept and said where they change a score:

- ``first_option_postprocess``: a missing comma after ``故选?\\s*([…])`` joins it to the next
  pattern, so neither matches alone (OpenCompass PR #2600); ``1.\\s?(.*?)$`` and ``(?i)ANSWER``
  make "Answer: Let's think step by step" read as an option letter when the options include
  it (#1933); and the function is not registered under its own name (see ``catalog``).
- ``general_cn_postprocess`` cleans the text's first clause and throws it away: it returns the
  whole text segmented by jieba, which reaches it as ``segment`` (the core reads no dictionary).

The functions with a notion of matching compute their value through a ``trace_*`` function
(:class:`~.trace.Traced`: the pattern that matched and the span it read); the plain function is
that value.

May import: the standard library and ``.trace``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from .trace import Traced, cut, joined, last_match, stripped, whole

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


def trace_first_option(text: str, options: str, cushion: bool = True) -> Traced:
    """The first option letter the first matching pattern yields ('' when none does)."""
    patterns = _FIRST_OPTION + (_CUSHION if cushion else ())
    stripped = text.strip()  # the real one strips in every round of its loop: once is the same
    lead = len(text) - len(text.lstrip())
    text = stripped
    for pattern in patterns:
        written = pattern.replace("§", options)
        match = re.search(written, text, re.DOTALL)
        if match:
            group = match.group(1)
            outputs = group if group is not None and group != "" else match.group(0)
            for option in options:
                if option in outputs:
                    return Traced(option, written, (match.start() + lead, match.end() + lead))
    return Traced("")


def first_option_postprocess(text: str, options: str, cushion: bool = True) -> str:
    value: str = trace_first_option(text, options, cushion).value
    return value


def trace_last_option(text: str, options: str) -> Traced:
    pattern = re.compile(rf"([{options}])")
    if pattern.groups != 1:  # findall would give tuples: no single match to name
        found = pattern.findall(text)
        return Traced(found[-1] if found else "")
    match = last_match(pattern.finditer(text))
    return Traced(match.group(1), pattern.pattern, match.span(), cut(*match.span(1))) if match \
        else Traced("")


def last_option_postprocess(text: str, options: str) -> str:
    value: str = trace_last_option(text, options).value
    return value


def trace_first_capital(text: str) -> Traced:
    at = next((i for i, c in enumerate(text) if c.isupper()), None)
    return Traced(text[at], "the first uppercase letter", (at, at + 1), cut(at, at + 1)) if at is not None \
        else Traced("")


def first_capital_postprocess(text: str) -> str:
    value: str = trace_first_capital(text).value
    return value


def trace_last_capital(text: str) -> Traced:
    backwards = text[::-1]  # as the real one walks it (and fails where that fails)
    at = next((len(text) - 1 - i for i, c in enumerate(backwards) if c.isupper()), None)
    return Traced(text[at], "the last uppercase letter", (at, at + 1), cut(at, at + 1)) if at is not None \
        else Traced("")


def last_capital_postprocess(text: str) -> str:
    value: str = trace_last_capital(text).value
    return value


def _first_group(pattern: str, text: str) -> Traced:
    """``re.search(pattern, text).group(1)`` ('' when nothing matches)."""
    match = re.search(pattern, text)
    if not match:
        return Traced("")
    source = cut(*match.span(1)) if match.group(1) is not None else None
    return Traced(match.group(1), pattern, match.span(), source)


def trace_first_capital_multi(text: str) -> Traced:
    return _first_group(r"([A-D]+)", text)


def first_capital_postprocess_multi(text: str) -> str:
    value: str = trace_first_capital_multi(text).value
    return value


def multiple_select_postprocess(text: str) -> str:
    return "".join(sorted({c for c in text if c.isupper()}))


def trace_first_number(text: str) -> Traced:
    pattern = r"(-?\d*\.?\d+)"
    match = re.search(pattern, text)
    return Traced(float(match.group(1)), pattern, match.span()) if match else Traced(None)


def first_number_postprocess(text: str) -> float | None:
    value: float | None = trace_first_number(text).value
    return value


def general_postprocess(text: str) -> str:
    """Up to the first newline, period or comma; no punctuation, no English articles, one space."""
    head = re.split(r"[\n.,]", text, maxsplit=1)[0]
    head = re.sub(r"[^\w\s]", "", head)
    head = re.sub(r"\b(a|an|the)\b", "", head, flags=re.IGNORECASE)
    return re.sub(r"\s+", " ", head).strip()


#: A word segmenter: jieba's ``cut`` with its shipped dictionary (``loading/chinese_segmenter``).
Segment = Callable[[str], Iterable[str]]


def general_cn_postprocess(text: str, segment: Segment) -> str:
    """The whole text's words joined by spaces. The real one first computes what
    general_postprocess would (which raises on a non-string, as here) and then overwrites it."""
    general_postprocess(text)
    return " ".join(segment(text))


def _group_stripped(match: re.Match[str], rule: str) -> Traced:
    """``match.group(1).strip()``, traced (AttributeError on a group that did not take part, as
    the real ``.strip()`` raises)."""
    group = match.group(1)
    value, source = stripped(cut(*match.span(1)), group)
    return Traced(value, rule, match.span(), source)


def trace_think_pred(prediction: str, re_pattern: str) -> Traced:
    match = re.search(re_pattern, prediction)
    return _group_stripped(match, re_pattern) if match else Traced(prediction, source=whole(prediction))


def think_pred_postprocess(prediction: str, re_pattern: str) -> str:
    value: str = trace_think_pred(prediction, re_pattern).value
    return value


def trace_xml_tag(text: str, tag: str) -> Traced:
    """The last ``<tag>…</tag>``'s content, stripped (``tag`` written with its brackets)."""
    pattern = re.compile(rf"{tag}(.*?)</{tag[1:-1]}>", re.DOTALL)
    if pattern.groups != 1:  # findall would give tuples (and .strip() raise): as the real one
        found = pattern.findall(text)
        return Traced(found[-1].strip() if found else "NO ANSWER FOUND")
    match = last_match(pattern.finditer(text))
    return _group_stripped(match, pattern.pattern) if match else Traced("NO ANSWER FOUND")


def xml_tag_postprocessor(text: str, tag: str) -> str:
    value: str = trace_xml_tag(text, tag).value
    return value


def trace_match_answer_pattern(response_text: str, answer_pattern: str) -> Traced:
    return _first_group(answer_pattern, response_text)


def match_answer_pattern(response_text: str, answer_pattern: str) -> str:
    value: str = trace_match_answer_pattern(response_text, answer_pattern).value
    return value


def trace_non_reasoning(text: str, think_start_token: str = "<think>",
                        think_end_token: str = "</think>") -> Traced:
    """The text outside ``<think>…</think>`` (after the last end tag when no start tag is there),
    with where it sits in ``text``: a cut, not a match (``rule`` stays None).

    The tokens go into the pattern unescaped, as the real function puts them."""
    if think_start_token not in text and think_end_token in text:
        tail = text.split(think_end_token)[-1]  # the last piece of a split is the text's suffix
        value, source = stripped(cut(len(text) - len(tail), len(text)), tail)
        return Traced(value, source=source)
    pieces, at = [], 0
    for match in re.finditer(rf"{think_start_token}(.*?){think_end_token}", text, flags=re.DOTALL):
        pieces.append((at, match.start()))  # re.sub(pattern, "", text) keeps what lies between
        at = match.end()
    pieces.append((at, len(text)))
    kept = "".join(text[a:b] for a, b in pieces)
    value, source = stripped(joined(pieces), kept)
    return Traced(value, source=source)


def extract_non_reasoning_content(text: str, think_start_token: str = "<think>",
                                  think_end_token: str = "</think>") -> str:
    value: str = trace_non_reasoning(text, think_start_token, think_end_token).value
    return value
