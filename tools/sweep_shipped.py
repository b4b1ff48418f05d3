"""Dev-only: hold the workbench to the real frameworks on shipped configs no parity case has.

Three steps, two venvs (nothing is written under ``tests/``; DIR is a scratch folder):

    $FWENV/bin/python tools/sweep_shipped.py make DIR [--count N] [--seed S]
    $FWENV/bin/python tools/gen_goldens.py --cases-dir DIR
    .venv/bin/python tools/sweep_shipped.py check DIR

``make-models DIR`` turns the check around: the datasets and rows of every committed parity
case, rendered through each distinct meta template of the shipped model configs (33 in
OpenCompass's; AISBench's have none, and its cases get OpenCompass's). A template is worn by
a ``HuggingFaceCausalLM`` where its config's class is a local model the LM template parser
serves, else by the parity models' API or chat-template class. Then
``gen_goldens.py --cases-dir DIR`` and ``check DIR`` as above.

``make`` picks N dataset config files at random (seeded) among those OpenCompass 0.5.4 and
AISBench 3.1.20260630 ship that are not parity cases yet (``make_parity_cases.OC_REAL`` /
``AIS_REAL``, and any case already in DIR), and flattens the first dataset of each into
``DIR/<case>/`` with synthetic rows, as ``make_parity_cases.flatten_real`` writes the ``oc_*``
and ``ais_*`` cases. ``gen_goldens.py`` then records what the frameworks send for each (or
the exception they raise), and ``check`` holds the workbench to it exactly as
``tests/parity/test_parity.py`` does (fast and reference modes), printing a line per case
and the failures' first lines. A failure found this way becomes a parity case: add the
config to ``OC_REAL``/``AIS_REAL`` (or a case to ``parity_x_cases.py``) with the fix.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import zlib
from pathlib import Path
from typing import Any

from _shared import REPO, check_step

#: How long one config may take to load and flatten (a few build large tables).
SECONDS_A_CONFIG = 20


def _timeout(*_: object) -> None:
    raise TimeoutError(f"took over {SECONDS_A_CONFIG} s")


#: ``make --typed``: what a column holds instead of text, chosen by its name, so that every
#: row agrees on a column's type (as a data file's rows do; int and float mix, as JSON does).
_TYPED_KINDS = (
    lambda col, r: r * 7 - 10 if r % 3 else 123456789012,
    lambda col, r: [0.1, 1e-05, 2.0, -0.0, 1e16, 3, 2.5e-7][r % 7],
    lambda col, r: r % 2 == 0,
    lambda col, r: [[], [f"{col} {r}", "b {x}"], [f"{{{col}}}", "line\nbreak "], ["}{"]][r % 4],
    lambda col, r: {"k": f"{col} {r}", "n": r} if r % 2 else {"k": f"{{{col}}}"},
    lambda col, r: None if r % 2 else f"{col} {r}",
    lambda col, r: [r, r + 0.5] if r % 2 else [r],
)


def _typed_value(original: Any) -> Any:
    """``make_parity_cases.edge_value`` with most columns typed (see :data:`_TYPED_KINDS`)."""
    def value(kind: int, col: str, r: int, other: str, rnd: random.Random) -> Any:
        pick = zlib.crc32(col.encode()) % (len(_TYPED_KINDS) + 2)
        if pick >= len(_TYPED_KINDS):  # two in nine columns keep their edge-case text
            return original(kind, col, r, other, rnd)
        return _TYPED_KINDS[pick](col, r)
    return value


def make(out: Path, count: int, seed: int, typed: bool = False) -> int:
    import make_parity_cases as cases
    from mmengine.config import Config

    cases.CASES_DIR = out
    if typed:
        cases.edge_value = _typed_value(cases.edge_value)
    done = {p.name for p in out.iterdir()} if out.is_dir() else set()
    have = {(fw, rel) for fw, table in (("oc", cases.OC_REAL), ("ais", cases.AIS_REAL)) for rel, *_ in table}
    pool = []
    for fw in (cases.OPENCOMPASS, cases.AISBENCH):
        root = cases.configs_root(fw)
        for path in sorted(root.rglob("*.py")):
            rel = str(path.relative_to(root))
            if path.name.startswith("_") or (fw.key, rel) in have or f"{fw.key}_{path.stem}" in done:
                continue
            pool.append((fw, rel))
    random.Random(seed).shuffle(pool)
    print(f"{len(pool)} shipped configs are not cases yet; flattening up to {count}", flush=True)
    signal.signal(signal.SIGALRM, _timeout)
    made = 0
    for fw, rel in pool:
        if made >= count:
            break
        try:
            signal.alarm(SECONDS_A_CONFIG)
            with cases.quiet():
                cfg = Config.fromfile(str(cases.configs_root(fw) / rel))
            names = [k for k, v in cfg.items() if k.endswith("_datasets") and isinstance(v, list) and v
                     and isinstance(v[0], dict) and "infer_cfg" in v[0]]
            case = cases.flatten_real(fw, rel, names[0], 1) if names else None
        except Exception as exc:  # a config that does not load is skipped, loudly
            print(f"skip {fw.key} {rel}: {type(exc).__name__}: {str(exc)[:160]}", flush=True)
            continue
        finally:
            signal.alarm(0)
        if case:
            made += 1
            print(f"made {case} ({rel})", flush=True)
    print(f"made {made} cases in {out}")
    return 0


#: The shipped model classes whose prompts a parity model's class builds the same way: the
#: local ones an LM template parser serves (the rest keep the chat-template class).
_LOCAL_KINDS = ("HuggingFaceCausalLM", "HuggingFace", "HuggingFaceBaseModel", "VLLM", "TurboMindModel",
                "ModelScopeCausalLM", "HuggingFaceChatGLM3", "LmdeployPytorchModel")


def _shipped_metas(fw: Any) -> list[tuple[str, str, Any]]:
    """(where, kind, meta template) of each distinct meta template in ``fw``'s shipped model
    configs: kind ``local``, ``api`` or ``chat`` (a chat-template model that has one too)."""
    import make_parity_cases as cases
    from mmengine.config import Config

    seen: dict[str, tuple[str, str, Any]] = {}
    root = cases.configs_root(fw).parent / "models"
    for path in sorted(root.rglob("*.py")):
        if path.name.startswith("_"):
            continue
        try:
            with cases.quiet():
                models = Config.fromfile(str(path)).get("models") or []
        except Exception as exc:  # a config that does not load is skipped, loudly
            print(f"skip {fw.key} {path.relative_to(root)}: {type(exc).__name__}: {str(exc)[:160]}")
            continue
        for model in models:
            if not isinstance(model, dict) or "meta_template" not in model:
                continue
            name = getattr(model.get("type"), "__name__", str(model.get("type")))
            kind = ("chat" if "ChatTemplate" in name else "local" if name in _LOCAL_KINDS
                    else "api")
            meta = cases.plain(model["meta_template"])
            seen.setdefault(f"{kind} {meta!r}", (f"{path.relative_to(root)} ({name})", kind, meta))
    return list(seen.values())


def _models_of(fw: Any, metas: list[tuple[str, str, Any]]) -> str:
    """A case's model list: one model of ``fw`` for each meta template."""
    local = "attr='local', " if fw.key == "ais" else ""
    api = ("attr='service', type=VLLMCustomAPIChat, path='', model='parity-model', host_ip='localhost', "
           "host_port=8080, " if fw.key == "ais" else "type=OpenAI, path='gpt-4o-mini', key='EMPTY', ")
    lines = ["", fw.models_import, "", "models = ["]
    for n, (where, kind, meta) in enumerate(metas):
        chat = "type=HuggingFacewithChatTemplate, path='/nonexistent/parity/chat-model', "
        opening = {"local": f"{local}type=HuggingFaceCausalLM, path='/nonexistent/parity/m{n}', ",
                   "chat": local + chat,
                   "api": api}[kind]
        lines += [f"    # {where}", f"    dict({opening}abbr='m{n:02d}-{kind}', meta_template={meta!r}, "
                  "max_out_len=64, batch_size=1),"]
    return "\n".join([*lines, "]", ""])


