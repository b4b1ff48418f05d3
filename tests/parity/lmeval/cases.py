"""The lm-eval parity cases: task, docs per split and the command line's choices (shared by
tools/gen_lmeval_goldens.py, which writes goldens/<name>.json with lm-eval 0.4.13, and
tests/parity/test_lmeval_parity.py, which renders the same with the workbench)."""

ARC = {"test": "tasks/arc_test.jsonl", "train": "tasks/arc_train.jsonl"}
GSM = {"test": "tasks/gsm_test.jsonl", "train": "tasks/gsm_train.jsonl"}
WINO = {"test": "tasks/wino_test.jsonl", "train": "tasks/wino_train.jsonl"}
SYSTEM = "You are a careful assistant."


def _case(name, task, data, shots=None, chat=None, multiturn=None, system=None, also=(), seed=None):
    """``multiturn`` None: no --fewshot_as_multiturn on the command line (lm-eval's default);
    ``also``: more tasks rendered after ``task`` in the same run; ``seed``: lm-eval's ``--seed``."""
    case = {"name": name, "task": task, "data": data, "num_fewshot": shots, "chat": chat,
            "multiturn": multiturn, "system": system}
    if also:
        case["also"] = list(also)
    if seed is not None:
        case["seed"] = seed
    return case


CASES = []
for shots in (0, 2):
    for chat, multiturn in ((None, None), ("chat/chatml", True), ("chat/chatml", False)):
        tag = f"{shots}shot" + ("" if chat is None else "-chat" + ("-mt" if multiturn else "-st"))
        CASES += [
            _case(f"mc-{tag}", "tasks/mc.yaml", ARC, shots, chat, multiturn),
            _case(f"gen-{tag}", "tasks/gen.yaml", GSM, shots, chat, multiturn),
            _case(f"firstn-{tag}", "tasks/firstn.yaml", ARC, shots, chat, multiturn),
            _case(f"samesplit-{tag}", "tasks/samesplit.yaml", {"test": ARC["test"]}, shots, chat, multiturn),
            _case(f"ll-{tag}", "tasks/ll.yaml", GSM, shots, chat, multiturn),
            _case(f"prefix-{tag}", "tasks/prefix.yaml", ARC, shots, chat, multiturn),
            _case(f"wino-{tag}", "tasks/wino.yaml", WINO, shots, chat, multiturn),
        ]
CASES += [
    _case("gen-yamlshots", "tasks/gen.yaml", GSM),
    _case("zero-wins", "tasks/zero.yaml", ARC, 3),
    _case("rolling", "tasks/rolling.yaml", {"test": GSM["test"]}),
    _case("mc-system", "tasks/mc.yaml", ARC, 1, "chat/chatml", True, SYSTEM),
    _case("mc-system-plain", "tasks/mc.yaml", ARC, 1, None, None, SYSTEM),
    _case("mc-nosystem-retry", "tasks/mc.yaml", ARC, 1, "chat/nosystem", True, SYSTEM),
    _case("prefix-nosystem", "tasks/prefix.yaml", ARC, 2, "chat/nosystem", False),
    _case("too-many-shots", "tasks/samesplit.yaml", {"test": ARC["test"]}, 4),
    _case("firstn-too-many", "tasks/firstn.yaml", ARC, 5),
]

# Tasks shipped with lm-eval 0.4.13, copied unchanged (shipped/README.md), over small docs.
SHIPPED = [
    ("arc_easy", "shipped/arc/arc_easy.yaml", ("test", "train", "validation"), 3),
    ("arc_challenge_chat", "shipped/arc/arc_challenge_chat.yaml", ("test", "train", "validation"), 2),
    ("hellaswag", "shipped/hellaswag/hellaswag.yaml", ("validation", "train"), 2),
    ("gsm8k", "shipped/gsm8k/gsm8k.yaml", ("test", "train"), None),
    ("gsm8k_cot", "shipped/gsm8k/gsm8k-cot.yaml", ("test",), 3),
    ("winogrande", "shipped/winogrande/default.yaml", ("validation", "train"), 2),
    ("mmlu_anatomy", "shipped/mmlu/mmlu_anatomy.yaml", ("test", "dev"), 3),
    ("lambada_openai", "shipped/lambada/lambada_openai.yaml", ("test",), 0),
    ("wikitext", "shipped/wikitext/wikitext.yaml", ("test", "train", "validation"), 0),
]
for name, task, splits, shots in SHIPPED:
    folder = task.rsplit("/", 1)[0]
    data = {split: f"{folder}/{split}.jsonl" for split in splits}
    CASES += [
        _case(f"{name}-0shot", task, data, 0),
        _case(f"{name}-kshot", task, data, shots),
        _case(f"{name}-0shot-chatml", task, data, 0, "chat/chatml", True),
        _case(f"{name}-kshot-chatml-mt-system", task, data, shots, "chat/chatml", True, SYSTEM),
        _case(f"{name}-kshot-chatml-st", task, data, shots, "chat/chatml", False),
        _case(f"{name}-kshot-nosystem-mt", task, data, shots, "chat/nosystem", True, SYSTEM),
        _case(f"{name}-kshot-nosystem-st", task, data, shots, "chat/nosystem", False),
    ]
