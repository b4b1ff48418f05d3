"""Samples spliced into a pair's form equal the real render, request by request.

A pair renders its requests once per (example set, row columns) with stand-ins for the row's
values, then splices each later row in (core/inferencers/sample_form.py). Every config here
is rendered with the splice and without it: every field of every request (PromptList items
and what they were filled from and with, the model's input and text, token counts by section,
the max_seq_len record) and every warning with its count must be the same, and the splice
must actually have served (counted), except where a rule says the real render must run.
"""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.inferencers import sample_form
from workbench.core.inferencers.sample_form import OPEN, Refused, _Compiler, stand_in
from workbench.core.render import PairRenderer, RenderOptions
from workbench.core.spec import DatasetSpec, ModelSpec

from .render_cases import INFER, ROWS, _model


def _dataset(infer_cfg: dict, rows: dict, columns: list[str], output: str = "answer") -> DatasetSpec:
    cfg = {"abbr": "d", "reader_cfg": {"input_columns": columns, "output_column": output},
           "infer_cfg": infer_cfg}
    return DatasetSpec(abbr="d", cfg=cfg, rows=copy.deepcopy(rows))


def _both(dataset: DatasetSpec, model: ModelSpec | None, **options) -> tuple[PairRenderer, PairRenderer]:
    spliced = PairRenderer(dataset, model, RenderOptions(**options))
    real = PairRenderer(dataset, model, RenderOptions(splice=False, **options))
    return spliced, real


def _differences(spliced: PairRenderer, real: PairRenderer) -> list[str]:
    out = []
    for i in range(len(real)):
        a, b = spliced.sample(i), real.sample(i)
        if a != b:
            out.append(f"sample {i}: {a} != {b}")
        for k, (x, y) in enumerate(zip(a.requests, b.requests)):
            if type(x.prompt_list) is not type(y.prompt_list):
                out.append(f"sample {i} request {k}: prompt list types differ")
            if getattr(x.prompt_list, "filled_from", None) != getattr(y.prompt_list, "filled_from", None):
                out.append(f"sample {i} request {k}: filled_from differs")
    notes = [(m, spliced.notes.count(m)) for m in spliced.notes.messages]
    if notes != [(m, real.notes.count(m)) for m in real.notes.messages]:
        out.append(f"warnings differ: {notes} != {real.notes.messages}")
    return out


def _spliced(pair: PairRenderer) -> int:
    return pair._forms.spliced if pair._forms is not None else 0


CASES = [(infer, model) for infer in ("dialogue", "leaky", "string") for model in ("meta", "plain", "chat", "api")]
CASES += [("ppl", "meta"), ("ppl", "plain"), ("chat_turns", "chat"), ("chat_turns", "api")]


@pytest.mark.parametrize("sections", [False, True])
@pytest.mark.parametrize(("infer", "model"), CASES)
def test_spliced_samples_equal_the_real_render(infer, model, sections, tmp_path):
    """The rows of these fixtures hold a later column's ``{answer}`` (every third), some are
    long enough for max_seq_len 300 to drop examples: those are rendered for real."""
    dataset = _dataset(INFER[infer], ROWS, ["question", "note"])
    spliced, real = _both(dataset, _model(model, tmp_path), token_sections=sections)
    assert not _differences(spliced, real)
    assert _spliced(real) == 0


def test_every_row_after_the_first_is_spliced(tmp_path):
    """Without braces in the rows and without a limit, only the first row is rendered for real:
    the second builds the example set's form and checks it against the first row's render."""
    rows = {split: [{**r, "question": r["question"].replace("{answer}", "")} for r in ROWS[split]]
            for split in ROWS}
    for infer, model in (("dialogue", "meta"), ("dialogue", "chat"), ("dialogue", "api"), ("dialogue", "plain"),
                         ("string", "meta"), ("ppl", "meta"), ("ppl", "plain")):
        spliced, real = _both(_dataset(INFER[infer], rows, ["question", "note"]),
                              _model(model, tmp_path / model, max_seq_len=None))
        assert not _differences(spliced, real)
        assert _spliced(spliced) == len(real) - 1, (infer, model)


