"""The lm-eval parity cases: task, docs per split and the command line's choices (shared by
tools/gen_lmeval_goldens.py, which writes goldens/<name>.json with lm-eval 0.4.13, and
tests/parity/test_lmeval_parity.py, which renders the same with the workbench)."""

ARC = {"test": "tasks/arc_test.jsonl", "train": "tasks/arc_train.jsonl"}
GSM = {"test": "tasks/gsm_test.jsonl", "train": "tasks/gsm_train.jsonl"}
WINO = {"test": "tasks/wino_test.jsonl", "train": "tasks/wino_train.jsonl"}
SYSTEM = "You are a careful assistant."


def _case(name, task, data, shots=None, chat=None, multiturn=None, system=None):
    return {"name": name, "task": task, "data": data, "num_fewshot": shots, "chat": chat,
            "multiturn": multiturn, "system": system}


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
