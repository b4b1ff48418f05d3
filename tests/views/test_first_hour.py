"""What a new user saw wrong in the views (issue 29): each a fact of the drawing."""

from __future__ import annotations

from rich.text import Text

from workbench.core.result import Request
from workbench.views.final_input import MIN_COLUMN, side_by_side_view
from workbench.views.options import ViewOptions
from workbench.views.prompt_list import prompt_list_view, request_heading
from workbench.views.template_tree import FileLine

from .conftest import plain

OPTS = ViewOptions(provenance=False)


def test_the_prompt_list_heading_leaves_the_wire_and_the_recorded_answer_to_their_own_views():
    wire = object()  # its repr was printed: `wire <object ...>`, cut mid-word
    request = Request(prompt_list=["hi"], model_input="hi",
                      extra=(("wire", wire), ("recorded_output", "the answer"), ("draw", 2)))
    heading = request_heading(request, OPTS)
    assert heading is not None and heading.plain == "draw 2"
    shown = plain(prompt_list_view(request, OPTS))
    assert "wire" not in shown and "the answer" not in shown
    only_wire = Request(prompt_list=["hi"], model_input="hi", extra=(("wire", wire),))
    assert request_heading(only_wire, OPTS) is None


def test_file_line_loses_the_path_s_head_never_the_line_number():
    where = FileLine("datasets/gsm8k_like_gen.py", 49)
    assert where.fitted(80) == "datasets/gsm8k_like_gen.py:49"
    assert where.fitted(28) == "…tasets/gsm8k_like_gen.py:49"  # the tree's line at 80 columns
    assert len(where.fitted(28)) == 28
    assert plain(where, width=20).rstrip("\n") == "…sm8k_like_gen.py:49"
    assert FileLine("a.py", None).fitted(10) == "a.py"


def test_side_by_side_stacks_the_models_when_their_columns_would_break_words():
    columns = [(f"model-{i}", Text("Solve the math word problem. Finish with the answer.")) for i in range(4)]
    view = side_by_side_view(columns, OPTS)
    narrow = plain(view, width=46)  # the final input pane at 80 columns
    assert all(f"model-{i}" in narrow for i in range(4))
    assert "Solve the math word problem. Finish with the" in narrow  # words whole, one model a block
    assert narrow.index("model-0") < narrow.index("Solve") < narrow.index("model-1")
    wide = plain(view, width=4 * (MIN_COLUMN + 2))
    first = wide.splitlines()[0]
    assert all(f"model-{i}" in first for i in range(4))  # columns: every title on the first line


def test_file_line_as_a_string_is_the_whole_of_it():
    assert str(FileLine("a/very/long/path/to/the/datasets/gsm8k_like_gen.py", 1049)) == \
        "a/very/long/path/to/the/datasets/gsm8k_like_gen.py:1049"
