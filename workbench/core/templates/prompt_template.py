"""PromptTemplate: string, dialogue (begin/round/end) and label-dict templates.

Behaviour follows OpenCompass 0.5.4 ``openicl/icl_prompt_template.py`` (AISBench's
``PromptTemplate`` is the same), quirks included; where the framework crashes on a
form its docs call valid, we render what the docs describe and say so.

May import: the core's bottom layer (errors, provenance, render_notes ...) and the other
template modules; nothing above (models, retrievers, inferencers, render) and nothing outside
the core.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from ..errors import RenderError
from ..provenance import TEMPLATE, Origin, PStr
from ..render_notes import OC_VERSION, Notes
from .prompt_list import FillPairs, PromptList, PromptType, safe_format

DIALOGUE_KEYS = ("begin", "round", "end")


def tag_template(value: Any, detail: str) -> Any:
    """Mark every literal that can reach the model as coming from the template."""
    if isinstance(value, str):
        return PStr(value, Origin(TEMPLATE, detail=detail))
    if isinstance(value, list):
        return [tag_template(v, detail) for v in value]
    if isinstance(value, dict):
        return {k: tag_template(v, detail) for k, v in value.items()}
    return value


def is_dialogue(template: Any) -> bool:
    """OpenCompass's rule: a dict whose keys are all among begin/round/end."""
    return isinstance(template, dict) and all(k in DIALOGUE_KEYS for k in template)