def test_a_pair_only_one_row_of_is_rendered_builds_no_form(tmp_path):
    """An HTML report, ``--limit 1`` or the app's first look renders a pair's first row alone:
    it is rendered for real and kept; the form is built, and its splice and stamp checked on
    that row, when a second row of its example set is asked for (spliced, and finished by the
    form)."""
    rows = {split: [{**r, "question": r["question"].replace("{answer}", "")} for r in ROWS[split]]
            for split in ROWS}
    pair = PairRenderer(_dataset(INFER["dialogue"], rows, ["question", "note"]),
                        _model("meta", tmp_path, max_seq_len=None), RenderOptions())
    forms = pair._forms
    assert forms is not None and forms._forms == {} and len(forms._pending) == 1
    real = PairRenderer(_dataset(INFER["dialogue"], rows, ["question", "note"]),
                        _model("meta", tmp_path, max_seq_len=None), RenderOptions(splice=False))
    assert pair.sample(1) == real.sample(1)
    [form] = forms._forms.values()
    assert form is not None and form.checked and form.stamps and forms._pending == {}
    assert _spliced(pair) == 1


def test_a_row_with_braces_is_rendered_for_real(tmp_path):
    spliced, real = _both(_dataset(INFER["dialogue"], ROWS, ["question", "note"]),
                          _model("meta", tmp_path, max_seq_len=None))
    assert not _differences(spliced, real)
    # the first row is rendered for real, and checks the form the second builds; every
    # later row without braces is spliced
    assert "{" not in ROWS["test"][0]["question"] and "{" in ROWS["test"][1]["question"]
    plain = [i for i, r in enumerate(ROWS["test"]) if i and "{" not in r["question"]]
    assert len(plain) < len(real) - 1 and _spliced(spliced) == len(plain)


def test_rows_too_long_for_max_seq_len_are_rendered_for_real(tmp_path):
    rows = {split: [{**r, "question": r["question"].replace("{answer}", "")} for r in ROWS[split]]
            for split in ROWS}
    spliced, real = _both(_dataset(INFER["dialogue"], rows, ["question", "note"]), _model("meta", tmp_path))
    assert not _differences(spliced, real)
    cut = [i for i in range(2, len(real)) if real.sample(i).requests[0].truncation.dropped]
    assert cut and _spliced(spliced) == len(real) - 2 - len(cut)
    fits = next(i for i in range(3, len(real)) if i not in cut)
    record = spliced.sample(fits).requests[0].truncation
    assert len(record.steps) == 1 and record.kept == record.retrieved == (0, 1, 2)


GEN = {"retriever": {"type": "ZeroRetriever"}, "inferencer": {"type": "GenInferencer"}}


def _string_template(template: str) -> dict:
    return {"prompt_template": {"type": "PromptTemplate", "template": template}, **GEN}


def test_a_value_that_could_complete_a_later_field_is_never_spliced():
    """``{b_{a}}``: the value of ``a`` completes ``{b_x}``, which the next column fills."""
    rows = [{"a": "x", "b_x": f"B{i}", "answer": "1"} for i in range(6)]
    spliced, real = _both(_dataset(_string_template("[{b_{a}}]"), {"train": rows, "test": rows}, ["a", "b_x"]),
                          None)
    assert not _differences(spliced, real)
    assert real.sample(3).requests[0].model_input == "[B3]"
    assert _spliced(spliced) == 0


def test_a_value_inside_braces_that_completes_no_field_is_spliced():
    """JSON in a prompt puts values between braces; no column's name fits around them."""
    rows = [{"q": f"question {i}", "answer": "1"} for i in range(6)]
    spliced, real = _both(_dataset(_string_template('Reply as {"answer": "...", "q": "{q}"}'),
                                   {"train": rows, "test": rows}, ["q"]), None)
    assert not _differences(spliced, real)
    assert _spliced(spliced) == len(real) - 1


