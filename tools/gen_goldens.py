"""Dev-only golden-output generator for the parity suite.

Runs the REAL OpenCompass 0.5.4 / AISBench 3.1.20260630 prompt pipelines on the
committed case inputs (``config.py`` and ``data.json`` of each folder under
``tests/parity/cases/``, written by tools/make_parity_cases.py) and writes what they would
send to a model as ``tests/parity/cases/<case_id>/expected.json`` (schema
``prompt-workbench/render@1``, see docs/render-json.md, plus a top-level
``framework_errors`` list), then the framework-errors table of ``tests/parity/README.md``.

It must run with the framework venv made by ``tools/setup_fwenv.sh``::

    $FWENV/bin/python tools/gen_goldens.py [CASE_ID ...] [--cases-dir DIR]

(every case folder by default; ``PARITY_DEBUG=1`` prints the traceback of each framework error).

Nothing here is imported by Prompt Workbench or its tests; the tests only read
the committed JSON.  No framework code is copied: this harness imports the
frameworks and calls them.

How a (dataset, model) pair is rendered
---------------------------------------
* The dataset ``type`` is swapped for a tiny ``BaseDataset`` subclass whose
  ``load`` returns ``datasets.Dataset`` / ``DatasetDict`` built from the case's
  ``data.json``; the framework's own ``BaseDataset.__init__`` then adds its
  ``idx``/``subdivision`` columns and builds the ``DatasetReader``.
* The model ``type`` is swapped for a subclass of the real model class whose
  heavy methods (tokenizer / weights / network loading) are stubbed.  Its real
  ``__init__`` still runs, so the class picks its own template parser
  (``LMTemplateParser`` / ``APITemplateParser`` / a chat wrapper's default meta
  template).  Only the leaf methods that would run a model (``generate``,
  ``get_ppl``) are replaced by recorders, and only where the real class
  implements them: a class that cannot do PPL still raises its own error.
* OpenCompass: the real ``OpenICLInferTask`` runs with that model
  (``run(cur_model=...)``), so templates, retriever and inferencer are built
  and driven exactly as ``opencompass`` does (GenInferencer / PPLInferencer).
* AISBench: the real retriever/inferencer are built as the infer tasks do;
  local models go through ``inferencer.inference`` (OpenICLInferTask's path),
  service models through ``get_data_list`` + the async ``do_request`` of
  OpenICLApiInferTask's workers.  Multi-turn inference drives the real
  ``infer_every`` / ``infer_every_with_gt`` / ``infer_last`` coroutines; the
  fake model answers turn N with the text ``‹prediction turn N›``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import json
import os
import re
import sys
import tempfile
import threading
import traceback
from pathlib import Path
from typing import Any
from unittest import mock

from _shared import REPO, quiet, write_json

CASES_DIR = REPO / "tests" / "parity" / "cases"
SCHEMA = "prompt-workbench/render@1"
PREDICTION_TEXT = "\u2039prediction turn {}\u203a"  # ‹prediction turn N›

CHAT_TEMPLATE_CLASSES = {
    "HuggingFacewithChatTemplate",
    "VLLMwithChatTemplate",
    "TurboMindModelwithChatTemplate",
}

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


# --------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------


def type_name(t: Any) -> str | None:
    if t is None:
        return None
    if isinstance(t, str):
        return t.split(".")[-1]
    return getattr(t, "__name__", str(t))


def type_module(t: Any) -> str:
    if isinstance(t, str):
        return t
    return getattr(t, "__module__", "") or ""


def to_json(obj: Any) -> Any:
    """PromptList -> list, ConfigDict -> dict, tuples -> lists; keep ints."""
    if isinstance(obj, dict):
        return {str(k) if not isinstance(k, str) else k: to_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_json(v) for v in obj]
    if isinstance(obj, (str, int, float, bool)) or obj is None:
        return obj
    if hasattr(obj, "item"):  # numpy scalars
        return obj.item()
    return str(obj)


def label_json(label: Any) -> Any:
    if isinstance(label, (str, int, bool)) or label is None:
        return label
    if hasattr(label, "item"):
        return label.item()
    return str(label)


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def err_entry(dataset: str, model: str | None, exc: BaseException) -> dict:
    msg = ANSI.sub("", str(exc))
    if isinstance(exc, RecursionError):
        msg = msg.split("\n")[0]
    return {
        "dataset": dataset,
        "model": model,
        "exception": type(exc).__name__,
        "message": msg,
    }


def load_rows(case_dir: Path) -> Any:
    with open(case_dir / "data.json", encoding="utf-8") as f:
        return json.load(f)


def split_rows(data: Any, split: str, fallback: str) -> list:
    """render-json.md rule: the reader's split name first, else train/test."""
    if isinstance(data, list):
        return data
    if split in data:
        return data[split]
    return data[fallback]


def json_split(rows: list):
    """One split as ``load_dataset('json')`` reads a JSON Lines file of these rows.

    Not ``Dataset.from_list``: that takes its columns from the FIRST row only (a key
    missing there is dropped from every row), while the JSON loader - what a data
    file goes through - takes the union of all rows' keys in order of first
    appearance and fills a missing value with None.  Types are unified per column
    the same way by both (int + float -> float; None anywhere).
    """
    from datasets import Dataset, load_dataset

    if not rows:
        return Dataset.from_list([])
    # under the pair's temporary working directory, removed with it
    tmp = Path(tempfile.mkdtemp(prefix="parity_rows_", dir=os.getcwd()))
    path = tmp / "rows.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    return load_dataset("json", data_files=str(path), split="train", cache_dir=str(tmp / "cache"))


def hf_dataset(data: Any, reader_cfg: dict):
    """Dataset for a plain list, DatasetDict keyed by the reader's split names."""
    from datasets import DatasetDict

    if isinstance(data, list):
        return json_split(copy.deepcopy(data))
    train_split = reader_cfg.get("train_split", "train")
    test_split = reader_cfg.get("test_split", "test")
    dd = DatasetDict()
    dd[train_split] = json_split(copy.deepcopy(split_rows(data, train_split, "train")))
    if test_split not in dd:
        dd[test_split] = json_split(copy.deepcopy(split_rows(data, test_split, "test")))
    return dd


