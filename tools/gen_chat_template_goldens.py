"""Dev-only: chat-template goldens made by the real ``transformers.apply_chat_template``.

Run in the framework venv (tools/setup_fwenv.sh), never in tests:

    $FWENV/bin/python tools/gen_chat_template_goldens.py

For every template file in tests/chat_templates/ (written for the project, one Jinja feature
each: see the README there), the workbench's built-ins and a few one-line feature probes, it
builds a model folder (tokenizer.json from tests/chat_templates/tokenizer_fixture.py,
tokenizer_config.json with the special tokens; a template file goes in as chat_template.jinja,
the others inside tokenizer_config.json), loads it with ``AutoTokenizer.from_pretrained`` and
records, per message set and add_generation_prompt, the rendered text (or the template's error
message) and its token counts with and without special tokens.  ``strftime_now`` reads a fixed
clock (``FIXED_NOW``), which the tests set too.
Output: tests/chat_templates/goldens.json (committed as data).
"""

from __future__ import annotations

import tempfile
from datetime import datetime
from pathlib import Path
from typing import Any

from _shared import CHAT_TEMPLATES_DIR, builtin_chat_template, tokenizer_fixture, write_json

FIXED_NOW = datetime(2025, 3, 9, 14, 5, 0)

# The special tokens each turn format is used with (the builtins share them).
QWEN = {"eos_token": "<|im_end|>", "pad_token": "<|endoftext|>", "bos_token": None,
        "unk_token": None}
LLAMA = {"bos_token": "<|begin_of_text|>", "eos_token": "<|eot_id|>"}
MISTRAL = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>"}
GEMMA = {"bos_token": "<bos>", "eos_token": "<eos>", "pad_token": "<unk>", "unk_token": "<unk>"}
PHI3 = {"bos_token": "<s>", "eos_token": "<|endoftext|>", "unk_token": "<unk>"}
DEEPSEEK = {"bos_token": "<\uff5cbegin\u2581of\u2581sentence\uff5c>",
            "eos_token": "<\uff5cend\u2581of\u2581sentence\uff5c>"}

TEMPLATES = {
    "tools-default-system.jinja": QWEN,
    "alternating-roles.jinja": LLAMA,
    "generation-dated.jinja": LLAMA,
    "system-in-first-user.jinja": MISTRAL,
    "system-refused.jinja": GEMMA,
    "turn-window.jinja": PHI3,
    "think-stripped.jinja": DEEPSEEK,
    "builtin:chatml": QWEN,
    "builtin:llama3": LLAMA,
    "builtin:mistral": MISTRAL,
    "builtin:gemma": GEMMA,
}

# Feature probes: each exercises one thing a plain jinja2.Environment gets wrong.
PROBES = {
    "probe:tojson": "{{ messages | tojson }}|{{ {'z': 1, 'a': '<é&\\'>'} | tojson(indent=2) }}",
    "probe:trim-lstrip": "{% for m in messages %}\n    {% if m.role == 'user' %}\n  U:{{ m.content }}\n"
                         "    {% endif %}\n{% endfor %}\n",
    "probe:loop-controls": "{% for m in messages %}{% if loop.index0 == 1 %}{% continue %}{% endif %}"
                           "{% if loop.index0 == 3 %}{% break %}{% endif %}[{{ m.role }}]{% endfor %}",
    "probe:generation": "{% for m in messages %}{% if m.role == 'assistant' %}{% generation %}"
                        "{{ m.content }}{% endgeneration %}{% else %}{{ m.content }}{% endif %}|{% endfor %}",
    "probe:undefined-token": "{{ bos_token is defined }}|{{ eos_token }}|{{ pad_token is defined }}",
    "probe:strftime": "{{ strftime_now('%d %b %Y %H:%M') }}|{{ messages[0].content }}",
    "probe:namespace": "{% set ns = namespace(n=0) %}{% for m in messages %}{% set ns.n = ns.n + 1 %}"
                       "{% endfor %}{{ ns.n }}|{{ dict(a=1) | tojson }}",
    "probe:namespace-underscore": "{% set ns = namespace(_x=1) %}{{ ns._x }}",
    "probe:sandbox-append": "{% set xs = [] %}{{ xs.append(1) }}",
    "probe:raise-line": "{% for m in messages %}\n{% if m.role == 'system' %}\n"
                        "{{ raise_exception('no system, please') }}\n{% endif %}\n{% endfor %}ok",
    "probe:add-generation-prompt": "{{ add_generation_prompt }}|{{ tools }}|{{ documents }}",
}
# A tool as a JSON schema, the form chat_template_kwargs can carry (a config holds no functions).
TOOLS = [{"type": "function", "function": {
    "name": "get_weather", "description": "The weather in a city, now.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "its name"}},
                   "required": ["city"]}}}]
