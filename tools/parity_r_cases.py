"""Dev-only: the ``r_*`` parity cases - RawPromptTemplate, every other inferencer the
shipped configs use, and the template/dataset quirks met in them (issue 9).

Imported by ``tools/make_parity_cases.py`` (run it with the framework venv)::

    $FWENV/bin/python tools/make_parity_cases.py --only r_raw_basic ...

Same conventions as ``tools/parity_x_cases.py``: a case is (case_id, framework, doc,
datasets, rows[, extra models]); every case renders against its framework's five model
kinds plus the extra models it names.
"""

from __future__ import annotations

from typing import Any

from parity_x_cases import dialogue, ds, oc_classes, qa_reader, qa_rows, qa_split

# --------------------------------------------------------------------------
# models beyond the five
# --------------------------------------------------------------------------

RAW_EXTRA_MODELS = """
# ---- API models with a list meta template, and without one ------------------
models += [
    dict(abbr='openai-list-meta', type=OpenAI, path='gpt-4o-mini', key='EMPTY',
         meta_template=[dict(role='system', content='META SYSTEM. '), dict(role='user', content='>> ')],
         max_out_len=64, batch_size=1),
    dict(abbr='openai-list-meta-late', type=OpenAI, path='gpt-4o-mini', key='EMPTY',
         meta_template=[dict(role='user', content='[u] '), dict(role='assistant', content='[a] '),
                        dict(role='system', content='[late system]')],
         max_out_len=64, batch_size=1),
    dict(abbr='openai-no-meta', type=OpenAI, path='gpt-4o-mini', key='EMPTY',
         max_out_len=64, batch_size=1),
    dict(abbr='hf-list-meta', type=HuggingFaceCausalLM, path='/nonexistent/parity/list-meta',
         meta_template=[dict(role='system', content='S')], max_out_len=64, batch_size=1),
]
"""

SEQ_LEN_MODELS = """
# ---- OpenICLAttackTask reads the model's max_seq_len -------------------------
models += [
    dict(abbr='internlm-chat-style-seq', type=HuggingFaceCausalLM,
         path='/nonexistent/parity/internlm-chat', meta_template=_internlm_chat_meta,
         max_out_len=64, max_seq_len=100000, batch_size=1),
    dict(abbr='openai-api-seq', type=OpenAI, path='gpt-4o-mini', key='EMPTY',
         meta_template=_api_meta, max_out_len=64, max_seq_len=100000, batch_size=1),
]
"""


def raw_classes() -> dict:
    from opencompass.openicl.icl_raw_prompt_template import RawPromptTemplate

    return dict(oc_classes(), Raw=RawPromptTemplate)


def msg(role: str, content: str) -> dict:
    return {"role": role, "content": content}


def raw_infer(messages: list, *, ice: list | None = None, retriever: dict | None = None,
              inferencer: dict | None = None, **template: Any) -> dict:
    c = raw_classes()
    out: dict[str, Any] = {}
    if ice is not None:
        out["ice_template"] = dict(type=c["Raw"], messages=ice)
    out["prompt_template"] = dict(type=c["Raw"], messages=messages, **template)
    out["retriever"] = retriever or dict(type=c["Zero"])
    out["inferencer"] = inferencer or dict(type=c["Gen"])
    return out


# --------------------------------------------------------------------------
# RawPromptTemplate
# --------------------------------------------------------------------------


