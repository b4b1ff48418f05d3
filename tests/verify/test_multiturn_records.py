"""``verify`` and ``--run`` on multi-turn records, in the shapes the frameworks write them.

The records here are written by hand, field for field as the frameworks' source writes them
(no run of either framework is needed):

- AISBench 3.1.20260630 ``MultiTurnGenInferencer.infer_every``
  (``openicl/icl_inferencer/icl_multiturn_inferencer.py``) reports each turn on its own, and
  ``BaseInferencerOutputHandler.run_cache_consumer`` (``output_handler/base_handler.py``) writes
  each as a line ``{"data_abbr", "id", **get_prediction_result(...)}`` =
  ``{"data_abbr", "id", "success", "uuid", "origin_prompt", "prediction", "gold"}``: the same
  ``id`` and ``uuid`` for every turn of a conversation, ``origin_prompt`` the history the model
  parsed (turn k's holds the model's own answers to turns 0..k-1), lines in the order requests
  finished. A failed turn goes to ``_failed.jsonl`` and ends its conversation.
- OpenCompass 0.5.4 ``ChatInferencer`` (``openicl/icl_inferencer/icl_chat_inferencer.py``):
  ``infer_every`` in dialogue mode (a ``dialogue`` input column beside others) saves
  ``save_results(origin_prompt=None, prediction=[{"round", "user", "assistant"}, ...])``;
  without it, ``save_multiround_results`` appends each turn's last user message to
  ``origin_prompt`` and its answer to ``prediction``; ``infer_last`` saves the history chat.
  ``ChatOutputHandler.write_to_json`` dumps ``{"0": record, ...}`` with ``indent=4``.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.headless.helpers import run_cli

AIS_CONFIG = """\
from ais_bench.benchmark.models import VLLMCustomAPIChat
from ais_bench.benchmark.openicl.icl_inferencer import MultiTurnGenInferencer
from ais_bench.benchmark.openicl.icl_prompt_template import MultiTurnPromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever

