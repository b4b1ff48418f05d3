"""The template language: PromptList, PromptTemplate, RawPromptTemplate, AISBench's multi-turn and
multimodal templates, and the Prompter that picks which template builds the prompt.

May import: the top of ``workbench.core`` (errors, provenance, render_notes). Nothing from the
other core packages, and nothing outside the core.
"""