def raw_cases() -> list[tuple]:
    c = raw_classes()
    FixK, PT = c["FixK"], c["PT"]
    out = []
    dsets = [
        ds("raw_user_only", qa_reader(), raw_infer([msg("user", "{question}")])),
        ds(
            "raw_system_user_assistant",
            qa_reader(),
            raw_infer([msg("system", "Answer briefly."), msg("user", "Q: {question}"), msg("assistant", "")]),
        ),
        # the output column is not masked: {answer} is the test row's own answer
        ds("raw_output_not_masked", qa_reader(), raw_infer([msg("user", "{question} (gold: {answer})")])),
        ds(
            "raw_format_variables_false",
            qa_reader(),
            raw_infer([msg("user", "{question} stays as written")], format_variables=False),
        ),
        ds("raw_unknown_placeholder", qa_reader(), raw_infer([msg("user", "{question} {nothing}")])),
        ds(
            "raw_ice_fixk",
            qa_reader(),
            raw_infer(
                [msg("system", "Few-shot."), "</E>", "a stray string", msg("user", "Q: {question}")],
                ice=[msg("user", "Q: {question}"), msg("assistant", "{answer}")],
                retriever=dict(type=FixK, fix_id_list=[1, 0, 2]),
            ),
        ),
        ds(
            "raw_ice_custom_token",
            qa_reader(),
            raw_infer(
                ["</E>", msg("user", "Q: {question}"), "<ICE>"],
                ice=[msg("user", "{question}"), "</E>", msg("assistant", "{answer}")],
                retriever=dict(type=FixK, fix_id_list=[0]),
                ice_token="<ICE>",
            ),
        ),
        ds(
            "raw_ice_only_zero",
            qa_reader(),
            dict(
                ice_template=dict(type=c["Raw"], messages=["</E>", msg("user", "{question}")]),
                retriever=dict(type=c["Zero"]),
                inferencer=dict(type=c["Gen"]),
            ),
        ),
        ds(
            "raw_ice_string_examples",
            qa_reader(),
            dict(
                ice_template=dict(type=PT, template="{question}={answer}"),
                prompt_template=dict(type=c["Raw"], messages=["</E>", msg("user", "{question}")]),
                retriever=dict(type=FixK, fix_id_list=[0, 1]),
                inferencer=dict(type=c["Gen"]),
            ),
        ),
        ds(
            "raw_gen_field_replace_token",
            qa_reader(),
            raw_infer([msg("user", "{question} [{answer}]")],
                      inferencer=dict(type=c["Gen"], gen_field_replace_token="<ANS>")),
        ),
    ]
    out.append(
        (
            "r_raw_basic",
            "oc",
            "OpenCompass RawPromptTemplate: filling, format_variables, the ICE placeholder, and API "
            "models with dict / list / no meta templates",
            dsets,
            qa_split(4, 3),
            RAW_EXTRA_MODELS,
        )
    )

    def history(i: int, tag: str) -> list:
        return [msg("user", f"{tag}{i} first {{question}}"), msg("assistant", f"{tag}{i} reply"),
                msg("user", f"{tag}{i} second")]

    def rows(n: int, tag: str) -> list:
        base = qa_rows(n, tag)
        for i, r in enumerate(base):
            r["history"] = history(i, tag)
            r["note"] = f"{tag}note {i}"
        return base

    reader = dict(input_columns=["question", "history", "note"], output_column="answer")
    dsets = [
        ds("expand_then_user", reader,
           raw_infer([msg("system", "sys {note}"), {"expand_column": "history"}, msg("user", "{question}")])),
        ds("expand_no_format", reader,
           raw_infer([{"expand_column": "history"}, msg("user", "{question}")], format_variables=False)),
        ds("expand_not_a_list", reader, raw_infer([{"expand_column": "note"}, msg("user", "{question}")])),
        ds("expand_missing_column", reader,
           raw_infer([{"expand_column": "absent"}, msg("user", "{question}")])),
        ds(
            "expand_in_examples",
            reader,
            raw_infer(
                ["</E>", {"expand_column": "history"}, msg("user", "{question}")],
                ice=[{"expand_column": "history"}, msg("assistant", "{answer}")],
                retriever=dict(type=FixK, fix_id_list=[1, 0]),
            ),
        ),
    ]
    out.append(
        (
            "r_raw_expand",
            "oc",
            "OpenCompass RawPromptTemplate expand_column: a copy of the row's list of messages, unfilled",
            dsets,
            {"train": rows(3, "t"), "test": rows(2, "")},
        )
    )

    def dialogue_rows(n: int, tag: str) -> list:
        out_rows = []
        for i in range(n):
            out_rows.append({
                "question": f"{tag}q{i}",
                "answer": f"{tag}a{i}",
                "dialogue": [msg("user", f"{tag}turn one {i}"), msg("assistant", ""),
                             msg("user", f"{tag}turn two {i}"), msg("assistant", "")],
                "gold_dialogue": [msg("user", f"{tag}u {i}"), msg("assistant", f"{tag}gold {i}"),
                                  msg("user", f"{tag}u2 {i}"), msg("assistant", "")],
                "answered": [msg("user", f"{tag}done {i}"), msg("assistant", f"{tag}yes {i}")],
            })
        return out_rows

    reader = dict(input_columns=["dialogue", "gold_dialogue", "answered", "question"], output_column="answer")
    multi = dict(type=c["Gen"], multiround=True)
    dsets = [
        ds("multiround_empty_turns", reader,
           raw_infer([msg("system", "sys"), {"expand_column": "dialogue"}], inferencer=multi,
                     format_variables=False)),
        ds("multiround_gold_between", reader,
           raw_infer([{"expand_column": "gold_dialogue"}], inferencer=multi)),
        ds("multiround_nothing_to_answer", reader,
           raw_infer([{"expand_column": "answered"}], inferencer=multi)),
        ds("multiround_template_turns", reader,
           raw_infer([msg("user", "{question}"), msg("assistant", ""), msg("user", "again"),
                      msg("assistant", "")], inferencer=multi)),
        ds(
            "multiround_prompt_template",
            reader,
            dict(
                prompt_template=dict(type=PT, template=dialogue("{question}", "{answer}")),
                retriever=dict(type=c["Zero"]),
                inferencer=multi,
            ),
        ),
        ds("not_multiround_empty_turns", reader, raw_infer([{"expand_column": "dialogue"}])),
    ]
    out.append(
        (
            "r_raw_multiround",
            "oc",
            "OpenCompass GenInferencer(multiround=True): each empty assistant message of raw "
            "messages answered in turn",
            dsets,
            {"train": dialogue_rows(2, "t"), "test": dialogue_rows(2, "")},
            RAW_EXTRA_MODELS,
        )
    )

    dsets = [
        ds("raw_messages_not_a_list", qa_reader(), raw_infer("{question}")),  # type: ignore[arg-type]
        ds("raw_bad_role", qa_reader(), raw_infer([dict(role="HUMAN", content="{question}")])),
        ds("raw_missing_content", qa_reader(), raw_infer([dict(role="user", prompt="{question}")])),
        ds("raw_unknown_argument", qa_reader(),
           dict(prompt_template=dict(type=c["Raw"], template="{question}"),
                retriever=dict(type=c["Zero"]), inferencer=dict(type=c["Gen"]))),
        ds("raw_examples_without_ice_template", qa_reader(),
           raw_infer(["</E>", msg("user", "{question}")], retriever=dict(type=FixK, fix_id_list=[0]))),
        ds("raw_ppl_no_labels", qa_reader(),
           raw_infer([msg("user", "{question}")], inferencer=dict(type=c["PPL"]))),
        ds("raw_ppl_labels_given", qa_reader(),
           raw_infer([msg("user", "{question}")], inferencer=dict(type=c["PPL"], labels=["a", "b"]))),
    ]
    out.append(
        (
            "r_raw_refusals",
            "oc",
            "OpenCompass RawPromptTemplate configs the framework refuses",
            dsets,
            qa_split(2, 2),
        )
    )
    return out


