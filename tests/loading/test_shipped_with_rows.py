"""Shipped OpenCompass configs render the user's own rows, from a data folder in the
OpenCompass layout under ``$COMPASS_DATA_CACHE``, and say which route gave them.

The fixture files are the reader cases' (``readers/cases``), already in the real layout and
held to the real ``load()``; here they are laid out as ``data/<dataset>/...`` and reached
through the configs' data ids, as a run of the framework would reach them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.headless.helpers import run_cli

from . import framework_trees as trees

CASES = Path(__file__).parent / "readers" / "cases"
CONFIGS = "opencompass/configs/datasets"


def _copy(case: str, relative: str, cache: Path, into: str) -> None:
    source = CASES / case / "data" / relative
    target = cache / "data" / into
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_dir():
        shutil.copytree(source, target, dirs_exist_ok=True)
    else:
        shutil.copyfile(source, target)


@pytest.fixture(scope="module")
def oc_tree() -> Path:
    try:
        return trees.tree(trees.OPENCOMPASS)
    except trees.Unreachable as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def data_cache(tmp_path_factory: pytest.TempPathFactory, oc_tree: Path) -> Path:
    cache = tmp_path_factory.mktemp("compass_data")
    _copy("gsm8k", "", cache, "gsm8k")
    _copy("hellaswag_ice", "", cache, "hellaswag")
    train = cache / "data" / "hellaswag" / "hellaswag_train_sampled25.jsonl"
    train.write_text(train.read_text(encoding="utf-8") * 10, encoding="utf-8")  # the config is 10-shot
    _copy("arc", "ARC-Challenge-Dev.jsonl", cache, "ARC/ARC-c/ARC-Challenge-Dev.jsonl")
    _copy("boolq_v2", "val.jsonl", cache, "SuperGLUE/BoolQ/val.jsonl")
    _copy("race", "validation/middle.jsonl", cache, "race/validation/middle.jsonl")
    _copy("race", "test/middle.jsonl", cache, "race/test/middle.jsonl")
    _copy("race", "validation/middle.jsonl", cache, "race/validation/high.jsonl")
    _copy("race", "test/middle.jsonl", cache, "race/test/high.jsonl")
    _copy("humaneval", "human-eval-v2-20210705.jsonl", cache, "humaneval/human-eval-v2-20210705.jsonl")
    _copy("math", "math.json", cache, "math/math.json")
    for case, relative, into in (("triviaqa", "triviaqa", "triviaqa"), ("nq", "nq", "nq"),
                                 ("commonsenseqa", "commonsenseqa", "commonsenseqa"),
                                 ("cmnli_v2", "CLUE", "CLUE")):
        shutil.copytree(CASES / case / relative, cache / "data" / into, dirs_exist_ok=True)
    train = cache / "data" / "commonsenseqa" / "train_rand_split.jsonl"
    train.write_text(train.read_text(encoding="utf-8") * 4, encoding="utf-8")  # the config is 8-shot
    # MMLU: every subject the config names, headerless CSVs per split
    mmlu = CASES / "mmlu" / "data"
    subjects = sorted({line.split("'")[1] for line in (oc_tree / CONFIGS / "mmlu" / "mmlu_all_sets.py")
                       .read_text(encoding="utf-8").splitlines() if line.strip().startswith("'")})
    for split in ("dev", "test"):
        (cache / "data" / "mmlu" / split).mkdir(parents=True)
        for subject in subjects:
            shutil.copyfile(mmlu / split / f"abstract_algebra_{split}.csv",
                            cache / "data" / "mmlu" / split / f"{subject}_{split}.csv")
    return cache


#: config → (dataset abbr to look at, a piece of its first test row the render must show)
SHIPPED = {
    "gsm8k/gsm8k_gen.py": ("gsm8k", "Janet’s ducks lay 16 eggs per day."),
    "mmlu/mmlu_gen.py": ("lukaemon_mmlu_abstract_algebra", "Which is prime?"),
    "hellaswag/hellaswag_gen.py": ("hellaswag", "A man is on skis. He"),
    "ARC_c/ARC_c_gen.py": ("ARC-c", "Which is a gas?"),
    "SuperGLUE_BoolQ/SuperGLUE_BoolQ_gen.py": ("BoolQ", "Question: is the sky blue"),
    "race/race_gen.py": ("race-middle", "Where did Tom go?"),
    "humaneval/humaneval_gen.py": ("openai_humaneval", "def f(x):"),
    "math/math_gen.py": ("math", "What is $1+1$?"),
    "triviaqa/triviaqa_gen.py": ("triviaqa", "Who wrote Hamlet?"),
    "nq/nq_gen.py": ("nq", "Who wrote Hamlet?"),
    "commonsenseqa/commonsenseqa_gen_1da2d0.py": ("commonsense_qa", "a punishing blow?"),
    "CLUE_cmnli/CLUE_cmnli_gen.py": ("cmnli", "他来了"),
}


@pytest.mark.parametrize("config", sorted(SHIPPED))
def test_shipped_config_renders_the_users_rows(config: str, oc_tree: Path, data_cache: Path,
                                               monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("COMPASS_DATA_CACHE", str(data_cache))
    monkeypatch.setenv("HOME", str(tmp_path))
    abbr, shown = SHIPPED[config]
    run = run_cli("render", str(oc_tree / CONFIGS / config), "--config-root", str(oc_tree),
                  "--dataset", abbr, "--limit", "1", cwd=tmp_path)
    assert run.code == 0, run.err
    document = json.loads(run.out)
    (render,) = document["renders"]
    assert render["rows_source"]["kind"] == "native-reader"
    assert render["rows_source"]["data_id"].startswith("opencompass/")
    assert render["rows_source"]["path"].startswith(str(data_cache))
    request = render["samples"][0]["requests"][0]
    assert shown in json.dumps(request["prompt_list"], ensure_ascii=False)
    assert "‹" not in json.dumps(request["prompt_list"], ensure_ascii=False)  # no placeholder
    assert not [w for w in document["warnings"] if "no rows found" in w["message"]]
