"""A model's local folder read once at load time (tokenizer, chat template, special tokens),
and the sentence-embedding model TopK/VoteK rank with.

May import: the core, loading/files and the other model modules; not loading/config, loading/rows,
the workspace, views or a front end.
"""