@pytest.mark.parametrize("value", [f"a {OPEN} b", stand_in(0), "tab\tand\nnewline", "", "x" * 5000])
def test_hostile_and_odd_values_render_as_they_would(value):
    rows = [{"q": value if i % 2 else f"row {i}", "n": i, "answer": "1"} for i in range(8)]
    spliced, real = _both(_dataset(_string_template("Q: {q} ({n})"), {"train": rows, "test": rows}, ["q", "n"]),
                          None)
    assert not _differences(spliced, real)
    assert real.sample(1).requests[0].model_input == f"Q: {value} (1)"


def test_warnings_of_every_row_keep_their_counts(tmp_path):
    """An API model drops a plain string item with a warning that quotes it, one per row: a
    render that warns is never spliced, so every row's warning is there."""
    infer = copy.deepcopy(INFER["dialogue"])
    infer["prompt_template"]["template"]["begin"].append("Note: {note}")
    spliced, real = _both(_dataset(infer, ROWS, ["question", "note"]), _model("api", tmp_path, max_seq_len=None))
    assert not _differences(spliced, real)
    assert _spliced(spliced) == 0
    dropped = [m for m in spliced.notes.messages if "string item 'Note: n" in m]
    assert len(dropped) == len(real)


def _splice_wrongly(monkeypatch):
    """Every form splices each row's values with a "!" added."""
    real_init = sample_form.Form.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        build, constants = self.build, len(self.consts)
        self.build = lambda ext: build([v + "!" for v in ext[:len(ext) - constants]] + ext[len(ext) - constants:])

    monkeypatch.setattr(sample_form.Form, "__init__", init)


def test_a_form_whose_first_splice_differs_is_dropped(monkeypatch):
    """Every form is checked before it serves: against the real render of the row that first
    sighted its key, or, where that row cannot be spliced, of the row that learnt it."""
    rows = [{"q": f"row {i}", "answer": "1"} for i in range(6)]
    _splice_wrongly(monkeypatch)
    spliced, real = _both(_dataset(_string_template("Q: {q}"), {"train": rows, "test": rows}, ["q"]), None)
    assert not _differences(spliced, real)
    assert _spliced(spliced) == 0


def test_a_first_row_that_cannot_be_spliced_leaves_the_check_to_the_next_row(monkeypatch):
    """Row 0 (an unclosed brace) is rendered for real, as such a row always is, and cannot
    check the form row 1 builds: row 1 checks it by its own real render; the rest are spliced."""
    rows = [{"q": "{x" if i == 0 else f"row {i}", "answer": "1"} for i in range(6)]
    spliced, real = _both(_dataset(_string_template("Q: {q}"), {"train": rows, "test": rows}, ["q"]), None)
    assert not _differences(spliced, real)
    assert _spliced(spliced) == len(real) - 2
    _splice_wrongly(monkeypatch)
    spliced, real = _both(_dataset(_string_template("Q: {q}"), {"train": rows, "test": rows}, ["q"]), None)
    assert not _differences(spliced, real) and _spliced(spliced) == 0


def test_the_comparison_sees_a_wrong_splice(monkeypatch):
    """With the check switched off, the wrong splice above must show as differences."""
    rows = [{"q": f"row {i}", "answer": "1"} for i in range(6)]
    _splice_wrongly(monkeypatch)
    monkeypatch.setattr(sample_form, "_same", lambda a, b: True)
    spliced, real = _both(_dataset(_string_template("Q: {q}"), {"train": rows, "test": rows}, ["q"]), None)
    assert _differences(spliced, real)


def test_a_damaged_stand_in_refuses_the_form():
    compiler = _Compiler(2, frozenset({"a", "b"}))
    assert compiler.text(f"x{stand_in(0)}y{stand_in(1)}", filled=True) is not None
    for damaged in (stand_in(0).strip(), stand_in(1).upper(), stand_in(0)[:-2], stand_in(5)):
        with pytest.raises(Refused):
            compiler.text(f"x{damaged}y", filled=True)


