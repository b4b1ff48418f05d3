"""workbench.core.side_by_side: alignment, the character diff, and one minimal pair per class of
difference (each pair differs in that one respect, and only that class is named)."""

from __future__ import annotations

import dataclasses

from workbench.core.side_by_side import KINDS, Side, SideRow, align, char_diff, classify, row_key

QUESTION = "What is 2+2?\nA. 3\nB. 4\nC. 5\nD. 6\nAnswer:"


def _row(final: str = QUESTION, **kw) -> SideRow:
    messages = kw.pop("messages", (("user", final),))
    return SideRow(key=row_key("What is 2+2?"), index=0, final=final, messages=messages, **kw)


def _side(**kw) -> Side:
    base = dict(framework="OpenCompass 0.5.4", config="a.py", dataset="x", request="generation",
                chat_template="chatml", chat_kwargs={"add_generation_prompt": True},
                generation={"max_new_tokens": 512, "stop": ()}, extraction=("first_option",))
    base.update(kw)
    return Side(**base)


def _kinds(left: Side, right: Side, a: SideRow, b: SideRow) -> list[str]:
    return [d.kind for d in classify(left, right, a, b)]


def test_the_same_request_has_no_difference():
    assert classify(_side(), _side(framework="lm-eval 0.4.13"), _row(), _row()) == []


def test_request_continuation_against_generation():
    found = classify(_side(), _side(request="continuation"), _row(), _row())
    assert [d.kind for d in found] == ["request"]
    assert (found[0].left, found[0].right) == ("generation", "continuation")


def test_shots_number():
    found = classify(_side(), _side(), _row(shots=5, shot_source="sampler", shot_ids=(1, 2, 3, 4, 5)), _row())
    assert [d.kind for d in found] == ["shots"]
    assert found[0].left == "5 shots, drawn by the sampler: rows 1, 2, 3, 4, 5"
    assert found[0].right == "0 shots"


def test_shots_choice_same_number_other_rows():
    a = _row(shots=2, shot_source="retriever", shot_ids=(0, 1))
    b = _row(shots=2, shot_source="retriever", shot_ids=(3, 1))
    assert _kinds(_side(), _side(), a, b) == ["shots"]
    # shots written in a template have no rows to compare
    c = dataclasses.replace(a, shot_source="template", shot_ids=())
    assert _kinds(_side(), _side(), c, dataclasses.replace(c, shot_source="template")) == []


def test_system_prompt():
    a = _row(messages=(("system", "Be brief."), ("user", QUESTION)))
    found = classify(_side(), _side(), a, _row())
    assert [d.kind for d in found] == ["system"]
    assert found[0].left == "'Be brief.'" and found[0].right == "none"


def test_chat_template_applied_or_not_and_its_kwargs():
    plain = _side(chat_template=None, chat_kwargs={})
    assert _kinds(_side(), plain, _row(), _row(messages=None)) == ["chat_template"]
    assert _kinds(_side(), _side(chat_template="llama3"), _row(), _row()) == ["chat_template"]
    other = _side(chat_kwargs={"add_generation_prompt": True, "enable_thinking": False})
    found = classify(_side(), other, _row(), _row())
    assert [d.kind for d in found] == ["chat_template"]
    assert "enable_thinking=False" in found[0].right


def test_choice_formatting():
    b = _row(QUESTION.replace("A. ", "A) ").replace("B. ", "B) ").replace("C. ", "C) ").replace("D. ", "D) "))
    found = classify(_side(), _side(), _row(), b)
    assert [d.kind for d in found] == ["choices"]
    assert (found[0].left, found[0].right) == ("labelled X. ", "labelled X) ")


def test_choice_formatting_of_scored_continuations():
    a, b = _row(continuations=(" A", " B")), _row(continuations=(" 3", " 4"))
    cont = _side(request="continuation")
    assert _kinds(cont, cont, a, b) == ["choices"]
    # a leading space alone (a chat template's loss) is not another choice: it is whitespace
    assert _kinds(cont, cont, a, _row(continuations=("A", "B"))) == ["delimiters"]


def test_delimiters_and_whitespace():
    b = _row(QUESTION.replace("\nAnswer:", "\n\nAnswer: "))
    found = classify(_side(), _side(), _row(), b)
    assert [d.kind for d in found] == ["delimiters"]
    assert (found[0].left, found[0].right) == ("'', ''", "'\\n', ' '")


