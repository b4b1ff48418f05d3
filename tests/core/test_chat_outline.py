"""Chat templates rendered once per message shape (chat_outline): the spliced text is the
real render's, byte for byte, for every template the project ships or tests with, and every
way a template can look at a content sends that shape to a real render.

Each inspecting template below is checked twice: the fast path equals a real render, and a
naive splice (record with marker contents, substitute the real ones) does NOT, so the test
would fail if the fallback were missing.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import jinja2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.tokens import chat_outline as sk
from workbench.core.tokens import chat_template as ct
from workbench.core.tokens import sandbox_bounds as bounds
from workbench.core.tokens.chat_apply import render_chat_template

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "tests" / "chat_templates"
GOLDENS = json.loads((HERE / "goldens.json").read_text(encoding="utf-8"))
FIXED_NOW = datetime.fromisoformat(GOLDENS["fixed_now"])
LATER = datetime(2031, 2, 3, 4, 5, 6)


def _shipped() -> dict[str, ct.ChatTemplate]:
    """Every chat template the project ships or tests with."""
    found: dict[str, ct.ChatTemplate] = {}
    for name in ct.BUILTIN_NAMES:
        template = ct.builtin_template(name)
        assert template is not None
        found[f"builtin:{name}"] = template
    for path in sorted(HERE.glob("*.jinja")):
        found[path.name] = ct.ChatTemplate(source=path.read_bytes().decode("utf-8"), origin=path.name)
    for name, source in GOLDENS["probes"].items():
        found[name] = ct.ChatTemplate(source=source, origin=name)
    for config in sorted((ROOT / "benchmarks").rglob("tokenizer_config.json")):
        source = json.loads(config.read_text(encoding="utf-8")).get("chat_template")
        if isinstance(source, str):
            found[str(config.relative_to(ROOT))] = ct.ChatTemplate(source=source, origin=config.name)
    return found


TEMPLATES = _shipped()
TOKENS = {"bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"}

#: Contents that differ in every way a template could notice: empty, blank, padded, braces,
#: what looks like a mark, markers of the templates themselves, non-ASCII.
CONTENTS = ["", "   ", "  padded \n", "{{ x }} {% if %}", "\ue000" + "0" * 16 + ":0\ue001", "<|im_end|>",
            "</think>answer", "héllo ✓ 𝄞", "Question: 2+2?\nAnswer:", "x" * 300]


@pytest.fixture(autouse=True)
def _fresh_memo():
    sk.forget()
    yield
    sk.forget()


def _outcome(template: ct.ChatTemplate, messages: list[dict], reuse: bool, **options) -> str:
    try:
        return "ok:" + render_chat_template(template, messages, reuse=reuse, **options)
    except ct.ChatTemplateError as exc:
        return "error:" + exc.message + f" (hint: {exc.hint})"


def _with_contents(messages: list[dict], offset: int) -> list[dict]:
    return [{**m, "content": CONTENTS[(i + offset) % len(CONTENTS)]} if isinstance(m.get("content"), str) else m
            for i, m in enumerate(messages)]


class Jinja:
    """Counts the template runs (each render is one ``Template.generate``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.runs = 0
        generate = jinja2.Template.generate

        def counted(template, *args, **kwargs):
            self.runs += 1
            return generate(template, *args, **kwargs)

        monkeypatch.setattr(jinja2.Template, "generate", counted)


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_every_shipped_template_splices_to_its_real_render(name):
    template = TEMPLATES[name]
    for messages in GOLDENS["messages"].values():
        for add in (True, False):
            for offset in range(len(CONTENTS)):  # the first records the shape, the rest are spliced
                chat = _with_contents(messages, offset)
                options = dict(add_generation_prompt=add, special_tokens=TOKENS, clock=lambda: FIXED_NOW)
                assert _outcome(template, chat, True, **options) == _outcome(template, chat, False, **options)


def test_the_shipped_templates_are_spliced_not_rerun(monkeypatch):
    """The built-ins and the suite's template never look at a content: one recording per shape,
    and one real run that checks its first splice (chat_apply._witnessed)."""
    jinja = Jinja(monkeypatch)
    names = [n for n in TEMPLATES if n.startswith(("builtin:", "benchmarks/"))]
    assert len(names) >= 5
    messages = GOLDENS["messages"]["system-few-shot"]
    for name in names:
        before = jinja.runs
        for offset in range(100):
            render_chat_template(TEMPLATES[name], _with_contents(messages, offset), special_tokens=TOKENS)
        assert jinja.runs - before == 2, name


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40), min_size=5, max_size=5))
def test_random_contents_splice_exactly(contents):
    roles = ["system", "user", "assistant", "user", "assistant"]
    messages = [{"role": r, "content": c} for r, c in zip(roles, contents, strict=True)]
    for name in ("builtin:chatml", "builtin:gemma", "builtin:mistral", "builtin:llama3",
                 "system-in-first-user.jinja", "alternating-roles.jinja", "turn-window.jinja"):
        template = TEMPLATES[name]
        options = dict(special_tokens=TOKENS)
        assert _outcome(template, messages, True, **options) == _outcome(template, messages, False, **options)