class PromptTemplate:
    """One ``ice_template`` or ``prompt_template`` from a dataset's ``infer_cfg``."""

    def __init__(
        self,
        template: Any,
        ice_token: str | None = None,
        sep_token: str | None = None,
        *,
        name: str = "prompt_template",
        notes: Notes | None = None,
        provenance: bool = False,
    ) -> None:
        self.name = name
        self.notes = notes if notes is not None else Notes()
        if not isinstance(template, (str, dict)):
            raise RenderError(
                f"{name}: template must be a str or a dict, got {type(template).__name__}",
                hint="write a string, a dict(begin=..., round=[...], end=...), "
                "or a dict mapping each label to its template", key_path=self.path("template"),
            )
        for token_name, token in (("ice_token", ice_token), ("sep_token", sep_token)):
            if token is not None and not isinstance(token, str):
                raise RenderError(f"{name}: {token_name} must be a str, got {token!r}",
                                  key_path=self.path(token_name))
        self.raw = template
        self.ice_token = ice_token
        self.sep_token = sep_token
        self.prompt_type = "meta" if is_dialogue(template) else "origin"
        self._check(template)
        self.template = tag_template(template, name) if provenance else template

    def path(self, *parts: Any) -> tuple:
        """Where in the dataset config a part of this template is (for errors)."""
        return ("infer_cfg", self.name, *parts)

    # -- validation, as PromptTemplate._check_template_legacy --------------------
    def _check(self, template: Any) -> None:
        if isinstance(template, str):
            if self.ice_token and self.ice_token not in template:
                raise RenderError(
                    f"{self.name}: '{self.ice_token}' not in '{template}'",
                    hint=f"put the ice_token {self.ice_token!r} where the in-context "
                    "examples go, or drop ice_token", key_path=self.path("template"),
                )
            return
        if self.prompt_type == "meta" and template and "round" not in template:
            raise RenderError(
                f"{self.name}: a dialogue template needs a 'round' list",
                hint="add round=[dict(role='HUMAN', prompt=...), dict(role='BOT', prompt=...)]",
                key_path=self.path("template"),
            )
        if not template:
            raise RenderError(
                f"{self.name}: the template dict is empty",
                hint="give round=[...] for a dialogue or one entry per label for PPL",
                key_path=self.path("template"),
            )
        for key, value in template.items():
            if not isinstance(value, (str, list, dict)):
                raise RenderError(
                    f"{self.name}: dictionary of template expects a str, list or a dict, "
                    f"but got {value!r} for {key!r}", key_path=self.path("template", key),
                )
            if self.prompt_type == "meta":
                self._check_dialogue_part(key, value, ("template",))
            elif isinstance(value, str) and self.ice_token and self.ice_token not in value:
                raise RenderError(
                    f"{self.name}: '{self.ice_token}' not in '{value}' (label {key!r})",
                    hint=f"every label's template must contain the ice_token {self.ice_token!r}",
                    key_path=self.path("template", key),
                )
            elif isinstance(value, list):
                raise RenderError(
                    f"{self.name}: the template for label {key!r} is a list; "
                    "give a string or dict(round=[...])", key_path=self.path("template", key),
                )
            elif isinstance(value, dict):
                if not is_dialogue(value) or "round" not in value:
                    raise RenderError(
                        f"{self.name}: the template for label {key!r} is a dict with keys "
                        f"{sorted(map(str, value))}, not begin/round/end",
                        key_path=self.path("template", key),
                    )
                for part, part_value in value.items():
                    self._check_dialogue_part(part, part_value, ("template", key))

    def _check_dialogue_part(self, key: str, value: Any, where: tuple = ("template",)) -> None:
        if key == "round" and not isinstance(value, list):
            raise RenderError(
                f"{self.name}: 'round' must be a list, got {type(value).__name__}",
                hint="write round=[dict(role='HUMAN', prompt='...'), ...]",
                key_path=self.path(*where, key),
            )
        if isinstance(value, list):
            for i, item in enumerate(value):
                if not isinstance(item, (str, dict)):
                    raise RenderError(
                        f"{self.name}: items of '{key}' must be strings or role dicts, "
                        f"got {item!r}", key_path=self.path(*where, key, i),
                    )
                if isinstance(item, dict) and "section" not in item and "role" not in item:
                    raise RenderError(
                        f"{self.name}: an item of '{key}' has no 'role': {item!r}",
                        hint="each dialogue item is dict(role='HUMAN'|'BOT'|'SYSTEM', prompt=...)",
                        key_path=self.path(*where, key, i),
                    )
                if isinstance(item, dict) and "prompt" in item and not isinstance(item["prompt"], str):
                    # the frameworks fill it with str.replace, which fails on anything else
                    raise RenderError(
                        f"{self.name}: the prompt of an item of '{key}' must be a str, "
                        f"got {item['prompt']!r}",
                        hint="write prompt='...' (a string with {column} fields)",
                        key_path=self.path(*where, key, i, "prompt"),
                    )
        if isinstance(value, str) and self.ice_token and self.ice_token not in value:
            # The docs (meta_template.md) show a plain-string `end` beside an ice_token;
            # OpenCompass's legacy check demands the token in every string value.
            self.notes.framework_fails(
                OC_VERSION,
                f"LookupError: '{self.ice_token}' not in '{value}' (its PromptTemplate "
                f"wants the ice_token in every string value, here `{key}`)",
                f"the string `{key}` is kept as written",
            )

    # -- encoding -----------------------------------------------------------------
    def _pick(self, label: Hashable | None) -> Any:
        if isinstance(self.template, str) or self.prompt_type == "meta":
            return self.template
        try:
            return self.template[label]
        except (KeyError, TypeError):
            raise RenderError(
                f"{self.name}: no template for label {label!r} "
                f"(labels: {', '.join(repr(k) for k in self.template)})",
                hint="make the label dict's keys match the labels used", key_path=self.path("template"),
            ) from None

    def encode(self, template: Any, ice: bool) -> PromptType:
        """A string stays a string; a dialogue becomes a PromptList with section markers."""
        if isinstance(template, str):
            return template
        out = PromptList()
        if "begin" in template and not ice:
            out.append({"section": "begin", "pos": "begin"})
            _extend(out, template["begin"])
            out.append({"section": "begin", "pos": "end"})
        out.append({"section": "ice" if ice else "round", "pos": "begin"})
        _extend(out, template["round"])
        out.append({"section": "ice" if ice else "round", "pos": "end"})
        if "end" in template and not ice:
            # OpenCompass emits two end/end markers here (a typo for end/begin);
            # kept as emitted, the meta-template parser copes with it.
            out.append({"section": "end", "pos": "end"})
            _extend(out, template["end"])
            out.append({"section": "end", "pos": "end"})
        return out

    # -- the three generators -----------------------------------------------------
    def generate_ice_item(self, pairs: FillPairs, label: Hashable) -> PromptType:
        tp = self.encode(self._pick(label), ice=True)
        # OpenCompass calls tp.replace(sep_token, '') here and drops the result,
        # so sep tokens survive in in-context examples.
        if self.ice_token is not None:
            tp = tp.replace(self.ice_token, "")
        return _fill(tp, pairs)

    def _prepared(self, key: tuple, ice: PromptType, build: Callable[[], PromptType]) -> PromptType:
        """A template with its examples inserted, before the test row fills it.

        Everything up to the fill depends only on the examples (and label), so it is built
        once per example set; plain strings as examples are keyed by value, PromptLists by
        identity (the retriever caches them, and the cache keeps them alive).
        """
        cache = self.__dict__.setdefault("_prepared_cache", {})
        full_key = (*key, ice if isinstance(ice, str) else id(ice))
        hit = cache.get(full_key)
        if hit is not None and (isinstance(ice, str) or hit[0] is ice):
            return hit[1]
        if len(cache) > 1024:
            cache.clear()
        template = build()
        cache[full_key] = (ice, template)
        return template

    def generate_label_prompt_item(
        self, pairs: FillPairs, ice: PromptType, label: Hashable, remain_sep: bool = False
    ) -> PromptType:
        def build() -> PromptType:
            template = self.encode(self._pick(label), ice=False)
            if not remain_sep and self.sep_token is not None:
                template = template.replace(self.sep_token, "")
            if self.ice_token is not None:
                template = _insert_ice(template, self.ice_token, ice, self.name)
            return template

        try:
            key = ("label", label, remain_sep)
            hash(key)
        except TypeError:
            return _fill(build(), pairs)
        return _fill(self._prepared(key, ice, build), pairs, prepared=True)

    def generate_item(
        self,
        pairs: FillPairs,
        output_field: str | None = None,
        output_field_replace_token: str = "",
        ice_field_replace_token: PromptType = "",
    ) -> PromptType:
        def build() -> PromptType:
            if isinstance(self.template, str):
                template: PromptType = self.template
            elif self.prompt_type == "origin":
                # GenInferencer with a label dict uses the first label's template.
                template = self.encode(next(iter(self.template.values())), ice=False)
            else:
                template = self.encode(self.template, ice=False)
            if self.ice_token is not None:
                template = _insert_ice(template, self.ice_token, ice_field_replace_token, self.name)
            if self.sep_token is not None:
                template = template.replace(self.sep_token, "")
            return template

        template = self._prepared(("gen",), ice_field_replace_token, build)
        if output_field is None:
            return _fill(template, pairs, prepared=True)
        pairs = mask_output(pairs, output_field, output_field_replace_token)
        return _fill(template, pairs, prepared=True)


