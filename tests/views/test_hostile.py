"""A hostile row through every view: what reaches the terminal holds no raw control bytes."""

from __future__ import annotations

import io
import re

from rich.console import Console

from workbench.core.lazy_pairs import render_workspace
from workbench.core.spec import DatasetSpec, ModelSpec, Source
from workbench.views.errors import Problem, error_banner
from workbench.views.frame import build_frame, frame_panels
from workbench.views.options import ViewOptions
from workbench.views.selection import Catalog, Selection
from workbench.views.template_tree import template_tree, tree_view

HOSTILE = ("Hi\x1b[31mRED\x1b[0m \x1b]52;c;cHduZWQ=\x07 \x1b]0;pwned\x1b\\ \x9b2J \x90dcs\x9c "
           "\u202eevil\u202c \u2066iso\u2069 zero\u200bwidth \ufeffbom \r\x08\x00 tag\U000e0041")
SGR = re.compile(r"\x1b\[[0-9;]*m")  # rich's own colour codes are the only escapes allowed
FORBIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff"
                       "\U000e0000-\U000e007f]")


def hostile_pair():
    template = dict(type="PromptTemplate", template=dict(round=[
        dict(role="HUMAN", prompt="Q\x1b[5m: {question}"), dict(role="BOT", prompt="{answer}")]))
    dataset = DatasetSpec(
        abbr="evil\x1b[31m", source=Source("/x/evil.py", 3),
        cfg=dict(reader_cfg=dict(input_columns=["question"], output_column="answer"),
                 infer_cfg=dict(prompt_template=template, retriever=dict(type="ZeroRetriever"),
                                inferencer=dict(type="GenInferencer"))),
        rows=[{"question": HOSTILE, "answer": HOSTILE}])
    chatml = ModelSpec(abbr="m\u202e", cfg=dict(type="HuggingFaceCausalLM", path="x", meta_template=dict(
        round=[dict(role="HUMAN", begin="<|im_start|>user\n", end="<|im_end|>\n"),
               dict(role="BOT", begin="<|im_start|>assistant\n", end="<|im_end|>\n", generate=True)])))
    api = ModelSpec(abbr="api", cfg=dict(type="OpenAI", path="gpt", meta_template=dict(
        round=[dict(role="HUMAN", api_role="HUMAN"), dict(role="BOT", api_role="BOT", generate=True)])))
    return [dataset], [chatml, api]


def terminal_output(renderable, width: int = 100) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=True, color_system="truecolor",
                      legacy_windows=False)
    console.print(renderable)
    return out.getvalue()


def assert_inert(output: str) -> None:
    residue = SGR.sub("", output)
    found = FORBIDDEN.findall(residue)
    assert not found, f"raw control characters reached the terminal: {found!r}"


def test_every_pane_and_mode_renders_the_hostile_row_inert():
    datasets, models = hostile_pair()
    result = render_workspace(datasets, models)
    assert not result.errors, result.errors
    catalog = Catalog(result)
    for whitespace in (False, True):
        for provenance in (False, True):
            for side in (False, True):
                opts = ViewOptions(whitespace=whitespace, provenance=provenance, side_by_side=side)
                for model in ("m\u202e", "api"):
                    frame = build_frame(catalog, Selection(datasets[0].abbr, model), opts)
                    tree = tree_view(template_tree(datasets, models, opts), opts, [("dataset", datasets[0].abbr)])
                    banner = error_banner([Problem(HOSTILE, file="/x/evil\x1b.py", line=2, hint=HOSTILE)], opts)
                    output = terminal_output(frame_panels(frame, tree, opts, banner))
                    assert_inert(output)
                    assert "␛[31mRED" in SGR.sub("", output)
                    assert "\\u202e" in output


def test_the_exact_text_for_the_clipboard_is_the_raw_input():
    """Copying sends the exact bytes (base64 inside OSC 52), so nothing is lost there."""
    datasets, models = hostile_pair()
    catalog = Catalog(render_workspace(datasets, models))
    frame = build_frame(catalog, Selection(datasets[0].abbr, "m\u202e"), ViewOptions())
    assert HOSTILE in frame.final_text
