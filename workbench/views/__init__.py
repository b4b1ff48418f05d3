"""Views: core objects in, rich renderables out. Shared by the TUI and headless exports.

Every pane of the app is one of these functions applied to the current
:class:`~workbench.core.result.RenderResult` and selection, so a headless export that
calls them shows exactly what the pane shows.  Nothing here imports Textual, reads a
file, or keeps state beyond a small sample cache.

The API (import from the submodules, or from here: names load lazily)
----------------------------------------------------------------------
Options
    ``ViewOptions(whitespace=False, provenance=True, side_by_side=False,
    palette=DEFAULT_PALETTE, tokens=(), root=None)`` — the user's toggles, colours,
    the selected model's extra special tokens, and the folder paths are shown
    relative to.  ``Palette.from_variables(theme_variables)`` applies a theme's
    ``wb-*`` variables (see ``themes/*.toml``).

Selection
    ``Catalog(result, dataset_order=(), model_order=())`` indexes a RenderResult;
    ``Selection(dataset, model, sample, request)`` says what is shown;
    ``catalog.normalize(sel)`` / ``step_dataset`` / ``step_model`` / ``step_sample`` /
    ``jump`` / ``step_request`` move it.

One screen
    ``build_frame(catalog, selection, opts) -> Frame`` with ``prompt_list``,
    ``final_input``, ``timeline`` (renderables), their ``*_title`` strings, the
    normalised ``selection``, ``samples``, ``requests``, ``final_text`` (the exact
    input, for the clipboard) and ``problems``.  ``frame_panels(frame, tree, opts,
    banner=None)`` stacks them as titled panels: what ``render --format svg/html``
    records.

Panes, one by one
    ``template_tree(datasets, models, opts, locate=spec_locator, kinds=None)`` ->
    ``TreeNode``s (label, stable key, location, children, what choosing it selects);
    ``tree_view(nodes, opts, selected=())`` draws them as a rich Tree.  A ``Locator``
    ``(spec, key_path) -> Source | None`` plugs in finer per-node locations.
    ``prompt_list_view(request, opts, sample)``, ``final_input_view(request, opts)``,
    ``side_by_side_view([(title, renderable)], opts)``,
    ``timeline_view(sample, selected_request, opts)``,
    ``error_banner([Problem], opts, stale=False)`` (``Problem.of(error)`` takes a
    ConfigError, RenderError or PairError).

Text
    ``styled(text, opts)`` is the one place prompt text becomes styled output:
    provenance colours from ``workbench.core.provenance.spans_of``, special tokens
    highlighted (``<|...|>``, ``[INST]``, ``<s>``, the model's BOS/EOS/stop strings),
    whitespace markers on request, and every control, escape, bidi or zero-width
    character replaced by a visible stand-in (``␛[31m``, ``\\u202e``), so untrusted
    rows can never drive the terminal.  ``safe.visible`` / ``safe.one_line`` do the
    same for plain strings.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "ViewOptions": "options", "display_path": "options",
    "Palette": "palette", "DEFAULT_PALETTE": "palette",
    "Catalog": "selection", "Selection": "selection",
    "Frame": "frame", "build_frame": "frame", "frame_panels": "frame", "exact_text": "frame",
    "TreeNode": "template_tree", "template_tree": "template_tree", "tree_view": "template_tree",
    "spec_locator": "template_tree", "Locator": "template_tree",
    "prompt_list_view": "prompt_list", "final_input_view": "final_input",
    "side_by_side_view": "final_input", "timeline_view": "timeline",
    "Problem": "errors", "error_banner": "errors",
    "styled": "styled", "visible": "safe", "one_line": "safe",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:  # PEP 562: import a submodule only when its name is used
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
