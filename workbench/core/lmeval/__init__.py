"""lm-evaluation-harness (0.4.13) prompt rules: how a task's docs become the requests its
``Instance``s carry. ``sampler`` draws the few-shot examples as lm-eval's samplers do,
``prompt`` builds each doc's context (description, shots, delimiters, the chat path) and its
requests.

The docs reach these modules already resolved (``doc_to_text`` and friends evaluated by the
loader, where a task's Jinja and ``!function`` code run), so everything here is pure.

May import: the top of ``workbench.core`` (errors) and ``workbench.core.tokens``.
"""