def test_wording():
    b = _row("Answer the following question.\n\n" + QUESTION)
    found = classify(_side(), _side(), _row(), b)
    assert [d.kind for d in found] == ["wording"]
    assert "Answer the following question" in found[0].why


def test_generation_settings_only_between_generations():
    found = classify(_side(), _side(generation={"max_new_tokens": 256, "stop": ("Question:",)}), _row(), _row())
    assert [d.kind for d in found] == ["generation"]
    assert "max_new_tokens 512" in found[0].left and "'Question:'" in found[0].right
    cont = _side(request="continuation", generation={})
    assert _kinds(_side(), cont, _row(), _row()) == ["request"]


def test_answer_extraction():
    found = classify(_side(), _side(extraction=("regex '#### (\\-?[0-9.,]+)'", "take_first")), _row(), _row())
    assert [d.kind for d in found] == ["extraction"]
    assert found[0].left == "first_option"


def test_kinds_are_reported_in_order():
    a = _row(shots=1, shot_source="sampler", shot_ids=(0,))
    b = _row("Q:\n" + QUESTION, messages=(("system", "s"), ("user", "Q:\n" + QUESTION)))
    got = _kinds(_side(), _side(request="continuation", extraction=()), a, b)
    assert got == [k for k in KINDS if k in got] == ["request", "shots", "system", "wording", "extraction"]


def test_align_by_key_in_first_sides_order_then_the_rest():
    def rows(*keys):
        return tuple(SideRow(key=row_key(k), index=i, final=k) for i, k in enumerate(keys))

    a = _side(rows=rows("one", "two  words", "one"))
    b = _side(rows=rows("two words", "three", "one"))
    lined = align([a, b])
    assert [k for k, _ in lined] == ["one", "two words", "one", "three"]
    assert [[c.index if c else None for c in cells] for _, cells in lined] == [[0, 2], [1, 0], [2, None], [None, 1]]


def test_char_diff_runs_rebuild_both_texts():
    a, b = "Question: 1+1\nAnswer:", "Q: 1+1\n\nAnswer: "
    runs = char_diff(a, b)
    assert "".join(t for op, t in runs if op != "+") == a
    assert "".join(t for op, t in runs if op != "-") == b
    assert ("-", "uestion") in runs


def test_char_diff_of_long_blocks_goes_by_line():
    a, b = "x" * 5000 + "\n", "y" * 5000 + "\n"
    assert char_diff(a, b) == [("-", a), ("+", b)]


def test_char_diff_of_unlike_blocks_goes_by_line():
    a, b = "Question: Angelo and Melanie plan\nx\n", "Question: Tom buys apples\nx\n"
    assert char_diff(a, b)[:2] == [("-", "Question: Angelo and Melanie plan\n"), ("+", "Question: Tom buys apples\n")]


def test_choices_listed_on_one_side_only_are_choice_formatting_not_wording():
    listed = _row("Which gas?\nA. oxygen\nB. carbon dioxide\nAnswer:")
    scored = _row("Which gas?\nAnswer:", continuations=(" oxygen", " carbon dioxide"))
    found = classify(_side(), _side(request="continuation"), listed, scored)
    assert [d.kind for d in found] == ["request", "choices"]
    assert found[1].right == "no labelled choices in the prompt"


def test_other_choice_text_under_the_same_labels_is_wording():
    b = _row(QUESTION.replace("B. 4", "B. four"))
    assert _kinds(_side(), _side(), _row(), b) == ["wording"]


def test_final_inputs_that_differ_outside_the_turn_never_read_as_the_same():
    turn = (("user", "Q: 1?"), ("assistant", "1"), ("user", QUESTION))
    a = _row("<s>Q: 1?\n1\n" + QUESTION, shots=1, shot_source="template", messages=turn)
    b = _row("<s>Q: 2?\n2\n" + QUESTION, shots=1, shot_source="template",
             messages=(("user", "Q: 2?"), ("assistant", "2"), ("user", QUESTION)))
    found = classify(_side(), _side(), a, b)
    assert [d.kind for d in found] == ["wording"] and "outside the row's own turn" in found[0].why


def test_a_lost_leading_space_in_the_continuations_is_whitespace():
    cont = _side(request="continuation")
    found = classify(cont, cont, _row(continuations=(" A", " B")), _row(continuations=("A", "B")))
    assert [d.kind for d in found] == ["delimiters"]
    assert (found[0].left, found[0].right) == ("' A', ' B'", "'A', 'B'")
