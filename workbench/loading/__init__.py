"""From files to a Workspace: configs, rows and model folders read, every error located.

``workspace.py`` puts the pieces together: ``config/`` (Python and data configs, run in an
isolated worker process), ``rows/`` (sample rows), ``models/`` (model folders) and
``files/`` (reading and writing files safely, shared with both front ends).

May import: the core and every loading folder; not views or a front end.
"""
