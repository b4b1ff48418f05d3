"""Dev-only: what OpenCompass 0.5.4's own answer postprocessors and evaluators return, for the
native rewrites in ``workbench/core/answers`` to be held to.

Writes two files:

- ``workbench/core/answers/data/text_postprocessors.json``: the real ``TEXT_POSTPROCESSORS``
  registry (key -> the function's module.qualname) and, for every rewritten function, the
  dotted paths that import it (``opencompass.datasets.gsm8k_postprocess`` ->
  ``opencompass.datasets.gsm8k.gsm8k_postprocess``);
- ``tests/core/answers/goldens.json``: each rewritten function called on a few hundred model
  outputs (realistic and adversarial: reasoning, ``<think>`` blocks, full-width colons,
  ``\\boxed{}`` with nested braces, numbers with commas, "Answer: Let's think step by step"),
  with its kwargs; the result with its type, or the exception's type; and ``MATHEvaluator``'s
  ``is_equiv`` (v1, v2) and ``Gsm8kEvaluator.is_equal`` on pairs;
- ``tests/headless/goldens_general_cn.json``: ``general_cn_postprocess`` (which segments with
  jieba) on Chinese model outputs, realistic (QA answers, summaries, translations) and
  adversarial (mixed scripts, full-width punctuation, ``<think>`` blocks, numbers with commas,
  emoji, controls), with jieba's version. jieba's cache goes to a fresh folder, so the words come
  from the dictionary its package ships (a stale ``/tmp/jieba.cache`` would be read instead).

    $FWENV/bin/python tools/gen_answer_goldens.py
"""

from __future__ import annotations

import importlib
import importlib.metadata
import sys

from _shared import REPO, quiet, write_json

sys.path.insert(0, str(REPO))

from workbench.core.answers.catalog import NATIVE, SEGMENTED

DATA_OUT = REPO / "workbench" / "core" / "answers" / "data" / "text_postprocessors.json"
GOLDEN_OUT = REPO / "tests" / "core" / "answers" / "goldens.json"
CN_OUT = REPO / "tests" / "headless" / "goldens_general_cn.json"

#: Chinese outputs for general_cn_postprocess (each also wrapped in CN_WRAPS).
CN_BASE = [
    "", " ", "\n", "北京", "答案是北京。", "答案：北京", "答案: 上海市", "我认为答案是长江。",
    "中华人民共和国成立于1949年10月1日。", "他在2008年北京奥运会上获得了金牌。",
    "根据文章，小明最后去了图书馆，因为他想借一本关于人工智能的书。",
    "这篇文章主要讲述了气候变化对农业生产的影响，并提出了应对措施。",
    "总结：会议讨论了预算、人员安排和下一季度的目标。\n第二，确定了负责人。",
    "The answer is 北京.", "答案是 Beijing, the capital.", "I think 答案是 A。", "是", "不是", "对", "错",
    "共有1,234人参加了比赛。", "价格是$29.00元。", "约为3.14159", "百分之五十（50%）",
    "第一名：张三；第二名：李四",
    "“你好，”他说，“今天天气很好。”", "《红楼梦》的作者是曹雪芹。", "他说：\u201c我不知道。\u201d",
    "<think>\n先想一想：北京还是上海？\n</think>\n答案是北京。", "推理过程</think>最终答案：南京",
    "答案是北京😀", "\x1b[31m北京\x1b[0m", "北\u200b京", "\u202e京北", "ＡＢＣ全角字母１２３", "　全角空格　",
    "台北市是臺灣的首都。", "研究生命的起源", "结婚的和尚未结婚的", "南京市长江大桥", "乒乓球拍卖完了",
    "他说的确实在理", "一次性交多少钱", "小明硕士毕业于中国科学院计算所，后在日本京都大学深造",
    "我来到北京清华大学", "他来到了网易杭研大厦",
    "工信处女干事每月经过下属科室都要亲口交代24口交换机等技术性器件的安装工作",
    "a, b. c\nd", "the answer, an apple. The end", "1. 北京\n2. 上海\n3. 广州", "答案：\t北京\t",
    "(A) 北京 (B) 上海",
    "北京" * 50,
]
CN_WRAPS = ["{}", "让我想想。{}", "{}\n\n以上是我的回答。", "<think>\n嗯，1,000还是100？\n</think>\n{}"]

