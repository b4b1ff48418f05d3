"""Chat templates against transformers.apply_chat_template (goldens from tools/gen_chat_template_goldens.py)."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

import pytest

from workbench.core.tokens import chat_template as ct
from workbench.core.tokens.chat_apply import render_chat_template
from workbench.core.tokens.counting import tokenizers_available
from workbench.loading.models.model_assets import read_model_folder

HERE = Path(__file__).resolve().parent.parent / "chat_templates"
sys.path.insert(0, str(HERE))
from tokenizer_fixture import build_tokenizer_json  # noqa: E402

GOLDENS = json.loads((HERE / "goldens.json").read_text(encoding="utf-8"))
CASES = GOLDENS["cases"]
#: The template files written for these tests (one Jinja feature each, see tests/chat_templates/README.md).
FILES = sorted({c["template"] for c in CASES if c["template"].endswith(".jinja")})


def _source(name: str) -> str:
    if name.startswith("builtin:"):
        template = ct.builtin_template(name.split(":", 1)[1])
        assert template is not None
        return template.source
    if name.startswith("probe:"):
        return GOLDENS["probes"][name]
    return (HERE / name).read_bytes().decode("utf-8")


def _folder(tmp_path: Path, name: str, tokens: dict) -> Path:
    """The model folder the generator built: a template file as chat_template.jinja, the
    built-ins and probes inside tokenizer_config.json."""
    folder = tmp_path / "model"
    folder.mkdir()
    config = {"tokenizer_class": "PreTrainedTokenizerFast", **tokens}
    if name.endswith(".jinja"):
        (folder / "chat_template.jinja").write_bytes((HERE / name).read_bytes())
    else:
        config["chat_template"] = _source(name)
    (folder / "tokenizer_config.json").write_text(json.dumps(config, ensure_ascii=False), encoding="utf-8")
    if tokenizers_available():
        build_tokenizer_json(folder / "tokenizer.json")
    return folder


#: The date the goldens were made at (transformers' strftime_now read a clock fixed to it).
FIXED_NOW = datetime.fromisoformat(GOLDENS["fixed_now"])


def test_every_template_file_has_goldens():
    assert sorted(p.name for p in HERE.glob("*.jinja")) == FILES
    assert len(FILES) >= 5


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['template']}|{c['messages']}|{c['add_generation_prompt']}")
def test_matches_transformers(case, tmp_path):
    folder = read_model_folder(_folder(tmp_path, case["template"], case["tokens"]))
    template = folder.chat_template()
    assert template is not None
    messages = GOLDENS["messages"][case["messages"]]
    render = lambda: render_chat_template(  # noqa: E731
        template, messages, add_generation_prompt=case["add_generation_prompt"],
        special_tokens=folder.special_tokens.named, kwargs=case.get("kwargs"), clock=lambda: FIXED_NOW)
    if "error" in case:
        with pytest.raises(ct.ChatTemplateError) as info:
            render()
        assert case["error"].split(": ", 1)[1] in info.value.message
        return
    text = render()
    assert text == case["text"]
    if tokenizers_available() and "count_plain" in case:
        tok = folder.tokenizer  # built by the loader from the folder's tokenizer.json
        assert tok is not None
        assert tok.count(text, False) == case["count_plain"]
        assert tok.count(text, True) == case["count_special"]


def test_raise_exception_points_at_the_template_line():
    template = ct.ChatTemplate(GOLDENS["probes"]["probe:raise-line"], origin="probe.jinja")
    with pytest.raises(ct.ChatTemplateError) as info:
        render_chat_template(template, [{"role": "system", "content": "x"}])
    assert info.value.template_line == 3
    assert info.value.message == "probe.jinja, line 3: no system, please"


def test_syntax_error_points_at_the_line():
    template = ct.ChatTemplate("{% for m in messages %}\n{{ m.content }\n{% endfor %}", origin="bad.jinja",
                               file="/x/bad.jinja")
    with pytest.raises(ct.ChatTemplateError) as info:
        render_chat_template(template, [{"role": "user", "content": "x"}])
    assert info.value.template_line == 2 and info.value.line == 2 and info.value.file == "/x/bad.jinja"


def test_undefined_variable_points_at_the_line():
    template = ct.ChatTemplate("{{ messages[0].content }}\n{{ nope.attr }}", origin="t")
    with pytest.raises(ct.ChatTemplateError) as info:
        render_chat_template(template, [{"role": "user", "content": "x"}])
    assert info.value.template_line == 2 and "'nope' is undefined" in info.value.message


def test_builtins_are_selectable_by_name():
    for name in ct.BUILTIN_NAMES:
        assert ct.builtin_template(name).name == name
    assert ct.builtin_template("nope") is None


def test_empty_conversation_is_refused():
    with pytest.raises(ct.ChatTemplateError, match="empty conversation"):
        render_chat_template(ct.builtin_template("chatml"), [])


def test_strftime_now_reads_the_clock_the_caller_passes():
    template = ct.ChatTemplate(source="{{ strftime_now('%d %b %Y') }}", origin="probe")
    messages = [{"role": "user", "content": "x"}]
    assert render_chat_template(template, messages, clock=lambda: FIXED_NOW) == FIXED_NOW.strftime("%d %b %Y")
    with pytest.raises(ct.ChatTemplateError) as info:
        render_chat_template(template, messages)  # the core reads no clock of its own
    assert "given no clock" in info.value.message and info.value.template_line == 1