# --------------------------------------------------------------------------
# inferencers
# --------------------------------------------------------------------------


def inferencer_cases() -> list[tuple]:
    from opencompass.datasets import Game24PromptWrapper
    from opencompass.openicl.icl_evaluator import AccEvaluator
    from opencompass.openicl.icl_inferencer import (
        AgentInferencer,
        AttackInferencer,
        InferencePPLOnlyInferencer,
        MinKPercentInferencer,
        PPLOnlyInferencer,
        SCInferencer,
        SWCELossInferencer,
        ToTInferencer,
    )

    c = dict(oc_classes(), Acc=AccEvaluator)
    PT, Zero, FixK = c["PT"], c["Zero"], c["FixK"]
    out = []
    sys_begin = [dict(role="SYSTEM", fallback_role="HUMAN", prompt="Score this.")]
    no_out = dict(input_columns=["question"], output_column=None)

    def scoring(kind: type, tag: str) -> list[dict]:
        return [
            ds(f"{tag}_string", no_out,
               dict(prompt_template=dict(type=PT, template="Text: {question}\n{answer}"),
                    retriever=dict(type=Zero), inferencer=dict(type=kind))),
            ds(f"{tag}_dialogue", no_out,
               dict(prompt_template=dict(type=PT,
                                         template=dialogue("{question}", "{answer}", begin=sys_begin)),
                    retriever=dict(type=Zero), inferencer=dict(type=kind))),
            ds(f"{tag}_examples", no_out,
               dict(ice_template=dict(type=PT, template="{question}: {answer}"),
                    prompt_template=dict(type=PT, template="</E>{question}:", ice_token="</E>"),
                    retriever=dict(type=FixK, fix_id_list=[1, 0]), inferencer=dict(type=kind))),
            ds(f"{tag}_output_column_set", qa_reader(),
               dict(prompt_template=dict(type=PT, template="{question}"),
                    retriever=dict(type=Zero), inferencer=dict(type=kind))),
        ]

    out.append(("r_inf_ppl_only", "oc", "OpenCompass PPLOnlyInferencer",
                scoring(PPLOnlyInferencer, "pplonly"),
                qa_split(3, 2)))
    out.append(("r_inf_mink_percent", "oc", "OpenCompass MinKPercentInferencer",
                scoring(MinKPercentInferencer, "mink"), qa_split(3, 2)))

    lab_rows = qa_split(3, 2)
    for split in lab_rows.values():
        for i, r in enumerate(split):
            r["label"] = [[0, 3 + i, 1]]
    dsets = scoring(InferencePPLOnlyInferencer, "infppl")
    out.append(("r_inf_inference_ppl_only", "oc",
                "OpenCompass InferencePPLOnlyInferencer: get_ppl_tokenwise with each row's label spans",
                dsets, lab_rows))

    content_reader = dict(input_columns=["content"], output_column=None)
    sw_rows = {"train": [{"content": f"train text {i}"} for i in range(2)],
               "test": [{"content": "first row's text\nwith {braces} and café"}, {"content": "second"},
                        {"content": ""}]}
    dsets = [
        ds("swce_string", content_reader,
           dict(prompt_template=dict(type=PT, template="{content}"), retriever=dict(type=Zero),
                inferencer=dict(type=SWCELossInferencer, block_size=16, stride=4))),
        ds("swce_prefixed", content_reader,
           dict(prompt_template=dict(type=PT, template="Doc: {content}\n"), retriever=dict(type=Zero),
                inferencer=dict(type=SWCELossInferencer))),
        ds("swce_dialogue", content_reader,
           dict(prompt_template=dict(type=PT, template=dialogue("{content}")), retriever=dict(type=Zero),
                inferencer=dict(type=SWCELossInferencer))),
        ds("swce_output_column_set", dict(input_columns=["content"], output_column="content"),
           dict(prompt_template=dict(type=PT, template="{content}"), retriever=dict(type=Zero),
                inferencer=dict(type=SWCELossInferencer))),
    ]
    out.append(("r_inf_swce_loss", "oc",
                "OpenCompass SWCELossInferencer: each row's prompt as the tokenizer encodes it",
                dsets, sw_rows))

    dsets = [
        ds("sc_string", qa_reader(),
           dict(prompt_template=dict(type=PT, template="Q: {question}\nA:"), retriever=dict(type=Zero),
                inferencer=dict(type=SCInferencer, sc_size=3, max_out_len=16))),
        ds("sc_dialogue_examples", qa_reader(),
           dict(ice_template=dict(type=PT, template=dialogue("{question}", "{answer}")),
                prompt_template=dict(type=PT, template=dialogue("{question}", "{answer}", begin=["</E>"]),
                                     ice_token="</E>"),
                retriever=dict(type=FixK, fix_id_list=[0, 1]),
                inferencer=dict(type=SCInferencer, sc_size=2, gen_field_replace_token="<?>",
                                max_out_len=16))),
        ds("sc_default_size", qa_reader(),
           dict(prompt_template=dict(type=PT, template="{question}"), retriever=dict(type=Zero),
                inferencer=dict(type=SCInferencer, max_out_len=16))),
    ]
    out.append(("r_inf_sc", "oc", "OpenCompass SCInferencer: sc_size draws of the same prompt", dsets,
                qa_split(3, 2)))

    tot_reader = dict(input_columns=["input"], output_column="output")
    tot_rows = {"train": [{"input": "1 2 3 4", "output": "(1+2+3)*4"}],
                "test": [{"input": "4 5 6 10", "output": "(5+5)*..."}, {"input": "1 1 4 6", "output": "x"}]}
    dsets = [
        ds("tot_game24_string", tot_reader,
           dict(prompt_template=dict(type=PT, template="{input}"), retriever=dict(type=Zero),
                inferencer=dict(type=ToTInferencer, method_generate="propose", method_evaluate="value",
                                method_select="greedy", n_evaluate_sample=3, n_select_sample=5,
                                prompt_wrapper=dict(type=Game24PromptWrapper), max_out_len=16))),
        ds("tot_game24_dialogue", tot_reader,
           dict(prompt_template=dict(type=PT, template=dialogue("Numbers: {input}")),
                retriever=dict(type=Zero),
                inferencer=dict(type=ToTInferencer, prompt_wrapper=dict(type=Game24PromptWrapper),
                                max_out_len=16))),
    ]
    out.append(("r_inf_tot", "oc",
                "OpenCompass ToTInferencer: the problem prompt each tree search starts from", dsets,
                tot_rows))

    adv_reader = dict(input_columns=["question"], output_column="answer")
    prompts = ["Answer the question.", "Reply with one word: {question}"]
    dsets = [
        ds("attack_dialogue", adv_reader,
           dict(prompt_template=dict(type=PT, template=dialogue("{adv_prompt}\nQ: {question}\nA:")),
                retriever=dict(type=Zero),
                inferencer=dict(type=AttackInferencer, original_prompt_list=prompts, adv_key="adv_prompt")),
           eval_cfg=dict(evaluator=dict(type=c["Acc"]))),
        ds("attack_string_examples", adv_reader,
           dict(ice_template=dict(type=PT, template="{question} -> {answer}"),
                prompt_template=dict(type=PT, template="</E>{adv_prompt} {question} ->", ice_token="</E>"),
                retriever=dict(type=FixK, fix_id_list=[1]),
                inferencer=dict(type=AttackInferencer, original_prompt_list=prompts, adv_key="adv_prompt",
                                max_out_len=8)),
           eval_cfg=dict(evaluator=dict(type=c["Acc"]))),
        ds("attack_key_is_a_column", adv_reader,
           dict(prompt_template=dict(type=PT, template="[{question}] {answer}"),
                retriever=dict(type=Zero),
                inferencer=dict(type=AttackInferencer, original_prompt_list=prompts, adv_key="question")),
           eval_cfg=dict(evaluator=dict(type=c["Acc"]))),
    ]
    out.append(("r_inf_attack", "oc",
                "OpenCompass AttackInferencer as OpenICLAttackTask drives it: prompt selection over "
                "original_prompt_list", dsets, qa_split(3, 2), SEQ_LEN_MODELS))

    dsets = [
        ds("agent_plain_models", qa_reader(),
           dict(prompt_template=dict(type=PT, template=dialogue("{question}", "{answer}")),
                retriever=dict(type=Zero), inferencer=dict(type=AgentInferencer))),
    ]
    out.append(("r_inf_agent", "oc", "OpenCompass AgentInferencer with models that are not agents", dsets,
                qa_split(2, 2)))
    return out