CASES += [
    # lm-eval reads the few-shot pool's split when it builds the task, at 0 shots too
    _case("wikitext-no-train", "shipped/wikitext/wikitext.yaml", {"test": "shipped/wikitext/test.jsonl"}, 0),
]
CASES += [
    # a template that fails with and without the system message: lm-eval raises
    _case("template-fails-twice", "tasks/mc.yaml", ARC, 1, "chat/broken", True, SYSTEM),
]
for chat, multiturn, tag in ((None, None, "plain"), ("chat/chatml", True, "chatml-mt"),
                             ("chat/chatml", False, "chatml-st"), ("chat/nosystem", True, "nosystem-mt")):
    CASES += [
        _case(f"variety-2shot-{tag}", "tasks/variety.yaml", ARC, 2, chat, multiturn),
        _case(f"variety-0shot-{tag}", "tasks/variety.yaml", ARC, 0, chat, multiturn, SYSTEM),
        _case(f"dictchoice-2shot-{tag}", "tasks/dictchoice.yaml", GSM, 2, chat, multiturn, SYSTEM),
    ]
CASES += [
    # lm-eval looks at the first doc when it builds a task: a target past the choices, a choice
    # that is not a string
    _case("target-past-choices", "tasks/badtarget.yaml", ARC, 0),
    _case("choice-not-a-string", "tasks/intchoice.yaml", ARC, 0),
]
# more chat templates (the workbench's built-ins and its parity templates as tokenizer folders)
for template in ("llama3", "mistral", "think", "defaultsystem"):
    chat = f"chat/{template}"
    CASES += [
        _case(f"mc-{template}-mt-system", "tasks/mc.yaml", ARC, 2, chat, True, SYSTEM),
        _case(f"gen-{template}-st", "tasks/gen.yaml", GSM, 2, chat, False),
        _case(f"prefix-{template}-mt", "tasks/prefix.yaml", ARC, 2, chat, True),
        _case(f"wino-{template}-mt", "tasks/wino.yaml", WINO, 2, chat, True),
        _case(f"arc_challenge_chat-{template}-mt", "shipped/arc/arc_challenge_chat.yaml",
              {s: f"shipped/arc/{s}.jsonl" for s in ("test", "train", "validation")}, 2, chat, True, SYSTEM),
    ]
# doc_to_choice giving no list: lm-eval logs an error and iterates what it got (a string's
# characters, a dict's keys); a boolean target indexes the choices (True is 1)
STRCHOICE = {"test": "tasks/strchoice_test.jsonl", "train": "tasks/strchoice_train.jsonl"}
for shots in (0, 2):
    CASES += [
        _case(f"strchoice-{shots}shot", "tasks/strchoice.yaml", STRCHOICE, shots),
        _case(f"strchoice-{shots}shot-chatml", "tasks/strchoice.yaml", STRCHOICE, shots, "chat/chatml", True),
        _case(f"boolchoice-{shots}shot", "tasks/boolchoice.yaml", STRCHOICE, shots),
        _case(f"structchoice-{shots}shot", "tasks/structchoice.yaml", STRCHOICE, shots),
    ]
CASES += [
    # docs typed as a datasets.Dataset holds them: ints beside floats, missing keys, nested dicts
    _case("typed-2shot", "tasks/typed.yaml", {"test": "tasks/typed_test.jsonl", "train": "tasks/typed_train.jsonl"}, 2),
]
# a chat template applied and --fewshot_as_multiturn not given: what a default
# `lm_eval --apply_chat_template` run sends (its command line decides the default)
DEFAULTS = [
    _case("mc-2shot-chat-default", "tasks/mc.yaml", ARC, 2, "chat/chatml"),
    _case("gen-2shot-chat-default", "tasks/gen.yaml", GSM, 2, "chat/chatml"),
    _case("wino-2shot-chat-default", "tasks/wino.yaml", WINO, 2, "chat/chatml"),
    _case("prefix-2shot-chat-default", "tasks/prefix.yaml", ARC, 2, "chat/chatml", None, SYSTEM),
    _case("gen-yamlshots-chat-default", "tasks/gen.yaml", GSM, None, "chat/llama3"),
]
for name, task, splits, shots in SHIPPED:
    folder = task.rsplit("/", 1)[0]
    DEFAULTS.append(_case(f"{name}-kshot-chatml-default", task,
                          {split: f"{folder}/{split}.jsonl" for split in splits}, shots, "chat/chatml"))
CASES += DEFAULTS

# process_docs that draw from the global random state (GPQA's random.shuffle): lm-eval seeds
# Python's random (0) and numpy (1234) before it builds the tasks, in order
SHUFFLE = {"test": "tasks/shuffle_test.jsonl", "train": "tasks/shuffle_train.jsonl"}
SEEDED = [
    _case("shuffle-random-0shot", "tasks/shuffle.yaml", SHUFFLE, 0),
    _case("shuffle-random-2shot", "tasks/shuffle.yaml", SHUFFLE, 2),
    _case("shuffle-numpy-2shot", "tasks/npshuffle.yaml", SHUFFLE, 2),
    _case("shuffle-two-tasks", "tasks/shuffle.yaml", SHUFFLE, 2, also=["tasks/shuffle2.yaml", "tasks/npshuffle.yaml"]),
    _case("shuffle-samesplit-2shot", "tasks/shuffle_samesplit.yaml", {"test": SHUFFLE["test"]}, 2),
    # the shipped GPQA task (random.shuffle in process_docs; its one split is the pool and the docs)
    _case("gpqa-shipped", "../../../shipped_configs/lm_eval/tasks/gpqa/cot_zeroshot/gpqa_main_cot_zeroshot.yaml",
          {"train": "tasks/gpqa_train.jsonl"}),
    # lm-eval's --seed: one value for all four slots; three (the few-shot seed its default)
    _case("shuffle-seed-42", "tasks/shuffle.yaml", SHUFFLE, 2, also=["tasks/npshuffle.yaml"], seed="42"),
    _case("shuffle-seed-three", "tasks/npshuffle.yaml", SHUFFLE, 2, also=["tasks/shuffle.yaml"], seed="5,6,7"),
]
CASES += SEEDED
