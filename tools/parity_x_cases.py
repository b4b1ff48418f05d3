"""Dev-only: the ``x_*`` parity cases - what the workbench claims beyond the seeds and
the real dataset configs (other inferencers, retrievers, reader and data edge cases,
AISBench model classes, multimodal rows with several images).

Imported by ``tools/make_parity_cases.py`` (run it with the framework venv; the
configs are written from real framework classes, so imports come out by name)::

    $FWENV/bin/python tools/make_parity_cases.py --only x_chat_string_rows ...

Each case is a list of dataset dicts plus rows; every case renders against the five
model kinds of its framework (``x_ais_model_classes`` adds three AISBench API
classes).  Rows are hand-made and deterministic.
"""

from __future__ import annotations

from typing import Any

# --------------------------------------------------------------------------
# rows
# --------------------------------------------------------------------------

Q_FORMS = [
    "q{i}: {i}+{i}=?",
    "q{i} line one\nline two",
    "q{i} mentions {{answer}} of another column",
    "q{i} café “quotes” 数学 🙂",
    "\tq{i} indented  ",
    "q{i} literal {{braces}} and }}{{",
    "q{i} ends with newline\n",
]
A_FORMS = [
    "a{i}",
    "a{i} refers to {{question}}",
    "a{i}  trailing  ",
    "a{i}\nsecond line",
]


def qa_rows(n: int, tag: str = "", start: int = 0) -> list[dict]:
    rows = []
    for r in range(n):
        i = r + start
        q = Q_FORMS[i % len(Q_FORMS)].format(i=i)
        a = A_FORMS[i % len(A_FORMS)].format(i=i)
        rows.append({"question": f"{tag}{q}", "answer": f"{tag}{a}"})
    return rows


def qa_split(n_train: int, n_test: int) -> dict:
    return {"train": qa_rows(n_train, "t"), "test": qa_rows(n_test, "", start=1)}


def short_rows(n: int, tag: str) -> list[dict]:
    """Short rows for retriever cases (many rows, small goldens)."""
    return [
        {"question": f"{tag}{i} {'{answer}' if i % 3 == 2 else 'x'}", "answer": f"{tag.upper()}{i}"}
        for i in range(n)
    ]


# --------------------------------------------------------------------------
# case definitions: (case_id, framework, doc, datasets, rows[, extra models])
# --------------------------------------------------------------------------


def ds(abbr: str, reader: dict, infer: dict, **more: Any) -> dict:
    d = {"abbr": abbr, "type": "ParityJsonDataset", "path": "parity/x"}
    d.update(more)
    d["reader_cfg"] = reader
    d["infer_cfg"] = infer
    return d


def qa_reader(**more: Any) -> dict:
    return dict(input_columns=["question"], output_column="answer", **more)


def oc_classes() -> dict:
    from opencompass.openicl.icl_inferencer import (
        ChatInferencer,
        CLPInferencer,
        GenInferencer,
        LLInferencer,
        PPLInferencer,
    )
    from opencompass.openicl.icl_prompt_template import PromptTemplate
    from opencompass.openicl.icl_retriever import (
        BM25Retriever,
        FixKRetriever,
        RandomRetriever,
        SlidingWindowRetriever,
        ZeroRetriever,
    )

    return dict(
        PT=PromptTemplate,
        Zero=ZeroRetriever,
        FixK=FixKRetriever,
        Random=RandomRetriever,
        BM25=BM25Retriever,
        Sliding=SlidingWindowRetriever,
        Gen=GenInferencer,
        PPL=PPLInferencer,
        LL=LLInferencer,
        CLP=CLPInferencer,
        Chat=ChatInferencer,
    )


def ais_classes() -> dict:
    from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer, PPLInferencer
    from ais_bench.benchmark.openicl.icl_prompt_template import MMPromptTemplate, PromptTemplate
    from ais_bench.benchmark.openicl.icl_retriever import FixKRetriever, ZeroRetriever
    from ais_bench.benchmark.openicl.icl_retriever.icl_random_retriever import RandomRetriever

    return dict(
        PT=PromptTemplate,
        MM=MMPromptTemplate,
        Zero=ZeroRetriever,
        FixK=FixKRetriever,
        Random=RandomRetriever,
        Gen=GenInferencer,
        PPL=PPLInferencer,
    )


def dialogue(human: str, bot: str | None = None, begin: Any = None, more: list | None = None) -> dict:
    rnd = [dict(role="HUMAN", prompt=human)]
    if bot is not None:
        rnd.append(dict(role="BOT", prompt=bot))
    rnd += more or []
    out: dict[str, Any] = {}
    if begin is not None:
        out["begin"] = begin
    out["round"] = rnd
    return out


# ---- OpenCompass ChatInferencer -------------------------------------------


