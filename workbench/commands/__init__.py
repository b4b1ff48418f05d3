"""One module per ``workbench`` command; ``workbench.cli`` only dispatches.

Each module defines ``build_parser()`` and ``run(argv) -> int``. Imports stay inside
``run`` so ``--help`` is fast and headless commands never import Textual.  The top
layer: may import every package below (``headless``, ``tui``, ``views``, ``loading``,
the core); nothing imports it but ``workbench.cli``.
"""

EXIT_OK, EXIT_DIFF, EXIT_USAGE, EXIT_CONFIG = 0, 1, 2, 3