# -- templates that look at a content ----------------------------------------------------

#: (what it does, template, first contents, second contents): splicing the second into a
#: recording of the first would be wrong (checked by test_a_naive_splice_would_be_wrong).
INSPECTING = [
    ("==", "{% for m in messages %}{% if m.content == 'yes' %}Y{% else %}{{ m.content }}{% endif %}{% endfor %}",
     "no", "yes"),
    ("!=", "{% for m in messages %}{% if m.content != 'yes' %}{{ m.content }}{% endif %}{% endfor %}", "no", "yes"),
    ("<", "{% for m in messages %}{% if m.content < 'm' %}low{% endif %}{{ m.content }}{% endfor %}", "z", "a"),
    ("const in content", "{% for m in messages %}{% if '</think>' in m.content %}T{% endif %}{{ m.content }}"
     "{% endfor %}", "plain", "a</think>b"),
    ("content in const", "{% for m in messages %}{% if m.content in 'abc' %}C{% endif %}{{ m.content }}{% endfor %}",
     "zz", "ab"),
    ("content in list", "{% for m in messages %}{% if m.content in ['a', 'b'] %}L{% endif %}{{ m.content }}"
     "{% endfor %}", "zz", "a"),
    ("truth", "{% for m in messages %}{% if m.content %}{{ m.content }}{% else %}EMPTY{% endif %}{% endfor %}",
     "x", ""),
    ("not", "{% for m in messages %}{{ 'E' if not m.content }}{{ m.content }}{% endfor %}", "x", ""),
    ("or", "{% for m in messages %}{{ m.content or 'EMPTY' }}{% endfor %}", "x", ""),
    ("derived truth", "{% for m in messages %}{% set x = m.content ~ '' %}{% if x %}[{{ x }}]{% endif %}"
     "{% endfor %}", "Z", ""),
    ("|length", "{% for m in messages %}{{ m.content|length }}:{{ m.content }}{% endfor %}", "ab", "abc"),
    ("|count", "{% for m in messages %}{{ m.content|count }}{% endfor %}", "ab", "abc"),
    ("|wordcount", "{% for m in messages %}{{ m.content|wordcount }}{% endfor %}", "a b", "a b c"),
    (".split", "{% for m in messages %}{{ m.content.split('</think>')[-1] }}{% endfor %}", "x", "a</think>b"),
    (".startswith", "{% for m in messages %}{% if m.content.startswith('!') %}B{% endif %}{{ m.content }}"
     "{% endfor %}", "x", "!x"),
    (".replace", "{% for m in messages %}{{ m.content.replace('a', 'b') }}{% endfor %}", "x", "a"),
    (".upper", "{% for m in messages %}{{ m.content.upper() }}{% endfor %}", "X", "x"),
    (".strip of joined text", "{% for m in messages %}{{ (m.content ~ '|').strip('|') }}{% endfor %}", "x", "x|"),
    ("|trim of joined text", "{% for m in messages %}{{ ('<' ~ m.content)|trim('<') }}{% endfor %}", "x", "<x"),
    (".strip().split", "{% for m in messages %}{{ m.content.strip().split()|join('_') }}{% endfor %}", "x", "a b"),
    ("|e", "{% for m in messages %}{{ m.content|e }}{% endfor %}", "x", "<b>"),
    ("|tojson", "{% for m in messages %}{{ m.content|tojson }}{% endfor %}", "x", 'say "hi"'),
    ("messages|tojson", "{{ messages|tojson }}", "x", 'say "hi"'),
    ("|replace", "{% for m in messages %}{{ m.content|replace('a', 'b') }}{% endfor %}", "x", "a"),
    ("|upper", "{% for m in messages %}{{ m.content|upper }}{% endfor %}", "X", "x"),
    ("|truncate", "{% for m in messages %}{{ m.content|truncate(5, true, '', 0) }}{% endfor %}", "abc", "abcdefgh"),
    ("|default(boolean)", "{% for m in messages %}{{ m.content|default('D', true) }}{% endfor %}", "x", ""),
    ("|string|length", "{% for m in messages %}{{ m.content|string|length }}{% endfor %}", "x", "xx"),
    ("|list|first", "{% for m in messages %}{{ m.content|list|first }}{% endfor %}", "x", "yx"),
    ("|indent", "{% for m in messages %}{{ m.content|indent(2, true) }}{% endfor %}", "x", "a\nb"),
    ("|center", "{% for m in messages %}{{ m.content|center(9) }}{% endfor %}", "x", "xx"),
    ("|int", "{% for m in messages %}{{ m.content|int }}{% endfor %}", "x", "7"),
    ("slice", "{% for m in messages %}{{ m.content[:3] }}{% endfor %}", "x", "abcdef"),
    ("index", "{% for m in messages %}{{ m.content[0] if m.content is string }}{% endfor %}", "x", "yx"),
    ("iteration", "{% for m in messages %}{% for c in m.content %}{{ c }}.{% endfor %}{% endfor %}", "x", "ab"),
    ("hash: dict key", "{% for m in messages %}{{ {'a': 'A'}.get(m.content, m.content) }}{% endfor %}", "x", "a"),
    ("hash: subscript", "{% set t = {'a': 'A', 'm': 'M'} %}{% for m in messages %}{{ t[m.content] }}"
     "{% endfor %}", "Z", "a"),
    ("hash: |unique", "{{ messages|map(attribute='content')|unique|join(',') }}", "x", "m"),
    ("sort", "{{ messages|sort(attribute='content')|map(attribute='role')|join(',') }}", "x", "a"),
    ("selectattr truth", "{{ messages|selectattr('content')|map(attribute='role')|join(',') }}", "x", ""),
    ("select equalto", "{{ messages|map(attribute='content')|select('equalto', 'a')|list|length }}", "x", "a"),
    ("is lower", "{% for m in messages %}{{ 'L' if m.content is lower }}{{ m.content }}{% endfor %}", "X", "x"),
    ("is in", "{% for m in messages %}{{ 'I' if m.content is in ['a'] }}{{ m.content }}{% endfor %}", "x", "a"),
    ("loop.changed", "{% for m in messages %}{% if loop.changed(m.content) %}C{% endif %}{% endfor %}", "Z", "m"),
    ("%-format", "{% for m in messages %}{{ '%3s|' % m.content }}{% endfor %}", "x", "xxxx"),
    ("|format", "{% for m in messages %}{{ '%-4s|'|format(m.content) }}{% endfor %}", "x", "xxxxx"),
    ("str.format with a spec", "{% for m in messages %}{{ '{:>4}'.format(m.content) }}{% endfor %}", "x", "xxxxx"),
    ("macro output looked at", "{% macro f(x) %}<{{ x }}>{% endmacro %}{% for m in messages %}"
     "{% if f(m.content)|length > 3 %}long{% endif %}{{ f(m.content) }}{% endfor %}", "Z", "abcd"),
    ("set block looked at", "{% for m in messages %}{% set y %}{{ m.content }}{% endset %}{{ 'A' if y == 'a' }}"
     "{{ y }}{% endfor %}", "x", "a"),
    ("filter block", "{% for m in messages %}{% filter upper %}{{ m.content }}{% endfilter %}{% endfor %}", "X", "x"),
    ("join looked at", "{{ (messages|map(attribute='content')|join(','))|length }}", "x", "xx"),
    ("namespace, then compared", "{% set ns = namespace(first='') %}{% for m in messages %}{% if loop.first %}"
     "{% set ns.first = m.content %}{% endif %}{% endfor %}{{ 'Q' if ns.first == 'q' }}{{ ns.first }}", "Z", "q"),
    ("autoescape", "{% autoescape true %}{% for m in messages %}{{ m.content }}{% endfor %}{% endautoescape %}",
     "x", "<b>"),
    ("Markup + content", "{% for m in messages %}{{ ('<i>'|safe) + m.content }}{% endfor %}", "x", "<b>"),
    ("raise_exception of a content", "{% for m in messages %}{% if m.role == 'system' %}{{ raise_exception('no: ' ~ "
     "m.content) if m.content|length > 2 }}{% endif %}{{ m.content }}{% endfor %}", "Z", "long"),
    ("the date in a content's format", "{% for m in messages %}{{ strftime_now(m.content) }}{% endfor %}",
     "%Y", "%d"),
]