def chat_cases() -> list[tuple]:
    c = oc_classes()
    PT, Zero, Chat = c["PT"], c["Zero"], c["Chat"]
    sys_begin = [dict(role="SYSTEM", fallback_role="HUMAN", prompt="You answer briefly.")]
    tpl_dialogue = dict(type=PT, template=dialogue("Q: {question}", "A: {answer}", begin=sys_begin))
    ice_only = dict(type=PT, template="{question}\n{answer}")

    def chat(mode: str | None) -> dict:
        return dict(type=Chat) if mode is None else dict(type=Chat, infer_mode=mode)

    def infer(mode, prompt=None, ice=None):
        d: dict[str, Any] = {}
        if ice is not None:
            d["ice_template"] = ice
        if prompt is not None:
            d["prompt_template"] = prompt
        d["retriever"] = dict(type=Zero)
        d["inferencer"] = chat(mode)
        return d

    out = []
    # 1. every column a single string
    string_rows = qa_rows(3)
    dsets = [
        ds(f"chat_dialogue_{m}", qa_reader(), infer(m, prompt=tpl_dialogue))
        for m in ("last", "every", "every_with_gt")
    ]
    dsets += [
        ds(
            "chat_string_template",
            qa_reader(),
            infer(None, prompt=dict(type=PT, template="Question: {question}\nAnswer:")),
        ),
        ds(
            "chat_human_only_every",
            qa_reader(),
            infer("every", prompt=dict(type=PT, template=dialogue("{question}"))),
        ),
        ds(
            "chat_begin_strings_last",
            qa_reader(),
            infer(
                "last",
                prompt=dict(
                    type=PT,
                    template=dict(
                        begin=["This section: answer briefly.", "Plain begin text."],
                        round=[dict(role="HUMAN", prompt="{question}"), dict(role="BOT", prompt="{answer}")],
                    ),
                ),
            ),
        ),
        ds("chat_no_prompt_template_last", qa_reader(), infer("last", ice=ice_only)),
        ds("chat_no_prompt_template_every", qa_reader(), infer("every", ice=ice_only)),
    ]
    out.append(
        (
            "x_chat_string_rows",
            "oc",
            "OpenCompass ChatInferencer: every column a single string, infer_mode "
            "last / every / every_with_gt, with and without a prompt_template",
            dsets,
            string_rows,
        )
    )

    # 2. every column a list of strings (multi-round)
    mr_rows = [
        {
            "question": ["r0 first {answer}", "r0 second"],
            "answer": ["r0 A1", "r0 A2\nline"],
            "context": ["ctx0a", "ctx0b"],
        },
        {"question": ["r1 only café"], "answer": ["r1 A1 {question}"], "context": ["ctx1"]},
        {
            "question": ["r2 q1", "r2 q2", "r2 q3 (answer list is shorter: zip stops)"],
            "answer": ["r2 A1", "r2 A2"],
            "context": ["c2a", "c2b", "c2c"],
        },
    ]
    mr_tpl = dict(type=PT, template=dialogue("Q: {question}", "{answer}"))
    dsets = [
        ds(f"mr_no_prompt_template_{m}", qa_reader(), infer(m, ice=ice_only))
        for m in ("last", "every", "every_with_gt")
    ]
    dsets += [ds(f"mr_template_{m}", qa_reader(), infer(m, prompt=mr_tpl)) for m in ("last", "every")]
    dsets += [
        ds(
            "mr_two_inputs_every",
            dict(input_columns=["context", "question"], output_column="answer"),
            infer("every", prompt=dict(type=PT, template=dialogue("{context}\n{question}", "{answer}"))),
        ),
        ds(
            "mr_two_rounds_every_with_gt",
            qa_reader(),
            infer(
                "every_with_gt",
                prompt=dict(
                    type=PT,
                    template=dialogue("{question}", "{answer}", more=[dict(role="HUMAN", prompt="Sure?")]),
                ),
            ),
        ),
    ]
    out.append(
        (
            "x_chat_multiround_rows",
            "oc",
            "OpenCompass ChatInferencer: columns holding lists of strings (one entry per round), "
            "all infer_modes, with and without a prompt_template",
            dsets,
            mr_rows,
        )
    )

    # 3. rows that already are chats
    ready_rows = [
        {
            "messages": [
                {"role": "system", "content": "Be terse."},
                {"role": "user", "content": "Hi {topic}"},
                {"role": "assistant", "content": "Hello"},
                {"role": "user", "content": "What is 2+2?"},
                {"role": "assistant", "content": "4"},
            ],
            "dialogue": [
                {"role": "user", "content": "d0 u1"},
                {"role": "assistant", "content": "d0 a1"},
                {"role": "user", "content": "d0 u2"},
                {"role": "assistant", "content": "d0 a2"},
            ],
            "topic": "maths",
            "answer": "gold 0",
        },
        {
            "messages": [{"role": "user", "content": "Only one\nturn"}, {"role": "assistant", "content": ""}],
            "dialogue": [
                {"role": "user", "content": "d1 u1 café"},
                {"role": "assistant", "content": "d1 a1"},
            ],
            "topic": "t1",
            "answer": "gold 1",
        },
        {
            "messages": [
                {"role": "user", "content": "q"},
                {"role": "assistant", "content": "a"},
                {"role": "user", "content": "trailing user turn, never sent"},
            ],
            "dialogue": [
                {"role": "system", "content": "sys"},
                {"role": "user", "content": "d2 u1"},
                {"role": "assistant", "content": "d2 a1"},
                {"role": "user", "content": "d2 u2"},
                {"role": "assistant", "content": "d2 a2"},
                {"role": "user", "content": "d2 end"},
            ],
            "topic": "t2",
            "answer": "gold 2",
        },
    ]
    msg_reader = dict(input_columns=["messages"], output_column="answer")
    dsets = [
        ds(f"ready_{m}", msg_reader, infer(m, prompt=tpl_dialogue))
        for m in ("last", "every", "every_with_gt")
    ]
    dsets += [
        ds("ready_no_prompt_template_every", msg_reader, infer("every", ice=ice_only)),
        ds(
            "dialogue_column_last",
            dict(input_columns=["dialogue", "topic"], output_column="answer"),
            infer("last", ice=ice_only),
        ),
        ds(
            "dialogue_column_every",
            dict(input_columns=["dialogue", "topic"], output_column="answer"),
            infer("every", ice=ice_only),
        ),
    ]
    out.append(
        (
            "x_chat_ready_rows",
            "oc",
            "OpenCompass ChatInferencer: rows that already hold a chat list (one input column), "
            "and the 'dialogue' column form",
            dsets,
            ready_rows,
        )
    )

    # 4. what ChatInferencer (or its task) refuses
    ref_rows = [
        {
            "question": f"q{i}",
            "context": f"c{i}",
            "num": i * 7,
            "answer": f"a{i}",
            "open_chat": [{"role": "system", "content": "s"}, {"role": "user", "content": f"u{i}"}],
        }
        for i in range(2)
    ]
    dsets = [
        ds("chat_no_templates", qa_reader(), dict(retriever=dict(type=Zero), inferencer=dict(type=Chat))),
        ds(
            "chat_two_inputs_no_prompt_template",
            dict(input_columns=["question", "context"], output_column="answer"),
            infer("last", ice=ice_only),
        ),
        ds(
            "chat_int_column",
            dict(input_columns=["num"], output_column="answer"),
            infer("last", ice=ice_only),
        ),
        ds(
            "chat_no_assistant_last",
            dict(input_columns=["open_chat"], output_column="answer"),
            infer("last", ice=ice_only),
        ),
        ds(
            "chat_no_assistant_every",
            dict(input_columns=["open_chat"], output_column="answer"),
            infer("every", ice=ice_only),
        ),
    ]
    out.append(
        (
            "x_chat_refusals",
            "oc",
            "OpenCompass ChatInferencer: configs and rows it cannot turn into chats",
            dsets,
            ref_rows,
        )
    )
    return out


