"""Files read and written safely, for every layer above: untrusted paths read only when they
name a regular file within a size (``reading``), exports and snapshots replaced whole or
not at all (``atomic``).

May import: the standard library and the core's errors; nothing else of the workbench (every layer
above reads and writes through it).
"""
