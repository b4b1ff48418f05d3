"""``render --format`` writers: text, json (the public contract), markdown, html and svg.

Each streams the samples it is handed, so memory stays flat.  html and svg draw with the
views (the panes' own renderables); the others need no rich.
"""
