"""Why a fast path steps aside: each rule that sends a row (or a whole form, or pair)
back to the interpreter, named once, and how often each applied in this process.

A splice or a stamp gives the interpreter's bytes only where its rules hold; where one does
not, the fast path calls :func:`refuse` with the rule's name and the sample is rendered the
usual way. The rules below are that promise written down; the differential harness
(tests/differential) prints how often each one applied over its inputs, so a rule no input
reaches is seen, and a change that makes the fast wing step aside more often shows.

Counting costs nothing on the fast path itself: only a refusal counts.

May import: the standard library only (the core's bottom layer).
"""

from __future__ import annotations

from collections import Counter

#: rule -> what it guards against (the splice's, then the stamp's, then the stamp writer's)
RULES: dict[str, str] = {
    # a pair whose requests cannot be spliced at all (sample_form.splices)
    "plan-reads-row": "the plan or template reads the test row beyond its filled values (multi-round "
                      "Gen, Chat/MultiTurn, LL's cont, raw and multimodal templates, recorded outputs)",
    # a form that is not built, or not used (sample_form.Forms)
    "marked-column": "a column name holds a stand-in mark",
    "render-looked": "the form's render looked at the row, changed a stand-in, made something the "
                     "compiler does not copy, or put a value inside braces where it could complete a field",
    "render-failed": "the form's render raised: the real render raises or warns the same way",
    "render-warned": "the form's render warned: the real render counts each warning",
    "too-many-forms": "the pair has 64 example sets with a form already",
    "splice-differs": "the form's splice of its first row differs from that row's real render",
    # a row a checked form does not splice (sample_form.Form.values_of / splice)
    "value-refills": "a value holds a {column}, an unclosed { or an unopened } (any brace, where a "
                     "column's name holds one), or a stand-in mark: the fill replaces {column} column "
                     "after column across the whole text, so it could fill the value again",
    "value-too-long": "the row's values could take a fill past its size bound",
    "prompt-past-max-seq-len": "a spliced prompt is longer than max_seq_len: the real loop drops examples",
    # a form that does not stamp (sample_form.Form.finish / Forms.check)
    "pair-not-stamped": "an API model's wire, or recorded outputs: each row is a sample",
    "model-text-unlaid": "the model's side is not the same cut again (a chat template not outlined, a "
                         "model class that warns, a max_seq_len measure of another text)",
    "value-in-bos-check": "a value could start within the characters a BOS check reads",
    "sections-unknown": "the stand-in requests' provenance render failed, or a content is not found "
                        "where the chat template put it",
    "form-differs": "the form's first stamp says something other than that row's usual render",
    # a row a checked form does not stamp (sample_form.Form.numbers)
    "chat-bounds": "the row's contents could reach the chat template's sandbox bounds",
    "content-misplaced": "a content with a value is found elsewhere than where the chat template put it",
    # a stamp written the usual way (headless/formats/stamp_writer.py)
    "pieces-uncut": "the format's text of the form could not be cut at its stand-ins and marks",
    "value-unescaped": "a value the format does not write character by character",
    "pieces-differ": "the form's pieces wrote its first stamp otherwise than the usual writer",
}

hits: Counter[str] = Counter()


def refuse(rule: str) -> None:
    """Count one application of ``rule`` (a name of :data:`RULES`)."""
    assert rule in RULES, rule
    hits[rule] += 1