datasets = [
    dict(
        abbr='mt', type='JsonlDataset', path='data/mt.jsonl',
        reader_cfg=dict(input_columns=['question'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(type=MultiTurnPromptTemplate, template=dict(round=[
                dict(role="HUMAN", prompt="{question}"),
                dict(role="BOT", prompt="{answer}"),
            ])),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=MultiTurnGenInferencer, infer_mode='every'),
        ),
    ),
]
models = [
    dict(attr='service', abbr='api-chat', type=VLLMCustomAPIChat, path='', model='m',
         host_ip='127.0.0.1', host_port=8080, max_out_len=16, batch_size=1, generation_kwargs=dict(),
         meta_template=dict(round=[dict(role='HUMAN', api_role='HUMAN'),
                                   dict(role='BOT', api_role='BOT', generate=True)])),
]
"""
AIS_ROWS = [
    {"question": ["Name a colour.", "And another?"], "answer": ["red", "blue"]},
    {"question": ["Count to two.", "Now to three."], "answer": ["1 2", "1 2 3"]},
]
#: What the model answered, per sample and turn
AIS_ANSWERS = [["Green.", "Purple."], ["1, 2", "1, 2, 3"]]


def _ais_line(index: int, turn: int, answers: list[list[str]] = AIS_ANSWERS) -> dict:
    """One line as AISBench writes it for turn ``turn`` of sample ``index``."""
    history: list[dict] = []
    for k in range(turn):
        history += [{"role": "HUMAN", "prompt": AIS_ROWS[index]["question"][k]},
                    {"role": "BOT", "prompt": answers[index][k]}]
    history.append({"role": "HUMAN", "prompt": AIS_ROWS[index]["question"][turn]})
    return {"data_abbr": "mt", "id": index, "success": True, "uuid": f"conv{index}", "origin_prompt": history,
            "prediction": answers[index][turn], "gold": AIS_ROWS[index]["answer"]}


def _ais_run(root: Path, lines: list[dict]) -> Path:
    (root / "data").mkdir(parents=True)
    (root / "data" / "mt.jsonl").write_text("".join(json.dumps(r) + "\n" for r in AIS_ROWS), encoding="utf-8")
    (root / "ais_mt.py").write_text(AIS_CONFIG, encoding="utf-8")
    predictions = root / "run" / "predictions" / "api-chat"
    predictions.mkdir(parents=True)
    (predictions / "mt.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return root


def _verify_json(root: Path, *extra: str):
    run = run_cli("verify", "run", "--config", "ais_mt.py", "--data", "mt=data/mt.jsonl", "-f", "json",
                  *extra, cwd=root)
    return run, (json.loads(run.out)["pairs"] if run.out.strip() else [])


def test_aisbench_turns_are_each_compared_with_their_own_request(tmp_path: Path) -> None:
    # finishing order: both first turns, then sample 1's second turn before sample 0's
    lines = [_ais_line(0, 0), _ais_line(1, 0), _ais_line(1, 1), _ais_line(0, 1)]
    root = _ais_run(tmp_path, lines)
    run, pairs = _verify_json(root)
    assert run.code == 0, run.out + run.err
    assert [(p["matched"], p["differing"], p["unrecorded_turns"]) for p in pairs] == [(2, 0, 0)]
    # a changed second turn is named with its turn
    lines[3] = {**lines[3], "origin_prompt": [*lines[3]["origin_prompt"][:-1],
                                              {"role": "HUMAN", "prompt": "And one more?"}]}
    _ais_run(tmp_path / "changed", lines)
    changed = run_cli("verify", "run", "--config", "ais_mt.py", "--data", "mt=data/mt.jsonl",
                      cwd=tmp_path / "changed")
    assert changed.code == 1, changed.out + changed.err
    assert "mt × api-chat: 1 matched, 1 differing, 0 missing" in changed.out
    assert "sample 0 · turn 1: - recorded by the run, + rendered now" in changed.out
    assert "- And one more?\n+ And another?" in changed.out


def test_a_failed_turn_leaves_its_conversation_short_and_is_said(tmp_path: Path) -> None:
    # sample 1's first turn failed: AISBench writes it to mt_failed.jsonl and sends no second turn
    root = _ais_run(tmp_path, [_ais_line(0, 0), _ais_line(0, 1)])
    run, pairs = _verify_json(root)
    assert pairs[0]["matched"] == 1 and pairs[0]["missing"] == 1
    assert "no record" not in run.err  # (verify counts the sample as missing instead)
    shown = run_cli("render", "ais_mt.py", "--data", "mt=data/mt.jsonl", "--run", "run", "-f", "json", cwd=root)
    assert "the run (--run) has no record of this sample" in shown.err
    assert "recorded no answer for a turn" not in shown.err
    root2 = _ais_run(tmp_path / "short", [_ais_line(0, 0), _ais_line(1, 0)])
    run, pairs = _verify_json(root2)
    assert run.code == 0, run.out + run.err
    assert (pairs[0]["matched"], pairs[0]["unrecorded_turns"]) == (2, 2)
    assert "2 rendered turn(s) have no record" in pairs[0]["note"]
    # --run: a history whose earlier answer was never recorded shows the stand-in, and says so
    shown = run_cli("render", "ais_mt.py", "--data", "mt=data/mt.jsonl", "--run", "run", "-f", "json", cwd=root2)
    assert shown.code == 0, shown.err
    assert "recorded no answer for a turn that a later turn's history holds" in shown.err


def test_run_feeds_turn_k_answer_only_into_later_turns(tmp_path: Path) -> None:
    lines = [_ais_line(0, 0), _ais_line(1, 0), _ais_line(1, 1), _ais_line(0, 1)]
    root = _ais_run(tmp_path, lines)
    run = run_cli("render", "ais_mt.py", "--data", "mt=data/mt.jsonl", "--run", "run", "-f", "json", cwd=root)
    assert run.code == 0, run.err
    samples = json.loads(run.out)["renders"][0]["samples"]
    for index, sample in enumerate(samples):
        first, second = sample["requests"]
        assert first["recorded_output"] == AIS_ANSWERS[index][0]
        assert second["recorded_output"] == AIS_ANSWERS[index][1]
        # turn 1's history holds turn 0's answer, never its own
        assert second["model_input"][1] == {"role": "BOT", "prompt": AIS_ANSWERS[index][0]}
        assert AIS_ANSWERS[index][1] not in json.dumps(second["model_input"])
    assert "recorded no answer" not in run.err


def test_a_repeated_sample_draws_each_compared(tmp_path: Path) -> None:
    # pass@k: the same sample sent twice, each draw its own uuid (models/output.py)
    second = [{**line, "uuid": line["uuid"] + "-b"} for line in (_ais_line(0, 0), _ais_line(0, 1))]
    root = _ais_run(tmp_path, [_ais_line(0, 0), second[0], _ais_line(0, 1), second[1],
                               _ais_line(1, 0), _ais_line(1, 1)])
    run, pairs = _verify_json(root)
    assert run.code == 0, run.out + run.err
    assert (pairs[0]["matched"], pairs[0]["differing"]) == (2, 0)


OC_CONFIG = """\
from opencompass.models import OpenAI
from opencompass.openicl.icl_inferencer import ChatInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

