"""The front end without a screen: what ``render``, ``snapshot``, ``diff`` and ``verify`` run.

The render filter (``--dataset``/``--sample``/...), streaming samples over worker
processes, the ``render --format`` writers (``formats/``), snapshot files and their
comparison, git revisions for ``diff``, and the one-line reports on stderr.  May import
the core, ``loading`` and, where a format draws (html, svg, the lengths charts), ``views``;
never ``tui``.
"""
