"""Stamped samples say what the usual render says, and fall back to it wherever they cannot.

A stamp is a sample as its finished form, the row's values and its token counts
(core/inferencers/sample_form.py). Every config here is stamped and rendered the usual way
(without the splice): each stamp's requests, token counts, max_seq_len measures and lengths
must be the real render's, the pair's warnings the same, and stamps must actually be made
where the rules allow them.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.inferencers.sample_form import Form
from workbench.core.lengths import tally_for
from workbench.core.render import PairRenderer, RenderOptions
from workbench.core.result import Stamp
from workbench.core.spec import DatasetSpec, ModelSpec, Source
from workbench.core.tokens.counting import PiecesEstimate, estimate_whole
from workbench.loading.models.model_assets import attach_assets

from .render_cases import INFER, ROWS, _model, write_model_folder
from .test_sample_splice import CASES
from .test_token_estimate import ATOMS


def _dataset(rows: dict | None = None, infer: str = "dialogue") -> DatasetSpec:
    cfg = {"abbr": "d", "reader_cfg": {"input_columns": ["question", "note"], "output_column": "answer"},
           "infer_cfg": INFER[infer]}
    return DatasetSpec(abbr="d", cfg=cfg, rows=copy.deepcopy(rows or ROWS))


def _stamped(dataset: DatasetSpec, model, sections: bool = False) -> tuple[list, PairRenderer, PairRenderer]:
    stamping = PairRenderer(dataset, model, RenderOptions(token_sections=sections))
    real = PairRenderer(dataset, model, RenderOptions(splice=False, token_sections=sections))
    return [stamping.stamp(i) for i in range(len(stamping))], stamping, real


def _differences(samples: list, stamping: PairRenderer, real: PairRenderer) -> list[str]:
    out = []
    tally = tally_for(real, total=len(real))
    stamped, usual = tally_for(real, total=len(real)), tally_for(real, total=len(real))
    for i, got in enumerate(samples):
        want = real.sample(i)
        stamped.add(got)
        usual.add(want)
        if type(got) is Stamp:
            totals = tuple(r.tokens.total for r in want.requests)
            measured = tuple(r.truncation.measured if r.truncation else None for r in want.requests)
            if (got.totals, got.measured) != (totals, measured):
                out.append(f"sample {i}: numbers {got.totals, got.measured} != {totals, measured}")
            sections = tuple(tuple(n for _, n in r.tokens.sections) for r in want.requests)
            if stamping.options.token_sections and got.sections != sections:
                out.append(f"sample {i}: sections {got.sections} != {sections}")
            if tally.measure(got) != tally.measure(want):
                out.append(f"sample {i}: lengths {tally.measure(got)} != {tally.measure(want)}")
            if (got.index, got.source_index, got.ice_indices) != (want.index, want.source_index, want.ice_indices):
                out.append(f"sample {i}: index or examples differ")
        if tuple(got.requests) != want.requests:
            out.append(f"sample {i}: requests differ")
    if stamped.summary() != usual.summary():
        out.append("length summaries differ")
    if stamping.notes.messages != real.notes.messages:
        out.append(f"warnings {stamping.notes.messages} != {real.notes.messages}")
    if stamping.tally is not None and stamping.tally.messages(len(real)) != real.tally.messages(len(real)):
        out.append("truncation summaries differ")
    return out


@pytest.mark.parametrize("sections", [False, True])
@pytest.mark.parametrize(("infer", "model"), CASES)
def test_stamps_say_what_the_usual_render_says(infer, model, sections, tmp_path):
    """Every third row holds a later column's ``{answer}`` and every fourth is long enough for
    max_seq_len 300 to drop examples: those are rendered the usual way, the rest stamped, with
    token counts by section where those are asked for."""
    samples, stamping, real = _stamped(_dataset(infer=infer), _model(model, tmp_path), sections)
    assert not _differences(samples, stamping, real)
    stamps = sum(type(s) is Stamp for s in samples)
    if infer == "chat_turns" or model == "api":
        # multi-round chat reads its turns: never spliced; an OpenAI API model's request on the
        # wire is made per request: rendered the usual way
        assert stamps == 0
    else:
        assert stamps >= 1


def test_every_row_after_the_first_is_stamped(tmp_path):
    """The first row (rendered when the pair is made) is a sample; the second builds the form and
    checks its splice and its stamp on the first row's render and finish: every later row is
    a stamp, the second too."""
    rows = {"train": ROWS["train"], "test": [{"question": f"q{i} plain words", "answer": "A", "note": "n"}
                                            for i in range(12)]}
    for model in ("meta", "plain", "chat"):
        for sections in (False, True):
            samples, stamping, real = _stamped(_dataset(rows), _model(model, tmp_path, max_seq_len=None), sections)
            assert [type(s) is Stamp for s in samples] == [False] + [True] * 11, (model, sections)
            assert not _differences(samples, stamping, real)


HOSTILE = ["\x1b[31mred\x1b[0m", "tab\there", "line\u2028sep", "quote \" and \\ slash", "lone \ud800",
           "中文 text", "🙂 emoji", "", " ", "\n\n", "<|im_end|>", "bidi \u202e", "nul \x00", "del \x7f"]


@pytest.mark.parametrize("sections", [False, True])
@pytest.mark.parametrize("model", ["meta", "chat"])
def test_hostile_values_are_stamped_as_they_render(model, sections, tmp_path):
    # (a lone surrogate is what a real tokenizer cannot encode: both ways fail alike there)
    hostile = [v for v in HOSTILE if model != "chat" or "\ud800" not in v]
    rows = {"train": ROWS["train"], "test": [{"question": f"q{i} {v} end", "answer": v, "note": v}
                                            for i, v in enumerate(hostile * 2)]}
    samples, stamping, real = _stamped(_dataset(rows), _model(model, tmp_path, max_seq_len=None), sections)
    assert not _differences(samples, stamping, real)
    assert sum(type(s) is Stamp for s in samples) > len(hostile)


STRIPPING = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content | trim }}<|im_end|>\n{% endfor %}" \
            "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"


def test_a_chat_template_that_transforms_contents_is_not_stamped(tmp_path):
    folder = write_model_folder(tmp_path / "strip", STRIPPING, {"bos_token": "<s>", "eos_token": "<|im_end|>"})
    cfg = {"abbr": "strip", "type": "HuggingFacewithChatTemplate", "path": str(folder)}
    (model,) = attach_assets([ModelSpec(abbr="strip", cfg=cfg, source=Source())], tmp_path)
    samples, stamping, real = _stamped(_dataset(), model)
    assert not _differences(samples, stamping, real)
    assert not any(type(s) is Stamp for s in samples)


def test_a_form_that_disagrees_with_the_render_is_dropped(monkeypatch, tmp_path):
    monkeypatch.setattr(Form, "agrees", lambda self, *args: False)
    samples, stamping, real = _stamped(_dataset(), _model("meta", tmp_path, max_seq_len=None))
    assert not any(type(s) is Stamp for s in samples)
    assert not _differences(samples, stamping, real)


def test_the_check_sees_a_wrong_count(monkeypatch, tmp_path):
    """``agrees`` is what guards the forms: a count off by one is seen."""
    real_numbers = Form.numbers

    def off_by_one(self, values):
        made = real_numbers(self, values)
        return None if made is None else (tuple(t + 1 for t in made[0]), *made[1:])

    monkeypatch.setattr(Form, "numbers", off_by_one)
    samples, _, _ = _stamped(_dataset(), _model("chat", tmp_path, max_seq_len=None))
    assert not any(type(s) is Stamp for s in samples)


def test_rows_past_max_seq_len_are_rendered_the_usual_way(tmp_path):
    """The fixture's long rows make the loop drop examples: never stamps, their records kept."""
    samples, stamping, real = _stamped(_dataset(), _model("meta", tmp_path))
    long_rows = [i for i in range(len(real)) if any(r.truncation.dropped for r in real.sample(i).requests)]
    assert long_rows
    assert all(type(samples[i]) is not Stamp for i in long_rows)
    assert stamping.tally.shortened == real.tally.shortened


