"""The JSON of a stamped render is the JSON of the usual render, byte for byte.

``render --format json`` writes a stamp from its form's pieces, cut once per form
(headless/formats/stamp_writer.py). Each render here is written with stamps and without them
(every sample rendered the usual way, as ``--label`` selections and the other formats do):
the two documents must be the same text, and the stamps must have been written from their
forms, not through their requests.
"""

from __future__ import annotations

import copy
import io

import pytest

from tests.core.render_cases import INFER, ROWS, _model
from tests.core.test_sample_stamp import HOSTILE
from tests.headless.helpers import write_streamed
from workbench.core.lazy_pairs import render_workspace
from workbench.core.result import Stamp
from workbench.core.spec import DatasetSpec
from workbench.headless.formats import stamp_writer
from workbench.headless.formats.json_encoding import JsonSample
from workbench.headless.formats.json_export import write_render_json
from workbench.headless.render_filter import RenderFilter
from workbench.headless.stream import SampleStream, select


def _datasets(values: list[str]) -> list[DatasetSpec]:
    hostile = {"train": ROWS["train"],
               "test": [{"question": f"q{i} {v} end", "answer": v, "note": v} for i, v in enumerate(values * 2)]}
    out = []
    for infer in ("dialogue", "leaky", "string", "ppl"):
        for name, rows in (("fixture", ROWS), ("hostile", hostile)):
            abbr = f"{infer}-{name}"
            cfg = {"abbr": abbr, "infer_cfg": INFER[infer],
                   "reader_cfg": {"input_columns": ["question", "note"], "output_column": "answer"}}
            out.append(DatasetSpec(abbr=abbr, cfg=cfg, rows=copy.deepcopy(rows)))
    return out


def _document(models, stamps: bool, values: list[str] = HOSTILE, path=None) -> tuple[str, int]:
    """The JSON of every pair, and how many stamps the stream handed out (written to ``path``,
    a UTF-8 file, where given: then as bytes, the stamps' constant pieces encoded once)."""
    result = render_workspace(_datasets(values), models, config="eval.py")
    text, handed, _ = write_streamed(result, write_render_json, stamps, path)
    return text, handed


@pytest.mark.parametrize("model", ["meta", "plain", "chat"])
@pytest.mark.parametrize("max_seq_len", [None, 300])
@pytest.mark.parametrize("to_file", [False, True])
def test_stamped_json_is_the_usual_json(model, max_seq_len, to_file, tmp_path, monkeypatch):
    models = [_model(model, tmp_path, max_seq_len)]
    # (a real tokenizer cannot encode a lone surrogate: both ways fail alike there)
    values = [v for v in HOSTILE if model != "chat" or "\ud800" not in v]
    written, kinds = [], set()
    real_text = stamp_writer.StampWriter.text

    def text(self, stamp):
        made = real_text(self, stamp)
        written.append(self.written)
        kinds.add(type(made))
        return made

    monkeypatch.setattr(stamp_writer.StampWriter, "text", text)
    usual, none = _document(models, False, values)
    stamped, handed = _document(models, True, values, tmp_path / "out.json" if to_file else None)
    assert none == 0 and handed > 20
    assert written[-1] == handed  # every stamp written from its form
    assert kinds == ({bytes} if to_file else {str})  # a UTF-8 file takes the stamps' bytes
    assert stamped == usual


def test_a_form_whose_pieces_disagree_is_written_the_usual_way(tmp_path, monkeypatch):
    """The first stamp of every form is written both ways and compared: pieces that say
    something else (here: every value dropped) are never used."""
    real = stamp_writer.Pieces.write
    monkeypatch.setattr(stamp_writer.Pieces, "write",
                        lambda self, row: real(self, [""] * self.columns + row[self.columns:]))
    models = [_model("meta", tmp_path, None)]
    usual, _ = _document(models, stamps=False)
    stamped, handed = _document(models, stamps=True)
    assert handed > 20
    assert stamped == usual


def test_a_label_selection_gets_samples_not_stamps(tmp_path):
    result = render_workspace(_datasets(HOSTILE), [_model("meta", tmp_path, None)], config="eval.py")
    selection = RenderFilter(labels=("A",))
    _, entries = select(result, selection)
    with SampleStream(entries, selection, stamps=True) as stream:
        assert not any(type(s) is Stamp for e in entries for s in stream(e.pair))


def test_worker_processes_write_stamps_from_their_forms_too(tmp_path):
    """``--jobs``: each worker writes the stamps of its chunks with its own writer; the
    document is the serial one."""
    models = [_model("meta", tmp_path, None), _model("chat", tmp_path, None)]
    values = [v for v in HOSTILE if "\ud800" not in v]
    serial, _ = _document(models, False, values)
    result = render_workspace(_datasets(values), models, config="eval.py")
    narrowed, entries = select(result, RenderFilter())
    out = io.StringIO()
    with SampleStream(entries, RenderFilter(), jobs=2, recipe=lambda: result, serialize=JsonSample()) as stream:
        assert stream.pool is not None
        write_render_json(narrowed, out, stream)
    assert out.getvalue() == serial