def test_inferencers_that_read_the_row_are_not_spliced(tmp_path):
    """ChatInferencer builds its chat from the row itself, not from filled templates."""
    spliced, real = _both(_dataset(INFER["chat_turns"], ROWS, ["question", "note"]), _model("chat", tmp_path))
    assert spliced._forms is None
    assert not _differences(spliced, real)


def test_spliced_samples_pickle_and_copy():
    """``--jobs`` sends samples back from other processes; what they were filled from goes
    with them."""
    rows = {k: [{**r, "question": "q"} for r in v] for k, v in ROWS.items()}
    pair = PairRenderer(_dataset(INFER["dialogue"], rows, ["question", "note"]), None, RenderOptions())
    samples = list(pair.samples())
    assert _spliced(pair) == len(pair) - 1
    last = samples[-1].requests[0].prompt_list
    assert last.filled_from is not None
    for sample in (pickle.loads(pickle.dumps(samples[-1])), copy.deepcopy(samples[-1])):
        assert sample == samples[-1]
        assert sample.requests[0].prompt_list.filled_from == last.filled_from


def test_example_sets_that_alternate_splice_each_with_its_own_form(monkeypatch):
    """Samples whose example sets alternate (and come as equal but distinct tuples) each get
    the form of their own set: the forms' memo of the last set serves only that set."""
    from workbench.core import render

    sets = [(0, 1), (1, 2)]
    monkeypatch.setattr(render, "_interned", lambda picks: [
        sets[i % 2] if i % 3 else tuple(list(sets[i % 2])) for i in range(len(picks))])
    infer = copy.deepcopy(INFER["dialogue"])
    infer["retriever"] = {"type": "FixKRetriever", "fix_id_list": [0, 1, 2]}
    spliced, real = _both(_dataset(infer, ROWS, ["question"]), _model("meta", None, max_seq_len=None))
    assert not _differences(spliced, real)
    assert [s.ice_indices for s in map(spliced.sample, range(4))] == [(0, 1), (1, 2), (0, 1), (1, 2)]
    # rows 2 and 3 build the two sets' forms; row 0 checks its set's (row 2's splice), row 1
    # holds braces, so row 3 checks the other set's by its own real render (rows 1, 4 and 7
    # hold braces): 2, 5, 6 and 8 are spliced, and 2 and 3 when rendered again above
    assert _spliced(spliced) == 6


# -- token sections of spliced samples (a provenance render each) ------------------------------------

def _token_differences(spliced: PairRenderer, real: PairRenderer) -> list[str]:
    """Requests whose token counts (total, exactness, method, sections) differ."""
    out = []
    for i in range(len(real)):
        for k, (x, y) in enumerate(zip(spliced.sample(i).requests, real.sample(i).requests)):
            if x.tokens != y.tokens or not x.tokens.sections:
                out.append(f"sample {i} request {k}: {x.tokens} != {y.tokens}")
    return out


@pytest.mark.parametrize(("infer", "model"), CASES)
@pytest.mark.parametrize("braces", [True, False])
def test_spliced_sections_equal_those_of_the_real_render(infer, model, braces, tmp_path):
    """Every request's tokens, total and by section, are the same with and without splicing."""
    rows = ROWS if braces else {split: [{**r, "question": r["question"].replace("{answer}", "")}
                                        for r in ROWS[split]] for split in ROWS}
    spliced, real = _both(_dataset(INFER[infer], rows, ["question", "note"]), _model(model, tmp_path),
                          token_sections=True)
    assert not _token_differences(spliced, real)
    assert not _differences(spliced, real)
    assert _spliced(spliced) > 0 or infer == "chat_turns"  # (ChatInferencer reads the row: never spliced)


