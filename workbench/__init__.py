"""Prompt Workbench: see what OpenCompass / AISBench prompt configs send to a model.

May import: nothing: importing the package loads none of it, so ``workbench --version`` stays quick.
"""

__version__ = "0.1.0"
