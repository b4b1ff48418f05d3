"""The Textual app: ``app.py`` (the screen and its keys), ``messages.py`` (every message a
worker sends), ``widgets/`` and ``screens/`` (one widget per module), the watcher, themes and
the background work (``prefetch``, ``pair_check``, ``lengths_jobs``). What both front ends
share lives below them, so the app never imports ``headless``.

May import: views, loading, bundled, the core, textual (and textual-plotext), rich, watchfiles and
the other tui modules; not headless (the other front end), commands or ``cli``.
"""
