"""The app's widgets, one per module, grouped by the screen they live on: ``main/`` (the
template tree on the left, the view panes on the right, the footer) and ``lengths/`` (the
lengths screen's histogram).  Each shows renderables from :mod:`workbench.views`; none
formats a prompt itself.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""
