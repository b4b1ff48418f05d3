"""The main screen's widgets: the template tree (left), a view pane (each of the four on the
right: PromptList, final input, timeline) and the footer.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""