@pytest.mark.parametrize("model", ["meta", "plain", "chat", "api", None])
def test_spliced_samples_take_their_sections_from_their_form(model, tmp_path):
    """One example set, no braces, no limit: every later sample is spliced, and its sections
    come from its checked form (sample_form.py), where the pair has forms."""
    rows = {split: [{**r, "question": r["question"].replace("{answer}", "")} for r in ROWS[split]]
            for split in ROWS}
    spliced, real = _both(_dataset(INFER["dialogue"], rows, ["question", "note"]),
                          _model(model, tmp_path, max_seq_len=None) if model else None, token_sections=True)
    if model is None:  # no model, no tokens: nothing to code
        assert not _differences(spliced, real)
        assert spliced.provenance_renders == 0
        return
    assert not _token_differences(spliced, real)  # (each sample rendered once: the counts below)
    assert _spliced(spliced) == len(real) - 1
    # row 0 (the form's check) and the form's stand-ins are rendered with provenance; an API
    # model's rows are never stamps (its wire), so each is
    assert spliced.provenance_renders == (len(real) if model == "api" else 2)
    assert not _differences(spliced, real)


@pytest.mark.parametrize("model", ["meta", "chat", "api"])
def test_a_row_with_an_empty_value_does_not_teach_the_form(model, tmp_path):
    """Rows with an empty value (row 0's q, row 1's note, ...) are spliced, and their sections
    counted, like the rest."""
    infer = {"prompt_template": {"type": "PromptTemplate", "template": {
        "begin": [{"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "{note}"}],
        "round": [{"role": "HUMAN", "prompt": "{q}"}, {"role": "BOT", "prompt": ""}]}}, **GEN}
    rows = [{"q": f"row {i}" if i % 3 else "", "note": "" if i % 2 else "n", "answer": "1"} for i in range(9)]
    spliced, real = _both(_dataset(infer, {"train": rows, "test": rows}, ["q", "note"]),
                          _model(model, tmp_path, max_seq_len=None), token_sections=True)
    assert not _token_differences(spliced, real)
    assert _spliced(spliced) == len(real) - 1
    assert not _differences(spliced, real)


# -- values with braces: spliced where no later field can take them up -------------------------

_ATOMS = ["{a}", "{b}", "{c}", "{answer}", "{", "}", "x", " ", "{a", "b}", "\\frac{1}{2}", '{"k": 1}', "{ab}",
          "a", "}{"]
_INERT = ["\\frac{1}{2}", '{"k": 1}', "x", " ", "{x}", "{}", "\n"]  # braces no field can take up
_braced = st.one_of(st.lists(st.sampled_from(_INERT), max_size=4).map("".join),
                    st.lists(st.sampled_from(_ATOMS), max_size=5).map("".join))


@settings(max_examples=150, derandomize=True, deadline=None)
@given(template=st.one_of(st.sampled_from(["Q: {a} {b}\nA: {c}", "{a}{b}{c}", "x {a} } {b} { {c}",
                                           '{"q": "{a}", "r": {b}} {c}']),
                          st.lists(st.sampled_from(_ATOMS), min_size=1, max_size=8).map("".join)),
       values=st.lists(st.tuples(_braced, _braced, _braced), min_size=3, max_size=5))
def test_values_with_braces_splice_only_where_the_fill_would_not_fill_them_again(template, values):
    """Any template, any values: the spliced render is the real one, brace for brace (the
    fill replaces ``{a}``, ``{b}``, ``{c}`` and the output column in turn, across the text)."""
    rows = [{"a": a, "b": b, "c": c, "answer": "1"} for a, b, c in values]
    spliced, real = _both(_dataset(_string_template(template), {"train": rows, "test": rows}, ["a", "b", "c"]),
                          None)
    assert not _differences(spliced, real)


def test_latex_and_json_values_are_spliced():
    rows = [{"q": f"\\frac{{{i}}}{{2}} and {{\"k\": {i}}}", "answer": "1"} for i in range(6)]
    spliced, real = _both(_dataset(_string_template("Q: {q}\nA:"), {"train": rows, "test": rows}, ["q"]), None)
    assert not _differences(spliced, real)
    assert _spliced(spliced) == len(real) - 1
    # a value holding a field the fill replaces after it is filled again: rendered for real
    rows = [{"q": "see {answer}", "answer": "1"} for _ in range(6)]
    spliced, real = _both(_dataset(_string_template("Q: {q}\nA:"), {"train": rows, "test": rows}, ["q"]), None)
    assert not _differences(spliced, real) and _spliced(spliced) == 0