def mask_output(pairs: FillPairs, column: str, replacement: str) -> FillPairs:
    """The row with its output column set to ``replacement`` (kept in place, or added last)."""
    token = "{" + str(column) + "}"
    out = [(t, replacement if t == token else v) for t, v in pairs]
    if all(t != token for t, _ in pairs):
        out.append((token, replacement))
    return out


def _extend(out: PromptList, part: Any) -> None:
    if isinstance(part, list):
        out.extend(part)
    else:
        out.append(part)


def _fill(template: PromptType, pairs: FillPairs, prepared: bool = False) -> PromptType:
    """Fill with the row; ``prepared`` templates (cached, reused per row) fill only what can change."""
    if isinstance(template, str):
        return safe_format(template, pairs)
    if not prepared:
        return template.format(pairs)
    filled = template.fill_prepared(pairs)
    filled.filled_from = template
    return filled


def _insert_ice(template: PromptType, token: str, ice: PromptType, name: str) -> PromptType:
    if isinstance(template, str) and not isinstance(ice, str):
        raise RenderError(
            f"{name}: a string template cannot take dialogue in-context examples "
            "(TypeError: replace() argument 2 must be str, not PromptList)",
            hint="make the ice_template a string too, or make this template a dialogue",
            key_path=("infer_cfg", name, "template"),
        )
    return template.replace(token, ice)


def build_template(cfg: Mapping[str, Any] | None, name: str, notes: Notes,
                   provenance: bool = False) -> PromptTemplate | None:
    """A PromptTemplate from its config dict (``type`` must be a PromptTemplate)."""
    if cfg is None:
        return None
    if not isinstance(cfg, Mapping):
        raise RenderError(f"{name} must be a dict(type=PromptTemplate, template=...), got {cfg!r}",
                          key_path=("infer_cfg", name))
    if "template" not in cfg:
        raise RenderError(f"{name} has no 'template'",
                          hint="add template='...' or template=dict(round=[...])",
                          key_path=("infer_cfg", name))
    return PromptTemplate(
        cfg["template"],
        cfg.get("ice_token"),
        cfg.get("sep_token"),
        name=name,
        notes=notes,
        provenance=provenance,
    )
