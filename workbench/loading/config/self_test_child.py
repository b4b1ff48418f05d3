"""In the config worker's child: one dataset's extraction self-test (PW213 ``answer-format``).

The self-test runs the config's own answer patterns over the template's exemplars, and a
pattern may backtrack forever inside one C call, so the app runs it here, bounded like a
config (time, memory, a process of its own), never in its own process. The request carries
the dataset's and model's config and only the rows the checks read
(:func:`~workbench.core.answers.self_test.self_test_rows`), as plain data; the answer is the
checks as dicts, or why there are none, in the words ``extract --self-test`` uses.

``general_cn_postprocess`` gets jieba's segmenter (the ``chinese`` extra), built in the child that
needs it (about a second); without jieba such a dataset is "not-rewritten", as in ``lint``.

May import: the core, loading/chinese_segmenter and the other config modules; not loading/models,
loading/rows, the workspace, views or a front end.
"""

from __future__ import annotations

from typing import Any

from ...core.answers.self_test import checks_answer, checks_of
from ..chinese_segmenter import jieba_segmenter
from . import plain_data
from .executor import ConfigTimeout


def run(request: dict[str, Any]) -> dict[str, Any]:
    """``{"checks": [...]}``, else ``{"error", "hint", "kind"}`` (``fails``, ``not-rewritten``,
    ``unreadable``, ``bounded``: past its time)."""
    job = plain_data.loads(request["job"].encode("utf-8", "surrogatepass"))
    try:
        answer = checks_answer(lambda: checks_of(job["dataset"], job["model"], job["rows"], jieba_segmenter))
    except ConfigTimeout:
        return {"error": f"the self-test ran past {float(request['timeout']):g} s", "hint": None,
                "kind": "bounded"}
    return plain_data.to_plain(answer)
