"""The JSON export's fast encoders write exactly what ``json.dumps`` and the escape rule write.

The export encodes a request field by field, and a stamp's values escaped at once: each is
checked here against the rule of docs/render-json.md applied independently
(``json.dumps(ensure_ascii=False)``, then every character a terminal would act on and every
lone surrogate written as ``\\uXXXX``), on text built to break it.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.inferencers.truncation import Truncation
from workbench.core.provenance import PStr
from workbench.core.reference import reference_mode
from workbench.core.result import Request, Sample
from workbench.core.templates.prompt_list import PromptList, to_json
from workbench.core.templates.prompt_template import PromptTemplate
from workbench.core.tokens.counting import TokenCount
from workbench.headless.formats import json_encoding, json_export
from workbench.headless.formats.json_encoding import (
    dumps,
    escaped_values,
    request_json,
    request_text,
    sample_text,
)

# the rule as docs/render-json.md states it, written out here rather than taken from the export
_TERMINAL = re.compile("[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff\ud800-\udfff]")


def expected(value) -> str:
    text = json.dumps(value, ensure_ascii=False, default=to_json)
    return _TERMINAL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


HOSTILE = [
    "",
    "plain ascii",
    'say "hi" \\ back\\slash \\n not a newline',
    "controls \x00\x01\x08\x0b\x0c\x0e\x1f tab\t newline\n return\r",
    "ascii but for del \x7f",
    "del \x7f and C1 \x80\x85\x9f, NBSP \xa0",
    "arabic mark \u061c zero width \u200b\u200c\u200d\u200e\u200f",
    "separators \u2028 \u2029",
    "bidi \u202a\u202b\u202c\u202d\u202e isolates \u2066\u2067\u2068\u2069 bom \ufeff",
    "lone surrogates \ud800 \udbff \udc00 \udfff",
    "\ud83d",  # half a pair, at the very end
    "non-BMP 😀 𝔘𝔫𝔦 \U0010ffff",
    "中文 café e\u0301 ÿ",
    "</script><!-- {question} {{answer}} -->",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_dumps_writes_what_json_and_the_escape_rule_write(text):
    for value in (text, PStr(text), [text, {"role": "HUMAN", "prompt": text}],
                  {"k" + text: [text, None, 1, 2.5, True, False]}, (text,)):
        assert dumps(value) == expected(value)
    assert dumps(None) == "null" and dumps(3) == "3" and dumps(False) == "false"


def test_an_encode_that_fails_leaves_the_next_one_clean():
    """A value json cannot encode raises as json would, and does not poison later encodes."""
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference"):
        dumps(loop)
    shared = ["x"]
    assert dumps([shared, shared]) == '[["x"], ["x"]]'  # not taken for a circular reference
    unencodable = [["fine"], object()]  # to_json gives an object back as it is: json refuses it
    with pytest.raises(ValueError):
        dumps(unencodable)
    unencodable.pop()
    assert dumps(unencodable) == '[["fine"]]'  # the list it was in is not marked as still open


def _prepared(rows):
    template = PromptTemplate(
        {"begin": [{"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": HOSTILE[7]}, "</E>"],
         "round": [{"role": "HUMAN", "prompt": "Q: {question} " + HOSTILE[8]},
                   {"role": "HUMAN", "prompt": "Hint: {hint}"}, {"role": "BOT", "prompt": "A: {answer}"}]},
        ice_token="</E>")
    ice = PromptList([{"role": "HUMAN", "prompt": HOSTILE[4]}, {"role": "BOT", "prompt": HOSTILE[10]}])
    # a row without a hint leaves that item as the template has it: shared, not filled
    return [template.generate_item([("{question}", q)] + ([("{hint}", h)] if h is not None else []),
                                   "answer", "", ice) for q, h in rows]


def _requests():
    prompt = _prepared([(HOSTILE[6], "x")])[0]
    tokens = TokenCount(1198, False, "estimate (" + HOSTILE[5] + ")")
    sectioned = TokenCount(12, True, "tokenizer.json", (("instruction", 5), ("examples", 7)))
    truncation = Truncation(max_seq_len=10, retrieved=(0, 1, 2), kept=(0,), steps=((3, 30), (1, 9)),
                            exact=False, method="estimate \u2192 " + HOSTILE[4])
    return [
        Request(prompt, HOSTILE[3] * 40, model_text=HOSTILE[8] * 40, tokens=tokens, truncation=truncation),
        Request(prompt, [{"role": "user", "content": h} for h in HOSTILE], label="B \u202e", turn=2,
                depends_on=(0, 1), tokens=sectioned),
        Request(HOSTILE[2], HOSTILE[2], label=0, extra=(("continuation", HOSTILE[9]),)),
        Request(HOSTILE[4], HOSTILE[4], extra=(("wire", {"url": HOSTILE[7]}), ("after", [1, None]))),
        Request(HOSTILE[4], HOSTILE[4], extra=(("model_text", "an extra in a field's place"), ("z", 1))),
        Request(HOSTILE[4], PStr(HOSTILE[10]), label=PStr("pstr"), tokens=TokenCount(True, 1, HOSTILE[6])),
    ]


def test_a_prepared_fill_encodes_its_template_items_once_and_writes_what_dumps_writes():
    """A fill shares the items its row did not change with its cached template; their JSON is
    kept with the template, and what is written is ``dumps`` of the whole list, every row."""
    rows = [(HOSTILE[6], "x"), (HOSTILE[9], None), ("", HOSTILE[8]), (HOSTILE[11], None)]
    fills = _prepared(rows)
    template = fills[0].filled_from
    assert template is not None and all(f.filled_from is template for f in fills)
    assert any(mine is theirs for mine, theirs in zip(fills[1], template))  # shared items
    for fill in fills:
        assert json_encoding.prompt_list_text(fill) == expected(fill)
    assert template.items_json == [expected(item) for item in list.__iter__(template)]
    loose = PromptList([*fills[0], "one more"])  # not a fill: encoded whole, whatever it claims
    loose.filled_from = template
    assert json_encoding.prompt_list_text(loose) == expected(loose)
    assert json_encoding.prompt_list_text(HOSTILE[7]) == expected(HOSTILE[7])


def test_the_reference_mode_encodes_a_prepared_fill_whole():
    fill = _prepared([(HOSTILE[6], "x")])[0]
    with reference_mode():
        assert json_encoding.prompt_list_text(fill) == expected(fill)
    assert "items_json" not in fill.filled_from.__dict__


def test_a_request_is_what_dumps_of_its_dict_gives():
    """Field order (an extra replacing ``wire`` or another field keeps that field's place),
    every optional field, and hostile text in each of them."""
    for request in _requests():
        assert request_text(request) == expected(request_json(request))


def test_a_sample_and_the_document_are_what_the_general_encoder_gives():
    sample = Sample(3, 7, (0, True), tuple(_requests()))
    text = sample_text(sample, "  ")
    assert json.loads(text) == json.loads(expected({"index": 3, "source_index": 7, "ice_indices": [0, True],
                                                    "requests": [request_json(r) for r in sample.requests]}))
    assert _TERMINAL.search(text) is None


class _CountingOut(io.StringIO):
    writes = 0

    def write(self, text: str) -> int:
        self.writes += 1
        return super().write(text)


def test_the_writer_joins_pieces_into_large_writes(monkeypatch):
    """A large document goes out in a few writes of its joined pieces (a write per piece cost a
    call and an encode each), and is the same text as pieces written one by one."""
    from workbench.core.result import RenderResult

    class Pair:
        dataset_abbr, model_abbr, model_kind, inferencer = "d\u202e", "m", "lm", "GenInferencer"
        dataset = model_spec = None
        notes = type("Notes", (), {"messages": ()})()

        def warnings(self) -> list:
            return []

    samples = [Sample(i, i, (), tuple(_requests()[:2])) for i in range(60)]
    result = RenderResult(config="eval.py", pairs=[Pair()])
    lengths = type("Lengths", (), {"summary": lambda self: {"count": len(samples)}})()
    monkeypatch.setattr(json_export.LengthsCollector, "wrap", lambda self, of: of)
    monkeypatch.setattr(json_export.LengthsCollector, "summary", lambda self, pair: lengths)
    chunked = _CountingOut()
    json_export.write_render_json(result, chunked, lambda pair: iter(samples))
    monkeypatch.setattr(json_export._Chunks, "flush", lambda self: None)
    monkeypatch.setattr(json_export._Chunks, "write", lambda self, text: self.out.write(text))
    monkeypatch.setattr(json_export, "_sample_text", lambda sample: sample_text(sample, json_encoding.SAMPLE_INDENT))
    piecewise = _CountingOut()
    json_export.write_render_json(RenderResult(config="eval.py", pairs=[Pair()]), piecewise,
                                  lambda pair: iter(samples))
    assert chunked.getvalue() == piecewise.getvalue()
    assert len(chunked.getvalue()) > 3 * (1 << 16)
    chunks = len(chunked.getvalue()) // (1 << 16)
    # memory stays flat (a write every 64 KB or so) and the writes are few
    assert chunks // 2 <= chunked.writes <= chunks + 2 < len(samples) < piecewise.writes
    document = json.loads(chunked.getvalue())
    assert len(document["renders"][0]["samples"]) == len(samples)


@pytest.mark.parametrize("truncation", [
    Truncation(4096, (0, 1, 2), (0, 1, 2), ((3, 1200),), False, "estimate"),
    Truncation(10, (0, 1, 2), (0,), ((3, 40), (2, 30), (1, 12)), True, HOSTILE[6], margin=1, inherited=1),
    Truncation(10, (), (), ((0, 50),), True, HOSTILE[7]),
    Truncation(10, (0, True), (0,), ((2, 5),), False, "a bool among the indices"),
    Truncation(10.5, (0,), (0,), ((1, 2.0),), False, "not ints"),
])
def test_a_truncation_is_what_dumps_of_its_dict_gives(truncation):
    assert json_encoding._truncation_text(truncation) == expected(json_encoding._truncation_json(truncation))


@settings(max_examples=500, deadline=None)
@given(values=st.lists(st.lists(st.sampled_from(
    ["a", "\x00", "\n", '"', "\\", "é", "中", "\x7f", "\u2028", "\ud800", "\x1b", " ", "u0000", "\\u0000", "u", "0"]),
    max_size=6).map("".join), max_size=5))
def test_values_escaped_at_once_are_each_as_dumps_writes_it(values):
    """A stamp's values are escaped joined by NULs and cut at the NUL's escape: each must be
    what dumps writes inside a string, NULs, backslashes and '\\\\u0000' in values included."""
    assert escaped_values(values) == [expected(v)[1:-1] for v in values]