PROBE_TOKENS = {"bos_token": "<s>", "eos_token": "</s>", "pad_token": None}

MESSAGES = {
    "user": [{"role": "user", "content": "What is 2 + 2?"}],
    "system-user": [{"role": "system", "content": "Be brief."},
                    {"role": "user", "content": "What is 2 + 2?"}],
    "few-shot": [
        {"role": "user", "content": "Question: Tom has 3 apples.\nAnswer:"},
        {"role": "assistant", "content": "3"},
        {"role": "user", "content": "Question: Ann reads 5 pages a day.\nAnswer:"},
        {"role": "assistant", "content": " 5 \n"},
        {"role": "user", "content": "Question: how many days?\nAnswer:"},
    ],
    "system-few-shot": [
        {"role": "system", "content": "  You are a helpful assistant.\n"},
        {"role": "user", "content": "Hi"},
        {"role": "assistant", "content": "<think>hmm</think>Hello"},
        {"role": "user", "content": "Give me one answer, please."},
    ],
    "unicode": [{"role": "user",
                 "content": "  \u4f60\u597d <b>&amp;</b> 'quoted' \"double\" \u00e9\u2028x\n\n"}],
    "assistant-last": [{"role": "user", "content": "Question: 1 + 1 =\nAnswer:"},
                       {"role": "assistant", "content": "2"}],
    "assistant-first": [{"role": "assistant", "content": "I start."},
                        {"role": "user", "content": "Fine."}],
}


def template_source(name: str) -> str:
    """``builtin:NAME``, ``probe:NAME`` or a template file of tests/chat_templates/ (read as
    bytes, so its CRLF line endings reach the model folder as they are)."""
    if name.startswith("builtin:"):
        return builtin_chat_template(name.split(":", 1)[1])
    if name.startswith("probe:"):
        return PROBES[name]
    return (CHAT_TEMPLATES_DIR / name).read_bytes().decode("utf-8")


def render_cases(tok: Any, name: str, tokens: dict) -> list[dict]:
    """One case per message set and add_generation_prompt: the text and its token counts, or
    the template's own refusal."""
    cases = []
    for msg_name, messages in MESSAGES.items():
        for agp in (True, False):
            case = {"template": name, "messages": msg_name, "add_generation_prompt": agp, "tokens": tokens}
            try:
                text = tok.apply_chat_template(messages, add_generation_prompt=agp, tokenize=False)
            except Exception as exc:  # the template's own refusal
                case["error"] = f"{type(exc).__name__}: {exc}"
            else:
                case["text"] = text
                case["count_plain"] = len(tok(text, add_special_tokens=False)["input_ids"])
                case["count_special"] = len(tok(text, add_special_tokens=True)["input_ids"])
            cases.append(case)
    if name == "probe:add-generation-prompt":  # keyword arguments override the tokenizer's tokens
        text = tok.apply_chat_template(MESSAGES["user"], add_generation_prompt=True, tokenize=False,
                                       bos_token="OVERRIDE", tools=None)
        cases.append({"template": name, "messages": "user", "add_generation_prompt": True,
                      "tokens": tokens, "kwargs": {"bos_token": "OVERRIDE"}, "text": text})
    if name == "tools-default-system.jinja":  # tools come in as a keyword (chat_template_kwargs)
        text = tok.apply_chat_template(MESSAGES["user"], add_generation_prompt=True, tokenize=False,
                                       tools=TOOLS)
        cases.append({"template": name, "messages": "user", "add_generation_prompt": True,
                      "tokens": tokens, "kwargs": {"tools": TOOLS}, "text": text})
    return cases


def main() -> None:
    import transformers
    import transformers.utils.chat_template_utils as ctu
    from transformers import AutoTokenizer

    class _Clock(datetime):
        @classmethod
        def now(cls, tz=None):  # type: ignore[override]
            return FIXED_NOW

    ctu.datetime = _Clock  # strftime_now reads the module's datetime at call time
    write_model_folder = tokenizer_fixture().write_model_folder
    cases = []
    for name, tokens in {**TEMPLATES, **{k: PROBE_TOKENS for k in PROBES}}.items():
        with tempfile.TemporaryDirectory() as tmp:
            folder = write_model_folder(Path(tmp) / "model", template_source(name), dict(tokens),
                                        as_jinja_file=name.endswith(".jinja"))
            cases += render_cases(AutoTokenizer.from_pretrained(str(folder)), name, tokens)
    path = CHAT_TEMPLATES_DIR / "goldens.json"
    write_json(path, {
        "generator": "tools/gen_chat_template_goldens.py",
        "transformers": transformers.__version__,
        "fixed_now": FIXED_NOW.isoformat(),
        "messages": MESSAGES,
        "probes": PROBES,
        "cases": cases,
    })
    print(f"{len(cases)} cases -> {path}")


if __name__ == "__main__":
    main()
