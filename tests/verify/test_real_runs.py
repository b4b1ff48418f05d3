"""Run folders written by the REAL OpenCompass 0.5.4 and AISBench 3.1.20260630 CLIs against a
loopback server that recorded every request body (tools/make_real_runs.py): the workbench's
wire view of each run's config must be those bodies, and ``verify`` must tell the truth about
each run. No framework is needed here: only the committed folders are read.

The fixture's runs (``real_runs/<framework>/outputs/<config>/<time>/``):

- ``opencompass/eval_api``: gsm8k (gen) and a ChatInferencer dialogue dataset through
  ``OpenAI`` (``extra_body``), ``OpenAISDK``, ``OpenAI`` with ``mode='mid'`` (the class cuts
  every message) and ``oc-crash``, whose task died on its first batch (no predictions);
- ``opencompass/eval_local``: a local model (PPL and gen; gsm8k split into two files);
- ``aisbench/eval_ais``: VLLMCustomAPIChat and VLLMCustomAPI on gsm8k;
- ``aisbench/eval_ais_multiturn``: MT-Bench's shape, three and two turns, ``every`` mode.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest

from tests.headless.helpers import run_cli

REAL = Path(__file__).parent / "fixture" / "real_runs"
#: MTBenchDataset has no native reader (issue 27 item 6): its rows as its load() returns them
MTBENCH_ROWS = ("--data", "mtbench=data/mtbench_rows.jsonl")


def _run_dir(folder: str, config: str) -> Path:
    runs = sorted(p for p in (REAL / folder / "outputs" / config).iterdir() if p.is_dir())
    assert len(runs) == 1, runs
    return runs[0]


def _dump(folder: str, config: str) -> str:
    """The config the run saved (``configs/<time>_<pid>.py``), relative to the folder."""
    (dump,) = (_run_dir(folder, config) / "configs").glob("*.py")
    return str(dump.relative_to(REAL / folder))


def _run(folder: str, config: str) -> str:
    return str(_run_dir(folder, config).relative_to(REAL / folder))


Sent = tuple[str, str]  # (URL path, body as JSON text, key order kept)


def _recorded(folder: str, config: str) -> list[Sent]:
    """The bodies the server received, each re-serialised as ``json.dumps`` writes it (the
    key order, ``0`` vs ``0.0`` and ``null`` vs absent are kept; only spacing is not)."""
    lines = (REAL / folder / "requests" / f"{config}.jsonl").read_text(encoding="utf-8").splitlines()
    return [(r["path"], json.dumps(json.loads(r["body"]), ensure_ascii=False))
            for r in map(json.loads, lines)]


def _render(folder: str, config_file: str, *extra: str) -> dict[str, Any]:
    run = run_cli("render", config_file, "--format", "json", *extra, cwd=REAL / folder)
    assert run.code in (0, 1), run.out[-2000:] + run.err
    return json.loads(run.out)


def _wire(document: dict[str, Any]) -> dict[tuple[str, str], list[Sent | None]]:
    """Each (dataset, model) pair's requests as the workbench shows them on the wire."""
    out: dict[tuple[str, str], list[Sent | None]] = {}
    for render in document["renders"]:
        sent: list[Sent | None] = []
        for sample in render["samples"]:
            for request in sample["requests"]:
                wire = request["wire"]
                sent.append(None if wire is None else
                            (urlparse(wire["endpoint"]).path, json.dumps(wire["body"], ensure_ascii=False)))
        out[(render["dataset"], render["model"])] = sent
    return out


def _model_of(sent: Sent) -> str:
    """Which model of the fixture sent a body: by its endpoint and its ``model`` field."""
    path, body = sent
    name = json.loads(body)["model"]
    if path.startswith("/v1/crash/"):
        return "oc-crash"
    return {"gpt-4": "oc-openai", "gpt-3.5-turbo": "oc-sdk", "gpt-4-0613": "oc-trunc",
            "fake-chat": "ais-chat", "fake-completions": "ais-completions"}[name]


def _dataset_of(sent: Sent) -> str:
    body = json.loads(sent[1])
    text = body.get("prompt") or body["messages"][0]["content"]
    if "Question:" in text:
        return "gsm8k"
    return "mtbench" if body["model"] == "fake-chat" else "dialogue"


def _sent_by_pair(folder: str, config: str) -> dict[tuple[str, str], Counter[Sent]]:
    out: dict[tuple[str, str], Counter[Sent]] = {}
    for sent in _recorded(folder, config):
        out.setdefault((_dataset_of(sent), _model_of(sent)), Counter())[sent] += 1
    return out


def _warmups(folder: str, config: str, document: dict[str, Any], dataset: str, model: str) -> Counter[Sent]:
    """AISBench sends its first sample's requests ``num_warmups`` times (default 1) before the
    run: requests the workbench does not show, since they are no sample's."""
    if folder != "aisbench":
        return Counter()
    dump = (REAL / folder / _dump(folder, config)).read_text(encoding="utf-8")
    count = int(dump.split("num_warmups=", 1)[1].split(",", 1)[0])
    (render,) = [r for r in document["renders"] if (r["dataset"], r["model"]) == (dataset, model)]
    first = _wire({"renders": [{**render, "samples": render["samples"][:1]}]})[(dataset, model)]
    return Counter({s: count for s in first if s is not None})