#: Refused though a naive splice would happen to be right: looking is refused, not judged, and
#: the stand-in must never behave otherwise than the string would (the last two once did).
CONSERVATIVE = [
    ("repetition", "{% for m in messages %}{{ m.content * 2 }}{% endfor %}", "x", "ab"),
    ("|safe", "{% for m in messages %}{{ m.content|safe }}{% endfor %}", "x", "<b>"),
    ("|string", "{% for m in messages %}{{ m.content|string }}{% endfor %}", "x", "<b>"),
    ("loop.cycle", "{% for m in messages %}{{ loop.cycle(m.content, 'b') }}{% endfor %}", "x", "y"),
    # the stand-in's own attributes must not show: a str method has no `name` (it rendered "strip")
    ("a method's attribute", "{% for m in messages %}{{ m.content.strip.name }}{{ m.content }}{% endfor %}",
     "x", "y"),
    ("|trim(unknown=...)", "{% for m in messages %}{{ m.content|trim(unknown=1) }}{% endfor %}", "x", "y"),
]


def _messages_with(content: str) -> list[dict]:
    """The system message carries the content under test; the user's stays "m"."""
    return [{"role": "system", "content": content}, {"role": "user", "content": "m"}]


def _naive_splice(template: ct.ChatTemplate, first: str, second: str) -> str:
    """What splicing without looking would give: the render for ``first`` with ``second`` put
    where ``first`` was copied (``first`` is written nowhere else: checked)."""
    assert first not in template.source and first not in ("m", "system", "user")
    try:
        recorded = render_chat_template(template, _messages_with(first), reuse=False, clock=lambda: FIXED_NOW)
    except ct.ChatTemplateError as exc:
        return "error:" + exc.message + f" (hint: {exc.hint})"
    return "ok:" + recorded.replace(first, second)