def _chat(abbr, columns, mode):
    return dict(abbr=abbr, type='JsonlDataset', path='data/chat.jsonl',
                reader_cfg=dict(input_columns=columns, output_column='answer'),
                # (OpenCompass's retriever wants a template; ChatInferencer reads none of it)
                infer_cfg=dict(ice_template=dict(type=PromptTemplate, template='{question}'),
                               retriever=dict(type=ZeroRetriever),
                               inferencer=dict(type=ChatInferencer, infer_mode=mode)))

datasets = [_chat('dialogue', ['dialogue', 'topic'], 'every'),
            _chat('messages', ['messages'], 'every'),
            _chat('last', ['messages'], 'last')]
models = [dict(type=OpenAI, abbr='gpt', path='gpt-4o-mini', key='EMPTY', max_out_len=16, batch_size=1,
               meta_template=dict(round=[dict(role='HUMAN', api_role='HUMAN'),
                                         dict(role='BOT', api_role='BOT', generate=True)]))]
"""
OC_ROWS = [
    {"dialogue": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "gold a1"},
                  {"role": "user", "content": "Tell me more"}, {"role": "assistant", "content": "gold a2"}],
     "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "gold a1"},
                  {"role": "user", "content": "Tell me more"}, {"role": "assistant", "content": "gold a2"}],
     "topic": "chat", "answer": "x"},
]
OC_ANSWERS = ["Hello there.", "Here is more."]


def _oc_run(root: Path, records: dict[str, dict], config: str = OC_CONFIG) -> Path:
    (root / "data").mkdir(parents=True)
    (root / "data" / "chat.jsonl").write_text("".join(json.dumps(r) + "\n" for r in OC_ROWS), encoding="utf-8")
    (root / "oc_chat.py").write_text(config, encoding="utf-8")
    predictions = root / "run" / "predictions" / "gpt"
    predictions.mkdir(parents=True)
    for abbr, record in records.items():
        (predictions / f"{abbr}.json").write_text(json.dumps({"0": record}, indent=4), encoding="utf-8")
    return root


def _oc_records(users: tuple[str, str] = ("Hi", "Tell me more")) -> dict[str, dict]:
    dialogue = [{"round": k + 1, "user": users[k], "assistant": OC_ANSWERS[k]} for k in range(2)]
    return {
        # save_results(origin_prompt=None, prediction=preds_list, idx, gold=None): no gold key
        "dialogue": {"prediction": dialogue, "origin_prompt": None},
        # save_multiround_results: gold, prediction, origin_prompt lists (gold is the answer too)
        "messages": {"gold": OC_ANSWERS, "prediction": OC_ANSWERS, "origin_prompt": list(users)},
        # infer_last: save_results(origin_prompt=history, prediction=output, gold=...)
        "last": {"gold": "gold a2", "prediction": OC_ANSWERS[1],
                 "origin_prompt": [{"role": "user", "content": users[0]},
                                   {"role": "assistant", "content": "gold a1"},
                                   {"role": "user", "content": users[1]}]},
    }


def test_opencompass_chat_records_are_compared_turn_by_turn(tmp_path: Path) -> None:
    root = _oc_run(tmp_path, _oc_records())
    run = run_cli("verify", "run", "--config", "oc_chat.py", "--data", "dialogue=data/chat.jsonl",
                  "--data", "messages=data/chat.jsonl", "--data", "last=data/chat.jsonl", "-f", "json", cwd=root)
    assert run.code == 0, run.out + run.err
    pairs = {p["dataset"]: p for p in json.loads(run.out)["pairs"]}
    assert {k: (p["matched"], p["differing"], p["not_checked"]) for k, p in pairs.items()} == {
        "dialogue": (1, 0, 0), "messages": (1, 0, 0), "last": (1, 0, 0)}
    changed = _oc_run(tmp_path / "changed", _oc_records(("Hi", "Tell me less")))
    run = run_cli("verify", "run", "--config", "oc_chat.py", "--data", "dialogue=data/chat.jsonl",
                  "--data", "messages=data/chat.jsonl", "--data", "last=data/chat.jsonl", cwd=changed)
    assert run.code == 1
    assert "dialogue × gpt: 0 matched, 1 differing" in run.out
    assert "messages × gpt: 0 matched, 1 differing" in run.out
    assert "last × gpt: 0 matched, 1 differing" in run.out
    assert "sample 0 · turn 1: - recorded by the run" in run.out


def test_run_feeds_dialogue_rounds_into_later_turns(tmp_path: Path) -> None:
    root = _oc_run(tmp_path, _oc_records())
    # infer_mode='last': the one request asks for the last turn; its record's prediction answers it
    last = run_cli("render", "oc_chat.py", "--data", "last=data/chat.jsonl", "--dataset", "last",
                   "--run", "run", "-f", "json", cwd=root)
    [request] = json.loads(last.out)["renders"][0]["samples"][0]["requests"]
    assert (request["turn"], request["recorded_output"]) == (1, OC_ANSWERS[1])
    for abbr in ("dialogue", "messages"):
        run = run_cli("render", "oc_chat.py", "--data", f"{abbr}=data/chat.jsonl", "--dataset", abbr,
                      "--run", "run", "-f", "json", cwd=root)
        assert run.code == 0, run.err
        first, second = json.loads(run.out)["renders"][0]["samples"][0]["requests"]
        assert (first["recorded_output"], second["recorded_output"]) == tuple(OC_ANSWERS)
        assert {"role": "BOT", "prompt": OC_ANSWERS[0]} in second["model_input"]
        assert "‹prediction turn" not in run.out and "recorded no answer" not in run.err


MULTIROUND_CONFIG = """\
from opencompass.datasets import RawPromptTemplate
from opencompass.models import OpenAI
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_retriever import ZeroRetriever

