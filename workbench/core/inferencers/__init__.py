"""Inferencer plans: the requests one test row turns into, per inferencer type, and
OpenCompass's ``max_seq_len`` truncation loop.

May import: the top of ``workbench.core``, ``templates``, ``models`` and ``retrievers``.
"""
