"""Answers: what OpenCompass 0.5.4's evaluation task makes of a recorded prediction.

Pure functions of the text and the config (no I/O, no clock), each a rewrite of the framework's
behaviour, bugs included, checked against goldens the real functions wrote
(``tools/gen_answer_goldens.py``):

- ``text_postprocessors``: ``opencompass.utils.text_postprocessors`` (first_option,
  first/last_capital, match_answer_pattern, extract_non_reasoning_content, ...);
- ``math_answers``: ``opencompass.datasets.math``'s boxed-answer extraction, normalisation and
  ``MATHEvaluator``'s equivalence (v1 and v2);
- ``dataset_postprocessors``: the dataset modules' postprocessors (gsm8k, bbh, needlebench,
  mathbench, TheoremQA, InfiniteBench, strategyqa, humaneval);
- ``trace``: the rule a rewrite matched and the span it read (its ``trace_*`` functions compute the
  value: the plain function is that value), placed in the recorded prediction through the steps
  that cut it;
- ``catalog``: a config's ``type`` (a function's dotted path, a dotted string or a
  ``TEXT_POSTPROCESSORS`` key) to its native rewrite, or a refusal naming what is missing;
- ``evaluators``: the per-sample verdicts and the score of the plain evaluators;
- ``chain``: one (dataset, model) pair's predictions through the task's order (pred_role, the
  model's ``pred_postprocessor``, ``eval_cfg.pred_postprocessor``, the evaluator's own), its
  references through ``eval_cfg.dataset_postprocessor``, and the verdicts:
  ``plan_pair(dataset_cfg, model_cfg, fallback=None) -> PairPlan`` once per pair (PairFailure
  where the real task fails before reading a prediction, Unresolved for a function with no
  rewrite unless ``fallback`` stands in for it), then ``extract_pair(plan, [(index, record)])
  -> PairAnswers`` (``samples``: index, prediction, extracted, gold, correct, match; ``accuracy``,
  ``metric``); ``apply_step`` runs one step over a list of texts;
- ``self_test``: the config's own exemplars and asked answer format through its chain.

Untrusted model output only ever meets the frameworks' own patterns or the config's; the
command runs each pair in a bounded child process, so a pattern that backtracks forever ends
that pair with a located error, not the run.

May import: the standard library, ``workbench.core.errors``, ``workbench.core.package_data`` and
``workbench.core.models`` (whether a model class is an API model).
"""
