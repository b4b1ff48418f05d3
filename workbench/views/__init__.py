"""Views: core objects in, rich renderables out, shared by the app's panes and the exports.

Every pane is a view function applied to a render and a selection, so an export that calls
it shows what the pane shows (docs/development.md has the tour).  Names load lazily from
here.

May import: the core, rich, plotext and the other view modules; not loading (views draw what is
already loaded), not textual (the exports draw them without an app), and no front end.
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