# ---- OpenCompass LL / CLP / gen_field_replace_token --------------------------


def other_oc_inferencer_cases() -> list[tuple]:
    c = oc_classes()
    PT, Zero, FixK, LL, CLP = c["PT"], c["Zero"], c["FixK"], c["LL"], c["CLP"]
    out = []

    ll_train = [
        {
            "question": f"t{i} q {'{cont}' if i == 1 else ''}",
            "cont": [" yes", "\tno", " maybe\n"][i % 3],
            "answer": i % 2,
        }
        for i in range(4)
    ]
    ll_test = [
        {
            "question": ["x0 is it?", "x1 café {answer}", "x2\nline"][i],
            "cont": [" yes", " no", ""][i],
            "answer": [1, 0, 3][i],
        }
        for i in range(3)
    ]
    reader = dict(input_columns=["question", "cont"], output_column="answer")
    dsets = [
        ds(
            "ll_label_dict",
            reader,
            dict(
                ice_template=dict(type=PT, template={0: "Q: {question}\nA: no", 1: "Q: {question}\nA: yes"}),
                prompt_template=dict(
                    type=PT,
                    template={0: "</E>Q: {question}\nA: no", 1: "</E>Q: {question}\nA: yes"},
                    ice_token="</E>",
                ),
                retriever=dict(type=FixK, fix_id_list=[0, 1]),
                inferencer=dict(type=LL),
            ),
        ),
        ds(
            "ll_labels_given",
            reader,
            dict(
                prompt_template=dict(type=PT, template={0: "{question} -> no", 1: "{question} -> yes"}),
                retriever=dict(type=Zero),
                inferencer=dict(type=LL, labels=[1, 0]),
            ),
        ),
        ds(
            "ll_dialogue",
            reader,
            dict(
                prompt_template=dict(
                    type=PT,
                    template={0: dialogue("{question}", "no{cont}"), 1: dialogue("{question}", "yes{cont}")},
                ),
                retriever=dict(type=Zero),
                inferencer=dict(type=LL),
            ),
        ),
        ds(
            "ll_string_template",
            reader,
            dict(
                prompt_template=dict(type=PT, template="Q: {question} [{answer}]"),
                retriever=dict(type=Zero),
                inferencer=dict(type=LL),
            ),
        ),
    ]
    out.append(
        (
            "x_ll_inferencer",
            "oc",
            "OpenCompass LLInferencer: label templates with a 'cont' column per row",
            dsets,
            {"train": ll_train, "test": ll_test},
        )
    )

    clp_train = [
        {"question": f"t{i} question", "choices": ["A", "B", "C"], "answer": "ABC"[i % 3]} for i in range(3)
    ]
    clp_test = [
        {"question": "x0: pick one", "choices": ["A", "B", "C"], "answer": "B"},
        {"question": "x1 {answer} café", "choices": ["X", "Y"], "answer": "Y"},
        {"question": "x2\nline two", "choices": ["P"], "answer": "P"},
    ]
    reader = dict(input_columns=["question", "choices"], output_column="answer")
    dsets = [
        ds(
            "clp_string",
            reader,
            dict(
                prompt_template=dict(type=PT, template="Q: {question}\nChoices: {choices}\nAnswer:"),
                retriever=dict(type=Zero),
                inferencer=dict(type=CLP),
            ),
        ),
        ds(
            "clp_ice",
            reader,
            dict(
                ice_template=dict(type=PT, template="Q: {question}\nA: {answer}"),
                prompt_template=dict(type=PT, template="</E>Q: {question}\nA: {answer}", ice_token="</E>"),
                retriever=dict(type=FixK, fix_id_list=[1, 0]),
                inferencer=dict(type=CLP),
            ),
        ),
        ds(
            "clp_dialogue",
            reader,
            dict(
                prompt_template=dict(
                    type=PT,
                    template=dialogue(
                        "{question}",
                        "{answer}",
                        begin=[dict(role="SYSTEM", fallback_role="HUMAN", prompt="Pick a letter.")],
                    ),
                ),
                retriever=dict(type=Zero),
                inferencer=dict(type=CLP),
            ),
        ),
    ]
    out.append(
        (
            "x_clp_inferencer",
            "oc",
            "OpenCompass CLPInferencer: local models score row 0's choices; API models are refused",
            dsets,
            {"train": clp_train, "test": clp_test},
        )
    )
    # the choices CLPInferencer reads from test row 0, where that row's cannot be scored
    for kind, choices in (("empty", []), ("none", None)):
        out.append(
            (
                f"x_clp_choices_{kind}",
                "oc",
                f"OpenCompass CLPInferencer with test row 0's choices {choices!r}: the real run stops",
                dsets[:1],
                {"train": clp_train, "test": [{**row, "choices": choices} for row in clp_test]},
            )
        )

    out.append(
        (
            "x_gen_field_replace_token",
            "oc",
            "OpenCompass GenInferencer(gen_field_replace_token=...)",
            gfrt_datasets(c),
            qa_split(4, 3),
        )
    )
    return out


