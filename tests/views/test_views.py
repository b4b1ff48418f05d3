"""The views as pure functions: core objects in, renderables out."""

from __future__ import annotations

import subprocess
import sys

from rich.style import Style

from workbench.core.provenance import ICE, META, ROW, Origin, PStr
from workbench.core.spec import Source
from workbench.views.frame import build_frame
from workbench.views.options import ViewOptions, display_path
from workbench.views.palette import Palette
from workbench.views.selection import Selection
from workbench.views.styled import styled
from workbench.views.template_tree import template_tree, tree_view
from workbench.views.tokens import find_tokens, model_tokens

from .conftest import FIXTURE, plain


def test_views_import_no_textual():
    code = ("import sys, workbench.views.frame, workbench.views.template_tree, workbench.views.styled\n"
            "print('textual' in sys.modules, 'watchfiles' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_whitespace_marks_newlines_trailing_spaces_and_tabs():
    text = styled("a \nb\tc  ", ViewOptions(whitespace=True))
    assert text.plain == "a·↵\nb→c··"
    assert styled("a \nb\tc  ", ViewOptions()).plain == "a \nb\tc  "


def test_provenance_colours_each_run():
    palette = Palette()
    value = PStr.from_runs("<|im_start|>user\nHi", [(17, Origin(META)), (2, Origin(ROW, column="q"))])
    text = styled(value, ViewOptions(palette=palette))
    row_style = Style.parse(palette.row)
    styles = {text.plain[s.start:s.end]: s.style for s in text.spans}
    assert styles["Hi"] == row_style
    assert styles["user"] == Style.parse(palette.meta)
    assert styles["<|im_start|>"] == Style.parse(palette.meta) + Style.parse(palette.token)
    assert styled(value, ViewOptions(provenance=False)).spans != text.spans


def test_each_in_context_example_gets_its_own_colour():
    palette = Palette()
    assert palette.origin_style(Origin(ICE, example=0)) != palette.origin_style(Origin(ICE, example=1))
    assert palette.origin_style(Origin(ICE, example=0)) == palette.origin_style(Origin(ICE, example=2))


def test_special_tokens_are_found():
    text = "<s>[INST] <<SYS>>x<</SYS>> hi [/INST] ok</s><|im_start|>user<|eot_id|><｜end▁of▁sentence｜>"
    found = [text[a:b] for a, b in find_tokens(text)]
    assert found == ["<s>", "[INST]", "<<SYS>>", "<</SYS>>", "[/INST]", "</s>", "<|im_start|>",
                     "<|eot_id|>", "<｜end▁of▁sentence｜>"]
    assert find_tokens("hello<END>", ["<END>"]) == [(5, 10)]


def test_model_tokens_come_from_the_config():
    cfg = {"end_str": "<|im_end|>", "stop_words": ["<eot>", ""], "generation_kwargs": {"eos_token": "</s>"}}
    assert model_tokens(cfg) == ("<|im_end|>", "<eot>", "</s>")


def test_prompt_list_groups_and_numbers_examples(loaded, opts):
    _, catalog = loaded
    text = plain(build_frame(catalog, Selection("qa", "chatml-7b", 2), opts).prompt_list)
    assert "╭ example 1" in text and "train row 0" in text and "╭ example 2" in text
    assert "┄ begin ┄" in text and "┄ round ┄" in text
    assert "SYSTEM  ↪HUMAN" in text
    assert "What is the capital of France?" in text


def test_final_input_for_api_models_is_messages(loaded, opts):
    _, catalog = loaded
    frame = build_frame(catalog, Selection("qa", "api-model", 0), opts)
    text = plain(frame.final_input)
    assert " SYSTEM  Answer briefly." in text
    assert "api" in frame.final_input_title
    assert frame.final_text.startswith("[\n  {")


def test_timeline_labels_say_what_they_replace(loaded, opts):
    _, catalog = loaded
    frame = build_frame(catalog, Selection("choice", "chatml-7b", 0, 1), opts)
    text = plain(frame.timeline)
    assert "● 2 label 'B'" in text and "in place of BOT A" in text
    assert frame.requests == 2 and "label 'B'" in frame.prompt_list_title


def test_timeline_multiturn_every(loaded, opts):
    _, catalog = loaded
    text = plain(build_frame(catalog, Selection("chat", "chatml-7b", 0, 2), opts).timeline)
    assert text.count("stand-in for model output") == 2
    assert "needs the model's output of turn 0, 1" in text


def test_a_refused_pair_shows_the_reason_in_the_panes(loaded, opts):
    _, catalog = loaded
    frame = build_frame(catalog, Selection("choice", "api-model"), opts)
    assert frame.problems and "ppl" in frame.problems[0].message
    assert "datasets/choice_ppl.py:" in plain(frame.final_input)


def test_side_by_side_has_a_column_per_model(loaded, opts):
    _, catalog = loaded
    text = plain(build_frame(catalog, Selection("qa", "chatml-7b"), ViewOptions(side_by_side=True)).final_input)
    assert "chatml-7b · lm" in text and "api-model · api" in text


def test_tree_nodes_have_stable_keys_and_pluggable_locations(loaded, opts):
    workspace, _ = loaded
    nodes = template_tree(workspace.datasets, workspace.models, opts)
    keys = [n.key for root in nodes for n in root.walk()]
    assert ("dataset", "qa", "infer_cfg", "prompt_template", "template", "begin", 0) in keys
    assert ("model", "chatml-7b", "meta_template", "round", 1) in keys
    assert len(keys) == len(set(keys))

    def finer(spec, path):
        return Source("/finer.py", len(path))

    nodes = template_tree(workspace.datasets, workspace.models, opts, locate=finer)
    node = next(n for root in nodes for n in root.walk()
                if n.key == ("dataset", "qa", "infer_cfg", "retriever"))
    assert node.location == Source("/finer.py", 2)
    text = plain(tree_view(nodes, opts, [("dataset", "qa")]))
    assert "qa  GenInferencer ◀" in text and "label 'A'" in text and "ice_token '</E>'" in text


def test_selection_moves_and_wraps(loaded):
    _, catalog = loaded
    sel = catalog.normalize(Selection())
    assert (sel.dataset, sel.model) == ("qa", "chatml-7b")
    assert catalog.step_sample(sel, -1).sample == 4
    assert catalog.step_dataset(sel, 1).dataset == "choice"
    assert catalog.step_model(sel, 1).model == "api-model"
    assert catalog.jump(sel, 99).sample == 4
    assert catalog.normalize(Selection("gone", "gone", 7)) == Selection("qa", "chatml-7b", 4, 0)


def test_paths_show_relative_to_the_workspace():
    assert display_path(FIXTURE / "datasets" / "qa_gen.py", FIXTURE) == "datasets/qa_gen.py"
    assert display_path(None, FIXTURE) == "<config>"


def test_long_texts_are_cut_to_head_and_tail_only_when_asked():
    value = "A" * 1000 + "B" * 1000
    text = styled(value, ViewOptions(max_chars=100)).plain
    assert text.startswith("A" * 75 + "\n┄┄ 1,900 more characters not shown")
    assert text.endswith("┄┄\n" + "B" * 25)
    assert styled(value, ViewOptions()).plain == value


def test_the_pairs_warnings_show_with_its_prompt_list(loaded, opts):
    _, catalog = loaded
    text = plain(build_frame(catalog, Selection("chat", "chatml-7b"), opts).prompt_list)
    assert text.startswith("⚠ 1 warning (at the end): the dataset is an AISBench config")
    assert "\n⚠ the dataset is an AISBench config and the model an OpenCompass one" in text


def test_a_findings_error_shows_its_id_before_the_message():
    from workbench.core.result import PairError
    from workbench.views.errors import Problem, problem_text

    error = PairError("qa", "m", "model: X.__init__() got an unexpected keyword argument 'y'", "eval.py", 7,
                      "did you mean 'z'?", "PW101")
    text = problem_text(Problem.of(error), ViewOptions()).plain
    assert "eval.py:7" in text and "PW101 unknown-key: model: X.__init__()" in text
    assert "did you mean 'z'?" in text


def _marked(text, opts):
    matched = opts.palette.style("matched")
    return [text.plain[s.start:s.end] for s in text.spans if Style.parse(str(s.style)) == matched or
            (isinstance(s.style, Style) and s.style.bgcolor == matched.bgcolor)]


def test_styled_marks_a_span_whatever_else_cuts_the_text():
    opts = ViewOptions(whitespace=True)
    text = styled("So\tthe answer is (B).  ", opts, marks=[(7, 19)])
    assert "".join(_marked(text, opts)) == "answer is (B"  # a tab before it, trailing spaces after
    long = "x" * 5000 + "ANSWER: C"
    cut = styled(long, ViewOptions(max_chars=1000), marks=[(5000, 5009)])
    assert "".join(_marked(cut, ViewOptions())) == "ANSWER: C"  # in the tail a long text keeps
    assert _marked(styled("abc", opts, marks=[(5, 9), (2, 2)]), opts) == []  # outside, or empty


def test_timeline_says_what_each_scored_request_scores(opts):
    """Choices whose prompts are alike (an lm-eval multiple-choice doc) differ by what they score."""
    from workbench.core.result import Request, Sample
    from workbench.views.timeline import timeline_view

    context = "Question: 2+2?\nAnswer:"
    requests = tuple(Request(prompt_list=context, model_input=context, label=i,
                             extra=(("continuation", choice),)) for i, choice in enumerate((" 3", " 4")))
    text = plain(timeline_view(Sample(0, 0, (), requests), 1, opts))
    assert "same prompt as before" in text
    assert [line.split("scores ")[1].strip() for line in text.splitlines() if "scores " in line] == ["' 3'", "' 4'"]