@pytest.mark.parametrize("what, source, first, second", INSPECTING + CONSERVATIVE,
                         ids=[i[0] for i in INSPECTING + CONSERVATIVE])
def test_a_template_that_looks_is_rendered_for_real(what, source, first, second, monkeypatch):
    template = ct.ChatTemplate(source=source, origin=what)
    options = dict(clock=lambda: FIXED_NOW)
    jinja = Jinja(monkeypatch)
    for content in (first, second, first, second):
        messages = _messages_with(content)
        assert _outcome(template, messages, True, **options) == _outcome(template, messages, False, **options)
    (state,) = sk.memo_of(source).shapes.values()
    assert state is sk.REAL, what
    # one failed recording (none for autoescape: refused before running), then real renders
    # only (8 with the reuse=False ones): no retrying
    assert jinja.runs == ("autoescape" not in source) + 4 + 4


@pytest.mark.parametrize("what, source, first, second", INSPECTING, ids=[i[0] for i in INSPECTING])
def test_a_naive_splice_would_be_wrong(what, source, first, second):
    """The contents above make each inspection matter: a splice would give a wrong answer."""
    template = ct.ChatTemplate(source=source, origin=what)
    real = _outcome(template, _messages_with(second), False, clock=lambda: FIXED_NOW)
    assert _naive_splice(template, first, second) != real