def gfrt_datasets(c: dict) -> list[dict]:
    PT, Zero, FixK, Gen = c["PT"], c["Zero"], c["FixK"], c["Gen"]
    return [
        ds(
            "gfrt_string_ice",
            qa_reader(),
            dict(
                ice_template=dict(type=PT, template="{question}\n{answer}"),
                prompt_template=dict(type=PT, template="</E>{question}\n{answer}", ice_token="</E>"),
                retriever=dict(type=FixK, fix_id_list=[0, 1]),
                inferencer=dict(type=Gen, gen_field_replace_token="<ANSWER>"),
            ),
        ),
        ds(
            "gfrt_dialogue",
            qa_reader(),
            dict(
                prompt_template=dict(type=PT, template=dialogue("Q: {question}", "A: {answer}")),
                retriever=dict(type=Zero),
                inferencer=dict(type=Gen, gen_field_replace_token="[MASK]"),
            ),
        ),
        ds(
            "gfrt_default",
            qa_reader(),
            dict(
                prompt_template=dict(type=PT, template="{question} => {answer}"),
                retriever=dict(type=Zero),
                inferencer=dict(type=Gen),
            ),
        ),
        ds(
            "gfrt_no_output_column",
            dict(input_columns=["question"], output_column=None),
            dict(
                prompt_template=dict(type=PT, template="{question} => {answer}"),
                retriever=dict(type=Zero),
                inferencer=dict(type=Gen, gen_field_replace_token="<ANSWER>"),
            ),
        ),
    ]


# ---- retrievers ----------------------------------------------------------------


def retriever_cases() -> list[tuple]:
    c = oc_classes()
    PT, Random, BM25, Sliding, Gen = c["PT"], c["Random"], c["BM25"], c["Sliding"], c["Gen"]
    out = []

    def ice_infer(retriever: dict, dialog: bool = False) -> dict:
        if dialog:
            return dict(
                ice_template=dict(type=PT, template=dialogue("{question}", "{answer}")),
                prompt_template=dict(
                    type=PT, template=dialogue("{question}", "{answer}", begin="</E>"), ice_token="</E>"
                ),
                retriever=retriever,
                inferencer=dict(type=Gen),
            )
        return dict(
            ice_template=dict(type=PT, template="{question}={answer}"),
            prompt_template=dict(type=PT, template="</E>{question}=", ice_token="</E>"),
            retriever=retriever,
            inferencer=dict(type=Gen),
        )

    rand_rows = {"train": short_rows(10, "t"), "test": short_rows(6, "x")}
    dsets = [
        ds(f"random_default_k{k}", qa_reader(), ice_infer(dict(type=Random, ice_num=k))) for k in (1, 2, 3, 4)
    ]
    out.append(
        (
            "x_retriever_random",
            "oc",
            "OpenCompass RandomRetriever, default seed, ice_num 1..4",
            dsets,
            rand_rows,
        )
    )
    dsets = [
        ds(f"random_seed7_k{k}", qa_reader(), ice_infer(dict(type=Random, ice_num=k, seed=7)))
        for k in (1, 2, 3, 4)
    ]
    dsets += [
        ds(
            "random_seed0_k2_dialogue",
            qa_reader(),
            ice_infer(dict(type=Random, ice_num=2, seed=0), dialog=True),
        ),
        ds("random_k0", qa_reader(), ice_infer(dict(type=Random, ice_num=0))),
        ds("random_k_above_train", qa_reader(), ice_infer(dict(type=Random, ice_num=11))),
    ]
    out.append(
        (
            "x_retriever_random_seed",
            "oc",
            "OpenCompass RandomRetriever, custom seeds, ice_num 1..4, and more examples than rows",
            dsets,
            rand_rows,
        )
    )

    bm_train = [
        {"question": "the cat sat on the mat", "context": "animals", "answer": "T0"},
        {"question": "a dog chased the cat", "context": "animals pets", "answer": "T1"},
        {"question": "stock prices fell sharply today.", "context": "finance", "answer": "T2"},
        {"question": "The market rallied; prices rose.", "context": "finance news", "answer": "T3"},
        {"question": "cats and dogs are pets", "context": "pets", "answer": "T4"},
        {"question": "Mr. Smith bought shares in Dr. Who Inc.", "context": "finance people", "answer": "T5"},
        {"question": "unrelated sentence here", "context": "misc", "answer": "T6"},
        {"question": "unrelated sentence here", "context": "misc", "answer": "T7"},
    ]
    bm_test = [
        {"question": "where did the cat sit?", "context": "animals", "answer": "X0"},
        {"question": "prices of stock", "context": "finance", "answer": "X1"},
        {"question": "zzz nothing matches", "context": "none", "answer": "X2"},
        {"question": "Dr. Smith's pets: cats, dogs.", "context": "pets people", "answer": "X3"},
    ]
    dsets = [ds(f"bm25_k{k}", qa_reader(), ice_infer(dict(type=BM25, ice_num=k))) for k in (1, 2, 3)]
    dsets += [
        ds(
            "bm25_two_columns",
            dict(input_columns=["question", "context"], output_column="answer"),
            ice_infer(dict(type=BM25, ice_num=2)),
        ),
        ds("bm25_k_above_train", qa_reader(), ice_infer(dict(type=BM25, ice_num=10))),
        ds("bm25_index_split", qa_reader(), ice_infer(dict(type=BM25, ice_num=1, index_split="train"))),
    ]
    out.append(
        (
            "x_retriever_bm25",
            "oc",
            "OpenCompass BM25Retriever (nltk word_tokenize + rank_bm25)",
            dsets,
            {"train": bm_train, "test": bm_test},
        )
    )

    # ties: duplicate rows and rows no query word reaches, in a corpus past the 64 rows a
    # vector network sorts whole (so numpy's x86-simd-sort partitions, and falls back to
    # std::sort): the golden records which of numpy's sorts made it ("numpy_sort")
    words = ["cat", "dog", "stock", "price", "market", "tea", "rain", "song"]
    tie_train = [{"question": f"{words[i % 8]} {words[(i * 3) % 8]} story", "answer": f"T{i}"}
                 for i in range(72)]
    tie_train += [{"question": f"nothing alike {i}", "answer": f"N{i}"} for i in range(30)]
    tie_test = [{"question": q, "answer": f"X{n}"} for n, q in enumerate(
        ["cat story", "stock price", "zzz", "rain song tea", "dog"])]
    dsets = [ds(f"bm25_ties_k{k}", qa_reader(), ice_infer(dict(type=BM25, ice_num=k))) for k in (1, 3, 8)]
    out.append(
        (
            "x_retriever_bm25_ties",
            "oc",
            "OpenCompass BM25Retriever over tied scores (ordered by the CPU's numpy sort)",
            dsets,
            {"train": tie_train, "test": tie_test},
        )
    )

    # the window slides over TEST positions but indexes the train split
    sw_rows = {"train": short_rows(7, "t"), "test": short_rows(5, "x"), "small": short_rows(4, "s")}
    dsets = [ds(f"sliding_k{k}", qa_reader(), ice_infer(dict(type=Sliding, k=k))) for k in (1, 2, 3, 5)]
    dsets += [
        ds("sliding_k_above_train", qa_reader(), ice_infer(dict(type=Sliding, k=9))),
        ds(
            "sliding_train_smaller_than_test",
            qa_reader(train_split="small"),
            ice_infer(dict(type=Sliding, k=2)),
        ),
    ]
    out.append(("x_retriever_sliding_window", "oc", "OpenCompass SlidingWindowRetriever", dsets, sw_rows))

    out.append(
        (
            "x_retriever_fixk_separators",
            "oc",
            "OpenCompass FixKRetriever with ice_separator / ice_eos_token overrides",
            fixk_sep_datasets(c),
            qa_split(4, 2),
        )
    )
    return out