def _raw(abbr, messages):
    return dict(abbr=abbr, type='JsonlDataset', path='data/raw.jsonl',
                reader_cfg=dict(input_columns=['dialogue', 'gold_dialogue'], output_column='answer'),
                infer_cfg=dict(prompt_template=dict(type=RawPromptTemplate, messages=messages),
                               retriever=dict(type=ZeroRetriever),
                               inferencer=dict(type=GenInferencer, multiround=True)))

datasets = [_raw('empty_turns', [dict(role='system', content='sys'), dict(expand_column='dialogue')]),
            _raw('gold_between', [dict(expand_column='gold_dialogue')])]
models = [dict(type=OpenAI, abbr='gpt', path='gpt-4o-mini', key='EMPTY', max_out_len=16, batch_size=1)]
"""
RAW_ROW = {
    "dialogue": [{"role": "user", "content": "turn one"}, {"role": "assistant", "content": ""},
                 {"role": "user", "content": "turn two"}, {"role": "assistant", "content": ""}],
    "gold_dialogue": [{"role": "user", "content": "u1"}, {"role": "assistant", "content": "gold 1"},
                      {"role": "user", "content": "u2"}, {"role": "assistant", "content": ""}],
    "answer": "x",
}


def test_multiround_records_map_turns_to_the_empty_assistant_messages(tmp_path: Path) -> None:
    # GenInferencer(multiround=True) (icl_gen_inferencer.py): origin_prompt is the chat parsed
    # before any answer (an API model's parser passes raw messages through), prediction every
    # assistant message's content after _generate_multiround, the given ones too
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "raw.jsonl").write_text(json.dumps(RAW_ROW) + "\n", encoding="utf-8")
    (tmp_path / "raw.py").write_text(MULTIROUND_CONFIG, encoding="utf-8")
    predictions = tmp_path / "run" / "predictions" / "gpt"
    predictions.mkdir(parents=True)
    empty = [{"role": "system", "content": "sys"}, *RAW_ROW["dialogue"]]
    records = {"empty_turns": {"origin_prompt": empty, "prediction": ["A one", "A two"], "gold": "x"},
               "gold_between": {"origin_prompt": RAW_ROW["gold_dialogue"], "prediction": ["gold 1", "A u2"],
                                "gold": "x"}}
    for abbr, record in records.items():
        (predictions / f"{abbr}.json").write_text(json.dumps({"0": record}, indent=4), encoding="utf-8")
    data = ["--data", "empty_turns=data/raw.jsonl", "--data", "gold_between=data/raw.jsonl"]
    run = run_cli("verify", "run", "--config", "raw.py", *data, cwd=tmp_path)
    assert run.code == 0, run.out + run.err
    assert "empty_turns × gpt: 1 matched, 0 differing, 0 missing" in run.out
    assert "gold_between × gpt: 1 matched, 0 differing, 0 missing" in run.out
    shown = run_cli("render", "raw.py", *data, "--run", "run", "-f", "json", cwd=tmp_path)
    renders = {r["dataset"]: r["samples"][0]["requests"] for r in json.loads(shown.out)["renders"]}
    assert [r["recorded_output"] for r in renders["empty_turns"]] == ["A one", "A two"]
    assert renders["empty_turns"][1]["model_input"][2] == {"role": "assistant", "content": "A one"}
    # the one empty message is the second assistant message: its answer is prediction[1]
    assert [r["recorded_output"] for r in renders["gold_between"]] == ["A u2"]
    # a changed user message of turn 2 is found in turn 2
    records["empty_turns"]["origin_prompt"][3] = {"role": "user", "content": "turn 2"}
    (predictions / "empty_turns.json").write_text(json.dumps({"0": records["empty_turns"]}), encoding="utf-8")
    changed = run_cli("verify", "run", "--config", "raw.py", *data, cwd=tmp_path)
    assert changed.code == 1 and "sample 0 · turn 1: - recorded by the run" in changed.out


def test_run_with_a_bad_line_warns_at_it_and_uses_the_rest(tmp_path: Path) -> None:
    root = _ais_run(tmp_path, [_ais_line(0, 0), _ais_line(0, 1), _ais_line(1, 0)])
    file = root / "run" / "predictions" / "api-chat" / "mt.jsonl"
    file.write_text(file.read_text(encoding="utf-8") + '{"data_abbr": "mt", "id": 1, "orig', encoding="utf-8")
    run = run_cli("render", "ais_mt.py", "--data", "mt=data/mt.jsonl", "--run", "run", "-f", "json", cwd=root)
    assert run.code == 0, run.err
    assert "warning: --run: run/predictions/api-chat/mt.jsonl:4: prediction line is not valid JSON" in run.err
    samples = json.loads(run.out)["renders"][0]["samples"]
    assert [r.get("recorded_output") for r in samples[0]["requests"]] == AIS_ANSWERS[0]
    assert [r.get("recorded_output") for r in samples[1]["requests"]] == [AIS_ANSWERS[1][0], None]


def test_a_multi_turn_pair_without_data_is_not_compared(tmp_path: Path) -> None:
    # no rows file: placeholders from reader_cfg, against which every turn would differ
    root = _ais_run(tmp_path, [_ais_line(0, 0), _ais_line(0, 1)])
    (root / "data" / "mt.jsonl").unlink()
    run = run_cli("verify", "run", "--config", "ais_mt.py", cwd=root)
    assert run.code == 1, run.out + run.err
    assert "mt × api-chat: 0 matched, 0 differing, 0 missing, 1 not checked (not compared: no rows found" in run.out
    assert run.out.rstrip().endswith("1 pair not compared: placeholder rows, no data found")


def test_every_with_gt_records_are_not_checked_and_say_why(tmp_path: Path) -> None:
    # infer_every_with_gt: save_multiround_results(idx=index) then index += 1 per turn, so sample
    # 0's second turn lands in record "1" (here: a record of a sample the data does not have)
    records = {"with_gt": {"gold": ["gold a1"], "prediction": [OC_ANSWERS[0]], "origin_prompt": ["Hi"]}}
    root = _oc_run(tmp_path, records, OC_CONFIG + "datasets = [_chat('with_gt', ['messages'], 'every_with_gt')]\n")
    predictions = root / "run" / "predictions" / "gpt" / "with_gt.json"
    both = {"0": records["with_gt"], "1": {"gold": ["gold a2"], "prediction": [OC_ANSWERS[1]],
                                           "origin_prompt": ["Tell me more"]}}
    predictions.write_text(json.dumps(both, indent=4), encoding="utf-8")
    data = ["--data", "with_gt=data/chat.jsonl"]
    run = run_cli("verify", "run", "--config", "oc_chat.py", *data, cwd=root)
    assert run.code == 1, run.out + run.err  # nothing could be compared: never a pass
    assert "with_gt × gpt: 0 matched, 0 differing, 0 missing, 2 not checked (not checked (sample 0 of " \
        "with_gt.json): OpenCompass 0.5.4's ChatInferencer (every_with_gt) files turn k of sample i under " \
        "sample i+k, so its records mix samples; 1 recorded sample(s) beyond the 1 the render has" in run.out
    assert "mix samples" not in run.err  # (said in the report, not again as a warning)
    shown = run_cli("render", "oc_chat.py", *data, "--run", "run", "-f", "json", cwd=root)
    assert shown.code == 0, shown.err
    assert "recorded_output" not in shown.out
    assert "so its records mix samples: the run's answers are not shown beside its requests" in shown.err


def test_aisbench_lines_missing_their_fields_are_named_and_the_rest_verified(tmp_path: Path) -> None:
    no_prompt = {k: v for k, v in _ais_line(1, 0).items() if k != "origin_prompt"}
    root = _ais_run(tmp_path, [_ais_line(0, 0), _ais_line(0, 1), no_prompt])
    file = root / "run" / "predictions" / "api-chat" / "mt.jsonl"
    file.write_text(file.read_text(encoding="utf-8") + '{"data_abbr": "mt", "origin_prompt": []}\n', encoding="utf-8")
    run = run_cli("verify", "run", "--config", "ais_mt.py", "--data", "mt=data/mt.jsonl", cwd=root)
    assert run.code == 3, run.out + run.err
    assert run.err.startswith("run/predictions/api-chat/mt.jsonl:4: prediction line has no integer id: skipped")
    assert "mt × api-chat: 1 matched, 0 differing, 0 missing, 1 not checked (not checked (sample 1 of mt.jsonl): " \
        "the record has no origin_prompt" in run.out
