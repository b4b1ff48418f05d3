"""Retrievers: which training rows become in-context examples (Zero, Fix, Random, BM25, TopK,
VoteK, ...) and how they are joined.

May import: the top of ``workbench.core``, ``templates`` and ``replicas``. Nothing outside the core.
"""
