"""The framework route for ``extract``: a postprocessor with no native rewrite, applied by the
framework itself (never required).

A separate Python (``--framework-python``, else this one when it can import OpenCompass) imports
``opencompass.datasets`` and ``opencompass.utils.text_postprocessors`` (which fill the registry),
takes the function as ``TEXT_POSTPROCESSORS.get`` does, and applies it to every text of the
step in one go; it prints JSON only (the values, or the position of the text it raised on).
It runs in its own session under the step's share of the pair's time limit and a memory limit,
with the Hugging Face hub switched off. When it cannot be asked (no such interpreter, OpenCompass
does not import, no answer), the pair is refused as it is without the route, with the reason.

May import: loading, the core and the other headless modules; not views, tui, commands or ``cli``.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.answers.catalog import Unresolved
from ..core.answers.chain import Fallback, StepRaised
from ..loading.rows.framework_load import run_framework_script

MAX_OUTPUT = 512 * 1024**2

# Runs in the framework's interpreter: no workbench import there. Its prints go to stderr; the
# answer is the one line it writes to the real stdout.
_SCRIPT = r"""
import json, sys
out, sys.stdout = sys.stdout, sys.stderr
spec = json.loads(sys.stdin.read())
def say(answer):
    out.write(json.dumps(answer) + "\n")
    out.flush()
    sys.exit(0)
try:
    import opencompass.datasets, opencompass.utils.text_postprocessors
    from opencompass.registry import TEXT_POSTPROCESSORS
    proc = TEXT_POSTPROCESSORS.get(spec["type"])
except BaseException as exc:
    say({"unavailable": "%s: %s" % (type(exc).__name__, exc)})
if proc is None:
    say({"raised": 0, "detail": "TypeError: 'NoneType' object is not callable"})
values = []
for i, text in enumerate(spec["texts"]):
    try:
        value = proc(text, **spec["kwargs"])
    except BaseException as exc:
        say({"raised": i, "detail": "%s: %s" % (type(exc).__name__, exc)})
    if not (value is None or isinstance(value, (str, int, float, bool, list, dict))):
        value = repr(value)
    values.append(value)
say({"values": values})
"""


def framework_fallback(python: str | None, timeout: float) -> Fallback | None:
    """The route through ``python`` (None: there is no framework to ask)."""
    if python is None:
        return None

    def fallback(stage: str, written: str, kwargs: Mapping[str, Any]) -> Any:
        try:
            json.dumps(dict(kwargs))
        except (TypeError, ValueError) as exc:
            raise Unresolved(f"its kwargs cannot be handed to the framework ({exc})") from exc

        def batch(texts: Sequence[Any]) -> list[Any]:
            request = json.dumps({"type": written, "kwargs": dict(kwargs), "texts": list(texts)})
            try:
                done = run_framework_script(python, _SCRIPT, request, timeout)
            except subprocess.TimeoutExpired:
                raise Unresolved(f"the framework route ({python}) ran past {timeout:g} s") from None
            except OSError as exc:
                raise Unresolved(f"the framework route cannot run {python}: {exc.strerror or exc}") from None
            lines = done.stdout[:MAX_OUTPUT].strip().splitlines()
            try:
                answer = json.loads(lines[-1]) if lines else {}
            except json.JSONDecodeError:
                answer = {}
            if "values" in answer and len(answer["values"]) == len(texts):
                values: list[Any] = answer["values"]
                return values
            if "raised" in answer:
                raise StepRaised(int(answer["raised"]), str(answer["detail"]))
            why = answer.get("unavailable") or (done.stderr.strip().splitlines() or ["no answer"])[-1][:300]
            raise Unresolved(f"the framework route ({python}) could not apply it: {why}",
                             hint="--framework-python PY: a Python that can import OpenCompass 0.5.4")

        return batch

    return fallback
