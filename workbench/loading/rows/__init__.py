"""A dataset's sample rows: from ``--data``, its local path or data id, a native reader of the
framework's format, the framework's own ``load()``, or placeholders from ``reader_cfg``.

``sample_rows`` decides which source wins; ``loading.models`` gives the tokenizer some
readers need.

May import: the core, loading/models, loading/files and the other rows modules; not loading/config
(its sibling), the workspace, views or a front end.
"""