def _extra(folder: str, config: str) -> tuple[str, ...]:
    """``--run`` feeds the recorded answers into later turns; MT-Bench needs its rows."""
    extra = ("--run", _run(folder, config))
    return (*extra, *MTBENCH_ROWS) if config == "eval_ais_multiturn" else extra



#: (framework folder, config, dataset, model): the pairs whose every request reached the server
SENT_PAIRS = [
    ("opencompass", "eval_api", "gsm8k", "oc-openai"),
    ("opencompass", "eval_api", "gsm8k", "oc-sdk"),
    ("opencompass", "eval_api", "dialogue", "oc-openai"),
    ("opencompass", "eval_api", "dialogue", "oc-sdk"),
    ("aisbench", "eval_ais", "gsm8k", "ais-chat"),
    ("aisbench", "eval_ais", "gsm8k", "ais-completions"),
    ("aisbench", "eval_ais_multiturn", "mtbench", "ais-chat"),
]


@pytest.mark.parametrize(("folder", "config", "dataset", "model"), SENT_PAIRS)
def test_every_body_sent_is_the_wire_view_of_the_saved_config(folder: str, config: str, dataset: str,
                                                              model: str) -> None:
    document = _render(folder, _dump(folder, config), *_extra(folder, config))
    rendered = _wire(document)[(dataset, model)]
    assert None not in rendered
    sent = _sent_by_pair(folder, config)[(dataset, model)]
    assert sent - _warmups(folder, config, document, dataset, model) == Counter(rendered)


#: Keys each config lists unsorted and the run sent sorted, as its dump has them
SORTED_KEYS = {"oc-openai": ["chat_template_kwargs", "repetition_penalty", "top_k"],
               "oc-sdk": ["min_p", "top_k"],
               "ais-chat": ["ignore_eos", "temperature", "top_k"],
               "ais-completions": ["ignore_eos", "temperature", "top_k"]}

#: The user's own configs (not the dumps): the same bodies, key order included (issue 27 item 5)
OWN_CONFIGS = [
    ("opencompass", "eval_api", "gsm8k", "oc-openai"),  # extra_body, nested chat_template_kwargs
    ("opencompass", "eval_api", "gsm8k", "oc-sdk"),
    ("aisbench", "eval_ais", "gsm8k", "ais-chat"),  # generation_kwargs
    ("aisbench", "eval_ais", "gsm8k", "ais-completions"),
]


@pytest.mark.parametrize(("folder", "config", "dataset", "model"), OWN_CONFIGS)
def test_the_users_own_config_puts_keys_on_the_wire_in_the_dumps_order(folder: str, config: str,
                                                                       dataset: str, model: str) -> None:
    document = _render(folder, f"{config}.py")
    rendered = _wire(document)[(dataset, model)]
    sent = _sent_by_pair(folder, config)[(dataset, model)]
    assert sent - _warmups(folder, config, document, dataset, model) == Counter(rendered)
    order = SORTED_KEYS[model]
    for _, body in sent:
        assert [k for k in json.loads(body) if k in order] == order


def test_ppl_labels_are_asked_in_the_dumps_order() -> None:
    """eval_local.py lists the labels 'true', 'false'; the run asked 'false' first (its dump
    sorts the label dict), and the workbench renders them so from the user's own config."""
    run = _run_dir("opencompass", "eval_local")
    records = json.loads((run / "predictions" / "oc-lm" / "boolq.json").read_text(encoding="utf-8"))
    recorded = [k.removeprefix("label: ") for k in records["0"] if k.startswith("label: ")]
    assert recorded == ["false", "true"]
    document = _render("opencompass", "eval_local.py")
    (boolq,) = [r for r in document["renders"] if r["dataset"] == "boolq"]
    assert [r["label"] for r in boolq["samples"][0]["requests"]] == recorded


def test_a_truncating_model_is_shown_with_no_body_and_why() -> None:
    """``mode='mid'`` cuts each message before it is sent (the recorded bodies hold the cut
    text); the workbench does not reproduce the cut, so it shows no body, and says so."""
    document = _render("opencompass", _dump("opencompass", "eval_api"))
    wire = _wire(document)
    assert wire[("gsm8k", "oc-trunc")] == [None] * 4
    assert any("does not reproduce that cut" in w["message"] for w in document["warnings"])
    sent = _sent_by_pair("opencompass", "eval_api")[("gsm8k", "oc-trunc")]
    assert sum(sent.values()) == 4
    assert all("step by step" not in body for _, body in sent)  # cut from every message


