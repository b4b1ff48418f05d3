"""The front end without a screen: what ``render``, ``snapshot``, ``diff`` and ``verify`` run.

The render filter (``--dataset``/``--sample``/...), streaming samples over worker
processes, the ``render --format`` writers (``formats/``), snapshot files and their
comparison, git revisions for ``diff``, and the one-line reports on stderr.  Only the
formats that draw (html, svg, the lengths charts) use ``views``.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""
