"""Chat templates: every construct is bounded in size and in work, and a render that exceeds a
bound is one error line with no thread left behind.

The attacks run in a child process limited to 2 GiB of address space: a bound that stops
working fails its case (a MemoryError, or the child's timeout) instead of taking the machine.
No case asserts a time: each names the bound that stopped it, and the bounds are counted
(steps, characters scanned, bytes made), so they stop the same way on any machine.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading

import jinja2.sandbox
import pytest

from workbench.core.tokens import chat_template as ct
from workbench.core.tokens import sandbox_bounds
from workbench.core.tokens.chat_apply import render_chat_template

from .app_workspace import make_workspace
from .measuring import measured

BIG = "{% set s = 'a' * 100000 %}"
# [s] * 1000 as text: each item's repr at most 10 characters a character (an astral escape)
# plus its quotes, a separator each, the brackets
LIST_TEXT = 1000 * (10 * 100_000 + 2 + 2) + 16
SIZE = "would make {:,} characters or items; the sandbox allows 16,777,216"
UP_TO = "would make up to {:,} characters or items; the sandbox allows 16,777,216"  # an estimate
STEPS = "the template takes more than 500,000 steps (lookups, calls, loop iterations)"
SCANNED = "the template's operations read more than 268,435,456 characters or items"
MADE = "the template would allocate more than 512 MiB"

ATTACKS = {
    # memory: one operation that multiplies its input
    "tilde doubling": ("{% set ns = namespace(s='a') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}"
                       "{% endfor %}", "'~' " + SIZE.format(2**25)),
    "join filter doubling": ("{% set ns = namespace(s='a') %}{% for i in range(40) %}"
                             "{% set ns.s = [ns.s, ns.s]|join %}{% endfor %}", "join() " + SIZE.format(2**25)),
    "str.join doubling": ("{% set ns = namespace(s='a') %}{% for i in range(40) %}"
                          "{% set ns.s = ''.join([ns.s, ns.s]) %}{% endfor %}", "join() " + SIZE.format(2**25)),
    "format filter doubling": ("{% set ns = namespace(s='a') %}{% for i in range(40) %}"
                               "{% set ns.s = '%s%s'|format(ns.s, ns.s) %}{% endfor %}",
                               "the format filter " + UP_TO.format(2**24 + 8)),
    "percent doubling": ("{% set ns = namespace(s='a') %}{% for i in range(40) %}"
                         "{% set ns.s = '%s%s' % (ns.s, ns.s) %}{% endfor %}", "'%' " + UP_TO.format(2**24 + 8)),
    "str.format doubling": ("{% set ns = namespace(s='a') %}{% for i in range(40) %}"
                            "{% set ns.s = '{0}{0}'.format(ns.s) %}{% endfor %}",
                            "format() " + UP_TO.format(2**24 + 10)),
    "format fields": (BIG + "{{ ('{0}' * 10000).format(s) }}", "format() " + UP_TO.format(1_000_050_000)),
    "tojson growth": ("{% set ns = namespace(s='a') %}{% for i in range(60) %}{% set ns.s = [ns.s, ns.s]|tojson %}"
                      "{% endfor %}", "tojson " + UP_TO.format(16_838_616)),
    "indent width": ("{{ ('\\n' * 100000)|indent(10000000) }}", "indent() " + UP_TO.format(1_000_010_100_000)),
    "indent string": ("{{ ('\\n' * 100000)|indent('x' * 1000) }}", "indent() " + UP_TO.format(100_101_000)),
    "str.replace chain": ("{% set ns = namespace(s='a' * 1000) %}{% for i in range(10) %}"
                          "{% set ns.s = ns.s.replace('a', 'aaaaaaaaaa') %}{% endfor %}",
                          "replace() " + SIZE.format(100_000_000)),
    "replace filter chain": ("{% set ns = namespace(s='a' * 1000) %}{% for i in range(10) %}"
                             "{% set ns.s = ns.s|replace('a', 'aaaaaaaaaa') %}{% endfor %}",
                             "replace() " + SIZE.format(100_000_000)),
    "expandtabs": ("{{ ('\\t' * 1000000).expandtabs(16000000) }}", "expandtabs() " + UP_TO.format(16_000_001_000_000)),
    "wordwrap": ("{{ ('a ' * 1000000)|wordwrap(1, wrapstring='x' * 100000) }}",
                 "wordwrap() " + UP_TO.format(200_002_000_000)),
    "translate": ("{{ ('a' * 1000000).translate({97: 'b' * 1000}) }}", "translate() " + UP_TO.format(10**9)),
    "lipsum": ("{{ lipsum(10000000, max=10000) }}", "lipsum() " + UP_TO.format(1_600_160_000_000)),
    "strftime width": ("{{ strftime_now('%1000000000Y') }}", "the format width 1000000000 " + SIZE.format(10**9)),
    # memory: text of a container that holds one big string many times
    "output of a list": (BIG + "{{ [s] * 1000 }}", "the output of a container " + UP_TO.format(LIST_TEXT)),
    "tilde of a list": (BIG + "{{ ([s] * 1000) ~ 'x' }}", "'~' " + UP_TO.format(LIST_TEXT)),
    "string filter of a list": (BIG + "{{ ([s] * 1000)|string }}", "the string filter " + UP_TO.format(LIST_TEXT)),
    "upper filter of a list": (BIG + "{{ ([s] * 1000)|upper }}", "the upper filter " + UP_TO.format(LIST_TEXT)),
    "pprint of a list": (BIG + "{{ ([s] * 1000)|pprint }}", "the pprint filter " + UP_TO.format(LIST_TEXT)),
    "list literal joined": (BIG + "{{ [" + ",".join(["s"] * 170) + "]|join }}", "join() " + SIZE.format(17_000_000)),
    # memory: output gathered where the output bound does not see it
    "macro output": (BIG + "{% macro m() %}{% for c in s %}{{ s }}{% endfor %}{% endmacro %}{% set x = m() %}",
                     "a macro's or block's output " + SIZE.format(10**10)),
    "set block": (BIG + "{% set x %}{% for c in s %}{{ s }}{% endfor %}{% endset %}",
                  "a macro's or block's output " + SIZE.format(10**10)),
    "filter block": (BIG + "{% filter upper %}{% for c in s %}{{ s }}{% endfor %}{% endfilter %}",
                     "a macro's or block's output " + SIZE.format(10**10)),
    "call block": (BIG + "{% macro m() %}{{ caller() }}{% endmacro %}{% call m() %}{% for c in s %}{{ s }}"
                   "{% endfor %}{% endcall %}", "a macro's or block's output " + SIZE.format(10**10)),
    # memory: many values, each within the size bound
    "many padded strings kept": ("{% set ns = namespace(l=[]) %}{% for i in range(1000) %}"
                                 "{% set ns.l = ns.l + ['x'.center(16000000)] %}{% endfor %}", MADE),
    "slice into millions of lists": ("{{ [1]|slice(16000000)|list|length }}", MADE),
    "sum of lists": ("{{ ([[1] * 1000] * 16000)|sum(start=[])|length }}", MADE),
    # time: loops, recursion, scans
    "nested loops over strings": (BIG + "{% for a in s %}{% for b in s %}{% endfor %}{% endfor %}", STEPS),
    "exponential macro": ("{% macro f(n) %}{% if n > 0 %}{{ f(n-1) }}{{ f(n-1) }}{% endif %}{% endmacro %}"
                          "{{ f(40) }}", STEPS),
    "exponential macro, no output": ("{% macro f(n) %}{% if n > 0 %}{% set a = f(n-1) %}{% set b = f(n-1) %}"
                                     "{% endif %}{% endmacro %}{{ f(40) }}", STEPS),
    "recursive loop": ("{% for a in [1, 2] recursive %}{% if loop.depth < 40 %}{{ loop([1, 2]) }}{% endif %}"
                       "{% endfor %}", STEPS),
    "literal text in nested loops": (BIG + "{% macro m() %}{% for c in s %}{% for d in s %}xxxxxxxxxxxxxxxx"
                                     "{% endfor %}{% endfor %}{% endmacro %}{% set x = m() %}", STEPS),
    "'in' over a long string": ("{% set s = 'a' * 16000000 %}{% for i in 'x' * 400000 %}{% if 'b' in s %}"
                                "{% endif %}{% endfor %}", SCANNED),
    "'==' of long strings": ("{% set s = 'a' * 16000000 %}{% set t = 'a' * 16000000 %}{% for i in 'x' * 400000 %}"
                             "{% if s == t %}{% endif %}{% endfor %}", SCANNED),
    "'in' test over a long list": ("{% set s = ['a'] * 16000000 %}{% for i in 'x' * 400000 %}"
                                   "{% if 'b' is in s %}{% endif %}{% endfor %}", SCANNED),
    # time: one C call of a number whose size grows with each step
    "'**' of a huge base": ("{{ ((9 ** 1000) ** 1000) ** 1000 }}",
                            "'**' would make a number of about 3,170,000 bits; the sandbox allows 65,536"),
    "'**' in a loop": ("{% set ns = namespace(x=9) %}{% for i in range(100) %}{% set ns.x = ns.x ** 1000 %}"
                       "{% endfor %}", "'**' would make a number of about 3,170,000 bits; the sandbox allows 65,536"),
    "str.count in a loop": ("{% set s = 'a' * 16000000 %}{% for i in 'x' * 400000 %}{% set n = s.count('b') %}"
                            "{% endfor %}", SCANNED),
}

_CHILD = textwrap.dedent("""
    import json, resource, sys
    resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))
    from workbench.core.tokens import chat_template as ct
    from workbench.core.tokens.chat_apply import render_chat_template
    out = {}
    for name, source in json.load(sys.stdin).items():
        try:
            render_chat_template(ct.ChatTemplate(source=source, origin="probe"),
                                 [{"role": "user", "content": "hi"}])
            out[name] = "rendered"
        except ct.ChatTemplateError as exc:
            out[name] = exc.template_message
        except BaseException as exc:
            out[name] = "RAW " + type(exc).__name__
    print(json.dumps(out))