#: Answers a model writes, as they are (each also wrapped below).
BASE = [
    "", " ", "\n", "A", "B.", "(C)", "D)", "E", "answer: B", "Answer: C", "ANSWER:D",
    "Answer: Let's think step by step.", "Let's think step by step. The answer is (B).",
    "The answer is (J).", "The answer is J", "the answer is: **C**", "The correct answer is option B",
    "The correct answer is: \\boxed{D}", "The correct option is \\boxed{A}.", "答案是B", "答案是：C",
    "答案：D", "答案: A", "答案为 B。", "答案选项为：C", "故选D", "故选D只有选项A是对",
    "所以答案是C。", "所以C",
    "因此A。", "显然 B.", "选项B正确", "A是正确的", "只有选项C不正确", "说法错误的是D", "正确答案是 (B)",
    "我认为答案是Ｂ", "答案是：Ｃ", "答案：B，因为……", "1. A", "1.B", "1. The first step",
    "Option A is wrong; B.",
    "<think>Maybe A? No, C.</think>The answer is B", "<think>The answer is A</think>\n\nAnswer: D",
    "reasoning without a start tag</think> The answer is C", "<think>unfinished thinking about A",
    "Natalia sold 48 clips in April and 24 in May, 72 in total.\n#### 72", "The answer is 1,234.",
    "So she has $29.00 left.", "He pays 1,234,567 dollars in total.", "-5 degrees", "3.14159 is pi",
    "The answer is -0.5", "It costs $1,000.50.", "Answer: 18\n\nQuestion: next one? 99", "0.0001 or 1e-5",
    "Final Answer: The final answer is $\\frac{1}{2}$. I hope it is correct.",
    "So the answer is \\boxed{\\frac{\\sqrt{3}}{2}}.", "\\boxed{{1,2}}", "\\boxed{x^{2}+1}", "\\boxed{5",
    "\\fbox{7}", "The answer is \\boxed{\\text{(A)}}", "$x = 5$", "x=5", "\\dfrac{3}{4}", "0.5", "1/2",
    "10\\%", "\\left( 3, 4 \\right)", "90^\\circ", "\\sqrt2", "\\text{ cm}", "k = 7", "\\infty", "\\$5.00",
    "The final answer is 42 dollars.", "answer is 3 and 4", "The answer is yes.", "So the answer is No",
    "The answer is: true", "**False**", "answer is 1, 2, 3", "answer is a, b ,c.", "The answer is (A) (B)",
    "```python\ndef f():\n    return 1\n```", "Here:\n```\nprint(1)\n```\nand\n```py\nprint(2)\n```",
    "    return x + 1\n", "<conclude>B</conclude>", "<conclude> first </conclude> <conclude>last</conclude>",
    "The answer is: Bob Smith", "\\boxed{\\text{Alice}}", "\\boxed{Jack \"J\" O'Neil~Jr}",
    "名字是 \\boxed{张三}",
    "The answer is 12 apples and 3 pears.", "答案是 3.5", "The answer is 2/3.", "The answer is -7,000",
    "yes", "no", "I think so. The answer is no.\n\nActually yes.", "AB", "ABCD", "The options A and C",
    "(A) and (D) are correct", "\x1b[31mA\x1b[0m", "\u202eB", "A\u200b", "ＡＢＣ", "ⓐ", "Ⅳ",
    "The answer is \\boxed{}", "\\boxed{ }", "answer is \\boxed{\\boxed{3}}", "\\boxed{a}{b}",
    "((((((((((", "}}}}{{{{", "$$$$", "....", "1,2,3,4,5", "0", "00012", "12.", ".5", "-.5",
    "Question: what? 5", "答案是Ａ。", "答：B", "故选：C", "选C", "选择 D", "答案应该是A", "答案选项应该是B",
    "B错了，只有C是对的", "D不对，只有选项A是对的。", "B和D都错，故选C只有A是对", "只有B是错",
    "Answer: Let's think. 1. First, B is wrong", "Answer:\nLet me see", "ANSWER : (E)",
]

WRAPS = [
    "{}", "Let me think. {}", "{}\n", "<think>\nhmm, A or B, 100 or 1,000\n</think>\n{}",
    "First, 3 + 4 = 7. Then 7 * 2 = 14.\n{}", "{} Therefore the answer is (C).",
]

OPTIONS = ["ABCD", "ABCDEFGHIJ", "ABCDE", "ABCDEFGHIJKLMNOP"]

#: (function path, kwargs variants): every rewritten function with the kwargs configs give it.
CALLS: dict[str, list[dict]] = {path: [{}] for path in NATIVE}
_TEXT = "opencompass.utils.text_postprocessors."
CALLS[_TEXT + "first_option_postprocess"] = [{"options": o} for o in OPTIONS] + [
    {"options": "ABCD", "cushion": False}]
CALLS[_TEXT + "last_option_postprocess"] = [{"options": o} for o in OPTIONS[:2]]
CALLS[_TEXT + "match_answer_pattern"] = [
    {"answer_pattern": r"(?i)ANSWER\s*:\s*([A-D])"},
    {"answer_pattern": r"(?i)ANSWER\s*:\s*([A-J])"},
    {"answer_pattern": r"(?i)ANSWER\s*:\s*\$?([^\n]+)"},
    {"answer_pattern": r"(?i)答案\s*[:：]\s*([A-D])"},
]
CALLS[_TEXT + "think_pred_postprocess"] = [{"re_pattern": r"</think>\s*(.*)"}]
CALLS[_TEXT + "xml_tag_postprocessor"] = [{"tag": "<conclude>"}]
CALLS[_TEXT + "extract_non_reasoning_content"] = [{}, {"think_start_token": "<reason>",
                                                      "think_end_token": "</reason>"}]
CALLS["opencompass.datasets.mathbench.mathbench_postprocess"] = [{"name": "college"}, {"name": "college_cn"}]

