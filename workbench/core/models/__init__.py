"""Models: meta templates, the model class tables, what a model receives (model_input), the
text after its chat template (model_text), the files read for it (model_assets), and the wire
requests (``wire/``).

May import: the top of ``workbench.core``, ``templates`` and ``tokens``. Nothing outside the core.
"""