def fixk_sep_datasets(c: dict) -> list[dict]:
    PT, FixK, Gen = c["PT"], c["FixK"], c["Gen"]
    string_ice = dict(type=PT, template="Q: {question}\nA: {answer}")
    string_prompt = dict(type=PT, template="</E>Q: {question}\nA:", ice_token="</E>")
    dialog_ice = dict(type=PT, template=dialogue("{question}", "{answer}"))
    dialog_prompt = dict(type=PT, template=dialogue("{question}", "{answer}", begin="</E>"), ice_token="</E>")
    return [
        ds(
            "fixk_sep_string",
            qa_reader(),
            dict(
                ice_template=string_ice,
                prompt_template=string_prompt,
                retriever=dict(
                    type=FixK, fix_id_list=[2, 0, 1], ice_separator="\n---\n", ice_eos_token="\n===\n"
                ),
                inferencer=dict(type=Gen),
            ),
        ),
        ds(
            "fixk_sep_empty",
            qa_reader(),
            dict(
                ice_template=string_ice,
                prompt_template=string_prompt,
                retriever=dict(type=FixK, fix_id_list=[0, 1], ice_separator="", ice_eos_token=""),
                inferencer=dict(type=Gen),
            ),
        ),
        ds(
            "fixk_sep_duplicates",
            qa_reader(),
            dict(
                ice_template=string_ice,
                prompt_template=string_prompt,
                retriever=dict(type=FixK, fix_id_list=[1, 1, 3], ice_separator=" | "),
                inferencer=dict(type=Gen),
            ),
        ),
        ds(
            "fixk_sep_dialogue_ice",
            qa_reader(),
            dict(
                ice_template=dialog_ice,
                prompt_template=dialog_prompt,
                retriever=dict(type=FixK, fix_id_list=[0, 1], ice_separator="\n---\n", ice_eos_token="<EOS>"),
                inferencer=dict(type=Gen),
            ),
        ),
        ds(
            "fixk_sep_string_ice_dialogue_prompt",
            qa_reader(),
            dict(
                ice_template=string_ice,
                prompt_template=dict(
                    type=PT, template=dialogue("</E>{question}", "{answer}"), ice_token="</E>"
                ),
                retriever=dict(type=FixK, fix_id_list=[3, 2], ice_separator="\n~\n", ice_eos_token="\n\n"),
                inferencer=dict(type=Gen),
            ),
        ),
        ds(
            "fixk_out_of_range",
            qa_reader(),
            dict(
                ice_template=string_ice,
                prompt_template=string_prompt,
                retriever=dict(type=FixK, fix_id_list=[0, 9]),
                inferencer=dict(type=Gen),
            ),
        ),
    ]


# ---- reader / data edge cases -------------------------------------------------


