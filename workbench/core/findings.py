"""Findings: problems the core finds in a config, each under a stable id.

A finding is what a render error or warning is, plus the rule that raised it: ``PW101
unknown-key`` is the same finding whether ``render`` prints it on stderr, the JSON lists it, the
app shows it, or a later lint command lists it. The rules are the table below (docs/findings.md
lists them for users); an error raised for one carries ``rule`` (``WorkbenchError.rule``), a
warning is added to a pair's Notes with :meth:`Notes.find <.render_notes.Notes.find>`.

Severity: ``error`` (the real run fails: the pair is not rendered, exit 3) or ``warning`` (it
runs, and what it sends is not what the config seems to say).

May import: the standard library only: it is the core's bottom layer, which every other core
module may use.
"""

from __future__ import annotations

from dataclasses import dataclass

ERROR = "error"
WARNING = "warning"
INFO = "info"  # a fact worth knowing (the same examples for every row), never a failure
#: Severities, highest first (``lint --fail-on`` compares by this order).
SEVERITIES = (ERROR, WARNING, INFO)


@dataclass(frozen=True)
class Rule:
    id: str  # "PW101": never reused, never renumbered
    name: str  # "unknown-key": what --select/--ignore may name too
    severity: str  # ERROR, WARNING or INFO
    summary: str  # one line: what it catches


RULES: dict[str, Rule] = {r.id: r for r in (
    Rule("PW101", "unknown-key", ERROR,
         "a key the class built from that dict does not accept (the framework raises TypeError)"),
    Rule("PW201", "unsent-generation-prompt", WARNING,
         "a generating turn's prompt the meta template never sends (it generates at the role's begin)"),
    Rule("PW202", "unfilled-placeholder", WARNING,
         "a {field} in a template that no column fills, so it is sent as written"),
    Rule("PW203", "doubled-bos", WARNING,
         "the text the model gets starts with two BOS tokens"),
    Rule("PW204", "trailing-space-at-generation", WARNING,
         "the input ends with a space where the model starts generating (a lone space token)"),
    Rule("PW205", "double-space", INFO,
         "two spaces in a row in a template's own text"),
    Rule("PW206", "example-separator", WARNING,
         "in-context examples run together, or are joined otherwise than the test item follows them"),
    Rule("PW207", "special-token-in-template", WARNING,
         "a role tag or special token typed into a template while the model's template adds them"),
    Rule("PW208", "special-token-in-rows", WARNING,
         "rows hold a role tag or special token the model's template also adds"),
    Rule("PW209", "system-dropped", WARNING,
         "SYSTEM or begin content the model class drops, or merges into another turn"),
    Rule("PW210", "unused-input-column", INFO,
         "a reader_cfg input column no template names"),
    Rule("PW211", "over-max-seq-len", WARNING,
         "max_out_len plus the 95th-percentile prompt length exceeds max_seq_len"),
    Rule("PW212", "thinking-undecided", WARNING,
         "a hybrid-thinking chat template (enable_thinking) and no decision in the config"),
    Rule("PW213", "answer-format", WARNING,
         "the evaluator cannot read the answer the template's own exemplar shows or its prompt asks for"),
    Rule("PW214", "merge-across-seam", WARNING,
         "a token holds the end of the context and the start of the scored continuation"),
    Rule("PW215", "space-before-continuation", WARNING,
         "a scored continuation starts with a space after a context that ends with one"),
    Rule("PW216", "control-token-in-data", WARNING,
         "a row's text tokenizes as a control token of the model's tokenizer"),
    Rule("PW217", "loglikelihood-mask", WARNING,
         "OpenCompass's HuggingFaceBaseModel.get_loglikelihood scores nearly the whole text, not the "
         "continuation"),
    Rule("PW301", "test-row-in-examples", WARNING,
         "a test row appears among its own in-context examples"),
    Rule("PW302", "duplicate-shots", WARNING,
         "the same example twice in one prompt"),
    Rule("PW303", "fixed-shots", INFO,
         "every row gets the same in-context examples"),
    Rule("PW304", "shot-label-imbalance", WARNING,
         "one label dominates a prompt's in-context examples"),
    Rule("PW305", "example-test-overlap", WARNING,
         "an example of the pool is a near-duplicate of a test row (lint --overlap FILE)"),
)}


def rule(rule_id: str) -> Rule:
    """The rule of an id (KeyError for an id no rule has: ids are written in code, not read)."""
    return RULES[rule_id]


@dataclass(frozen=True)
class Finding:
    """One finding: its rule, where its cause was written, what is wrong and what to do."""

    rule: str  # a key of RULES
    message: str
    hint: str | None = None
    file: str | None = None
    line: int | None = None
    #: the part of the dataset's config at fault, when the core knows no line yet (the render
    #: turns it into file and line, as it does for a RenderError's ``key_path``)
    key_path: tuple | None = None

    @property
    def severity(self) -> str:
        return RULES[self.rule].severity

    @property
    def name(self) -> str:
        return RULES[self.rule].name

    @property
    def tag(self) -> str:
        return tag(self.rule)


def tag(rule_id: str) -> str:
    """``PW101 unknown-key``: how every front end names a finding."""
    return f"{rule_id} {RULES[rule_id].name}"