def test_size(data: Any, reader_cfg: dict) -> int:
    return len(split_rows(data, reader_cfg.get("test_split", "test"), "test"))


def owner_of(cls: type, name: str) -> type | None:
    for k in cls.__mro__:
        if name in k.__dict__:
            return k
    return None


# --------------------------------------------------------------------------
# fake models
# --------------------------------------------------------------------------


class Recorder:
    """What a fake model was asked, in call order."""

    def __init__(self) -> None:
        self.gen: list[tuple[Any, Any]] = []  # (template, parsed) per prompt
        self.ppl: list[tuple[Any, Any]] = []  # (template, parsed) per prompt
        self.labels: list[tuple[int, Any]] = []  # (test idx, label) per label prompt
        self.ice: list[list[int]] = []  # retriever.retrieve() results
        self.parse_in: list[Any] = []  # AISBench: parse_template inputs
        # OpenCompass ChatInferencer: the test row being inferred (set by infer_*)
        # and, per generate prompt, that row's index
        self.chat = False
        self.cur_index: int | None = None
        self.gen_idx: list[int | None] = []
        self.label_tpls: list[Any] = []  # generate_label_prompt results (LLInferencer)
        self.gen_tpls: list[Any] = []  # generate_prompt_for_generate_task results (CLP)
        self.ll: list[tuple[Any, Any]] = []  # (parsed, cont) per get_loglikelihood input
        self.logits: list[Any] = []  # get_logits inputs (CLPInferencer)
        self.encoded: list[Any] = []  # tokenizer.encode inputs (CLPInferencer's choices)
        # GenInferencer(multiround=True): answer each turn visibly, numbered per row
        self.multiround = False
        self.turn = 0
        self.gen_turns: list[int] = []
        self.mink: list[Any] = []  # get_mink_percent inputs
        self.tokenwise: list[tuple[Any, Any, Any]] = []  # (template, parsed, label) per row
        self.tot: list[tuple[Any, Any]] = []  # ToT: (entry, parse_template(entry, 'gen'))


def recording_retrieve(rec: Recorder, retrieve: Any) -> Any:
    """The retriever's own ``retrieve``, noting the in-context examples it picks per row."""

    def recorded(self, *a, **k):
        res = retrieve(self, *a, **k)
        rec.ice[:] = [list(x) for x in res]
        return res

    return recorded


def assistant_turns(history: Any) -> int:
    """How many assistant messages a ChatInferencer history holds = its 0-based turn."""
    if not isinstance(history, list):
        return 0
    return sum(1 for m in history if isinstance(m, dict) and m.get("role") == "assistant")


class FakeTokenizer:
    """What CLPInferencer asks of a local model's tokenizer: encode the choices.

    Only attached for CLPInferencer (the stubbed ``_load_tokenizer`` sets none);
    ids are arbitrary but stable, and below the fake logits' vocabulary size.
    """

    padding_side = "left"

    vocab_size = 32000  # SWCELossInferencer picks its id dtype from it

    def __init__(self, rec: Recorder) -> None:
        self.rec = rec

    def encode(self, text, *args, **kwargs):
        if not isinstance(text, str):  # what a Hugging Face tokenizer says to a PromptList
            raise ValueError(f"Input {text} is not valid. Should be a string, a list/tuple of strings "
                             "or a list/tuple of integers.")
        self.rec.encoded.append(text)
        return [sum(map(ord, str(text))) % FAKE_VOCAB]


FAKE_VOCAB = 1024


HEAVY_METHODS = (
    "_load_tokenizer",
    "_load_model",
    "_init_tokenizer",
    "_get_service_model_path",
)


def _noop(self, *args, **kwargs):
    return None


def _chat_converter(real_cls: type):
    mod = sys.modules.get(real_cls.__module__)
    fn = getattr(mod, "_convert_chat_messages", None)
    if fn is None:  # fall back to the wrapper family's shared helper
        if real_cls.__module__.startswith("ais_bench"):
            from ais_bench.benchmark.models.local_models.huggingface_above_v4_33 import (
                _convert_chat_messages as fn,
            )
        else:
            from opencompass.models.huggingface_above_v4_33 import (
                _convert_chat_messages as fn,
            )
    return fn


def stubbed_loading(real_cls: type, prompt_list_cls: type) -> dict[str, Any]:
    """The methods every fake model replaces, in either framework: what would load a
    tokenizer, weights or a service, probe for stop words, or count tokens (always 0; the
    harness runs with max_seq_len far above the cases' prompts)."""
    ns: dict[str, Any] = {}
    for name in HEAVY_METHODS:
        if hasattr(real_cls, name):
            ns[name] = _noop
    if hasattr(real_cls, "_get_potential_stop_words"):
        ns["_get_potential_stop_words"] = lambda self, path=None: []

    def get_token_len(self, prompt, *a, **k):
        return 0

    def get_token_len_from_template(self, templates, mode="ppl"):
        if isinstance(templates, list) and not isinstance(templates, prompt_list_cls):
            return [0 for _ in templates]
        return 0

    ns["get_token_len"] = get_token_len
    ns["get_token_len_from_template"] = get_token_len_from_template
    return ns


def fake_type(real_cls: type, ns: dict) -> type:
    """A subclass that keeps the real class name (it shows in framework messages)."""
    ns = dict(ns, __qualname__=real_cls.__qualname__, __module__=real_cls.__module__)
    return type(real_cls.__name__, (real_cls,), ns)


