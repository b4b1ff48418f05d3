"""The core: what a prompt config sends to a model, computed from data. Pure and deterministic:
no file system, clock, environment or UI (the loader passes in everything from the machine).

From the bottom up (each layer may import only the ones below it; pyproject.toml's
``[tool.importlinter]`` checks it):

- the shared types: ``errors``, ``spec`` (what the loader hands over), ``result`` (what a render
  gives), ``provenance`` (strings that know where each character came from), ``render_notes``,
  ``package_data``, ``memo``, ``abbr``, ``inert_text``;
- ``replicas/``: framework internals the output depends on (nltk's tokenizer, numpy's argsort
  and legacy random, rank_bm25, Arrow's row typing);
- ``templates/`` (the template language), ``tokens/`` (counting, chat templates in a sandbox),
  ``dataset_reader`` (rows to train/test splits);
- ``models/`` (meta templates, model classes, model input and text, the wire requests) and
  ``retrievers/`` (in-context example picks);
- ``inferencers/`` (the requests one row turns into; max_seq_len truncation);
- ``render`` (one pair rendered), then ``lazy_pairs`` (a workspace's pairs, and
  ``render_workspace``), ``lengths``, ``verify``, ``warning_groups``.
"""