def reader_cases(fw: str) -> list[tuple]:
    c = oc_classes() if fw == "oc" else ais_classes()
    PT, Zero, FixK, Gen, PPL = c["PT"], c["Zero"], c["FixK"], c["Gen"], c["PPL"]
    px = "x_" if fw == "oc" else "x_ais_"
    fwname = "OpenCompass" if fw == "oc" else "AISBench"
    out = []

    def idx_infer(fix=(0, 1), retriever=None) -> dict:
        return dict(
            ice_template=dict(type=PT, template="[{idx}|{subdivision}] {question}={answer}"),
            prompt_template=dict(type=PT, template="</E>({idx}|{subdivision}) {question}=", ice_token="</E>"),
            retriever=retriever or dict(type=FixK, fix_id_list=list(fix)),
            inferencer=dict(type=Gen),
        )

    range_rows = {"train": short_rows(10, "t"), "test": short_rows(8, "x")}
    ranges = [
        ("range_test_int", dict(test_range=3)),
        ("range_test_float", dict(test_range=0.5)),
        ("range_test_slice_step", dict(test_range="[1:7:2]")),
        ("range_test_negative_slice", dict(test_range="[-3:]")),
        ("range_test_zero", dict(test_range=0)),
        ("range_test_above_size", dict(test_range=100)),
        ("range_train_int", dict(train_range=4)),
        ("range_train_float", dict(train_range=0.3)),
        ("range_train_slice", dict(train_range="[5:]")),
        ("range_both", dict(train_range="[::3]", test_range=5)),
        ("range_test_float_above_one", dict(test_range=2.0)),
    ]
    dsets = [ds(a, qa_reader(**r), idx_infer((0, 1, 2) if "train" in a else (0, 1))) for a, r in ranges]
    out.append(
        (
            px + "reader_ranges",
            fw,
            f"{fwname} reader_cfg train_range / test_range: int, float, slice",
            dsets,
            range_rows,
        )
    )

    split_rows = {
        "train": short_rows(3, "tr"),
        "test": short_rows(2, "te"),
        "dev": short_rows(3, "dv"),
        "validation": short_rows(2, "va"),
    }
    splits = [
        ("splits_default", {}),
        ("splits_dev_validation", dict(train_split="dev", test_split="validation")),
        ("splits_absent", dict(train_split="dev2", test_split="val2")),
        ("splits_test_test", dict(train_split="test", test_split="test")),
        ("splits_present_and_absent", dict(train_split="dev", test_split="held_out")),
    ]
    dsets = [ds(a, qa_reader(**r), idx_infer()) for a, r in splits]
    out.append(
        (
            px + "reader_splits",
            fw,
            f"{fwname} reader_cfg train_split / test_split named in the data or absent "
            "(then the data's train/test rows fill them), {idx} and {subdivision} in templates",
            dsets,
            split_rows,
        )
    )

    dsets = [
        ds(a, qa_reader(**r), idx_infer())
        for a, r in [
            ("list_default_splits", {}),
            ("list_test_split_validation", dict(test_split="validation")),
        ]
    ]
    out.append(
        (
            px + "reader_list_split_names",
            fw,
            f"{fwname}: a plain list of rows with a reader that names a split other than train/test",
            dsets,
            short_rows(4, "r"),
        )
    )

    rep_rows = {"train": short_rows(3, "t"), "test": short_rows(3, "x")}
    dsets = [
        ds("repeat_n2", qa_reader(), idx_infer((0, 4)), n=2),
        ds("repeat_n3_k2", qa_reader(), idx_infer((0, 1)), n=3, k=2),
        ds("repeat_n2_test_range", qa_reader(test_range="[2:5]"), idx_infer((0, 1)), n=2),
        ds("repeat_n2_random", qa_reader(), idx_infer(retriever=dict(type=c["Random"], ice_num=2)), n=2),
        ds("repeat_k_above_n", qa_reader(), idx_infer((0, 1)), n=2, k=3),
    ]
    out.append(
        (
            px + "dataset_repeats",
            fw,
            f"{fwname} dataset n repeats (OpenCompass: whole split repeated; AISBench: each row "
            "repeated in place), with k",
            dsets,
            rep_rows,
        )
    )
    dsets = [ds("repeat_list_n2", qa_reader(), idx_infer((0, 3)), n=2)]
    out.append(
        (
            px + "dataset_repeats_list",
            fw,
            f"{fwname} dataset n repeats on a plain list of rows",
            dsets,
            short_rows(3, "r"),
        )
    )

    # values of every JSON type, missing keys, {other_col} inside values
    def vrow(i: int, tag: str) -> dict:
        r: dict[str, Any] = {
            "text": [f"{tag}{i} plain", f"{tag}{i} has {{num}} and {{flag}}", f"{tag}{i} has {{nope}} {{}}"][
                i % 3
            ],
            "num": [0, -7, 123456789012][i % 3],
            "ratio": [1, 2.5, 3][i % 3],
            "flag": [True, False, True][i % 3],
            "tags": [["a", "b"], [], ["x {text}"]][i % 3],
            "nested": {"k": f"v{i}", "n": i},
        }
        if i % 3 != 0:
            r["maybe"] = None if i % 3 == 1 else f"{tag}{i} maybe"
        if i % 3 == 1:
            r["extra"] = f"{tag}{i} only here"
        return r

    type_rows = {"train": [vrow(i, "t") for i in range(3)], "test": [vrow(i, "x") for i in range(3)]}
    fields = "T={text}|N={num}|R={ratio}|F={flag}|M={maybe}|L={tags}|X={extra}|D={nested}"
    treader = dict(
        input_columns=["text", "num", "ratio", "flag", "maybe", "tags", "extra", "nested"],
        output_column="num",
    )
    dsets = [
        ds(
            "types_string",
            treader,
            dict(
                prompt_template=dict(type=PT, template=fields),
                retriever=dict(type=Zero),
                inferencer=dict(type=Gen),
            ),
        ),
        ds(
            "types_dialogue",
            treader,
            dict(
                prompt_template=dict(type=PT, template=dialogue(fields, "{num}")),
                retriever=dict(type=Zero),
                inferencer=dict(type=Gen),
            ),
        ),
        ds(
            "types_ice",
            treader,
            dict(
                ice_template=dict(type=PT, template="{text} -> {num} ({ratio})"),
                prompt_template=dict(type=PT, template="</E>{text} ->", ice_token="</E>"),
                retriever=dict(type=FixK, fix_id_list=[0, 1, 2]),
                inferencer=dict(type=Gen),
            ),
        ),
        ds(
            "types_ppl_bool_labels",
            dict(input_columns=["text"], output_column="flag"),
            dict(
                prompt_template=dict(type=PT, template={True: "{text} yes", False: "{text} no"}),
                retriever=dict(type=Zero),
                inferencer=dict(type=PPL),
            ),
        ),
    ]
    out.append(
        (
            px + "value_types",
            fw,
            f"{fwname}: int/float/bool/None/list/dict values, keys missing from some rows "
            "(data loaded as load_dataset('json') does), {{other_col}} inside values",
            dsets,
            type_rows,
        )
    )
    return out


