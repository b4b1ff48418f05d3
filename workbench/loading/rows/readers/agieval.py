"""AGIEval (v2 loader): ``<name>.jsonl`` per subject in the folder ``path``.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""

from __future__ import annotations

from typing import Any

from ....core.errors import ConfigError
from . import ReaderCall, ReadResult, Row, native_reader
from ._files import mapped_jsonl


def _label(item: dict, framework: str) -> Any:
    """``label`` when it is truthy, else ``answer``. OpenCompass then joins a list's items as
    text and makes anything else but None text; AISBench joins a list and keeps the rest."""
    label = item["label"] if item["label"] else item["answer"]
    if framework == "ais_bench":
        return "".join(label) if item["label"] and isinstance(label, list) else label
    if isinstance(label, list):
        return "".join(map(str, label))
    return None if label is None else str(label)


@native_reader("AGIEvalDataset_v2")
def read_agieval_v2(call: ReaderCall) -> ReadResult:
    """Passage and question joined as ``question``, the options one a line."""
    setting = str(call.kwargs.get("setting_name"))
    # OpenCompass asserts ``setting_name in 'zero-shot'`` (a substring test); AISBench wants it equal.
    allowed = setting == "zero-shot" if call.framework == "ais_bench" else setting in "zero-shot"
    if not allowed:
        raise ConfigError(f"AGIEval's loader supports only setting_name='zero-shot', not {setting!r}",
                          hint="set setting_name='zero-shot' in the dataset's config")
    def build(item: dict) -> Row:
        passage = item["passage"] if item["passage"] else ""
        return {"question": passage + item["question"],
                "options": "\n".join(item["options"]) if item["options"] else "",
                "label": _label(item, call.framework)}

    return mapped_jsonl(call.path() / f"{call.kwargs.get('name')}.jsonl", build, strip=True)
