"""Prompt Workbench: see what OpenCompass / AISBench prompt configs send to a model."""

__version__ = "0.1.0"