#: What a recorded prediction can be besides a string (a number, null, a list of turns, an object):
#: the real functions raise on most, and the pair's error quotes the exception.
ODD_INPUTS = [None, 5, 3.5, True, {"a": 1}, ["A", "B"]]

EQUIV_REFS = ["5", "\\frac{1}{2}", "72", "1234", "29", "3.5", "(3,4)", "\\sqrt{3}/2", "\\frac{\\sqrt{3}}{2}",
              "x^2+1", "10", "90", "7", "\\infty", "-0.5", "2/3", "42", "A", "0", ""]


def typed(value):
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"type": type(value).__name__, "value": value}
    return {"type": type(value).__name__, "value": repr(value)}


def call(function, *args, **kwargs):
    try:
        return typed(function(*args, **kwargs))
    except Exception as exc:  # the golden records which exception the real one raised
        return {"raises": type(exc).__name__}


def call_said(function, *args, **kwargs):
    """:func:`call`, with the exception's message too (what the pair's error quotes)."""
    try:
        return typed(function(*args, **kwargs))
    except Exception as exc:
        return {"raises": type(exc).__name__, "message": str(exc)}


def texts() -> list[str]:
    out = []
    for wrap in WRAPS:
        out += [wrap.format(base) for base in BASE]
    return list(dict.fromkeys(out))


def registry_table() -> dict:
    import opencompass.datasets
    import opencompass.utils.text_postprocessors  # noqa: F401
    from opencompass.registry import TEXT_POSTPROCESSORS

    registry = {key: f"{fn.__module__}.{fn.__qualname__}"
                for key, fn in sorted(TEXT_POSTPROCESSORS.module_dict.items())}
    aliases = {}
    for path in [*NATIVE, *SEGMENTED]:
        module, name = path.rsplit(".", 1)
        function = getattr(importlib.import_module(module), name)
        parts = module.split(".")
        for cut in range(1, len(parts)):
            prefix = ".".join(parts[:cut])
            try:
                if getattr(importlib.import_module(prefix), name, None) is function:
                    aliases[f"{prefix}.{name}"] = path
            except ImportError:
                continue
    return {"opencompass": importlib.metadata.version("opencompass"), "registry": registry,
            "import_paths": dict(sorted(aliases.items()))}


def goldens() -> dict:
    from opencompass.datasets.gsm8k import Gsm8kEvaluator
    from opencompass.datasets.math import MATHEvaluator

    corpus = texts()
    cases = []
    for path, variants in CALLS.items():
        module, name = path.rsplit(".", 1)
        function = getattr(importlib.import_module(module), name)
        for kwargs in variants:
            cases.append({"function": path, "kwargs": kwargs,
                          "results": [call(function, text, **kwargs) for text in corpus],
                          "odd_results": [call_said(function, odd, **kwargs) for odd in ODD_INPUTS]})
    extracted = sorted({r["value"] for c in cases if "math_postprocess" in c["function"]
                        for r in c["results"] if isinstance(r.get("value"), str)})[:400]
    equiv = []
    for version in ("v1", "v2"):
        evaluator = MATHEvaluator(version=version)
        equiv.append({"version": version, "results": [
            [pred, ref, call(evaluator.is_equiv, pred, ref)] for pred in extracted for ref in EQUIV_REFS]})
    gsm = Gsm8kEvaluator()
    numbers = sorted({r["value"] for c in cases if c["function"].endswith("gsm8k_postprocess")
                      for r in c["results"] if isinstance(r.get("value"), str)})
    is_equal = [[pred, ref, call(gsm.is_equal, pred, ref)] for pred in numbers for ref in
                ["72", "1234", "29", "5", "-5", "3.5", "0"]]
    return {"opencompass": importlib.metadata.version("opencompass"), "texts": corpus,
            "odd_inputs": ODD_INPUTS, "cases": cases, "math_equiv": equiv, "gsm8k_is_equal": is_equal}


def general_cn_goldens() -> dict:
    import tempfile

    import jieba
    from opencompass.utils.text_postprocessors import general_cn_postprocess

    jieba.setLogLevel(60)
    jieba.dt.tmp_dir = tempfile.mkdtemp(prefix="jieba-")  # not a cache another run left in /tmp
    corpus = list(dict.fromkeys(wrap.format(base) for wrap in CN_WRAPS for base in CN_BASE))
    results = [call(general_cn_postprocess, text) for text in corpus]
    results.append(call(general_cn_postprocess, None))
    return {"opencompass": importlib.metadata.version("opencompass"),
            "jieba": importlib.metadata.version("jieba"), "texts": [*corpus, None], "results": results}


def main() -> int:

    with quiet():
        table = registry_table()
        data = goldens()
        chinese = general_cn_goldens()
    write_json(DATA_OUT, table)
    write_json(GOLDEN_OUT, data)
    write_json(CN_OUT, chinese)
    print(f"{len(table['registry'])} registry keys -> {DATA_OUT.relative_to(REPO)}; "
          f"{len(data['texts'])} texts x {len(data['cases'])} calls -> {GOLDEN_OUT.relative_to(REPO)}; "
          f"{len(chinese['texts'])} Chinese texts -> {CN_OUT.relative_to(REPO)}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