def test_nondeterministic_templates_are_not_recorded():
    for source in ("{{ lipsum(1) }}{{ messages[0].content }}", "{{ [1, 2, 3]|random }}{{ messages[0].content }}",
                   "{{ ['a', 'b']|map('random')|join }}{{ messages[0].content }}"):
        template = ct.ChatTemplate(source=source, origin="random")
        render_chat_template(template, _messages_with("x"))
        assert list(sk.memo_of(source).shapes.values()) == [sk.REAL], source


# -- what may be copied or transformed: spliced ---------------------------------------------

COPYING = [
    ("+ and ~", "{% for m in messages %}{{ '<' + m.content + '>' ~ m.role ~ m.content }}{% endfor %}"),
    ("|trim", "{% for m in messages %}[{{ m.content|trim }}]{% endfor %}"),
    ("|trim(chars)", "{% for m in messages %}[{{ m.content|trim('x ') }}]{% endfor %}"),
    (".strip/.lstrip/.rstrip", "{% for m in messages %}[{{ m.content.strip() }}|{{ m.content.lstrip() }}|"
     "{{ m.content.rstrip('\n') }}|{{ m.content.strip().strip('x') }}]{% endfor %}"),
    ("map('trim')", "{{ messages|map(attribute='content')|map('trim')|join('/') }}"),
    ("|join", "{{ messages|map(attribute='content')|join('\n--\n') }}|{{ messages|join(', ', attribute='content') }}"),
    ("|default", "{% for m in messages %}{{ m.content|default('D') }}{{ nothing|default(m.content) }}"
     "{{ m.content|d(m.role) }}{% endfor %}"),
    ("str.join", "{{ '\n'.join(messages|map(attribute='content')) }}"),
    ("type tests", "{% for m in messages %}{% if m.content is string and m.content is defined and m.content is not "
     "none and m.content is not mapping %}{{ m.content }}{% endif %}{% endfor %}"),
    ("macro, call block, set block, generation",
     "{% macro wrap(x) %}<{{ x }}>{% endmacro %}{% macro box() %}[{{ caller() }}]{% endmacro %}"
     "{% for m in messages %}{{ wrap(m.content) }}{% call box() %}{{ m.content }}{% endcall %}"
     "{% set y %}{{ m.content }}!{% endset %}{{ y + y }}{% generation %}{{ m.content }}{% endgeneration %}"
     "{% endfor %}"),
    ("namespace, dict", "{% set ns = namespace(all='') %}{% for m in messages %}{% set ns.all = ns.all + m.content %}"
     "{% endfor %}{% set d = dict(last=ns.all) %}{{ d.last }}{{ namespace(x=messages[0].content).x }}"),
    ("loops over messages", "{% for m in messages|reverse %}{{ loop.index }}{{ m.content }}{{ loop.previtem.content "
     "if loop.previtem }}{% endfor %}{{ messages|length }}{{ messages[-1].content }}"),
]


