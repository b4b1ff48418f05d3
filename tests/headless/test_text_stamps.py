"""The text of a stamped render is the text of the usual render, byte for byte.

``render --format text`` writes a stamp from its form's pieces (headless/formats/stamp_writer.py),
its token counts by section counted from the form's pieces (core/inferencers/sample_form.py).
Each render here is written with stamps and without them: the same text, in the default
mode and with ``--raw``; stamps written from their forms where they can be.
"""

from __future__ import annotations

import pytest

from tests.core.render_cases import _model
from tests.headless.helpers import write_streamed
from tests.headless.test_json_stamps import HOSTILE, _datasets
from workbench.core.lazy_pairs import render_workspace
from workbench.core.render import RenderOptions
from workbench.headless.formats import stamp_writer
from workbench.headless.formats.text_export import TextOptions, write_render_text


def _text(models, stamps: bool, values: list[str], options: TextOptions, path=None) -> tuple[str, int, list[str]]:
    """The text of every pair, how many stamps the stream handed out, and the warnings (written
    to ``path``, a UTF-8 file, where given: then as bytes, the stamps' constant pieces encoded once)."""
    result = render_workspace(_datasets(values), models, config="eval.py",
                              options=RenderOptions(token_sections=True))
    text, handed, written = write_streamed(
        result, lambda narrowed, out, samples_of: write_render_text(narrowed, out, samples_of, options), stamps,
        path)
    return text, handed, [w.message for w in written.warnings]


@pytest.mark.parametrize("raw", [False, True])
@pytest.mark.parametrize("model", ["meta", "plain", "chat"])
@pytest.mark.parametrize("max_seq_len", [None, 300])
@pytest.mark.parametrize("to_file", [False, True])
def test_stamped_text_is_the_usual_text(model, max_seq_len, raw, to_file, tmp_path, monkeypatch):
    models = [_model(model, tmp_path, max_seq_len)]
    values = [v for v in HOSTILE if model != "chat" or "\ud800" not in v]  # (a tokenizer cannot encode it)
    written = []
    real_text = stamp_writer.StampWriter.text

    def text(self, stamp):
        written.append(self)
        return real_text(self, stamp)

    monkeypatch.setattr(stamp_writer.StampWriter, "text", text)
    options = TextOptions(raw=raw)
    usual, none, usual_warnings = _text(models, False, values, options)
    stamped, handed, warnings = _text(models, True, values, options, tmp_path / "out.txt" if to_file else None)
    assert all(w.utf8 is to_file for w in written)
    assert none == 0 and handed > 20
    assert stamped == usual
    assert warnings == usual_warnings  # --raw's lone-surrogate warning included
    piecewise = sum(w.written for w in set(written))
    surrogates = any("\ud800" in v for v in values)  # (--raw leaves a row with one to the usual way)
    assert piecewise == handed if not (raw and surrogates) else 0 < piecewise < handed
