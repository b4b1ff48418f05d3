"""lm-eval 0.4.13's prompt rules that decide bytes, one test each (docs/lm-eval.md lists them;
the parity goldens check them all against lm-eval itself)."""

from __future__ import annotations

import random

import pytest

from workbench.core.errors import RenderError
from workbench.core.lmeval.chat import ChatPath
from workbench.core.lmeval.prompt import Options, build_samples, maybe_delimit, shot_count
from workbench.core.lmeval.sampler import Sampler
from workbench.core.tokens.chat_template import ChatTemplate

CHATML = ChatTemplate("{% for m in messages %}<|{{ m.role }}|>{{ m.content }}<|end|>{% endfor %}"
                      "{% if add_generation_prompt %}<|assistant|>{% endif %}", origin="test")


def _entry(i: int) -> dict:
    return {"doc": {"q": f"q{i}", "a": f"a{i}"}, "text": f"Q{i}?", "target": f"A{i}",
            "choices": [f"A{i}", "B"]}


def _task(**over) -> dict:
    docs = [_entry(i) for i in range(3)]
    task = {"name": "t", "output_type": "generate_until", "target_delimiter": " ",
            "fewshot_delimiter": "\n\n", "num_fewshot": None, "test_split": "test",
            "fewshot": {"sampler": "first_n", "split": "train", "target_delimiter": " ",
                        "fewshot_delimiter": "\n\n"},
            "until": ["\n\n"], "docs": docs, "pool": [_entry(i) for i in range(10, 14)]}
    task.update(over)
    return task


def _inputs(task: dict, **options) -> list[str]:
    return [s.requests[0].model_input for s in build_samples(task, Options(**options))]


def test_the_description_is_glued_to_the_first_shot_with_no_separator():
    [first, *_] = _inputs(_task(docs=[{**_entry(0), "description": "Answer these."}]), num_fewshot=1)
    assert first == "Answer these.Q10? A10\n\nQ0?"


def test_the_system_instruction_joins_the_description_with_the_fewshot_delimiter():
    assert maybe_delimit("Be brief.", "Answer these.", "\n\n") == "Be brief.\n\nAnswer these."
    assert maybe_delimit("Be brief.\n", "Answer these.", "\n\n") == "Be brief.\nAnswer these."
    [first, *_] = _inputs(_task(docs=[{**_entry(0), "description": "D"}]), system_instruction="S")
    assert first == "S\n\nDQ0?"


def test_the_sampler_draws_one_more_and_drops_the_doc_when_the_fewshot_split_is_the_test_split():
    pool = [{"i": i} for i in range(6)]
    drawn = Sampler("default", pool, 1234).draw(2, pool[0])
    expected = [p for p in random.Random(1234).sample(range(6), 3) if p != 0][:2]
    assert drawn == expected
    # both unset (fewshot split None, test_split None) counts as the same split
    task = _task(test_split=None, fewshot={**_task()["fewshot"], "sampler": "default", "split": None},
                 pool=_task()["docs"])
    for sample in build_samples(task, Options(num_fewshot=2)):
        assert sample.index not in sample.shots


def test_a_different_split_can_draw_the_doc_itself():
    pool = [{"i": i} for i in range(3)]
    assert sorted(Sampler("default", pool, 1234).draw(3, None)) == [0, 1, 2]


def test_a_yaml_num_fewshot_of_zero_wins_over_the_command_line():
    assert shot_count({"num_fewshot": 0}, Options(num_fewshot=5)) == 0
    assert shot_count({"num_fewshot": 2}, Options(num_fewshot=5)) == 5
    assert shot_count({"num_fewshot": 2}, Options()) == 2
    assert shot_count({"num_fewshot": None}, Options()) == 0


def test_too_many_shots_is_the_error_lm_eval_raises():
    with pytest.raises(RenderError, match="lm-eval raises"):
        list(build_samples(_task(), Options(num_fewshot=9)))


def test_a_continuation_loses_its_leading_space_under_a_chat_template():
    mc = _task(output_type="multiple_choice", has_choice=True)
    plain = next(build_samples(mc, Options()))
    chat = next(build_samples(mc, Options(chat=ChatPath(CHATML))))
    assert [r.continuation for r in plain.requests] == [" A0", " B"]
    assert [r.continuation for r in chat.requests] == ["A0", "B"]
    # a gen_prefix without trailing whitespace keeps the delimiter
    prefixed = next(build_samples({**mc, "gen_prefix_config": "Answer:"}, Options(chat=ChatPath(CHATML))))
    assert prefixed.requests[0].continuation == " A0"


def test_without_multiturn_the_shots_fold_into_one_user_message():
    chat = ChatPath(CHATML)
    [multi, *_] = _inputs(_task(), num_fewshot=1, chat=chat, fewshot_as_multiturn=True)
    [single, *_] = _inputs(_task(), num_fewshot=1, chat=chat)
    assert multi == "<|user|>Q10?<|end|><|assistant|>A10<|end|><|user|>Q0?<|end|><|assistant|>"
    assert single == "<|user|>Q10? A10\n\nQ0?<|end|><|assistant|>"


def test_a_template_refusing_system_is_retried_without_it():
    refuses = ChatTemplate("{% for m in messages %}{% if m.role == 'system' %}"
                           "{{ raise_exception('no system') }}{% endif %}[{{ m.content }}]{% endfor %}",
                           origin="test")
    chat = ChatPath(refuses)
    [first, *_] = _inputs(_task(), system_instruction="S", chat=chat)
    assert first == "[Q0?]"
    assert chat.retried == 3


def _choices_task(choices, target=0) -> dict:
    docs = [{**_entry(i), "choices": choices, "target": target} for i in range(2)]
    pool = [{**_entry(i), "choices": choices, "target": target} for i in range(10, 12)]
    return _task(output_type="multiple_choice", has_choice=True, docs=docs, pool=pool)


def test_choices_that_are_no_list_are_gone_over_as_lm_eval_goes_over_them():
    """lm-eval logs "doc_to_choice must return list" and goes on: a string's characters and a
    dict's keys are the choices, and a shot's int target indexes what it got."""
    [sample, _] = build_samples(_choices_task("xyz"), Options(num_fewshot=1))
    assert [r.continuation for r in sample.requests] == [" x", " y", " z"]
    assert sample.requests[0].model_input == "Q10? x\n\nQ0?"
    [sample, _] = build_samples(_choices_task({"p": "1", "q": "2"}), Options(num_fewshot=0))
    assert [r.continuation for r in sample.requests] == [" p", " q"]
    with pytest.raises(RenderError, match=r"not a key of the choices.*KeyError"):
        list(build_samples(_choices_task({"p": "1"}), Options(num_fewshot=1)))
    with pytest.raises(RenderError, match="cannot go over: it raises TypeError"):
        list(build_samples(_choices_task(7), Options(num_fewshot=0)))


def test_a_boolean_target_indexes_the_choices_as_an_int():
    [sample, _] = build_samples(_choices_task(["no", "yes"], target=True), Options(num_fewshot=1))
    assert sample.requests[0].model_input == "Q10? yes\n\nQ0?"
