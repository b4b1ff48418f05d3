"""The template tree of an lm-eval task: its include chain, the YAML's fields with the file:line
of the chain that set each (a ``!function`` with the line it is defined at), what the command
line and lm-eval's defaults decided, and where the docs came from; not the stand-in template
the Workspace renders it by."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from workbench.loading.lmeval_settings import TaskSettings
from workbench.loading.workspace import load_workspace
from workbench.views.options import ViewOptions
from workbench.views.template_tree import template_tree, tree_view

TASKS = Path(__file__).resolve().parent.parent / "parity" / "lmeval" / "tasks"
ARC = [f"test={TASKS / 'arc_test.jsonl'}", f"train={TASKS / 'arc_train.jsonl'}"]
GSM = [f"test={TASKS / 'gsm_test.jsonl'}", f"train={TASKS / 'gsm_train.jsonl'}"]


def nodes(task: str, data: list[str], settings: TaskSettings | None = None) -> dict:
    ws = load_workspace([str(TASKS / task)], data=data, lmeval=settings)
    assert ws.errors == []
    opts = ViewOptions(root=TASKS)
    roots = template_tree(ws.datasets, ws.models, opts)
    return {n.key[2:]: n for root in roots for n in root.walk()}, roots, opts


def drawn(roots, opts) -> str:
    console = Console(width=160, record=True, color_system=None)
    console.print(tree_view(roots, opts))
    return console.export_text()


def test_the_include_chain_and_each_field_where_the_chain_set_it():
    found, roots, opts = nodes("firstn.yaml", ARC)
    chain = found[("lm_eval_chain",)]
    assert chain.label.plain == "include chain  firstn.yaml → base.yaml"
    assert [n.label.plain for n in chain.children] == ["firstn.yaml  the task",
                                                       "base.yaml  included at firstn.yaml:2"]
    # the task's own keys are its file's; the rest come from the base it includes
    assert found[("lm_eval", "task")].label.plain == "task  arc_firstn  firstn.yaml:1"
    assert found[("lm_eval", "doc_to_choice")].label.plain == "doc_to_choice  {{choices.text}}  base.yaml:7"
    assert found[("lm_eval", "fewshot_delimiter")].label.plain == "fewshot_delimiter  '↵###↵'  firstn.yaml:6"
    # a key inside a field: its own line
    sampler = found[("lm_eval", "fewshot_config", "sampler")]
    assert sampler.label.plain == "sampler  first_n  firstn.yaml:4"
    assert (Path(sampler.location.file).name, sampler.location.line) == ("firstn.yaml", 4)
    text = drawn(roots, opts)
    assert "arc_firstn  lm-eval · multiple_choice" in text
    for stand_in in ("reader_cfg", "prompt_template", "{context}", "retriever", "LLInferencer"):
        assert stand_in not in text, stand_in


def test_a_function_shows_where_it_is_defined_and_the_render_what_decided_it():
    found, roots, opts = nodes("gen.yaml", GSM)
    assert found[("lm_eval", "process_docs")].label.plain == \
        "process_docs  !function utils.process_docs (utils.py:4)  gen.yaml:8"
    assert found[("lm_eval", "doc_to_text")].label.plain == \
        "doc_to_text  !function utils.doc_to_text (utils.py:1)  gen.yaml:6"
    decided = {k[1]: n.label.plain for k, n in found.items() if k[:1] == ("lm_eval_render",) and len(k) == 2}
    assert decided["shots"] == "shots  3  num_fewshot gen.yaml:12"
    assert decided["few-shot split"] == "few-shot split  train  fewshot_split gen.yaml:5"
    assert decided["until"].startswith("until  ") and decided["until"].endswith("generation_kwargs gen.yaml:9")
    assert decided["target_delimiter"] == "target_delimiter  '·'  default"
    assert decided["chat template"] == "chat template  none  default"
    assert found[("rows",)].label.plain == "rows  file: test: gsm_test.jsonl · train: gsm_train.jsonl"
    # fields that do not decide the prompt come after, closed
    assert "other fields" not in drawn(roots, opts)  # (gen.yaml has none)


def test_what_the_command_line_decided_is_in_effect():
    settings = TaskSettings(num_fewshot=2, seed=7, system_instruction="Be brief.")
    found, _, _ = nodes("mc.yaml", ARC, settings)
    decided = {k[1]: n.label.plain for k, n in found.items() if k[:1] == ("lm_eval_render",) and len(k) == 2}
    assert decided["shots"] == "shots  2  --num-fewshot"
    assert decided["seed"] == "seed  7  --fewshot-seed"
    assert decided["system instruction"] == "system instruction  Be brief.  --system-instruction"
    zero, _, _ = nodes("zero.yaml", ARC, TaskSettings(num_fewshot=3))
    assert zero[("lm_eval_render", "shots")].label.plain.startswith("shots  0  num_fewshot: 0 wins over --num-fewshot")


def test_a_generation_task_under_a_chat_template_says_how_its_shots_were_sent():
    chat = str(TASKS.parent / "chat" / "chatml")
    for settings, said in ((TaskSettings(num_fewshot=1, apply_chat_template=True),
                            "fewshot_as_multiturn  true  default: on with a chat template"),
                           (TaskSettings(num_fewshot=1, apply_chat_template=True, fewshot_as_multiturn=False),
                            "fewshot_as_multiturn  false  --fewshot-as-multiturn")):
        ws = load_workspace([str(TASKS / "gen.yaml")], data=GSM, chat_template=chat, lmeval=settings)
        assert ws.errors == []
        found = {n.key[2:]: n for root in template_tree(ws.datasets, ws.models, ViewOptions(root=TASKS))
                 for n in root.walk()}
        assert found[("lm_eval_render", "fewshot_as_multiturn")].label.plain == said
        assert found[("lm_eval_render", "chat template")].label.plain == \
            "chat template  chatml/tokenizer_config.json (chat_template)  --apply-chat-template"
        assert found[("lm_eval_render", "until")].label.plain.endswith("generation_kwargs gen.yaml:9")