def make_oc_fake(real_cls: type, rec: Recorder) -> type:
    import numpy as np
    from opencompass.models.base import BaseModel
    from opencompass.models.base_api import BaseAPIModel
    from opencompass.utils.prompt import PromptList

    base_owners = {BaseModel, BaseAPIModel}
    is_chat = real_cls.__name__ in CHAT_TEMPLATE_CLASSES
    convert = _chat_converter(real_cls) if is_chat else None
    ns = stubbed_loading(real_cls, PromptList)

    def generate_from_template(self, templates, max_out_len, **kwargs):
        self._pending = list(templates)
        return real_cls.generate_from_template(self, templates, max_out_len, **kwargs)

    def get_ppl_from_template(self, templates, mask_length=None):
        self._pending = list(templates)
        return real_cls.get_ppl_from_template(self, templates, mask_length)

    ns["generate_from_template"] = generate_from_template
    ns["get_ppl_from_template"] = get_ppl_from_template

    def _record(store, self, inputs):
        pending = getattr(self, "_pending", None) or [None] * len(inputs)
        self._pending = None
        for tpl, parsed in zip(pending, inputs):
            if convert is not None:
                parsed = convert([parsed])[0]
            store.append((copy.deepcopy(tpl), copy.deepcopy(parsed)))
        return pending

    if owner_of(real_cls, "generate") not in base_owners:

        def generate(self, inputs, max_out_len=None, **kwargs):
            pending = _record(rec.gen, self, list(inputs))
            if rec.multiround:
                outs = []
                for _ in inputs:
                    rec.gen_idx.append(rec.cur_index)
                    rec.gen_turns.append(rec.turn)
                    outs.append(PREDICTION_TEXT.format(rec.turn))
                    rec.turn += 1
                return outs
            if not rec.chat:
                return ["" for _ in inputs]
            # ChatInferencer: answer turn N (= assistant messages so far) visibly
            outs = []
            for history in pending:
                rec.gen_idx.append(rec.cur_index)
                outs.append(PREDICTION_TEXT.format(assistant_turns(history)))
            return outs

        ns["generate"] = generate
    if owner_of(real_cls, "get_ppl") not in base_owners:

        def get_ppl(self, inputs, mask_length=None):
            _record(rec.ppl, self, list(inputs))
            return np.zeros(len(inputs), dtype=float)

        ns["get_ppl"] = get_ppl
    # BaseModel defines neither: a class without them raises AttributeError itself
    if hasattr(real_cls, "get_loglikelihood") and owner_of(real_cls, "get_loglikelihood") not in base_owners:

        def get_loglikelihood(self, inputs, conts, *args, **kwargs):
            for x, cont in zip(inputs, conts):
                parsed = convert([x])[0] if convert is not None else x
                rec.ll.append((copy.deepcopy(parsed), cont))
            return np.zeros(len(inputs), dtype=float)

        ns["get_loglikelihood"] = get_loglikelihood
    if owner_of(real_cls, "get_ppl_tokenwise") not in base_owners:
        base_messages = getattr(sys.modules.get(real_cls.__module__), "_convert_base_messages", None)

        def get_ppl_tokenwise_from_template(self, templates, label, mask_length=None):
            self._pending = list(templates)
            self._pending_labels = list(label)
            return real_cls.get_ppl_tokenwise_from_template(self, templates, label, mask_length)

        def get_ppl_tokenwise(self, inputs, label, mask_length=None):
            pending = getattr(self, "_pending", None) or [None] * len(inputs)
            labels = getattr(self, "_pending_labels", None) or list(label)
            sent = base_messages(inputs) if base_messages is not None else list(inputs)
            for tpl, x, lab in zip(pending, sent, labels):
                rec.tokenwise.append((copy.deepcopy(tpl), copy.deepcopy(x), copy.deepcopy(lab)))
            return [0.0] * len(inputs), [0] * len(inputs)

        ns["get_ppl_tokenwise_from_template"] = get_ppl_tokenwise_from_template
        ns["get_ppl_tokenwise"] = get_ppl_tokenwise
    if hasattr(real_cls, "get_mink_percent"):

        def get_mink_percent(self, inputs, k=20):
            for x in inputs:
                rec.mink.append(copy.deepcopy(x))
            return np.zeros(len(inputs), dtype=float)

        ns["get_mink_percent"] = get_mink_percent
    if hasattr(real_cls, "get_logits") and owner_of(real_cls, "get_logits") not in base_owners:

        def get_logits(self, inputs, *args, **kwargs):
            import torch

            for x in inputs:
                rec.logits.append(copy.deepcopy(x))
            return torch.zeros(len(inputs), 1, FAKE_VOCAB), None

        ns["get_logits"] = get_logits
    return fake_type(real_cls, ns)


def make_async_generate(rec: Recorder, parsed_fn):
    """The service-model request: record, then answer turn N with a placeholder."""

    async def generate(self, input, max_out_len, output, session=None, **args):
        rec.gen.append((rec.parse_in[-1] if rec.parse_in else None, parsed_fn(copy.deepcopy(input))))
        output.success = True
        output.content = PREDICTION_TEXT.format(getattr(output, "turn_id", 0) or 0)
        output.input = input

    return generate


def make_ais_fake(real_cls: type, rec: Recorder) -> type:
    from ais_bench.benchmark.models.api_models.base_api import BaseAPIModel
    from ais_bench.benchmark.models.local_models.base import BaseLMModel, BaseModel
    from ais_bench.benchmark.utils.prompt import PromptList

    is_chat = real_cls.__name__ in CHAT_TEMPLATE_CLASSES
    convert = _chat_converter(real_cls) if is_chat else None
    ns = stubbed_loading(real_cls, PromptList)

    def parse_template(self, prompt_template, mode):
        rec.parse_in.append(copy.deepcopy(prompt_template))
        return real_cls.parse_template(self, prompt_template, mode)

    ns["parse_template"] = parse_template

    def _parsed(x):
        return convert([x])[0] if convert is not None else x

    async_generate = make_async_generate(rec, _parsed)
    ns["_parity_async_generate"] = async_generate
    if getattr(real_cls, "is_api", False):
        generate = async_generate

        async def get_ppl(self, input_data, max_out_len, output, session=None, **args):
            if owner_of(type(self), "get_ppl_request_body") is BaseAPIModel:
                await BaseAPIModel.get_ppl_request_body(self, input_data, max_out_len, output)
            rec.ppl.append((None, _parsed(copy.deepcopy(input_data))))
            output.success = True
            output.ppl = 0.0
            output.input = input_data
            output.origin_prompt_logprobs = []

        ns["generate"] = generate
        ns["get_ppl"] = get_ppl
    else:
        from ais_bench.benchmark.models.output import Output

        if owner_of(real_cls, "generate") not in {BaseModel, BaseLMModel}:

            def generate(self, inputs, *args, **kwargs):
                # GenInferencer: generate(inputs, max_out_len=...); LMMGenInferencer:
                # generate(inputs, outputs, **datum), filling the outputs it is given
                given = args[0] if args and isinstance(args[0], list) else None
                outs = []
                for i, x in enumerate(inputs):
                    rec.gen.append((None, _parsed(copy.deepcopy(x))))
                    o = given[i] if given is not None else Output()
                    o.success = True
                    o.content = ""
                    outs.append(o)
                return outs

            ns["generate"] = generate
    return fake_type(real_cls, ns)


