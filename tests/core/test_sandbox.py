"""Sandboxing: chat templates cannot reach Python or exhaust the machine; rows are never evaluated.

A chat template comes with a model folder nobody here wrote, and rows come from datasets
nobody here wrote.  Both are data: a template runs in a bounded Jinja sandbox (attribute
access to Python internals is refused, with the sandbox's message shown), and a row's
text reaches the model exactly as written, whatever it looks like.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from workbench.core.lazy_pairs import render_workspace
from workbench.core.render import PairRenderer, RenderOptions
from workbench.core.spec import DatasetSpec, ModelSpec
from workbench.core.tokens import chat_template as ct
from workbench.core.tokens.chat_apply import render_chat_template
from workbench.loading.models.model_assets import with_chat_template
from workbench.loading.workspace import Loader

MESSAGES = [{"role": "user", "content": "hi"}]


def render(source: str, messages=MESSAGES) -> str:
    return render_chat_template(ct.ChatTemplate(source=source, origin="probe"), messages)


def refusal(source: str) -> str:
    with pytest.raises(ct.ChatTemplateError) as caught:
        render(source)
    return caught.value.message


# -- a chat template cannot reach Python's internals ----------------------------------------------

ESCAPES = [
    ("{{ ''.__class__.__mro__ }}", "access to attribute '__class__' of 'str' object is unsafe."),
    ("{{ ''.__class__.__mro__[1].__subclasses__() }}", "access to attribute '__class__' of 'str' object is unsafe."),
    ("{{ ().__class__.__base__.__subclasses__() }}", "access to attribute '__class__' of 'tuple' object is unsafe."),
    ("{{ cycler.__init__.__globals__.os.popen('id').read() }}",
     "access to attribute '__init__' of 'type' object is unsafe."),
    ("{{ joiner.__init__.__globals__ }}", "access to attribute '__init__' of 'type' object is unsafe."),
    ("{{ namespace.__init__.__globals__ }}", "access to attribute '__init__' of 'type' object is unsafe."),
    ("{{ lipsum.__globals__['os'] }}", "access to attribute '__globals__' of 'function' object is unsafe."),
    # the workbench's own globals: no way back to its module either
    ("{{ raise_exception.__globals__ }}", "access to attribute '__globals__' of 'function' object is unsafe."),
    ("{{ strftime_now.__globals__['clock'] }}", "access to attribute '__globals__' of 'function' object is unsafe."),
    ("{{ dict.__call__.__globals__ }}", "access to attribute '__call__' of '_TemplateDict' object is unsafe."),
    ("{{ dict.fromkeys.__self__ }}", "access to attribute '__self__' of 'method' object is unsafe."),
    ("{{ messages.__class__ }}", "access to attribute '__class__' of 'list' object is unsafe."),
    ("{{ messages[0].content.__len__() }}", "access to attribute '__len__' of 'str' object is unsafe."),
    ("{{ self._TemplateReference__context }}",
     "access to attribute '_TemplateReference__context' of 'TemplateReference' object is unsafe."),
    # the same attributes through filters and str.format
    ("{{ ''|attr('__class__') }}", "access to attribute '__class__' of 'str' object is unsafe."),
    ("{{ messages|map(attribute='__class__')|list }}", "access to attribute '__class__' of 'dict' object is unsafe."),
    ("{{ '{0.__class__}'.format(messages) }}", "access to attribute '__class__' of 'list' object is unsafe."),
    # the data cannot be changed, nor a namespace given private names
    ("{% set x = messages.append(1) %}", "access to attribute 'append' of 'list' object is unsafe."),
    ("{% set ns = namespace() %}{% set ns._a = 1 %}",
     "Chat templates cannot store underscore-prefixed attributes on a namespace, but got '_a'. "
     "Please rename the attribute."),
]


@pytest.mark.parametrize(("source", "message"), ESCAPES, ids=[s for s, _ in ESCAPES])
def test_attribute_access_to_python_internals_is_refused_with_the_sandbox_message(source, message):
    assert refusal(source) == f"probe, line 1: sandbox: {message}"


@pytest.mark.parametrize("source", ["{% include '/etc/passwd' %}", "{% import 'os' as os %}",
                                    "{% extends '/etc/passwd' %}", "{% from 'os' import system %}"])
def test_templates_cannot_read_files(source):
    assert refusal(source) == "probe, line 1: TypeError: no loader for this environment specified"


def test_real_templates_are_unaffected_by_the_bounds():
    source = ("{% for m in messages %}{{ '%s: %s'|format(m.role, m.content) }}{{ '{}!'.format(loop.index) }}"
              "{% endfor %}{{ [1, 2] * 2 }}{{ 'ab' + 'cd' }}{{ 2 ** 10 }}{% for i in range(3) %}{{ i }}{% endfor %}"
              "{{ messages|tojson }}{{ 'x'|center(5) }}")
    assert render(source) == ('user: hi1![1, 2, 1, 2]abcd1024012[{"role": "user", "content": "hi"}]  x  ')


# -- nor exhaust the memory or the clock ------------------------------------------------------------

BOMBS = [
    ("{{ 'a' * 10**10 }}", "'*' would make 10,000,000,000 characters or items; the sandbox allows 16,777,216"),
    ("{{ messages * 100000000 }}", "'*' would make 100,000,000 characters or items; the sandbox allows 16,777,216"),
    ("{% set ns = namespace(s='x') %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}{% endfor %}",
     "'+' would make 33,554,432 characters or items; the sandbox allows 16,777,216"),
    ("{% set ns = namespace(x=3) %}{% for i in range(100) %}{% set ns.x = ns.x * ns.x %}{% endfor %}",
     "'*' of numbers this large is refused by the sandbox"),
    ("{{ 2 ** 100000000 }}", "'**' with an exponent of 100,000,000 is refused by the sandbox"),
    ("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
     "the template takes more than 500,000 steps (lookups, calls, loop iterations)"),
    ("{{ range(10**10)|list }}",
     "an argument of 10,000,000,000 would make 10,000,000,000 characters or items; the sandbox allows 16,777,216"),
    ("{{ range(200000)|list }}",
     "OverflowError: Range too big. The sandbox blocks ranges larger than MAX_RANGE (100000)."),
    ("{{ 'x'|center(1000000000) }}",
     "an argument of 1,000,000,000 would make 1,000,000,000 characters or items; the sandbox allows 16,777,216"),
    ("{{ 'x'.ljust(1000000000) }}",
     "an argument of 1,000,000,000 would make 1,000,000,000 characters or items; the sandbox allows 16,777,216"),
    ("{{ messages|tojson(indent=1000000000) }}",
     "an argument of 1,000,000,000 would make 1,000,000,000 characters or items; the sandbox allows 16,777,216"),
    ("{{ '%1000000000s'|format('a') }}",
     "the format width 1000000000 would make 1,000,000,000 characters or items; the sandbox allows 16,777,216"),
    ("{{ '%1000000000s' % 'a' }}",
     "the format width 1000000000 would make 1,000,000,000 characters or items; the sandbox allows 16,777,216"),
    ("{{ '{:>1000000000}'.format('a') }}",
     "the format width 1000000000 would make 1,000,000,000 characters or items; the sandbox allows 16,777,216"),
    ("{% for i in range(60000) %}{{ 'y' * 300 }}{% endfor %}",
     "the template's output would make 16,777,500 characters or items; the sandbox allows 16,777,216"),
    ("{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", "RecursionError: maximum recursion depth exceeded"),
]

# Run in a child with 2 GiB of address space, so a bound that stops working fails this test
# (MemoryError, or the timeout) instead of taking the machine's memory.
_CHILD = textwrap.dedent("""
    import json, resource, sys, time
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    soft = 2 * 1024**3 if hard == resource.RLIM_INFINITY else min(2 * 1024**3, hard)
    resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
    from workbench.core.tokens import chat_template as ct
    from workbench.core.tokens.chat_apply import render_chat_template
    out = []
    for source in json.load(sys.stdin):
        started = time.perf_counter()
        try:
            render_chat_template(ct.ChatTemplate(source=source, origin="probe"),
                                 [{"role": "user", "content": "hi"}])
            message = None
        except ct.ChatTemplateError as exc:
            message = exc.template_message
        except BaseException as exc:
            message = "RAW " + type(exc).__name__
        out.append([message, time.perf_counter() - started])
    print(json.dumps(out))