def test_the_crashed_models_requests_are_the_first_the_wire_view_shows() -> None:
    rendered = _wire(_render("opencompass", _dump("opencompass", "eval_api")))[("gsm8k", "oc-crash")]
    sent = _sent_by_pair("opencompass", "eval_api")[("gsm8k", "oc-crash")]
    assert sum(sent.values()) == 2  # its first batch (batch_size=2), then the task died
    assert not sent - Counter(rendered)
    # OpenCompass leaves its predictions folder empty (git keeps no empty folder)
    assert not list((_run_dir("opencompass", "eval_api") / "predictions" / "oc-crash").glob("*"))


# -- verify on each run ------------------------------------------------------------


def _verify(folder: str, config: str, *extra: str) -> Any:
    return run_cli("verify", _run(folder, config), *extra, cwd=REAL / folder)


def test_verify_passes_the_untouched_opencompass_api_run() -> None:
    run = _verify("opencompass", "eval_api")
    for model in ("oc-openai", "oc-sdk"):
        assert f"gsm8k × {model}: 4 matched, 0 differing, 0 missing" in run.out, run.out + run.err


def test_verify_passes_the_local_run_with_ppl_and_split_files() -> None:
    run = _verify("opencompass", "eval_local")
    assert run.code == 0, run.out + run.err
    assert "boolq × oc-lm: 3 matched, 0 differing, 0 missing" in run.out
    assert "gsm8k × oc-lm: 4 matched, 0 differing, 0 missing" in run.out  # gsm8k_0 + gsm8k_1


def test_verify_passes_the_aisbench_run_whose_retrievers_hold_the_templates() -> None:
    """AISBench's saved config copies prompt_template/ice_template into every retriever
    (issue 27 item 1): the run verifies, pair by pair."""
    dump = (REAL / "aisbench" / _dump("aisbench", "eval_ais")).read_text(encoding="utf-8")
    retriever = dump.split("retriever=dict(", 1)[1]
    assert retriever.index("ice_template=") < retriever.index("type=")
    run = _verify("aisbench", "eval_ais")
    assert run.code == 0, run.out + run.err
    assert "gsm8k × ais-chat: 4 matched, 0 differing, 0 missing" in run.out
    assert "gsm8k × ais-completions: 4 matched, 0 differing, 0 missing" in run.out


def test_verify_passes_the_aisbench_multi_turn_run() -> None:
    run = _verify("aisbench", "eval_ais_multiturn", *MTBENCH_ROWS)
    assert run.code == 0, run.out + run.err
    assert "mtbench × ais-chat: 2 matched, 0 differing, 0 missing" in run.out


def test_verify_names_the_model_whose_task_crashed() -> None:
    run = _verify("opencompass", "eval_api")
    assert "oc-crash" in run.out + run.err


def test_verify_warns_that_the_truncating_model_received_cut_messages() -> None:
    run = _verify("opencompass", "eval_api")
    said = [line for line in (run.out + run.err).splitlines() if "oc-trunc" in line]
    assert any("mode" in line or "cut" in line or "trunc" in line.replace("oc-trunc", "")
               for line in said), run.out + run.err


def test_verify_without_the_data_says_it_compared_placeholder_rows(tmp_path: Path) -> None:
    run = run_cli("verify", str(_run_dir("opencompass", "eval_local")), cwd=tmp_path)
    assert "placeholder" in run.out + run.err


def test_aisbench_renders_infer_cfgs_templates_not_the_retrievers_own(tmp_path: Path) -> None:
    """AISBench's infer tasks set the retriever's templates from infer_cfg before building it
    (tasks/openicl_api_infer.py), so an edited copy in the retriever changes nothing: the
    render keeps infer_cfg's, and says the retriever's differs."""
    folder = tmp_path / "aisbench"
    shutil.copytree(REAL / "aisbench", folder)
    dump = folder / _dump("aisbench", "eval_ais")
    text = dump.read_text(encoding="utf-8")
    head, retriever = text.split("retriever=dict(", 1)
    edited = retriever.replace("'Question: {question}", "'Q: {question}", 1)
    assert edited != retriever
    dump.write_text(head + "retriever=dict(" + edited, encoding="utf-8")
    run = run_cli("render", str(dump.relative_to(folder)), "--format", "json", cwd=folder)
    document = json.loads(run.out)
    bodies = [body for sent in _wire(document).values() for _, body in filter(None, sent)]
    assert bodies and all("Q: " not in body and "Question: " in body for body in bodies)
    said = [w["message"] for w in document["warnings"]]
    assert any("FixKRetriever's own ice_template differs from infer_cfg's" in m for m in said), said


def test_opencompass_retrievers_refuse_templates_as_its_retrievers_do(tmp_path: Path) -> None:
    """OpenCompass 0.5.4's retrievers take no templates: ``TypeError`` when it builds one."""
    folder = tmp_path / "opencompass"
    shutil.copytree(REAL / "opencompass", folder)
    config = folder / "eval_local.py"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("retriever=dict(type=ZeroRetriever)",
                                   "retriever=dict(type=ZeroRetriever, prompt_template=None)"), encoding="utf-8")
    run = run_cli("render", "eval_local.py", "--dataset", "boolq", cwd=folder)
    assert "ZeroRetriever.__init__() got an unexpected keyword argument 'prompt_template'" in run.out + run.err