def make_models(out: Path) -> int:
    import make_parity_cases as cases

    made = 0
    # a user of either framework may copy a meta template from the other's configs
    metas = [m for fw in (cases.OPENCOMPASS, cases.AISBENCH) for m in _shipped_metas(fw)]
    print(f"{len(metas)} distinct meta templates in the shipped model configs", flush=True)
    blocks = {fw.key: _models_of(fw, metas) for fw in (cases.OPENCOMPASS, cases.AISBENCH)}
    for case in sorted(p for p in cases.CASES_DIR.iterdir() if (p / "config.py").is_file()):
        source = (case / "config.py").read_text(encoding="utf-8")
        head, cut, _ = source.partition("\n# ---- the five model kinds")
        if not cut:
            print(f"skip {case.name}: its models are not the parity block")
            continue
        target = out / f"m_{case.name}"
        target.mkdir(parents=True, exist_ok=True)
        models = blocks["ais" if "ais_bench" in head else "oc"]
        (target / "config.py").write_text(head + models, encoding="utf-8")
        (target / "data.json").write_bytes((case / "data.json").read_bytes())
        made += 1
    print(f"made {made} cases in {out}")
    return 0


def check(folder: Path) -> int:
    sys.path.insert(0, str(REPO))
    from tests.parity.test_parity import test_matches_the_framework

    failed = passed = 0
    for case in sorted(p for p in folder.iterdir() if (p / "expected.json").is_file()):
        expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
        for mode in ("fast", "reference"):
            try:
                test_matches_the_framework(case, mode)
            except Exception as exc:  # (an assertion of the parity test, or what the render raised)
                failed += 1
                print(f"FAIL {case.name} ({mode}): {type(exc).__name__}: {str(exc).splitlines()[0][:400]}")
                break
        else:
            passed += 1
            samples = sum(len(r["samples"]) for r in expected["renders"])
            print(f"ok   {case.name}: {samples} samples, {len(expected.get('framework_errors', []))} "
                  "framework errors")
    print(f"{passed} cases agree with the frameworks, {failed} do not")
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    made = sub.add_parser("make", help="flatten random shipped configs into DIR (framework venv)")
    made.add_argument("dir", type=Path)
    made.add_argument("--count", type=int, default=200)
    made.add_argument("--seed", type=int, default=0)
    made.add_argument("--typed", action="store_true", help="rows whose columns hold numbers, "
                      "booleans, lists, dicts and None, not only text")
    models = sub.add_parser("make-models", help="the parity cases' datasets through every shipped "
                            "meta template, into DIR (framework venv)")
    models.add_argument("dir", type=Path)
    checked = sub.add_parser("check", help="hold the workbench to DIR's goldens (project venv)")
    checked.add_argument("dir", type=Path)
    args = parser.parse_args(argv)
    if args.step == "make":
        args.dir.mkdir(parents=True, exist_ok=True)
        return make(args.dir, args.count, args.seed, args.typed)
    if args.step == "make-models":
        args.dir.mkdir(parents=True, exist_ok=True)
        return make_models(args.dir)
    return check_step(args.dir, check)


if __name__ == "__main__":
    sys.exit(main())