""")


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS bounds the child on Linux")
def test_templates_that_would_exhaust_memory_or_time_are_refused_quickly():
    sources = [s for s, _ in BOMBS]
    done = subprocess.run([sys.executable, "-c", _CHILD], input=json.dumps(sources), capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    results = json.loads(done.stdout)
    for (source, expected), (message, seconds) in zip(BOMBS, results):
        assert message == f"sandbox: {expected}" or message == expected, (source, message)
        assert seconds < 5, (source, seconds)


# -- rows are data: never evaluated, whatever they hold ---------------------------------------------

HOSTILE_VALUES = [
    "{{7*7}}",
    "{% for x in range(3) %}x{% endfor %}",
    "{{ cycler.__init__.__globals__.os.popen('touch PWNED').read() }}",
    "__import__('os').system('touch PWNED')",
    "eval(compile('import os', 'x', 'exec'))",
    "$(touch PWNED) `touch PWNED` ${HOME}",
    "{0.__class__} {question.__class__} %s %(x)s",
    "{{ raise_exception('boom') }}",
]
CHAT_DATASET = {
    "abbr": "rows",
    "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
    "infer_cfg": {
        "prompt_template": {"type": "PromptTemplate", "template": {"round": [
            {"role": "HUMAN", "prompt": "Q: {question}"}, {"role": "BOT", "prompt": "{answer}"}]}},
        "retriever": {"type": "ZeroRetriever"},
        "inferencer": {"type": "GenInferencer"},
    },
}
CHATML = ("{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
          "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


@pytest.mark.parametrize("value", HOSTILE_VALUES)
def test_a_row_is_sent_as_written_through_a_chat_template(value, tmp_path, monkeypatch):
    template = tmp_path / "chatml.jinja"
    template.write_text(CHATML)
    (model,) = with_chat_template([ModelSpec(abbr="m", cfg={"abbr": "m", "type": "HuggingFacewithChatTemplate"})],
                                  str(template))
    template.unlink()
    monkeypatch.chdir(tmp_path)
    pair = PairRenderer(DatasetSpec(abbr="rows", cfg=CHAT_DATASET, rows=[{"question": value, "answer": "a"}]),
                        model)
    for provenance in (False, True):
        request = pair.sample(0, provenance=provenance).requests[0]
        # the default chat meta template ends a HUMAN turn with '\n'
        assert request.model_input == [{"role": "user", "content": f"Q: {value}\n"}]
        assert request.model_text == f"<|im_start|>user\nQ: {value}\n<|im_end|>\n<|im_start|>assistant\n"
    assert not list(tmp_path.iterdir()), "a row ran something"


@pytest.mark.parametrize("value", HOSTILE_VALUES)
def test_a_model_output_is_sent_as_written(value):
    """Predictions (multi-turn history) are data too."""
    dataset = {
        "abbr": "turns",
        "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
        "infer_cfg": {
            "prompt_template": {"type": "PromptTemplate", "template": {"round": [
                {"role": "HUMAN", "prompt": "{question}"}, {"role": "BOT", "prompt": "{answer}"},
                {"role": "HUMAN", "prompt": "and then?"}, {"role": "BOT", "prompt": "{answer}"}]}},
            "retriever": {"type": "ZeroRetriever"},
            "inferencer": {"type": "MultiTurnGenInferencer", "infer_mode": "every"},
        },
    }
    model = ModelSpec(abbr="m", cfg={"type": "VLLMCustomAPIChat", "abbr": "m"}, framework="ais_bench")
    spec = DatasetSpec(abbr="turns", cfg=dataset, rows=[{"question": "q", "answer": "a"}], framework="ais_bench")
    result = render_workspace([spec], [model], options=RenderOptions(predictions=lambda *_: value))
    assert not result.errors, result.errors
    second = result.pairs[0].sample(0).requests[1]
    assert [m["prompt"] for m in second.model_input] == ["q", value, "and then?"]


def test_a_hostile_model_folder_is_refused_with_the_error_shown(tmp_path, monkeypatch):
    """End to end: a model folder whose chat template reaches for os, loaded by the real loader."""
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "models" / "evil"
    folder.mkdir(parents=True)
    (folder / "tokenizer_config.json").write_text(json.dumps({
        "chat_template": "{% for m in messages %}{{ m.content }}{% endfor %}\n"
                         "{{ cycler.__init__.__globals__.os.popen('touch PWNED').read() }}"}))
    (tmp_path / "rows.jsonl").write_text(json.dumps({"question": "q", "answer": "a"}) + "\n")
    config = tmp_path / "eval.py"
    config.write_text(textwrap.dedent("""\
        from opencompass.models import HuggingFacewithChatTemplate
        from opencompass.openicl.icl_inferencer import GenInferencer
        from opencompass.openicl.icl_prompt_template import PromptTemplate
        from opencompass.openicl.icl_retriever import ZeroRetriever

        datasets = [dict(abbr='demo', path='rows.jsonl',
                         reader_cfg=dict(input_columns=['question'], output_column='answer'),
                         infer_cfg=dict(prompt_template=dict(type=PromptTemplate, template=dict(round=[
                                            dict(role='HUMAN', prompt='{question}')])),
                                        retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer)))]
        models = [dict(type=HuggingFacewithChatTemplate, abbr='evil', path='models/evil')]
    """))
    with Loader() as loader:
        workspace = loader.load([config])
    assert not workspace.errors, workspace.errors
    (error,) = render_workspace(workspace.datasets, workspace.models).errors
    assert error.message == (f"{folder / 'tokenizer_config.json'} (chat_template), line 2: sandbox: access to "
                             "attribute '__init__' of 'type' object is unsafe.")
    assert error.hint == "chat templates run sandboxed, as transformers runs them"
    assert not (tmp_path / "PWNED").exists()


# -- config workers: code, but bounded -----------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "fork"), reason="the worker needs fork()")
def test_a_config_runs_in_another_process_under_the_memory_limit(tmp_path):
    """Configs are code (as in the frameworks); the process that runs one has a memory limit and
    a time limit (tests/loading/test_isolation.py and the broken corpus show them at work)."""
    config = tmp_path / "c.py"
    config.write_text(textwrap.dedent("""\
        import os
        import resource
        datasets = [dict(abbr=f"{os.getpid()} {resource.getrlimit(resource.RLIMIT_AS)[0]}",
                         reader_cfg=dict(input_columns=['q']), infer_cfg=dict())]
    """))
    with Loader(memory_limit=512 * 1024**2) as loader:
        (dataset,) = loader.load([config]).datasets
    pid, limit = dataset.abbr.split()
    assert int(pid) != os.getpid()
    assert int(limit) == 512 * 1024**2


def test_a_row_never_reaches_the_config_worker(tmp_path):
    """Rows are read in the workbench's own process as JSON/CSV text: nothing in them is executed
    (not even by the worker that runs configs)."""
    (tmp_path / "rows.jsonl").write_text(json.dumps({"question": "__import__('os').system('touch PWNED')",
                                                     "answer": "{{7*7}}"}) + "\n")
    config = tmp_path / "c.py"
    config.write_text(textwrap.dedent("""\
        datasets = [dict(abbr='demo', path='rows.jsonl',
                         reader_cfg=dict(input_columns=['question'], output_column='answer'),
                         infer_cfg=dict(prompt_template=dict(type='PromptTemplate', template='{question}|{answer}'),
                                        retriever=dict(type='ZeroRetriever'),
                                        inferencer=dict(type='GenInferencer')))]
    """))
    old = Path.cwd()
    os.chdir(tmp_path)
    try:
        with Loader() as loader:
            workspace = loader.load([config])
    finally:
        os.chdir(old)
    started = time.perf_counter()
    (pair,) = render_workspace(workspace.datasets, workspace.models).pairs
    assert pair.sample(0).requests[0].model_input == "__import__('os').system('touch PWNED')|"
    assert time.perf_counter() - started < 5
    assert not (tmp_path / "PWNED").exists()
