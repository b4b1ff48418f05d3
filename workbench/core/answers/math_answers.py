"""``opencompass.datasets.math`` (OpenCompass 0.5.4), rewritten: the last ``\\boxed{}`` (braces
counted), ``normalize_final_answer``, ``math_postprocess`` (v1, v2) and ``MATHEvaluator``'s
equivalence (``version='v1'`` / ``'v2'``), exceptions and all: where the real code raises inside
a ``try``, the rewrite raises too, so the same branch is taken. ``trace_math_postprocess`` (v1,
v2) says which rule produced the answer (the last ``\\boxed{}``, the sentence with "final answer",
the first sentence) and where it read it.

May import: the standard library and ``.trace``.
"""

from __future__ import annotations

import re

from .trace import Traced

_SUBSTITUTIONS = (("an ", ""), ("a ", ""), (".$", "$"), ("\\$", ""), (r"\ ", ""), (" ", ""),
                  ("mbox", "text"), (",\\text{and}", ","), ("\\text{and}", ","),
                  ("\\text{m}", "\\text{}"), ("\\le", "<"))
_REMOVED = ("square", "ways", "integers", "dollars", "mph", "inches", "ft", "hours", "km", "units",
            "\\ldots", "sue", "points", "feet", "minutes", "digits", "cents", "degrees", "cm", "gm",
            "pounds", "meters", "meals", "edges", "students", "childrentickets", "multiples",
            "\\text{s}", "\\text{.}", "\\text{\ns}", "\\text{}^2", "\\text{}^3", "\\text{\n}",
            "\\text{}", r"\mathrm{th}", r"^\circ", r"^{\circ}", r"\;", r",\!", "{,}", '"', "\\dots",
            "\n", "\r", "\f")


def _last_boxed(text: str) -> tuple[int, int] | None:
    """The span from the last ``\\boxed`` (else ``\\fbox``) to the brace that closes its first one."""
    start = text.rfind("\\boxed")
    if start < 0:
        start = text.rfind("\\fbox")
        if start < 0:
            return None
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return start, i + 1
    return None


def _remove_boxed(text: str) -> str | None:
    left = "\\boxed{"
    if text[:len(left)] == left and text[-1:] == "}":
        return text[len(left):-1]
    return None


def trace_boxed_answer(text: str, strip_double_curly_brace: bool = False) -> Traced:
    """``extract_boxed_answer``'s value, with the last box's span as what it read."""
    span = _last_boxed(text)
    answer = _remove_boxed(text[span[0]:span[1]]) if span is not None else None
    if answer is None or span is None:
        return Traced(None)
    if strip_double_curly_brace:
        match = re.match("^\\{(.*)\\}$", answer)
        if match:
            answer = match.group(1)
    return Traced(answer, "the last \\boxed{…}", span)


def extract_boxed_answer(text: str, strip_double_curly_brace: bool = False) -> str | None:
    value: str | None = trace_boxed_answer(text, strip_double_curly_brace).value
    return value


def normalize_final_answer(final_answer: str) -> str:
    """Raises AssertionError on a newline left after the substitutions, as the real one does
    (it cannot happen: they remove every ``\\n``, ``\\r`` and ``\\f``)."""
    for before, after in _SUBSTITUTIONS:
        final_answer = final_answer.replace(before, after)
    for expr in _REMOVED:
        final_answer = final_answer.replace(expr, "")
    final_answer = re.sub(r"(\\text\{)\((.*?)\)(\})", "\\2", final_answer)
    final_answer = re.sub(r"(\\text\{)(.*?)(\})", "\\2", final_answer)
    final_answer = re.sub(r"(\\textbf\{)(.*?)(\})", "\\2", final_answer)
    final_answer = re.sub(r"(\\overline\{)(.*?)(\})", "\\2", final_answer)
    final_answer = re.sub(r"(\\boxed\{)(.*)(\})", "\\2", final_answer)
    for pattern in (r"finalansweris(.*)", r"answer?is:?(.*)", r"oxed\{(.*?)\}", r"\$(.*?)\$"):
        found = re.findall(pattern, final_answer)
        if found:
            final_answer = found[-1]
    final_answer = final_answer.strip()
    if "rac" in final_answer and "\\frac" not in final_answer:
        final_answer = final_answer.replace("rac", "\\frac")
    final_answer = re.sub(r"(frac)([^{])(.)", "frac{\\2}{\\3}", final_answer)
    final_answer = re.sub(r"(sqrt)([^{])", "sqrt{\\2}", final_answer)
    final_answer = final_answer.replace("$", "")
    if final_answer.replace(",", "").isdigit():
        final_answer = final_answer.replace(",", "")
    return final_answer


def _sentence(text: str, said: str, v2: bool) -> Traced:
    """The first '.'-separated piece that says the answer (else the first piece), normalised."""
    at = 0
    pieces = text.split(".")
    for piece in pieces:
        found = re.search("final answer|answer is", piece.lower()) if v2 else "final answer" in piece.lower()
        if found:
            return Traced(normalize_final_answer(piece), f"the first sentence with {said}",
                          (at, at + len(piece)))
        at += len(piece) + 1
    first = pieces[0]
    return Traced(normalize_final_answer(first), f"the first sentence (none has {said})", (0, len(first)))


def trace_math_postprocess(text: str) -> Traced:
    return _sentence(text, "'final answer'", v2=False)


