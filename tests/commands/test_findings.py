"""Findings through ``render``: the same id, place and hint on stderr and in the JSON, and
exit 3 for an error finding (PW101), as for any config error."""

from __future__ import annotations

import json
from pathlib import Path

from tests.headless.helpers import run_cli

CONFIG = '''\
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.models import HuggingFaceCausalLM

datasets = [dict(
    abbr='demo',
    reader_cfg=dict(
        {INPUT}=['question'],
        output_column='answer'),
    infer_cfg=dict(
        prompt_template=dict(
            type=PromptTemplate,
            template=dict(round=[
                dict(role='HUMAN', prompt='Q: {{question}}'),
                dict(role='BOT', prompt='A:')])),
        retriever=dict(type=ZeroRetriever),
        inferencer=dict(type=GenInferencer)),
)]
models = [dict(
    type=HuggingFaceCausalLM, abbr='m', path='x',
    meta_template=dict(round=[dict(role='HUMAN', begin='<u>', end='\\n'),
                              dict(role='BOT', begin='<a>', generate=True)]),
    {SEQ}=2048,
)]
'''


def workspace(tmp: Path, input_key: str = "input_columns", seq_key: str = "max_seq_len") -> Path:
    (tmp / "eval.py").write_text(CONFIG.format(INPUT=input_key, SEQ=seq_key), encoding="utf-8")
    (tmp / "data.jsonl").write_text('{"question": "1+1?", "answer": "2"}\n', encoding="utf-8")
    return tmp


def test_a_misspelled_key_exits_3_at_the_keys_line_with_did_you_mean(tmp_path):
    ws = workspace(tmp_path, input_key="input_column")
    result = run_cli("render", "eval.py", "--data", "data.jsonl", cwd=ws)
    assert result.code == 3
    [line] = [x for x in result.err.splitlines() if "PW101" in x]
    assert line.startswith(f"{ws / 'eval.py'}:9: [demo × m] PW101 unknown-key: reader_cfg: DatasetReader.__init__() "
                           "got an unexpected keyword argument 'input_column'")
    assert line.endswith("(hint: did you mean 'input_columns'?)")
    [error] = json.loads(result.out)["errors"]
    assert (error["id"], error["file"], error["line"]) == ("PW101", str(ws / "eval.py"), 9)
    assert error["hint"] == "did you mean 'input_columns'?"


def test_a_misspelled_model_key_points_at_the_model_files_line(tmp_path):
    ws = workspace(tmp_path, seq_key="max_seq_lenn")
    result = run_cli("render", "eval.py", "--data", "data.jsonl", "-f", "text", cwd=ws)
    assert result.code == 3
    assert f"{ws / 'eval.py'}:24: [demo × m] PW101 unknown-key: model: HuggingFaceCausalLM.__init__() got an " \
           "unexpected keyword argument 'max_seq_lenn'" in result.err
    assert "did you mean 'max_seq_len'?" in result.err


def test_the_unsent_prompt_is_one_located_warning_in_both_outputs(tmp_path):
    ws = workspace(tmp_path)
    result = run_cli("render", "eval.py", "--data", "data.jsonl", cwd=ws)
    assert result.code == 0, result.err
    [line] = [x for x in result.err.splitlines() if "PW201" in x]
    assert line.startswith(f"warning: {ws / 'eval.py'}:16: [demo × m] PW201 unsent-generation-prompt: the generating "
                           "BOT turn's prompt 'A:' is never sent")
    document = json.loads(result.out)
    [warning] = document["warnings"]
    assert (warning["id"], warning["file"], warning["line"]) == ("PW201", str(ws / "eval.py"), 16)
    assert "HUMAN" in warning["hint"]
    assert document["renders"][0]["samples"][0]["requests"][0]["model_input"] == "<u>Q: 1+1?\n<a>"