@pytest.mark.parametrize("what, source", COPYING, ids=[c[0] for c in COPYING])
def test_copying_templates_are_spliced(what, source, monkeypatch):
    template = ct.ChatTemplate(source=source, origin=what)
    jinja = Jinja(monkeypatch)
    for offset in range(len(CONTENTS)):
        messages = _with_contents([{"role": "system", "content": ""}, {"role": "user", "content": ""},
                                   {"role": "assistant", "content": ""}], offset)
        assert render_chat_template(template, messages) == render_chat_template(template, messages, reuse=False)
    assert jinja.runs == 2 + len(CONTENTS), what  # one recording and its check, then joins (plus the real renders)


# -- bounds, errors, the clock, other inputs ---------------------------------------------------


def test_a_spliced_output_over_the_bound_fails_as_the_real_render_does():
    template = ct.ChatTemplate(source="{% for m in messages %}{{ m.content }}{{ m.content }}{% endfor %}",
                               origin="big")
    render_chat_template(template, [{"role": "user", "content": "small"}])  # records the shape
    big = [{"role": "user", "content": "x" * (bounds.MAX_TEMPLATE_SIZE // 2 + 1)}]
    fast, real = _outcome(template, big, True), _outcome(template, big, False)
    assert fast == real and "the template's output would make 16,777,218 characters" in real


def test_an_intermediate_value_over_the_bound_fails_as_the_real_render_does():
    source = "{% for m in messages %}{% set twice = m.content + m.content %}{{ m.content }}{% endfor %}"
    template = ct.ChatTemplate(source=source, origin="twice")
    render_chat_template(template, [{"role": "user", "content": "small"}])
    big = [{"role": "user", "content": "x" * (bounds.MAX_TEMPLATE_SIZE // 2 + 1)}]
    fast, real = _outcome(template, big, True), _outcome(template, big, False)
    assert fast == real and "'+' would make" in real


def test_the_reading_budget_fails_as_the_real_render_does():
    # each '+' reads its left side: 120 of them over 3 MiB read 360 MiB, past MAX_SCANNED
    source = "{% for i in range(120) %}{% set x = messages[0].content + '' %}{% endfor %}{{ messages[0].content }}"
    template = ct.ChatTemplate(source=source, origin="reads")
    render_chat_template(template, [{"role": "user", "content": "small"}])
    big = [{"role": "user", "content": "x" * (3 * 1024 * 1024)}]
    fast, real = _outcome(template, big, True), _outcome(template, big, False)
    assert fast == real and "read more than" in real


def test_errors_are_the_real_renders():
    sources = ["{{ raise_exception('refused') }}{{ messages[0].content }}",
               "{% for m in messages %}{{ m.content.__class__ }}{% endfor %}",
               "{{ messages[0].content + 1 }}", "{{ messages[5].content }}{{ undefined_name.x }}",
               "{% for m in messages %}{{ m.content }}{% endfor %}{{ raise_exception('after ' ~ messages|length) }}"]
    for source in sources:
        template = ct.ChatTemplate(source=source, origin="errors")
        for content in ("a", "b"):
            messages = [{"role": "user", "content": content}]
            fast = _outcome(template, messages, True)
            assert fast.startswith("error:") and fast == _outcome(template, messages, False), source


def test_a_recording_that_read_the_date_is_reused_only_while_the_date_reads_the_same(monkeypatch):
    template = TEMPLATES["generation-dated.jinja"]
    now = [FIXED_NOW]
    jinja = Jinja(monkeypatch)
    messages = GOLDENS["messages"]["system-user"]
    for when in (FIXED_NOW, FIXED_NOW, LATER, LATER):
        now[0] = when
        fast = render_chat_template(template, messages, special_tokens=TOKENS, clock=lambda: now[0])
        assert fast == render_chat_template(template, messages, special_tokens=TOKENS, clock=lambda: now[0],
                                            reuse=False)
        assert f"{when:%B} {when:%Y}" in fast
    assert jinja.runs == 2 * 2 + 4  # recorded and checked at each date, then spliced (plus the real renders)
    no_clock = _outcome(template, messages, True, special_tokens=TOKENS)
    assert no_clock == _outcome(template, messages, False, special_tokens=TOKENS)
    assert "no clock" in no_clock


def test_kwargs_special_tokens_and_reasoning_are_part_of_the_shape():
    source = ("{{ bos_token }}{% for m in messages %}{{ m.content }}{{ m.reasoning_content or '' }}{% endfor %}"
              "{{ 'T' if enable_thinking }}")
    template = ct.ChatTemplate(source=source, origin="shape")
    cases = [({"bos_token": "<s>"}, None, None), ({"bos_token": "<S>"}, None, None),
             ({"bos_token": "<s>"}, {"enable_thinking": True}, None), ({"bos_token": "<s>"}, None, "why"),
             ({"bos_token": "<s>"}, None, "other")]
    for tokens, kwargs, reasoning in cases * 2:
        messages = [{"role": "assistant", "content": f"c{reasoning}", "reasoning_content": reasoning}]
        options = dict(special_tokens=tokens, kwargs=kwargs)
        assert render_chat_template(template, messages, **options) == \
            render_chat_template(template, messages, reuse=False, **options)


def test_multimodal_contents_are_rendered_for_real(monkeypatch):
    source = "{% for m in messages %}{{ m.content if m.content is string else m.content[0].text }}{% endfor %}"
    template = ct.ChatTemplate(source=source, origin="parts")
    jinja = Jinja(monkeypatch)
    messages = [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    assert render_chat_template(template, messages) == "hi"
    assert jinja.runs == 1 and not sk.memo_of(source).shapes


def test_a_template_that_always_looks_stops_being_recorded(monkeypatch):
    template = ct.ChatTemplate(source="{% for m in messages %}{{ m.content|length }}{% endfor %}", origin="len")
    jinja = Jinja(monkeypatch)
    for count in range(1, 41):  # a new shape each time
        render_chat_template(template, [{"role": "user", "content": "x"}] * count)
    assert jinja.runs == 40 + sk.TemplateMemo.GIVE_UP  # the first GIVE_UP shapes paid a failed recording


def test_key_order_and_other_fields_are_part_of_the_shape():
    """The usual {"role", "content"} messages take a short key; any other form the long one,
    and a template that lists a message's fields sees them in their order."""
    template = ct.ChatTemplate(source="{% for m in messages %}{% for k, v in m.items() %}{{ k }}={{ v }};"
                                      "{% endfor %}{% endfor %}", origin="items")
    forms = [[{"role": "user", "content": "a"}], [{"content": "a", "role": "user"}],
             [{"role": "user", "content": "a", "name": "n"}], [{"role": "user", "content": "a", "name": None}]]
    for messages in forms * 2:
        assert render_chat_template(template, messages) == render_chat_template(template, messages, reuse=False)
        assert render_chat_template(template, iter(messages)) == render_chat_template(template, messages, reuse=False)
    # four keys: the short one, field order, a name, and the None name dropped (as transformers drops
    # it) but read by the long way: a shape may have two keys, never one key two shapes
    assert len(sk.memo_of(template.source).shapes) == 4


def test_a_outline_whose_first_splice_differs_from_jinja_is_never_used(monkeypatch):
    """The run-time check: the first splice of each shape is compared with the real render; a
    outline that says something else (here: a broken splice) sends the shape to Jinja for good."""
    template = TEMPLATES["builtin:chatml"] if "builtin:chatml" in TEMPLATES else next(iter(TEMPLATES.values()))
    messages = GOLDENS["messages"]["system-user"]
    monkeypatch.setattr(sk.ChatOutline, "splice", lambda self, contents: "not what jinja says")
    for offset in range(3):
        chat = _with_contents(messages, offset)
        assert render_chat_template(template, chat, special_tokens=TOKENS) == \
            render_chat_template(template, chat, special_tokens=TOKENS, reuse=False)
    assert all(s is None for s in sk.memo_of(template.source).shapes.values())
    assert sk.memo_of(template.source).shapes