def math_postprocess(text: str) -> str:
    value: str = trace_math_postprocess(text).value
    return value


def trace_math_postprocess_v2(text: str) -> Traced:
    boxed = trace_boxed_answer(text, strip_double_curly_brace=True)
    if boxed.value:
        return boxed
    return _sentence(text, "'final answer' or 'answer is'", v2=True)


def math_postprocess_v2(text: str) -> str:
    value: str = trace_math_postprocess_v2(text).value
    return value


def _fix_fracs(string: str) -> str:
    pieces = string.split("\\frac")
    out = pieces[0]
    for piece in pieces[1:]:
        out += "\\frac"
        if piece[:1] == "{":
            out += piece
            continue
        if len(piece) < 2:
            return string
        a, b, rest = piece[0], piece[1], piece[2:]
        out += "{" + a + "}{" + b + "}" + rest if b != "{" else "{" + a + "}" + b + rest
    return out


def _fix_a_slash_b(string: str) -> str:
    parts = string.split("/")
    if len(parts) != 2:
        return string
    a, b = int(parts[0]), int(parts[1])  # ValueError propagates, as in the real one
    if string != f"{a}/{b}":
        return string
    return "\\frac{" + str(a) + "}{" + str(b) + "}"


def _remove_right_units(string: str) -> str:
    if "\\text{ " in string:
        splits = string.split("\\text{ ")
        if len(splits) != 2:
            raise AssertionError("more than one \\text{ ")
        return splits[0]
    return string


def _fix_sqrt(string: str) -> str:
    if "\\sqrt" not in string:
        return string
    splits = string.split("\\sqrt")
    out = splits[0]
    for split in splits[1:]:
        if split[0] != "{":  # IndexError on "\sqrt" at the end, as in the real one
            out += "\\sqrt{" + split[0] + "}" + split[1:]
        else:
            out += "\\sqrt" + split
    return out


def _equal_sides(string: str) -> str:
    sides = string.split("=")
    return sides[1] if len(sides) == 2 and len(sides[0]) <= 2 else string


def strip_string_v1(string: str) -> str:
    string = string.replace("\n", "").replace("\\!", "").replace("\\\\", "\\")
    string = string.replace("tfrac", "frac").replace("dfrac", "frac")
    string = string.replace("\\left", "").replace("\\right", "")
    string = string.replace("^{\\circ}", "").replace("^\\circ", "").replace("\\$", "")
    string = _remove_right_units(string)
    string = string.replace("\\%", "").replace("\\%", "")
    string = string.replace(" .", " 0.").replace("{.", "{0.")
    if not string:
        return string
    if string[0] == ".":
        string = "0" + string
    string = _equal_sides(string)
    string = _fix_sqrt(string).replace(" ", "")
    string = _fix_fracs(string)
    if string == "0.5":
        string = "\\frac{1}{2}"
    return _fix_a_slash_b(string)


def strip_string_v2(string: str) -> str:
    string = str(string).strip().replace("\n", "").rstrip(".")
    string = string.replace("\\!", "").replace("\\ ", "")
    string = string.replace("\\\\", "\\").replace("\\\\", "\\")
    string = string.replace("tfrac", "frac").replace("dfrac", "frac")
    string = string.replace("\\left", "").replace("\\right", "")
    cut = re.sub(r"\\text{.*?}$", "", string).strip()
    if cut != "" and cut != string:
        string = cut
    string = string.replace("^{\\circ}", "").replace("^\\circ", "")
    string = string.replace("\\$", "").replace("$", "")
    string = string.replace("\\text", "").replace("x\\in", "")
    string = string.replace("\\%", "").replace("\\%", "").replace("%", "")
    string = string.replace(" .", " 0.").replace("{.", "{0.")
    string = string.replace("\\cdot", "")
    string = string.replace("infinity", "\\infty")
    if "\\infty" not in string:
        string = string.replace("inf", "\\infty")
    string = string.replace("+\\inity", "\\infty")
    string = string.replace("and", "").replace("\\mathbf", "")
    string = re.sub(r"\\mbox{.*?}", "", string)
    if "j" in string and "i" not in string:
        string = string.replace("j", "i")
    string = re.sub(r"(\d+)\.0+([^\d])", r"\1\2", string)
    string = re.sub(r"(\d+)\.0+$", r"\1", string)
    if not string:
        return string
    if string[0] == ".":
        string = "0" + string
    string = _equal_sides(string)
    string = re.sub(r"\\sqrt(\w+)", r"\\sqrt{\1}", string).replace(" ", "")
    return _fix_a_slash_b(_fix_fracs(string))


def math_equivalent(pred: object, ref: object, version: str = "v1") -> bool:
    """``MATHEvaluator(version=...).is_equiv(pred, ref)``."""
    if pred is None and ref is None:
        return True
    if pred is None or ref is None:
        return False
    strip = strip_string_v1 if version == "v1" else strip_string_v2
    try:
        a, b = strip(pred), strip(ref)  # type: ignore[arg-type]
        if a == b:
            return True
        if normalize_final_answer(a) == normalize_final_answer(b):
            return True
    except Exception:  # the real one swallows every error here
        pass
    try:
        if normalize_final_answer(pred) == normalize_final_answer(ref):  # type: ignore[arg-type]
            return True
    except Exception:
        pass
    return pred == ref
