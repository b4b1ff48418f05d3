"""``render --format`` writers: text, json (the public contract), markdown, html and svg.

Each streams the samples it is handed, so memory stays flat.  html and svg draw with the
views (the panes' own renderables); the others need no rich.

May import: views, loading, bundled, the core, rich and the other headless modules; not tui (the
other front end), commands or ``cli``.
"""