def ppl_label_cases() -> list[tuple]:
    c = oc_classes()
    PT, Zero, FixK, PPL, Gen = c["PT"], c["Zero"], c["FixK"], c["PPL"], c["Gen"]
    rows = {
        "train": [{"question": f"t{i} q", "answer": i % 2, "score": [10, 3][i % 2]} for i in range(4)],
        "test": [
            {
                "question": ["x0 is it?", "x1 {answer} café", "x2\nline"][i],
                "answer": [1, 0, 1][i],
                "score": [10, 3, 7][i] if i < 2 else 1,
            }
            for i in range(3)
        ],
    }
    rows["test"].append({"question": "x3 last", "answer": 0, "score": 7})
    int_prompt = {0: "</E>Q: {question} No", 1: "</E>Q: {question} Yes"}
    int_ice = {0: "Q: {question} No", 1: "Q: {question} Yes"}
    dsets = [
        ds(
            "ppl_int_keys",
            qa_reader(),
            dict(
                ice_template=dict(type=PT, template=int_ice),
                prompt_template=dict(type=PT, template=int_prompt, ice_token="</E>"),
                retriever=dict(type=FixK, fix_id_list=[0, 1]),
                inferencer=dict(type=PPL),
            ),
        ),
        ds(
            "ppl_labels_given",
            qa_reader(),
            dict(
                prompt_template=dict(type=PT, template={0: "{question} No", 1: "{question} Yes"}),
                retriever=dict(type=Zero),
                inferencer=dict(type=PPL, labels=[1, 0]),
            ),
        ),
        ds(
            "ppl_labels_not_in_template",
            qa_reader(),
            dict(
                prompt_template=dict(type=PT, template={0: "{question} No", 1: "{question} Yes"}),
                retriever=dict(type=Zero),
                inferencer=dict(type=PPL, labels=[0, 2]),
            ),
        ),
        ds(
            "ppl_labels_on_dialogue",
            qa_reader(),
            dict(
                prompt_template=dict(type=PT, template=dialogue("{question}", "{answer}")),
                retriever=dict(type=Zero),
                inferencer=dict(type=PPL, labels=["x", "y"]),
            ),
        ),
        ds(
            "ppl_string_template_int_output",
            dict(input_columns=["question"], output_column="score"),
            dict(
                prompt_template=dict(type=PT, template="Q: {question} S: {score}"),
                retriever=dict(type=Zero),
                inferencer=dict(type=PPL),
            ),
        ),
        ds(
            "ppl_sep_token",
            qa_reader(),
            dict(
                ice_template=dict(
                    type=PT,
                    template={0: "Q: {question}<SEP> No", 1: "Q: {question}<SEP> Yes"},
                    sep_token="<SEP>",
                ),
                prompt_template=dict(
                    type=PT,
                    template={0: "</E>Q: {question}<SEP> No", 1: "</E>Q: {question}<SEP> Yes"},
                    ice_token="</E>",
                    sep_token="<SEP>",
                ),
                retriever=dict(type=FixK, fix_id_list=[0, 1]),
                inferencer=dict(type=PPL),
            ),
        ),
        ds(
            "gen_sep_token",
            qa_reader(),
            dict(
                ice_template=dict(type=PT, template="Q: {question}<SEP>{answer}", sep_token="<SEP>"),
                prompt_template=dict(
                    type=PT, template="</E>Q: {question}<SEP>", ice_token="</E>", sep_token="<SEP>"
                ),
                retriever=dict(type=FixK, fix_id_list=[1]),
                inferencer=dict(type=Gen),
            ),
        ),
        ds(
            "gen_int_key_template",
            qa_reader(),
            dict(
                prompt_template=dict(type=PT, template={1: "{question} Yes", 0: "{question} No"}),
                retriever=dict(type=Zero),
                inferencer=dict(type=Gen),
            ),
        ),
    ]
    return [
        (
            "x_ppl_labels",
            "oc",
            "OpenCompass PPLInferencer: int label keys, labels given on the inferencer, labels from "
            "an int output column, sep_token",
            dsets,
            rows,
        )
    ]


# ---- AISBench ------------------------------------------------------------------

AIS_EXTRA_MODELS = """
# ---- more AISBench model classes ---------------------------------------------
models += [
    dict(attr='service', abbr='vllm-api-chat-default-meta', type=VLLMCustomAPIChat, path='',
         model='parity-model', host_ip='localhost', host_port=8080, max_out_len=64, batch_size=1),
    dict(attr='service', abbr='vllm-api-lm-meta', type=VLLMCustomAPI, path='',
         model='parity-model', host_ip='localhost', host_port=8080,
         meta_template=_internlm_chat_meta, max_out_len=64, batch_size=1),
    dict(attr='service', abbr='vllm-api-lm-plain', type=VLLMCustomAPI, path='',
         model='parity-model', host_ip='localhost', host_port=8080, max_out_len=64, batch_size=1),
]
"""


