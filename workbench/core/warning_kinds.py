"""Which warnings mean "the real run differs from what you see, or fails".

A warning either says such a thing (the framework crashes here, a placeholder is sent as
written, the rows are stand-ins, the model is sent prompts the workbench does not build) or it
is a note on a faithful render (a quirk reproduced, a count that varies by day). ``--strict``
makes the first kind errors (exit 3); without it, each is said once and counted. The table is
the one place the kinds are decided: docs/ci.md lists both kinds, and
tests/headless/test_strict.py holds messages of each kind, and of real renders, to it.

The kind is read from the message (each is written in one place, by the module named beside
its pattern): keeping it beside the text avoids a second field on every warning path.

May import: the standard library only: it is the core's bottom layer, which every other core
module may use.
"""

from __future__ import annotations

import re

#: (pattern searched in the message, what it is, where it is said). Every message that matches
#: one means the real run differs from what is shown, or fails.
DIFFERS: tuple[tuple[str, str, str], ...] = (
    (r" fails here: ", "a framework failure; rendered as the docs describe, or the request the class "
     "fails on", "framework_fails (render_notes), wire builders"),
    (r"^no request on the wire: ", "a request the class would refuse, fail on, or cut before sending",
     "render._with_wire"),
    (r"; its requests show wire null$", "a model class that sends nothing with this config", "wire"),
    (r"every request fails$", "a model class that fails every request", "wire (MindIE)"),
    (r"^no rows found \(looked for ", "placeholder rows: the real rows were not found", "lazy_pairs"),
    (r"showing placeholders from reader_cfg", "placeholder rows: a reader declined", "loading/rows"),
    (r"but a run of the framework fails here$", "rows the framework's load() cannot read",
     "loading/rows"),
    (r"matches no column of the rows, so ", "an unfilled placeholder: a {field} no column fills",
     "render, raw_prompt_template"),
    (r"rows have no such column, so ", "an unfilled placeholder: an input column the rows lack", "render"),
    (r"neither framework runs this pair as written", "a dataset and a model of different frameworks",
     "render"),
    (r"AISBench's command line refuses this config", "a config ais_bench refuses before it runs (no "
     "summarizer, a model or dataset without abbr)", "loading/workspace"),
    (r"is not a class the frameworks ship", "an unknown model class, rendered as a local model",
     "model_input"),
    (r"the LLM's prompts come from the agent's protocol", "an agent model class", "model_input"),
    (r"FastChat's conversation template, which the workbench does not reproduce",
     "a fastchat_template model", "model_text"),
    (r"every in-context example is kept$", "max_seq_len not measured as the framework measures it",
     "common_plans"),
    (r"APPROXIMATE: measured with", "max_seq_len measured with an estimate: other examples may drop",
     "truncation"),
    (r"the model wrapper then truncates tokens itself", "prompts the model wrapper cuts further",
     "truncation"),
    (r"is not a local folder: modelled as GPT-2's", "TopK/VoteK embeddings through a stand-in tokenizer",
     "embedding_retrievers"),
    (r"before embedding, which may cut them", "TopK/VoteK rows embedded whole that the framework cuts",
     "embedding_retrievers"),
    (r"dataset code the workbench does not run", "tree search prompts built by dataset code",
     "generation_plans"),
    (r"the attacked prompts promptbench tries next", "promptbench's attacked prompts",
     "generation_plans"),
    (r"the agent's protocol \(lagent\) builds the LLM's prompts", "an agent inferencer",
     "generation_plans"),
    (r"^SWCELossInferencer: the model gets the token ids", "sliding-window token ids", "likelihood_plans"),
    (r"which (?:OpenCompass|AISBench) \S+ does not have \(ModuleNotFoundError",
     "a config that imports a module the framework lacks", "loading/config"),
    (r"has no predictions in the run", "a model task that did not run (verify)", "commands/verify"),
)

_PATTERN = re.compile("|".join(f"(?:{p})" for p, _, _ in DIFFERS))


def real_run_differs(message: str) -> bool:
    """Whether this warning says the real run differs from what is shown, or fails."""
    return _PATTERN.search(message) is not None
