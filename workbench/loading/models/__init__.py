"""A model's local folder read once at load time (tokenizer, chat template, special tokens),
and the sentence-embedding model TopK/VoteK rank with.  May import the core and
``loading.files``.
"""
