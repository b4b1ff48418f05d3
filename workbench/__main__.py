"""The ``python -m workbench`` entry: the same as the ``workbench`` command.

May import: :mod:`workbench.cli` only (the top of the layer contract in pyproject.toml).
"""

from .cli import main

raise SystemExit(main())