@contextlib.contextmanager
def light_model_init():
    """Skip the model-folder probing that __init__s do besides tokenizer/weights."""
    patches = []
    for modname in (
        "opencompass.models.huggingface_above_v4_33",
        "opencompass.models.vllm_with_tf_above_v4_33",
        "opencompass.models.turbomind_with_tf_above_v4_33",
        "ais_bench.benchmark.models.local_models.huggingface_above_v4_33",
    ):
        mod = sys.modules.get(modname)
        if mod is not None and hasattr(mod, "_get_possible_max_seq_len"):
            patches.append(
                mock.patch.object(mod, "_get_possible_max_seq_len", lambda max_seq_len, path: max_seq_len)
            )
    with contextlib.ExitStack() as st:
        for p in patches:
            st.enter_context(p)
        yield


def model_kind(real_cls: type, model: Any = None) -> str:
    """render-json.md's kind, i.e. the shape of model_input.

    Chat-template classes -> "chat_template"; else by the template parser the
    built model carries: LMTemplateParser (a string) -> "lm", APITemplateParser
    (role dicts) -> "api".  An API class parsed like an LM (AISBench
    VLLMCustomAPI) is "lm".
    """
    if real_cls.__name__ in CHAT_TEMPLATE_CLASSES:
        return "chat_template"
    parser = type(getattr(model, "template_parser", None)).__name__
    if parser == "LMTemplateParser":
        return "lm"
    if parser == "APITemplateParser":
        return "api"
    return "api" if getattr(real_cls, "is_api", False) else "lm"


# --------------------------------------------------------------------------
# datasets
# --------------------------------------------------------------------------


def parity_dataset_cls(base_dataset: type, data: Any, reader_cfg: dict) -> type:
    """A subclass of the framework's own ``BaseDataset`` whose ``load`` returns the case's rows."""

    class ParityJsonDataset(base_dataset):  # type: ignore[misc, valid-type]
        def load(self, **kwargs):
            return hf_dataset(data, reader_cfg)

    return ParityJsonDataset


# --------------------------------------------------------------------------
# result assembly
# --------------------------------------------------------------------------


def new_samples(n: int, ice: list[list[int]]) -> list[dict]:
    samples = []
    for i in range(n):
        ice_idx = list(ice[i]) if i < len(ice) else []
        samples.append({"index": i, "ice_indices": [int(x) for x in ice_idx], "requests": []})
    return samples


PREDICTION_RE = re.compile("\u2039prediction turn (\\d+)\u203a")


def answered_turns(value: Any) -> list[int]:
    """The turns whose (fake) model answer the framework wrote into this prompt."""
    found: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.update(int(n) for n in PREDICTION_RE.findall(item))
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return sorted(found)


def request(prompt_list: Any, model_input: Any, label: Any = None, turn: Any = None, **extra: Any) -> dict:
    """One request; ``extra`` holds what else the model receives (LL continuation, CLP choices).

    ``depends_on_turns``: the turns whose answer the framework put into this request (found by
    the fake model's ``‹prediction turn N›`` text), only when there are some.
    """
    out = {
        "label": label_json(label),
        "turn": turn,
        "prompt_list": to_json(prompt_list),
        "model_input": to_json(model_input),
        "model_text": None,
    }
    depends = answered_turns(out["prompt_list"]) or answered_turns(out["model_input"])
    if depends:
        out["depends_on_turns"] = depends
    out.update({k: to_json(v) for k, v in extra.items()})
    return out


# --------------------------------------------------------------------------
# OpenCompass
# --------------------------------------------------------------------------


