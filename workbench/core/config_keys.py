"""Keys the real run rejects: every dict a framework passes to a constructor, checked against
what that class accepts (finding ``PW101 unknown-key``).

``meta_templat=`` on a model or ``input_column=`` in ``reader_cfg`` changes nothing the
workbench could show, yet the real run stops: the framework builds the class with the dict's
keys and Python raises ``TypeError: ... got an unexpected keyword argument``. What each class
accepts is read from the real frameworks by ``tools/gen_constructor_params.py`` into
``data/constructor_params.json``; a class that keeps ``**kwargs`` accepts anything, and is not
checked, as the framework does not. Keys the framework takes out of a dict before it builds the
class (``type``, a model's ``abbr``, ``run_cfg``, ``batch_size`` ...) are listed here, read from
each framework's build code. A class the table does not know (a dataset's own class, a module
that needs an extra package) is not checked.

``infer_cfg`` itself is read key by key (an unknown key there is ignored by both frameworks), and
a dataset's own keys go to its ``load()``, which the table does not cover: neither is checked.

May import: ``errors``, ``package_data`` and ``spec`` (the bottom layer).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

from .errors import RenderError
from .package_data import package_text
from .spec import AISBENCH, OPENCOMPASS, DatasetSpec, ModelSpec, type_name

UNKNOWN_KEY = "PW101"

#: Keys each framework pops from a model dict before it builds the class:
#: OpenCompass 0.5.4 ``opencompass/utils/build.py`` ``build_model_from_cfg``; AISBench
#: 3.1.20260630 ``benchmark/utils/config/build.py`` ``build_model_from_cfg``. ``type`` is the
#: registry's own.
MODEL_POPPED = {
    OPENCOMPASS: frozenset({"type", "run_cfg", "max_out_len", "batch_size", "abbr", "summarizer_abbr",
                            "pred_postprocessor", "min_out_len"}),
    AISBENCH: frozenset({"type", "use_timestamp", "run_cfg", "request_rate", "batch_size", "abbr", "attr",
                         "summarizer_abbr", "pred_postprocessor", "min_out_len", "returns_tool_calls",
                         "traffic_cfg"}),
}

_FRAMEWORK = {OPENCOMPASS: "OpenCompass 0.5.4", AISBENCH: "AISBench 3.1.20260630"}

#: (the dict's key path in the dataset config, its kind in the table, what the framework builds)
_DATASET_PARTS = (
    (("reader_cfg",), "reader", "the dataset's DatasetReader"),
    (("infer_cfg", "ice_template"), "template", "the ice_template"),
    (("infer_cfg", "prompt_template"), "template", "the prompt_template"),
    (("infer_cfg", "retriever"), "retriever", "the retriever"),
    (("infer_cfg", "inferencer"), "inferencer", "the inferencer"),
)


@cache
def _table() -> dict[str, Any]:
    return json.loads(package_text("data", "constructor_params.json"))


def accepted(framework: str, kind: str, class_name: str) -> frozenset[str] | None:
    """The keywords ``class_name`` accepts in ``framework`` (None: any, or a class not known)."""
    entry = _table().get(framework, {}).get(kind, {}).get(class_name)
    if entry is None or entry["any"]:
        return None
    return frozenset(entry["params"])


def check_pair_keys(dataset: DatasetSpec, model: ModelSpec | None) -> None:
    """Raise the first unknown key, in the order the framework builds: the model, then the
    dataset's reader, templates, retriever and inferencer."""
    for error in unknown_keys(dataset, model):
        raise error


def unknown_keys(dataset: DatasetSpec, model: ModelSpec | None) -> Iterator[RenderError]:
    """Every unknown key of a pair, as the located error the render raises (for a lint)."""
    if model is not None and isinstance(model.cfg, Mapping) and "type" in model.cfg:
        yield from _unknown(model.cfg, (), model.framework, "model", type_name(model.cfg["type"]),
                            MODEL_POPPED.get(model.framework, frozenset({"type"})), "the model", True)
    for path, kind, what in _DATASET_PARTS:
        part = _at(dataset.cfg, path)
        if not isinstance(part, Mapping):
            continue
        if kind == "reader":
            name: str | None = "DatasetReader"
        elif kind == "template":  # a template's type defaults to PromptTemplate, as the render reads it
            name = type_name(part.get("type", "PromptTemplate"))
        else:
            name = type_name(part["type"]) if "type" in part else None
        if name is not None:
            yield from _unknown(part, path, dataset.framework, kind, name, frozenset({"type"}), what, False)


def _at(cfg: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    node: Any = cfg
    for key in path:
        if not isinstance(node, Mapping):
            return None
        node = node.get(key)
    return node


def _unknown(part: Mapping[str, Any], path: tuple[str, ...], framework: str, kind: str, name: str,
             popped: frozenset[str], what: str, in_model: bool) -> Iterator[RenderError]:
    allowed = accepted(framework, kind, name)
    if allowed is None:
        return
    for key in part:
        if not isinstance(key, str) or key in popped or key in allowed:
            continue
        close = difflib.get_close_matches(key, sorted(allowed | (popped - {"type"})), n=1)
        fix = f"did you mean {close[0]!r}?" if close else \
            f"{name} takes: {', '.join(sorted(allowed - {'dataset'})) or 'no keys'}"
        where = ".".join(path) or "model"
        yield RenderError(
            f"{where}: {name}.__init__() got an unexpected keyword argument {key!r} "
            f"({_FRAMEWORK.get(framework, framework)} raises this TypeError when it builds {what})",
            hint=fix, key_path=(*path, key), in_model=in_model, rule=UNKNOWN_KEY)

