"""What the command line asks for reaches every load of the app (no Textual needed)."""

from __future__ import annotations

from workbench.commands.open import build_parser, inputs_of
from workbench.core.models.model_text import OVERRIDE_KEY
from workbench.tui.session import Inputs, load
from workbench.views.options import ViewOptions

from .conftest import FIXTURE_CONFIG


def test_the_command_line_options_become_inputs(tmp_path):
    template = tmp_path / "mine.jinja"
    args = build_parser().parse_args([str(FIXTURE_CONFIG), "--chat-template", str(template),
                                      "--timeout", "2.5"])
    inputs = inputs_of(args)
    assert inputs.chat_template == str(template) and inputs.timeout == 2.5


def test_chat_template_reaches_every_model_and_its_file_is_watched(tmp_path):
    template = tmp_path / "mine.jinja"
    template.write_text("{% for m in messages %}[{{ m.role }}]{% endfor %}")
    loaded = load(Inputs(configs=(str(FIXTURE_CONFIG),), chat_template=str(template)), 1, ViewOptions())
    assert loaded.ok, loaded.problems
    assert {m.cfg[OVERRIDE_KEY] for m in loaded.models} == {str(template.resolve())}
    assert template.resolve() in loaded.files


def test_timeout_reaches_the_loader(tmp_path):
    loop = tmp_path / "loop.py"
    loop.write_text("while True:\n    pass\n")
    loaded = load(Inputs(configs=(str(loop),), timeout=0.3), 1, ViewOptions())
    assert not loaded.ok
    assert [p.message for p in loaded.problems] == ["the config did not finish within 0.3 s"]
