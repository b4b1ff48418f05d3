"""Every model class of OpenCompass 0.5.4 and AISBench, and the lookups over them: which record
a config's ``type`` names (a bare name, a registry alias or a dotted path), and whether it can
score (PPL / log-likelihood).

The records are in :mod:`.opencompass_classes` and :mod:`.aisbench_classes`, their vocabulary in
:mod:`.model_class_info`. May import: those three modules only.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any, Final

from .aisbench_classes import AISBENCH_CLASSES
from .model_class_info import FRAMEWORKS, AmbiguousModelClassError, Framework, Kind, ModelClassInfo
from .opencompass_classes import OPENCOMPASS_CLASSES

__all__ = [
    "ALL_MODEL_CLASSES",
    "MODEL_CLASSES",
    "OUT_OF_SCOPE_CLASSES",
    "frameworks_defining",
    "iter_model_classes",
    "lookup_model_class",
    "ppl_refusal",
]

#: Classes under ``opencompass/models`` that wrap an agent framework rather than a model; they
#: have no template parser of OpenCompass's own, so the workbench cannot reproduce them.
OUT_OF_SCOPE_CLASSES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "LagentAgent": (
            "opencompass.models.lagent: template_parser is a property delegating to the wrapped "
            "lagent LLM (built by lagent's registry); prompts come from the agent protocol."
        ),
        "CodeAgent": "opencompass.models.lagent: a LagentAgent preset (ReAct + Python tool).",
        "LangchainAgent": (
            "opencompass.models.langchain: no template parser at all; LangChain builds prompts."
        ),
    }
)


def _index(records: tuple[ModelClassInfo, ...]) -> Mapping[str, tuple[ModelClassInfo, ...]]:
    """Group records by class name, exported definitions first within a framework."""
    grouped: dict[str, list[ModelClassInfo]] = {}
    for rec in records:
        grouped.setdefault(rec.name, []).append(rec)
    return MappingProxyType(
        {
            name: tuple(sorted(recs, key=lambda r: (FRAMEWORKS.index(r.framework), not r.exported)))
            for name, recs in sorted(grouped.items())
        }
    )


#: Every model class both frameworks ship, OpenCompass first.
ALL_MODEL_CLASSES: Final[tuple[ModelClassInfo, ...]] = OPENCOMPASS_CLASSES + AISBENCH_CLASSES

#: Class name → its definitions (one per framework; OpenCompass has two ``Doubao`` classes).
MODEL_CLASSES: Final[Mapping[str, tuple[ModelClassInfo, ...]]] = _index(ALL_MODEL_CLASSES)

#: Registry aliases that are not class names.
_REGISTRY_ALIASES: Final[Mapping[str, str]] = MappingProxyType({"GLM-130B": "GLM130B"})


# ---------------------------------------------------------------------------
# Queries
# ---------------------------------------------------------------------------


def iter_model_classes(
    framework: Framework | None = None, kind: Kind | None = None
) -> Iterator[ModelClassInfo]:
    """All records, optionally restricted to one framework and/or one kind."""
    for rec in ALL_MODEL_CLASSES:
        if framework is not None and rec.framework != framework:
            continue
        if kind is not None and rec.kind != kind:
            continue
        yield rec


def frameworks_defining(name: str) -> frozenset[str]:
    """Frameworks that ship a model class called ``name`` (bare name or registry alias)."""
    name = _REGISTRY_ALIASES.get(name, name)
    return frozenset(rec.framework for rec in MODEL_CLASSES.get(name, ()))


def _framework_of_module(module: str) -> Framework | None:
    for fw in FRAMEWORKS:
        root = fw
        if module == root or module.startswith(root + "."):
            return fw
    return None


def lookup_model_class(
    type_name: str, framework: Framework | None = None
) -> ModelClassInfo | None:
    """Find the record for a config's ``type``.

    Accepts a bare class name (``"OpenAI"``), a registry alias (``"GLM-130B"``), or a dotted
    path (``"opencompass.models.OpenAI"``, ``"opencompass.models.openai_api.OpenAI"``,
    ``"ais_bench.benchmark.models.VLLMCustomAPIChat"``).

    * A dotted path decides the framework by its first component and must name a module that
      defines or re-exports the class (``opencompass.models.doubao.Doubao`` selects the
      unexported second Doubao); ``framework`` is not needed and a path under any other
      package returns ``None`` — that is a user class, not the framework's.
    * A bare name is resolved like ``from <models package> import Name`` (exported definition
      first).  ``framework`` restricts the search; a name both frameworks define raises
      :class:`AmbiguousModelClassError` when ``framework`` is ``None``.

    Returns ``None`` for unknown names and for :data:`OUT_OF_SCOPE_CLASSES`.
    """
    if not isinstance(type_name, str):
        raise TypeError(f"type_name must be a str, got {type(type_name).__name__}")
    if framework is not None and framework not in FRAMEWORKS:
        raise ValueError(f"unknown framework {framework!r}; expected one of {FRAMEWORKS}")
    text = type_name.strip()
    if not text:
        return None

    module, _, name = text.rpartition(".")
    if module:
        path_framework = _framework_of_module(module)
        if path_framework is None:
            return None
        candidates = [r for r in MODEL_CLASSES.get(name, ()) if r.framework == path_framework]
        for rec in candidates:
            if rec.module == module:
                return rec
        for rec in candidates:
            if module in rec.import_paths:
                return rec
        return None

    name = _REGISTRY_ALIASES.get(text, text)
    candidates = list(MODEL_CLASSES.get(name, ()))
    if framework is not None:
        candidates = [r for r in candidates if r.framework == framework]
    if not candidates:
        return None
    found = tuple(dict.fromkeys(r.framework for r in candidates))
    if len(found) > 1:
        raise AmbiguousModelClassError(name, found)
    return candidates[0]


def ppl_refusal(
    info: ModelClassInfo, model_cfg: Mapping[str, Any] | None = None
) -> str | None:
    """Why the framework would fail a PPL (perplexity) inference with this model, or ``None``.

    The message mirrors where the framework stops: AISBench's ``PPLInferencer`` refuses a
    config with ``stream=True`` before anything else; OpenCompass raises
    ``NotImplementedError`` from ``BaseModel.get_ppl``; AISBench API models without a PPL
    request body raise "PPL is not supported for this model."
    """
    cfg = model_cfg or {}
    if info.framework == "ais_bench":
        if cfg.get("stream") == True:  # noqa: E712 - the framework compares with == True
            return "Stream mode is not supported for PPL inference"
        if info.supports_ppl:
            return None
        if not info.is_api:
            return (
                f"{info.name} is a local model; AISBench's PPLInferencer only drives API models "
                "through their async get_ppl"
            )
        return f"{info.name}: PPL is not supported for this model."
    if info.supports_ppl:
        return None
    return (
        f"{info.name} does not support ppl-based evaluation yet, try gen-based instead."
    )
