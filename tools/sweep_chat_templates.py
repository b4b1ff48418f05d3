"""Dev-only: hold the workbench's chat-template engine to transformers on templates the tests
do not have (a folder of ``.jinja`` files: real models' templates, say).

Two steps, two venvs (nothing is written under ``tests/``):

    $FWENV/bin/python tools/sweep_chat_templates.py make TEMPLATES_DIR OUT.json
    .venv/bin/python tools/sweep_chat_templates.py check OUT.json

``make`` builds a model folder for every ``*.jinja`` under TEMPLATES_DIR (the template as
``chat_template.jinja``, the test tokenizer, special tokens ``<s>``/``</s>``/``<unk>``/``<pad>``),
loads it with ``AutoTokenizer`` and records ``apply_chat_template`` for each message set of
``gen_chat_template_goldens.py`` in four versions (as written, then the same turns with other
contents: longer, padded with blanks, holding Jinja-looking text and a special token) and
both ``add_generation_prompt`` values: the text, or the template's error. ``strftime_now``
reads the goldens' fixed clock.

``check`` renders the same with ``render_chat_template``, the versions in that order, so that
the later ones are spliced into the outline the first one recorded (:mod:`chat_outline`), the
path a suite's rows take; and each again with ``reuse=False`` (the template run). A line per
template, the first difference, and exit 1 on any.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from _shared import REPO, check_step, tokenizer_fixture, write_json

TOKENS = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"}

#: The versions of a message set: the same roles and turns, other contents.
VERSIONS = {
    "as written": lambda text: text,
    "longer": lambda text: f"{text} and then some more words",
    "padded": lambda text: f"  {text}\n\n ",
    "jinja-looking": lambda text: "{{ messages }} {% if %} " + text + "</s><|im_end|>",
}


def _versions(messages: list[dict]) -> dict[str, list[dict]]:
    return {name: [{**m, "content": change(m["content"])} for m in messages]
            for name, change in VERSIONS.items()}


def make(templates: Path, out: Path) -> int:
    from datetime import datetime

    import transformers
    import transformers.utils.chat_template_utils as ctu
    from gen_chat_template_goldens import FIXED_NOW, MESSAGES
    from transformers import AutoTokenizer

    class _Clock(datetime):
        @classmethod
        def now(cls, tz: Any = None) -> datetime:  # type: ignore[override]
            return FIXED_NOW

    ctu.datetime = _Clock  # strftime_now reads the module's datetime at call time
    write_model_folder = tokenizer_fixture().write_model_folder
    cases = []
    files = sorted(templates.rglob("*.jinja"))
    for path in files:
        source = path.read_bytes().decode("utf-8")
        name = str(path.relative_to(templates))
        with tempfile.TemporaryDirectory() as tmp:
            folder = write_model_folder(Path(tmp) / "model", source, dict(TOKENS), as_jinja_file=True)
            try:
                tok = AutoTokenizer.from_pretrained(str(folder))
            except Exception as exc:  # a template transformers cannot load
                cases.append({"template": name, "load_error": f"{type(exc).__name__}: {exc}"})
                continue
            for set_name, base in MESSAGES.items():
                for version, messages in _versions(base).items():
                    for agp in (True, False):
                        case: dict[str, Any] = {"template": name, "messages": set_name,
                                                "version": version, "add_generation_prompt": agp,
                                                "conversation": messages}
                        try:
                            case["text"] = tok.apply_chat_template(messages, add_generation_prompt=agp,
                                                                   tokenize=False)
                        except Exception as exc:  # the template's own refusal
                            case["error"] = f"{type(exc).__name__}: {exc}"
                        cases.append(case)
    write_json(out, {"generator": "tools/sweep_chat_templates.py", "transformers": transformers.__version__,
                     "fixed_now": FIXED_NOW.isoformat(), "templates_dir": str(templates), "tokens": TOKENS,
                     "cases": cases})
    print(f"{len(files)} templates, {len(cases)} cases -> {out}")
    return 0


def check(goldens: Path) -> int:
    from datetime import datetime

    sys.path.insert(0, str(REPO))
    from workbench.core.tokens.chat_apply import render_chat_template
    from workbench.core.tokens.chat_template import ChatTemplate, ChatTemplateError

    document = json.loads(goldens.read_text(encoding="utf-8"))
    root = Path(document["templates_dir"])
    now = datetime.fromisoformat(document["fixed_now"])
    by_template: dict[str, list[dict]] = {}
    for case in document["cases"]:
        by_template.setdefault(case["template"], []).append(case)
    agree = differ = 0
    for name, cases in by_template.items():
        if "load_error" in cases[0]:
            print(f"skip {name}: transformers cannot load it ({cases[0]['load_error'][:100]})")
            continue
        path = root / name
        template = ChatTemplate(path.read_bytes().decode("utf-8"), origin=name, file=str(path))
        problem = None
        for case in cases:
            for reuse in (True, False):
                try:
                    got: str | None = render_chat_template(
                        template, case["conversation"], add_generation_prompt=case["add_generation_prompt"],
                        special_tokens=document["tokens"], clock=lambda: now, reuse=reuse)
                    error = None
                except ChatTemplateError as exc:
                    got, error = None, exc.template_message
                except Exception as exc:  # the engine itself failed: always a difference
                    got, error = None, f"the workbench raised {type(exc).__name__}: {exc}"
                problem = _differs(case, got, error)
                if problem:
                    problem = (f"{case['messages']} ({case['version']}, add_generation_prompt="
                               f"{case['add_generation_prompt']}, reuse={reuse}): {problem}")
                    break
            if problem:
                break
        if problem:
            differ += 1
            print(f"FAIL {name}: {problem}")
        else:
            agree += 1
            errors = sum("error" in c for c in cases)
            print(f"ok   {name}: {len(cases)} renders ({errors} the template refuses)")
    print(f"{agree} templates agree with transformers, {differ} do not")
    return 1 if differ else 0


def _differs(case: dict, got: str | None, error: str | None) -> str | None:
    if "error" in case:
        if error is None:
            return f"transformers raises {case['error'][:160]!r}; the workbench rendered {got!r:.160}"
        expected = case["error"].split(": ", 1)[-1]
        return None if expected in error or error in expected else \
            f"transformers raises {expected[:160]!r}; the workbench {error[:160]!r}"
    if error is not None:
        return f"the workbench fails ({error[:200]}); transformers gives {case['text']!r:.160}"
    if got != case["text"]:
        want = case["text"]
        at = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        return f"differs at {at}: workbench {got[max(0, at - 30):at + 50]!r}, transformers " \
               f"{case['text'][max(0, at - 30):at + 50]!r}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    made = sub.add_parser("make", help="transformers' renders of every template in a folder (framework venv)")
    made.add_argument("templates", type=Path)
    made.add_argument("out", type=Path)
    checked = sub.add_parser("check", help="hold the workbench to them (project venv)")
    checked.add_argument("goldens", type=Path)
    args = parser.parse_args(argv)
    if args.step == "make":
        if not args.templates.is_dir():
            print(f"{args.templates}: no such folder", file=sys.stderr)
            return 2
        return make(args.templates, args.out)
    return check_step(args.goldens, check)


if __name__ == "__main__":
    sys.exit(main())