""")


@pytest.fixture(scope="module")
def refusals() -> dict[str, str]:
    done = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, timeout=600,
                          input=json.dumps({name: source for name, (source, _) in ATTACKS.items()}))
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS bounds the child on Linux")
@pytest.mark.parametrize("name", ATTACKS)
def test_every_construct_is_bounded(refusals, name):
    assert refusals[name] == f"sandbox: {ATTACKS[name][1]}"


def test_a_spinning_template_leaves_no_thread_behind():
    source = "{% macro f(n) %}{% if n > 0 %}{{ f(n-1) }}{{ f(n-1) }}{% endif %}{% endmacro %}{{ f(60) }}"
    errors: list[str] = []

    def render() -> None:
        try:
            render_chat_template(ct.ChatTemplate(source=source, origin="spin.jinja"),
                                 [{"role": "user", "content": "hi"}])
        except ct.ChatTemplateError as exc:
            errors.append(str(exc.message))

    # the threads that were there before are compared by identity, not counted: an idle pool
    # thread of an earlier test may end (or a busy machine keep one) while this one runs
    before = set(threading.enumerate())
    thread = threading.Thread(target=render, daemon=True)
    thread.start()
    thread.join(timeout=120)
    assert not thread.is_alive()
    assert errors == [f"spin.jinja, line 1: sandbox: {STEPS}"]
    assert [t.name for t in threading.enumerate() if t not in before] == []  # the render started none


# Real constructs render exactly as transformers' plain sandbox renders them: the counting
# changes no output (loop.length over a counted loop, recursion, else, filters, blocks).
SAME = [
    "{% for m in messages %}{{ loop.index }}/{{ loop.length }}{{ '.' if loop.last }}{% endfor %}",
    "{% for m in messages if m.role == 'user' %}{{ m.content }}{% else %}none{% endfor %}",
    "{% for m in [] %}x{% else %}empty{% endfor %}",
    "{% for k, v in {'a': 1, 'b': 2}|dictsort %}{{ k }}={{ v }};{% endfor %}",
    "{% for x in [[1, [2]], [3]] recursive %}[{% if x is iterable %}{{ loop(x) }}{% else %}{{ x }}"
    "{% endif %}]{% endfor %}",
    "{% for c in 'abc' %}{{ loop.revindex }}{{ loop.cycle('x', 'y') }}{% endfor %}",
    "{% for i in range(3) %}{% for j in range(i) %}{{ i ~ j }}{% endfor %}{% endfor %}",
    "{{ 'a' ~ 1 ~ [2] ~ none }}{{ 1 < 2 < 3 }}{{ 'b' in 'abc' }}{{ 2 not in [1] }}",
    "{% macro m(x) %}<{{ x|upper }}>{% endmacro %}{{ m('q') }}{% set y %}{{ m('r') }}{% endset %}{{ y }}",
    "{% filter replace('a', 'b') %}banana{% endfilter %}{{ messages|map(attribute='role')|join(',') }}",
    "{{ [1, 2]|sum }}{{ [[1], [2]]|sum(start=[]) }}{{ messages|length }}{{ 'ab'|list }}",
    "{{ 2 ** 10 }}{{ 3 ** 40 }}{{ 2.5 ** 2 }}{{ (2 ** 64) ** 100 }}{{ 2 ** -2 }}{{ (-7) ** 3 }}",
    "{{ '%s-%d'|format('x', 3) }}{{ '{}!'.format(1) }}{{ 'x\\ty'.expandtabs(4) }}{{ ' x '|trim|center(5) }}",
    "{{ 'a\\nb'|indent(2, first=true) }}{{ 'hello world'|wordwrap(5) }}{{ [1, 2, 3]|slice(2)|list }}",
    "{{ messages[-1].content[:1] }}{{ (messages|last).role }}{{ messages|selectattr('role', 'eq', 'user')|list }}",
]


@pytest.mark.parametrize("source", SAME)
def test_counting_changes_no_output(source):
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]
    plain = jinja2.sandbox.ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    expected = plain.from_string(source).render(messages=messages)
    assert render_chat_template(ct.ChatTemplate(source=source, origin="probe"), messages) == expected


def test_the_bounds_are_the_documented_ones():
    assert (sandbox_bounds.MAX_TEMPLATE_SIZE, sandbox_bounds.MAX_STEPS, sandbox_bounds.MAX_SCANNED, sandbox_bounds.MAX_MADE) \
        == (16 * 1024**2, 500_000, 256 * 1024**2, 512 * 1024**2)


def test_a_power_bomb_in_a_model_folder_is_one_line_on_time(tmp_path):
    config = make_workspace(tmp_path)
    baseline = measured("render", config.name, "-f", "text", "-q", cwd=tmp_path)
    assert baseline.code == 0, baseline.err
    (tmp_path / "tpl" / "chat_template.jinja").write_text("{{ ((9 ** 1000) ** 1000) ** 1000 }}", encoding="utf-8")
    done = measured("render", config.name, "-f", "text", "-q", cwd=tmp_path)
    assert done.code == 3
    template = tmp_path / "tpl" / "chat_template.jinja"
    assert done.lines == [f"{template}:1: [qa × tpl-chat] {template}, line 1: "
                          "sandbox: '**' would make a number of about 3,170,000 bits; the sandbox allows 65,536 "
                          "(hint: chat templates run sandboxed, as transformers runs them)"]
    assert done.cpu < 3 * baseline.cpu and done.peak < 2 * baseline.peak
