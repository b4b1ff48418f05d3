"""The lengths screen's widget: one model's histogram (plotext, loaded when the screen opens).

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""