def run_oc_pair(ds_cfg, model_cfg, data, dataset_abbr, model_abbr, workdir) -> dict:
    from mmengine.config import ConfigDict
    from opencompass.datasets.base import BaseDataset
    from opencompass.tasks.openicl_infer import OpenICLInferTask
    from opencompass.utils import build_model_from_cfg

    rec = Recorder()
    real_model_cls = model_cfg["type"]
    fake_cls = make_oc_fake(real_model_cls, rec)
    mcfg = copy.deepcopy(model_cfg)
    mcfg["type"] = fake_cls
    with light_model_init():
        model = build_model_from_cfg(mcfg)
    kind_model = model  # ChatInferencer's own parsers bear the same class names

    dcfg = copy.deepcopy(ds_cfg)
    reader_cfg = dict(dcfg.get("reader_cfg", {}))
    dcfg["type"] = parity_dataset_cls(BaseDataset, data, reader_cfg)
    infer_cfg = dcfg["infer_cfg"]
    retr_cls = infer_cfg["retriever"]["type"]
    inferencer_name = type_name(infer_cfg["inferencer"]["type"])

    orig_label_prompt = retr_cls.generate_label_prompt
    orig_gen_prompt = retr_cls.generate_prompt_for_generate_task

    def generate_label_prompt(self, idx, ice, label, *a, **k):
        rec.labels.append((idx, label))
        res = orig_label_prompt(self, idx, ice, label, *a, **k)
        rec.label_tpls.append(copy.deepcopy(res))
        return res

    def generate_prompt_for_generate_task(self, *a, **k):
        res = orig_gen_prompt(self, *a, **k)
        rec.gen_tpls.append(copy.deepcopy(res))
        return res

    patches = [
        mock.patch.object(retr_cls, "retrieve", recording_retrieve(rec, retr_cls.retrieve)),
        mock.patch.object(retr_cls, "generate_label_prompt", generate_label_prompt),
        mock.patch.object(retr_cls, "generate_prompt_for_generate_task", generate_prompt_for_generate_task),
    ]
    if inferencer_name == "ChatInferencer":
        rec.chat = True
        infer_cls = infer_cfg["inferencer"]["type"]
        for name in ("infer_last", "infer_every", "infer_every_with_gt"):
            patches.append(
                mock.patch.object(infer_cls, name, _chat_turn_tracker(rec, getattr(infer_cls, name)))
            )
    if inferencer_name in ("CLPInferencer", "SWCELossInferencer") and not getattr(model, "is_api", False):
        model.tokenizer = FakeTokenizer(rec)
    if inferencer_name == "SWCELossInferencer":
        from opencompass.openicl.icl_inferencer.icl_sw_ce_loss_inferencer import SlidingWindowEvalDataset

        if not getattr(model, "is_api", False):
            model.model = _FakeTorchModel()
        # the windows are what the model scores; the harness records the encoded text only
        patches.append(mock.patch.object(SlidingWindowEvalDataset, "__len__", lambda self: 0))
    gen_cfg = infer_cfg["inferencer"]
    if inferencer_name == "GenInferencer" and gen_cfg.get("multiround"):
        rec.multiround = True
        infer_cls = gen_cfg["type"]
        patches.append(
            mock.patch.object(infer_cls, "_generate_multiround",
                              _multiround_tracker(rec, infer_cls._generate_multiround))
        )
    if inferencer_name == "ToTInferencer":
        infer_cls = gen_cfg["type"]

        def tot_solve(self, x):
            rec.tot.append((copy.deepcopy(x), copy.deepcopy(self.model.parse_template(x, mode="gen"))))
            return []

        patches.append(mock.patch.object(infer_cls, "tot_solve", tot_solve))

    with contextlib.ExitStack() as stack:
        for p in patches:
            stack.enter_context(p)
        if inferencer_name == "AttackInferencer":
            run_oc_attack(model, model_cfg, dcfg, rec, workdir)
        else:
            task_cfg = ConfigDict(models=[model_cfg], datasets=[[dcfg]], work_dir=str(workdir))
            OpenICLInferTask(task_cfg).run(cur_model=model, cur_model_abbr=model_abbr)

    n = len(rec.ice) if rec.ice else test_size(data, reader_cfg)
    samples = new_samples(n, rec.ice)
    if inferencer_name == "ChatInferencer":
        # one request per generate call, attributed to the row infer_* was given
        if len(rec.gen_idx) != len(rec.gen):
            raise RuntimeError("harness: chat prompts without a row index")
        for idx, (tpl, parsed) in zip(rec.gen_idx, rec.gen):
            samples[idx]["requests"].append(request(tpl, parsed, turn=assistant_turns(tpl)))
    elif inferencer_name == "LLInferencer":
        # for label: for row: generate_label_prompt, then get_loglikelihood per row
        if not (len(rec.labels) == len(rec.label_tpls) == len(rec.ll)):
            raise RuntimeError(f"harness: {len(rec.labels)} label prompts, {len(rec.ll)} loglikelihood calls")
        for (idx, label), tpl, (parsed, cont) in zip(rec.labels, rec.label_tpls, rec.ll):
            samples[idx]["requests"].append(request(tpl, parsed, label=label, continuation=cont))
    elif inferencer_name == "CLPInferencer":
        # every row's prompt first, then one get_logits call per row; the choices
        # are row 0's (the framework reads test_ds[0]['choices'] for all rows)
        if len(rec.gen_tpls) != len(rec.logits) or len(rec.logits) != n:
            raise RuntimeError(
                f"harness: {len(rec.gen_tpls)} CLP prompts, {len(rec.logits)} get_logits calls"
            )
        for i, (tpl, parsed) in enumerate(zip(rec.gen_tpls, rec.logits)):
            samples[i]["requests"].append(request(tpl, parsed, choices=list(rec.encoded)))
    elif inferencer_name == "AttackInferencer":
        # predict(prompt) for each original prompt in turn: prompts outer, rows inner
        k = len(infer_cfg["inferencer"]["original_prompt_list"])
        if len(rec.gen) != n * k:
            raise RuntimeError(f"harness: {len(rec.gen)} generate prompts for {n} rows x {k} prompts")
        for j, (tpl, parsed) in enumerate(rec.gen):
            samples[j % n]["requests"].append(request(tpl, parsed))
    elif inferencer_name == "PPLOnlyInferencer":
        if len(rec.ppl) != n:
            raise RuntimeError(f"harness: {len(rec.ppl)} ppl calls for {n} rows")
        for i, (tpl, parsed) in enumerate(rec.ppl):
            samples[i]["requests"].append(request(tpl, parsed))
    elif inferencer_name == "MinKPercentInferencer":
        if len(rec.mink) != n or len(rec.gen_tpls) != n:
            raise RuntimeError(f"harness: {len(rec.mink)} get_mink_percent inputs for {n} rows")
        for i, (tpl, parsed) in enumerate(zip(rec.gen_tpls, rec.mink)):
            samples[i]["requests"].append(request(tpl, parsed))
    elif inferencer_name == "InferencePPLOnlyInferencer":
        if len(rec.tokenwise) != n:
            raise RuntimeError(f"harness: {len(rec.tokenwise)} get_ppl_tokenwise inputs for {n} rows")
        for i, (tpl, parsed, label) in enumerate(rec.tokenwise):
            samples[i]["requests"].append(request(tpl, parsed, label_spans=label))
    elif inferencer_name == "SWCELossInferencer":
        if len(rec.encoded) != n:
            raise RuntimeError(f"harness: {len(rec.encoded)} encoded prompts for {n} rows")
        for i, text in enumerate(rec.encoded):
            samples[i]["requests"].append(request(text, text))
    elif inferencer_name == "SCInferencer":
        size = gen_cfg.get("sc_size", 1)
        if len(rec.gen) != n * size:
            raise RuntimeError(f"harness: {len(rec.gen)} generate prompts for {n} rows x {size}")
        for k, (tpl, parsed) in enumerate(rec.gen):
            samples[k // size]["requests"].append(request(tpl, parsed))
    elif inferencer_name == "ToTInferencer":
        if len(rec.tot) != n:
            raise RuntimeError(f"harness: {len(rec.tot)} ToT entries for {n} rows")
        for i, (tpl, parsed) in enumerate(rec.tot):
            samples[i]["requests"].append(request(tpl, parsed))
    elif rec.multiround:
        for idx, turn, (tpl, parsed) in zip(rec.gen_idx, rec.gen_turns, rec.gen):
            samples[idx]["requests"].append(request(tpl, parsed, turn=turn))
    elif rec.ppl or rec.labels:
        if len(rec.labels) != len(rec.ppl):
            raise RuntimeError(f"harness: {len(rec.labels)} label prompts, {len(rec.ppl)} ppl calls")
        for (idx, label), (tpl, parsed) in zip(rec.labels, rec.ppl):
            samples[idx]["requests"].append(request(tpl, parsed, label=label))
    else:
        if len(rec.gen) != n:
            raise RuntimeError(f"harness: {len(rec.gen)} generate prompts for {n} test rows")
        for i, (tpl, parsed) in enumerate(rec.gen):
            samples[i]["requests"].append(request(tpl, parsed))
    return {
        "dataset": dataset_abbr,
        "model": model_abbr,
        "model_kind": model_kind(real_model_cls, kind_model),
        "inferencer": inferencer_name,
        "samples": samples,
    }


class _FakeTorchModel:
    """``model.model`` for SWCELossInferencer: it reads ``.device`` before any window."""

    device = "cpu"


def _multiround_tracker(rec: Recorder, orig):
    """Wrap GenInferencer._generate_multiround: one batch = one row (batch_size 1)."""

    def run(self, entry, extra_gen_kwargs):
        rec.cur_index = rec.multiround_rows if hasattr(rec, "multiround_rows") else 0
        rec.multiround_rows = rec.cur_index + 1
        rec.turn = 0
        return orig(self, entry, extra_gen_kwargs)

    return run


def run_oc_attack(model, model_cfg, dcfg, rec: Recorder, workdir: Path) -> None:
    """``OpenICLAttackTask._inference`` up to its prompt selection, without promptbench.

    The task builds templates, retriever and inferencer exactly as here, then (after importing
    promptbench) calls ``inferencer.predict(prompt)`` for every ``original_prompt_list`` entry;
    the attack that follows depends on the scores.
    """
    from opencompass.registry import ICL_INFERENCERS, ICL_PROMPT_TEMPLATES, ICL_RETRIEVERS
    from opencompass.utils import build_dataset_from_cfg

    infer_cfg = dcfg["infer_cfg"]
    dataset = build_dataset_from_cfg(dcfg)
    ice_template = (ICL_PROMPT_TEMPLATES.build(infer_cfg["ice_template"])
                    if "ice_template" in infer_cfg else None)
    prompt_template = (ICL_PROMPT_TEMPLATES.build(infer_cfg["prompt_template"])
                       if "prompt_template" in infer_cfg else None)
    retriever_cfg = dict(infer_cfg["retriever"])
    retriever_cfg["dataset"] = dataset
    retriever = ICL_RETRIEVERS.build(retriever_cfg)
    inferencer_cfg = dict(infer_cfg["inferencer"])
    inferencer_cfg["model"] = model
    for key in ("max_out_len", "batch_size"):
        if key not in inferencer_cfg:
            value = model_cfg.get(key, None)
            assert value, f"{key} must be specified!"
            inferencer_cfg[key] = value
    inferencer_cfg["max_seq_len"] = model_cfg["max_seq_len"]
    inferencer_cfg["dataset_cfg"] = dcfg
    inferencer = ICL_INFERENCERS.build(inferencer_cfg)
    inferencer.retriever = retriever
    inferencer.prompt_template = prompt_template
    inferencer.ice_template = ice_template
    inferencer.output_json_filepath = str(workdir)
    inferencer.output_json_filename = "attack.json"
    for prompt in infer_cfg["inferencer"]["original_prompt_list"]:
        inferencer.predict(prompt)


def _chat_turn_tracker(rec: Recorder, orig):
    """Wrap ChatInferencer.infer_*: note which test row the next prompts belong to."""

    def infer(self, chat, index, output_handler):
        rec.cur_index = index
        return orig(self, chat, index, output_handler)

    return infer


# --------------------------------------------------------------------------
# AISBench
# --------------------------------------------------------------------------


def run_ais_pair(ds_cfg, model_cfg, data, dataset_abbr, model_abbr, workdir, notes) -> dict:
    from ais_bench.benchmark.datasets.base import BaseDataset
    from ais_bench.benchmark.models.output import RequestOutput  # noqa: F401
    from ais_bench.benchmark.registry import ICL_INFERENCERS, ICL_RETRIEVERS, MODELS
    from ais_bench.benchmark.utils.config import build as ais_build
    from ais_bench.benchmark.utils.config import build_dataset_from_cfg

    rec = Recorder()
    real_model_cls = model_cfg["type"]
    fake_cls = make_ais_fake(real_model_cls, rec)
    fake_name = "Parity" + fake_cls.__name__
    MODELS.register_module(name=fake_name, module=fake_cls, force=True)
    mcfg = copy.deepcopy(model_cfg)
    mcfg["type"] = fake_name

    dcfg = copy.deepcopy(ds_cfg)
    reader_cfg = dict(dcfg.get("reader_cfg", {}))
    dcfg["type"] = parity_dataset_cls(BaseDataset, data, reader_cfg)
    infer_cfg = dcfg["infer_cfg"]
    retr_cls = infer_cfg["retriever"]["type"]
    inferencer_name = type_name(infer_cfg["inferencer"]["type"])
    infer_mode = infer_cfg["inferencer"].get("infer_mode")

    orig_validate = ais_build._validate_model_cfg

    def validate(cfg):  # the fake model folders do not exist on disk
        errs = orig_validate(cfg)
        errs.pop("path", None)
        return errs

    is_api = bool(getattr(real_model_cls, "is_api", False))
    with (
        mock.patch.object(retr_cls, "retrieve", recording_retrieve(rec, retr_cls.retrieve)),
        mock.patch.object(ais_build, "_validate_model_cfg", validate),
        light_model_init(),
    ):
        dataset = build_dataset_from_cfg(dcfg)
        retriever_cfg = copy.deepcopy(infer_cfg["retriever"])
        retriever_cfg["dataset"] = dataset
        retriever_cfg["prompt_template"] = infer_cfg.get("prompt_template", None)
        retriever_cfg["ice_template"] = infer_cfg.get("ice_template", None)
        retriever = ICL_RETRIEVERS.build(retriever_cfg)

        inferencer_cfg = copy.deepcopy(infer_cfg["inferencer"])
        inferencer_cfg["model_cfg"] = mcfg
        for key in ("max_out_len", "min_out_len", "batch_size"):
            if key not in inferencer_cfg:
                inferencer_cfg[key] = model_cfg.get(key)
        inferencer_cfg["batch_size"] = 1
        inferencer_cfg["output_json_filepath"] = str(workdir)
        if not is_api:
            inferencer_cfg["max_seq_len"] = model_cfg.get("max_seq_len")
        inferencer = ICL_INFERENCERS.build(inferencer_cfg)
        kind_model = inferencer.model

        multiturn = inferencer_name == "MultiTurnGenInferencer"
        if not is_api and not multiturn:
            # OpenICLInferTask: inferencer.inference(retrievers, output_json_filepath)
            if not hasattr(inferencer, "inference"):
                raise AttributeError(f"'{type(inferencer).__name__}' object has no attribute 'inference'")
            inferencer.inference([retriever], output_json_filepath=str(workdir))
            data_list = None
        else:
            if multiturn and not is_api:
                notes.append(
                    {
                        "dataset": dataset_abbr,
                        "model": model_abbr,
                        "note": "AISBench OpenICLInferTask calls batch_inference for local models, "
                        "which MultiTurnGenInferencer leaves abstract (no request is sent); "
                        "requests shown are those of the async infer_* path used for "
                        "service models.",
                    }
                )
            data_list = inferencer.get_data_list(retriever)
            n_parse_after_list = len(rec.parse_in)
            if multiturn and not is_api:
                model = inferencer.model
                model.generate = type(model)._parity_async_generate.__get__(model)

            async def drive():
                for item in data_list:
                    await inferencer.do_request(item, None, None)

            asyncio.run(drive())

    n = len(rec.ice) if rec.ice else test_size(data, reader_cfg)
    samples = new_samples(n, rec.ice)
    if inferencer_name == "PPLInferencer":
        # get_data_list: for idx: for label: parse_template(prompt, 'ppl')
        labels = [lab for item in data_list for lab in item["qa"]]
        idxs = [item["index"] for item in data_list for _ in item["qa"]]
        templates = rec.parse_in[: len(labels)]
        if len(rec.ppl) != len(labels):
            raise RuntimeError(f"harness: {len(rec.ppl)} ppl calls for {len(labels)} label prompts")
        for idx, label, tpl, (_, parsed) in zip(idxs, labels, templates, rec.ppl):
            samples[idx]["requests"].append(request(tpl, parsed, label=label))
    elif inferencer_name == "MultiTurnGenInferencer":
        # every parse_template call after get_data_list is one turn's history
        tpls = rec.parse_in[n_parse_after_list:]
        if len(tpls) != len(rec.gen):
            raise RuntimeError("harness: parse/generate mismatch in multi-turn")
        per_sample_turn: dict[int, int] = {}
        order = []
        for item in data_list:
            chat = item["prompt"]
            bots = sum(1 for x in chat if isinstance(x, dict) and x.get("role") == "BOT")
            k = 1 if infer_mode == "last" else bots
            order += [item["index"]] * k
        for idx, tpl, (_, parsed) in zip(order, tpls, rec.gen):
            turn = per_sample_turn.get(idx, 0)
            if infer_mode == "last":
                turn = (
                    sum(1 for x in data_list[idx]["prompt"] if isinstance(x, dict) and x.get("role") == "BOT")
                    - 1
                )
            per_sample_turn[idx] = turn + 1
            samples[idx]["requests"].append(request(tpl, parsed, turn=turn))
    else:
        if len(rec.gen) != n or len(rec.parse_in) < n:
            raise RuntimeError(f"harness: {len(rec.gen)} generate prompts for {n} test rows")
        for i, (_, parsed) in enumerate(rec.gen):
            samples[i]["requests"].append(request(rec.parse_in[i], parsed))
    return {
        "dataset": dataset_abbr,
        "model": model_abbr,
        "model_kind": model_kind(real_model_cls, kind_model),
        "inferencer": inferencer_name,
        "samples": samples,
    }


# --------------------------------------------------------------------------
# per case
# --------------------------------------------------------------------------


def load_config(path: Path):
    """The config as a run's tasks see it: both CLIs dump it with mmengine and run from the
    dump, whose every dict has its keys sorted by ``str(key)`` (``Config.pretty_text``)."""
    from mmengine.config import Config

    with quiet():
        cfg = Config.fromfile(str(path))
    return Config(dump_order(cfg._cfg_dict), filename=str(path))


def dump_order(value: Any) -> Any:
    """``value`` with every dict's keys in the order mmengine's dump writes them."""
    if isinstance(value, dict):
        return {k: dump_order(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return type(value)(dump_order(v) for v in value)
    return value


def dataset_cfgs(cfg) -> list:
    if "datasets" in cfg and isinstance(cfg["datasets"], list):
        return list(cfg["datasets"])
    out = []
    for key in cfg:
        if key.endswith("_datasets") and isinstance(cfg[key], list):
            out.extend(cfg[key])
    return out


def is_ais(ds_cfg) -> bool:
    ic = ds_cfg.get("infer_cfg", {})
    for part in ("prompt_template", "ice_template", "retriever", "inferencer"):
        if part in ic and type_module(ic[part].get("type")).startswith("ais_bench"):
            return True
    return False


def config_label(case_dir: Path) -> str:
    path = (case_dir / "config.py").resolve()
    try:
        return path.relative_to(REPO).as_posix()
    except ValueError:
        return path.as_posix()


def generate_case(case_dir: Path) -> dict:
    cfg = load_config(case_dir / "config.py")
    data = load_rows(case_dir)
    renders, errors, notes = [], [], []
    for ds_cfg in dataset_cfgs(cfg):
        ais = is_ais(ds_cfg)
        if ais:
            from ais_bench.benchmark.utils.core.abbr import (
                dataset_abbr_from_cfg,
                model_abbr_from_cfg,
            )
        else:
            from opencompass.utils import dataset_abbr_from_cfg, model_abbr_from_cfg
        d_abbr = dataset_abbr_from_cfg(ds_cfg)
        for model_cfg in cfg.get("models", []):
            m_abbr = model_abbr_from_cfg(model_cfg)
            # an AISBench cache-consumer thread may still write there as it is removed: leave it then
            with tempfile.TemporaryDirectory(prefix="parity_", ignore_cleanup_errors=True) as tmp:
                cwd = os.getcwd()
                os.chdir(tmp)
                try:
                    with quiet():
                        if ais:
                            r = run_ais_pair(ds_cfg, model_cfg, data, d_abbr, m_abbr, Path(tmp), notes)
                        else:
                            r = run_oc_pair(ds_cfg, model_cfg, data, d_abbr, m_abbr, Path(tmp))
                    renders.append(r)
                except RuntimeError as exc:
                    if str(exc).startswith("harness:"):
                        raise
                    errors.append(err_entry(d_abbr, m_abbr, exc))
                except Exception as exc:  # the framework raised
                    if isinstance(exc, LookupError) and "nltk" in str(exc).lower():
                        raise RuntimeError(
                            "harness: NLTK data missing (BM25Retriever's word_tokenize needs "
                            "tokenizers/punkt_tab/english): run tools/make_punkt_tab.py "
                            "$FWENV/nltk_data, or set NLTK_DATA"
                        ) from exc
                    if os.environ.get("PARITY_DEBUG"):
                        traceback.print_exc()
                    errors.append(err_entry(d_abbr, m_abbr, exc))
                finally:
                    os.chdir(cwd)
    doc = {
        "schema": SCHEMA,
        "config": config_label(case_dir),
        "renders": renders,
        "errors": [],
        "warnings": [],
        "framework_errors": errors,
    }
    if notes:
        doc["framework_notes"] = notes
    if uses_argsort(case_dir):
        doc["numpy_sort"] = numpy_sort()
    return doc


def uses_argsort(case_dir: Path) -> bool:
    """Whether the case's picks go through np.argsort (BM25 and VoteK order tied scores by it)."""
    text = (case_dir / "config.py").read_text(encoding="utf-8")
    return "BM25Retriever" in text or "VotekRetriever" in text


def numpy_sort() -> str:
    """Which of numpy's sorts this process runs (workbench.core.replicas.numpy_argsort.SORTS),
    told by what it does with ties: the CPU's features say less (numpy may dispatch to
    x86-simd-sort with AVX512_SKX disabled by NPY_DISABLE_CPU_FEATURES but its successors not)."""
    import numpy as np

    sys.path.insert(0, str(REPO))
    from workbench.core.replicas.numpy_argsort import SORTS, numpy_argsort

    probe = [float((i * 7) % 3) for i in range(300)]
    got = np.argsort(np.asarray(probe, dtype=np.float64)).tolist()
    for name in SORTS:
        if numpy_argsort(probe, name) == got:
            return name
    raise SystemExit("numpy sorts ties in an order neither replica knows (numpy 2? another CPU?)")


README_START = "<!-- framework-errors:start (written by tools/gen_goldens.py) -->"
README_END = "<!-- framework-errors:end -->"


def framework_error_table(cases_dir: Path) -> str:
    """Markdown list of every pair where a framework raised, grouped by message."""
    routine: dict[str, list[str]] = {}
    lines = [
        "| case | dataset | models | exception: message |",
        "| --- | --- | --- | --- |",
    ]
    for f in sorted(cases_dir.glob("*/expected.json")):
        doc = json.loads(f.read_text(encoding="utf-8"))
        groups: dict[tuple, list[str]] = {}
        for e in doc.get("framework_errors", []):
            msg = e["message"].split(" | Visit")[0]
            if msg.endswith("does not support ppl-based evaluation yet, try gen-based instead."):
                routine.setdefault(f"`{e['exception']}`: {msg}", []).append(f"{f.parent.name}/{e['dataset']}")
                continue
            groups.setdefault((e["dataset"], e["exception"], msg), []).append(str(e["model"]))
        for (ds, exc, msg), models in groups.items():
            names = ", ".join(f"`{m}`" for m in models)
            lines.append(f"| `{f.parent.name}` | `{ds}` | {names} | `{exc}`: {msg.replace('|', '/')} |")
    out = "\n".join(lines) + "\n"
    for msg, where in routine.items():
        out += f"\nPPL refused by the model class, {msg} ({len(where)} pairs):\n"
        out += ", ".join(f"`{w}`" for w in where) + ".\n"
    return out


def update_readme(cases_dir: Path) -> None:
    readme = cases_dir.parent / "README.md"
    if not readme.is_file():
        return
    text = readme.read_text(encoding="utf-8")
    if README_START not in text or README_END not in text:
        return
    head, rest = text.split(README_START, 1)
    _, tail = rest.split(README_END, 1)
    table = framework_error_table(cases_dir)
    readme.write_text(f"{head}{README_START}\n{table}{README_END}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cases", nargs="*", help="case ids (default: every folder)")
    ap.add_argument("--cases-dir", type=Path, default=CASES_DIR)
    args = ap.parse_args(argv)

    sys.setrecursionlimit(3000)
    # AISBench's cache-consumer threads die noisily when a pair fails early
    threading.excepthook = lambda args: None
    case_dirs = sorted(p for p in args.cases_dir.iterdir() if (p / "config.py").is_file())
    if args.cases:
        wanted = set(args.cases)
        case_dirs = [p for p in case_dirs if p.name in wanted]
    for case_dir in case_dirs:
        doc = generate_case(case_dir)
        text = write_json(case_dir / "expected.json", doc)
        nreq = sum(len(s["requests"]) for r in doc["renders"] for s in r["samples"])
        print(
            f"{case_dir.name}: {len(doc['renders'])} renders, {nreq} requests, "
            f"{len(doc['framework_errors'])} framework errors, {len(text) // 1024} KB"
        )
    update_readme(args.cases_dir)
    return 0


if __name__ == "__main__":
    rc = main()
    # AISBench's output handlers start non-daemon cache-consumer threads that wait
    # forever when a pair fails before they are stopped: do not wait for them.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(rc)
