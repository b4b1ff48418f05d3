"""Reimplementations of framework internals the frameworks' output depends on: NLTK's tokenizer
and Punkt, numpy's argsort order and legacy random, Arrow's row typing.

May import: the standard library and each other; nothing else of the workbench. The generated
tables they read live in ``data/`` (read with ``importlib.resources``).
"""
