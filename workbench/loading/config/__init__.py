"""Configs as mmengine reads them, without mmengine: run in a worker process, plain data back.

``worker`` (the isolated process) → ``config_file`` (a file's datasets and models) →
``executor`` (runs the file) → ``analysis`` (mode, bases, compiled code), ``bases``
(classic ``_base_`` merging), ``data_config`` (JSON/YAML/TOML) → ``stand_ins``
(ConfigDict, FrameworkRef, ``read_base``).  Each module imports only the ones after it.

May import: the core, loading/files and the other config modules; not loading/models, loading/rows,
the workspace, views or a front end.
"""
