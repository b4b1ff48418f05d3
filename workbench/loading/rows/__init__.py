"""A dataset's sample rows: from ``--data``, its local path or data id, a native reader of the
framework's format, the framework's own ``load()``, or placeholders from ``reader_cfg``.

``sample_rows`` decides which source wins.  May import the core, ``loading.files`` and
``loading.models`` (a tokenizer some readers need); never ``loading.config``.
"""