def ais_inferencer_cases() -> list[tuple]:
    from ais_bench.benchmark.openicl.icl_inferencer import BFCLV3FunctionCallInferencer
    from ais_bench.benchmark.openicl.icl_inferencer.icl_lmm_gen_inferencer import LMMGenInferencer
    from parity_x_cases import ais_classes

    c = ais_classes()
    PT, MM, Zero, FixK = c["PT"], c["MM"], c["Zero"], c["FixK"]
    T, IMG, TAG = "<AIS_TEXT_START>", "<AIS_IMAGE_START>", "<AIS_CONTENT_TAG>"
    rows = [{"question": f"q{i} {{answer}}", "answer": f"a{i}",
             "content": f"{T}describe {i}{TAG}{IMG}/img/{i}.png{TAG}"} for i in range(3)]
    mm = {"text": {"type": "text", "text": "{question}"},
          "image": {"type": "image_url", "image_url": {"url": "file://{image}"}}}
    dsets = [
        ds("lmm_gen_string", qa_reader(),
           dict(prompt_template=dict(type=PT, template="Edit: {question}"), retriever=dict(type=Zero),
                inferencer=dict(type=LMMGenInferencer))),
        ds("lmm_gen_dialogue_examples", qa_reader(),
           dict(ice_template=dict(type=PT, template=dialogue("{question}", "{answer}")),
                prompt_template=dict(type=PT, template=dialogue("{question}", "{answer}", begin=["</E>"]),
                                     ice_token="</E>"),
                retriever=dict(type=FixK, fix_id_list=[1, 0]), inferencer=dict(type=LMMGenInferencer))),
        ds("lmm_gen_multimodal", qa_reader(),
           dict(prompt_template=dict(type=MM, template=dict(round=[dict(role="HUMAN", prompt_mm=mm)])),
                retriever=dict(type=Zero), inferencer=dict(type=LMMGenInferencer))),
    ]
    out = [("r_ais_lmm_gen", "ais", "AISBench LMMGenInferencer (GenInferencer's requests, LMMOutput)",
            dsets, rows)]

    bfcl_reader = dict(input_columns=["id", "question", "function"], output_column="ground_truth")
    bfcl_rows = [{"id": f"simple_{i}", "question": '[[{"role": "user", "content": "call f"}]]',
                  "function": '[{"name": "f", "description": "d", "parameters": {}}]',
                  "ground_truth": "[]"} for i in range(2)]
    dsets = [
        ds("bfcl_simple", bfcl_reader,
           dict(prompt_template=dict(type=PT, template="{question}"), retriever=dict(type=Zero),
                inferencer=dict(type=BFCLV3FunctionCallInferencer))),
    ]
    out.append(("r_ais_bfcl", "ais",
                "AISBench BFCLV3FunctionCallInferencer: API models only, prompts from the bfcl-eval package",
                dsets, bfcl_rows))
    return out