def test_a_stamp_renders_its_requests_only_when_asked(tmp_path):
    samples, stamping, _ = _stamped(_dataset(), _model("meta", tmp_path, max_seq_len=None))
    stamp = next(s for s in samples if type(s) is Stamp)
    assert stamp._made is None
    assert stamp.requests == stamping.sample(stamp.index).requests


parts = st.lists(st.one_of(st.lists(st.sampled_from(ATOMS), max_size=8).map("".join),
                           st.integers(min_value=0, max_value=3)), max_size=12)
values = st.lists(st.lists(st.sampled_from(ATOMS), max_size=8).map("".join), min_size=4, max_size=4)


@settings(max_examples=500, deadline=None)
@given(parts=parts, values=values)
def test_pieces_estimate_equals_the_one_pass_count(parts, values):
    """Cut at the line cuts inside constant pieces, counted by stretches: the one-pass count of
    the joined text, whatever the values hold (newlines, spaces, control tokens at the edges)."""
    text = "".join(values[p] if type(p) is int else p for p in parts)
    assert PiecesEstimate(parts).count(values) == estimate_whole(text)


BARE = {
    "prompt_template": {"type": "PromptTemplate", "template": {"round": [
        {"role": "HUMAN", "prompt": "{question}"}, {"role": "BOT", "prompt": "{answer}"}]}},
    "retriever": {"type": "ZeroRetriever"},
    "inferencer": {"type": "GenInferencer"},
}


def test_a_content_found_in_the_template_text_before_its_place_is_rendered_the_usual_way(tmp_path):
    """Section codes find each message's content in the chat template's text from the end of
    the one before: a content that is also template text (the question and the newline after
    it: "user\n") is found there, in the markup before its place, and its codes follow that;
    such rows keep the usual way."""
    questions = ["alpha beta", "gamma", "delta words", "user", "epsilon", "|>user", "im_start", "zeta eta"]
    rows = {"train": [], "test": [{"question": q, "answer": "A", "note": "n"} for q in questions]}
    cfg = {"abbr": "d", "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
           "infer_cfg": BARE}
    samples, stamping, real = _stamped(DatasetSpec(abbr="d", cfg=cfg, rows=rows),
                                       _model("chat", tmp_path, max_seq_len=None), sections=True)
    assert not _differences(samples, stamping, real)
    kinds = {q: type(s) is Stamp for q, s in zip(questions, samples)}
    assert kinds["epsilon"] and kinds["zeta eta"] and kinds["im_start"]  # ("im_start\n" is not there)
    assert not kinds["user"] and not kinds["|>user"]
