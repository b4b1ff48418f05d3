"""The token seams screen (k): the tokens around the seams of the sample on screen, or why
there are none (a model with no local tokenizer)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from workbench.core.tokens.counting import tokenizers_available
from workbench.tui.screens.token_seams import TokenSeamsScreen

from ..commands.test_render_tokens import CONFIG, ROWS
from .conftest import make_app, settle, wait_for

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "chat_templates"))
from tokenizer_fixture import build_bpe_tokenizer_json

pytestmark = pytest.mark.anyio


async def open_seams(pilot) -> TokenSeamsScreen:
    await settle(pilot)
    await pilot.press("k")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, TokenSeamsScreen))
    return pilot.app.screen


@pytest.mark.skipif(not tokenizers_available(), reason="the tokens extra is not installed")
async def test_k_shows_every_label_of_the_sample_with_the_model_tokenizer(tmp_path):
    build_bpe_tokenizer_json(tmp_path / "bpe-model" / "tokenizer.json")
    (tmp_path / "eval.py").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    app = make_app(tmp_path / "eval.py")
    async with app.run_test(size=(140, 50)) as pilot:
        await settle(pilot)
        assert (app.selection.dataset, app.selection.model) == ("choice", "bpe")
        screen = await open_seams(pilot)
        assert screen.title_text == "Token seams · choice × bpe · sample 0"
        assert screen.lines[0] == "choice × bpe · tokenizer.json (bpe-model)"
        assert [line for line in screen.lines if line.startswith("sample ")] == [
            "sample 0 · label A · 34 tokens", "sample 0 · label B · 34 tokens", "sample 0 · label C · 33 tokens"]
        assert '  context/continuation at character 44: "w" 92 "e" 74 "r" 87 ⟦":·C" 102⟧' in screen.lines
        assert "summary: 1 of 3 labels × 1 row: context/continuation: a token merges across the seam" \
            in screen.lines
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, TokenSeamsScreen))


async def test_k_without_a_tokenizer_says_why():
    app = make_app()
    async with app.run_test(size=(140, 50)) as pilot:
        screen = await open_seams(pilot)
        assert len(screen.lines) == 2
        assert screen.lines[1].startswith("no tokenizer to show the token seams with (no local model folder")
        await pilot.press("k")
        await wait_for(pilot, lambda: not isinstance(app.screen, TokenSeamsScreen))