# --------------------------------------------------------------------------
# quirks of shipped configs
# --------------------------------------------------------------------------


def quirk_cases() -> list[tuple]:
    from opencompass.datasets import OlympiadBenchTemplate

    c = oc_classes()
    PT, Zero, Gen = c["PT"], c["Zero"], c["Gen"]
    out = []
    dsets = [
        ds("system_without_fallback_in_begin", qa_reader(),
           dict(prompt_template=dict(type=PT, template=dialogue(
               "{question}", "{answer}", begin=[dict(role="SYSTEM", prompt="System words.")])),
                retriever=dict(type=Zero), inferencer=dict(type=Gen))),
        ds("system_with_fallback_in_begin", qa_reader(),
           dict(prompt_template=dict(type=PT, template=dialogue(
               "{question}", "{answer}",
               begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="System words.")])),
                retriever=dict(type=Zero), inferencer=dict(type=Gen))),
        ds("system_inside_round", qa_reader(),
           dict(prompt_template=dict(type=PT, template=dict(round=[
               dict(role="SYSTEM", prompt="Round system."), dict(role="HUMAN", prompt="{question}"),
               dict(role="BOT", prompt="{answer}")])),
                retriever=dict(type=Zero), inferencer=dict(type=Gen))),
        ds("reader_cfg_tuple", (qa_reader(),),
           dict(prompt_template=dict(type=PT, template="{question}"), retriever=dict(type=Zero),
                inferencer=dict(type=Gen))),
        ds("dataset_template_class", qa_reader(),
           dict(prompt_template=dict(type=OlympiadBenchTemplate), retriever=dict(type=Zero),
                inferencer=dict(type=Gen))),
    ]
    out.append(("r_quirks", "oc",
                "Quirks of shipped OpenCompass configs: SYSTEM turns with and without fallback_role, a "
                "reader_cfg made a tuple by a trailing comma, a dataset's own template class",
                dsets, qa_split(2, 2)))

    from parity_x_cases import ais_classes

    a = ais_classes()
    dsets = [
        ds("ais_system_in_begin", qa_reader(),
           dict(prompt_template=dict(type=a["PT"], template=dialogue(
               "{question}", "{answer}", begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="Sys.")])),
                retriever=dict(type=a["Zero"]), inferencer=dict(type=a["Gen"]))),
        ds("ais_system_without_fallback", qa_reader(),
           dict(prompt_template=dict(type=a["PT"], template=dialogue(
               "{question}", "{answer}", begin=[dict(role="SYSTEM", prompt="Sys.")])),
                retriever=dict(type=a["Zero"]), inferencer=dict(type=a["Gen"]))),
    ]
    out.append(("r_ais_quirks", "ais",
                "AISBench: a SYSTEM turn stays a system message for chat-template models", dsets,
                qa_split(2, 2)))
    return out


def all_cases() -> list[tuple]:
    return [*raw_cases(), *inferencer_cases(), *ais_inferencer_cases(), *quirk_cases()]
