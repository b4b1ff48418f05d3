"""Lint: rules over a rendered pair, each raising findings under a stable id (docs/lint.md).

A rule is a pure function of one :class:`~.context.LintContext` (a ``PairRenderer`` and what
the command adds, such as ``--overlap`` rows) that yields :class:`~..findings.Finding`; the ids
and severities are the rows of ``core/findings.py``'s ``RULES``. Findings the render itself
raises (PW101 unknown-key, PW201 unsent-generation-prompt, PW202 unfilled-placeholder, PW203
doubled-bos) are listed from the render, not found a second time.

Modules: ``context`` (what a rule sees), ``seams`` (whitespace at the seams), ``markers``
(special tokens, SYSTEM content), ``sizes`` (columns, max_seq_len, thinking), ``token_marks``
(the token seams' marks, the loglikelihood mask), ``few_shot`` (the in-context examples), ``run``
(every rule over a pair, select/ignore), ``listing`` (a workspace's findings). PW213
``answer-format`` is raised by the front ends (the extraction self-test runs in a bounded child)
and listed from the result's warnings.

May import: every core module below ``lazy_pairs`` (render, seam_report and what they use);
nothing outside the core.
"""
