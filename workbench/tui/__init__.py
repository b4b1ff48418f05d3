"""The Textual app: ``app.py`` (the screen and its keys), ``messages.py`` (every message a
worker sends), ``panes/`` and ``screens/`` (one widget per module), the watcher, themes and
the background work (``prefetch``, ``pair_check``, ``lengths_jobs``).

May import the core, ``loading`` and ``views``; never ``headless`` (what both front ends
share lives below them).
"""