def ais_cases() -> list[tuple]:
    c = ais_classes()
    PT, MM, Zero, FixK, Random, Gen, PPL = (
        c[k] for k in ("PT", "MM", "Zero", "FixK", "Random", "Gen", "PPL")
    )
    out = []
    sys_begin = [dict(role="SYSTEM", fallback_role="HUMAN", prompt="Answer briefly.")]
    dsets = [
        ds(
            "ais_gen_dialogue_system",
            qa_reader(),
            dict(
                ice_template=dict(type=PT, template=dialogue("{question}", "{answer}")),
                prompt_template=dict(
                    type=PT,
                    template=dialogue("{question}", "{answer}", begin=[*sys_begin, "</E>"]),
                    ice_token="</E>",
                ),
                retriever=dict(type=FixK, fix_id_list=[0, 1]),
                inferencer=dict(type=Gen),
            ),
        ),
        ds(
            "ais_gen_string",
            qa_reader(),
            dict(
                prompt_template=dict(type=PT, template="Q: {question}\nA: {answer}"),
                retriever=dict(type=Zero),
                inferencer=dict(type=Gen),
            ),
        ),
        ds(
            "ais_ppl_dict",
            qa_reader(),
            dict(
                prompt_template=dict(type=PT, template={"A": "{question} -> A", "B": "{question} -> B"}),
                retriever=dict(type=Zero),
                inferencer=dict(type=PPL),
            ),
        ),
        ds(
            "ais_ppl_labels_given",
            qa_reader(),
            dict(
                prompt_template=dict(type=PT, template={"A": "{question} -> A", "B": "{question} -> B"}),
                retriever=dict(type=Zero),
                inferencer=dict(type=PPL, labels=["B", "A"]),
            ),
        ),
        ds(
            "ais_ppl_dialogue_dict",
            qa_reader(),
            dict(
                prompt_template=dict(
                    type=PT,
                    template={
                        "A": dialogue("{question}", "A", begin=sys_begin),
                        "B": dialogue("{question}", "B", begin=sys_begin),
                    },
                ),
                retriever=dict(type=Zero),
                inferencer=dict(type=PPL),
            ),
        ),
    ]
    out.append(
        (
            "x_ais_model_classes",
            "ais",
            "AISBench Gen/PPL with VLLMCustomAPIChat (default meta template), VLLMCustomAPI "
            "(LMTemplateParser, with and without meta template) and HuggingFacewithChatTemplate",
            dsets,
            qa_split(3, 2),
            AIS_EXTRA_MODELS,
        )
    )

    out.append(
        (
            "x_ais_gen_field_replace_token",
            "ais",
            "AISBench GenInferencer(gen_field_replace_token=...)",
            gfrt_datasets(c),
            qa_split(4, 3),
        )
    )
    out.append(
        (
            "x_ais_retriever_fixk_separators",
            "ais",
            "AISBench FixKRetriever with ice_separator / ice_eos_token overrides",
            fixk_sep_datasets(c),
            qa_split(4, 2),
        )
    )

    def ice_infer(retriever: dict) -> dict:
        return dict(
            ice_template=dict(type=PT, template="{question}={answer}"),
            prompt_template=dict(type=PT, template="</E>{question}=", ice_token="</E>"),
            retriever=retriever,
            inferencer=dict(type=Gen),
        )

    dsets = [
        ds(f"ais_random_default_k{k}", qa_reader(), ice_infer(dict(type=Random, ice_num=k)))
        for k in (1, 2, 3, 4)
    ]
    dsets += [
        ds(f"ais_random_seed7_k{k}", qa_reader(), ice_infer(dict(type=Random, ice_num=k, seed=7)))
        for k in (2, 4)
    ]
    out.append(
        (
            "x_ais_retriever_random",
            "ais",
            "AISBench RandomRetriever, default and custom seed",
            dsets,
            {"train": short_rows(10, "t"), "test": short_rows(5, "x")},
        )
    )

    # several images per row
    T, IMG, VID, TAG = "<AIS_TEXT_START>", "<AIS_IMAGE_START>", "<AIS_VIDEO_START>", "<AIS_CONTENT_TAG>"
    contents = [
        f"{T}Compare these two {{anything}}{TAG}{IMG}/img/a0.jpg{TAG}{IMG}/img/b0.jpg{TAG}",
        f"{IMG}/img/a1.jpg{TAG}{T}Which of the three?{TAG}{IMG}/img/b1.jpg{TAG}{IMG}/img/c1.jpg{TAG}",
        f"{T}first text{TAG}{IMG}/img/a2.png{TAG}{T}second text\nline{TAG}"
        f"{VID}/v/2.mp4{TAG}{IMG}/img/b2.png{TAG}",
    ]
    mm_rows = [
        {"question": f"q{i}", "anything": f"any{i}", "answer": f"ans{i}", "content": contents[i]}
        for i in range(3)
    ]
    mm_dict = {
        "text": {"type": "text", "text": "{question}"},
        "image": {"type": "image_url", "image_url": {"url": "file://{image}"}},
        "video": {"type": "video_url", "video_url": {"url": "file://{video}"}},
    }
    mm_plain = {
        "text": {"type": "text", "text": "Q: {question}"},
        "image": {"type": "image_url", "image_url": "{image}"},
        "video": {"type": "video_url", "video_url": "{video}"},
    }
    reader = dict(input_columns=["question", "anything"], output_column="answer")
    dsets = [
        ds(
            "mm_images_url_dict",
            reader,
            dict(
                prompt_template=dict(type=MM, template=dict(round=[dict(role="HUMAN", prompt_mm=mm_dict)])),
                retriever=dict(type=Zero),
                inferencer=dict(type=Gen),
            ),
        ),
        ds(
            "mm_images_url_string",
            reader,
            dict(
                prompt_template=dict(type=MM, template=dict(round=[dict(role="HUMAN", prompt_mm=mm_plain)])),
                retriever=dict(type=Zero),
                inferencer=dict(type=Gen),
            ),
        ),
    ]
    out.append(
        (
            "x_ais_mm_multi_image",
            "ais",
            "AISBench MMPromptTemplate with several images (and texts, a video) per row",
            dsets,
            mm_rows,
        )
    )
    return out


def gold_column_cases() -> list[tuple]:
    """Test rows without the output column: the inferencers that read the gold answers stop."""
    out = []
    train = qa_rows(3, "t")
    test = [{"question": row["question"]} for row in qa_rows(2, "", start=1)]
    for key, classes in (("oc", oc_classes), ("ais", ais_classes)):
        c = classes()
        PT, Zero, FixK, Gen, PPL = c["PT"], c["Zero"], c["FixK"], c["Gen"], c["PPL"]
        dsets = [
            ds("gold_gen", qa_reader(), dict(prompt_template=dict(type=PT, template="Q: {question}\nA:"),
                                             retriever=dict(type=Zero), inferencer=dict(type=Gen))),
            ds("gold_gen_ice", qa_reader(), dict(
                ice_template=dict(type=PT, template="Q: {question}\nA: {answer}\n"),
                prompt_template=dict(type=PT, template="</E>Q: {question}\nA:", ice_token="</E>"),
                retriever=dict(type=FixK, fix_id_list=[0, 1]), inferencer=dict(type=Gen))),
            ds("gold_ppl", qa_reader(), dict(
                prompt_template=dict(type=PT, template={"yes": "{question} Yes", "no": "{question} No"}),
                retriever=dict(type=Zero), inferencer=dict(type=PPL))),
        ]
        out.append((
            f"x_{'ais_' if key == 'ais' else ''}gold_column_missing",
            key,
            f"{'AISBench' if key == 'ais' else 'OpenCompass'} Gen and PPL with test rows that lack the "
            "output column: the real run reads it for the gold answers",
            dsets,
            {"train": train, "test": test},
        ))
    return out


def all_cases() -> list[tuple]:
    return [
        *gold_column_cases(),
        *chat_cases(),
        *other_oc_inferencer_cases(),
        *retriever_cases(),
        *reader_cases("oc"),
        *ppl_label_cases(),
        *reader_cases("ais"),
        *ais_cases(),
    ]
