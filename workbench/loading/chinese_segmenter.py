"""jieba's word segmenter for ``general_cn_postprocess``, from the ``chinese`` extra (optional).

The real function calls ``jieba.cut`` with jieba's default dictionary (the ``dict.txt`` its
package ships). That dictionary is read here once per process, straight from the package:
jieba's own start-up would also load, or write, a ``jieba.cache`` in the shared temporary
folder, a file another user could have written (and a stale one is never rebuilt for the
default dictionary). The words are the same either way; only where the prefix table comes from
differs. Built in the parent before a pair's child is forked, so each pair reuses it (``extract``,
``lint``, ``render``); the app's self-tests build it in the config worker's child that needs it.

May import: the core; not the rest of loading, views or a front end.
"""

from __future__ import annotations

from functools import cache

from ..core.answers.catalog import Unresolved
from ..core.answers.text_postprocessors import Segment
from ..core.extras import install_hint


@cache
def jieba_segmenter() -> Segment:
    """``jieba.cut`` (accurate mode, HMM on: the real call's defaults) over the shipped dictionary.

    Raises Unresolved, with what to install, when jieba is not importable."""
    try:
        # lazy: an optional extra (jieba, the `chinese` extra)
        import jieba
    except ImportError:
        raise Unresolved("general_cn_postprocess segments Chinese with jieba, which is not installed: the "
                         "framework scores it", hint=install_hint("chinese")) from None
    tokenizer = jieba.Tokenizer()
    tokenizer.FREQ, tokenizer.total = tokenizer.gen_pfdict(tokenizer.get_dict_file())
    tokenizer.initialized = True
    cut = tokenizer.cut

    def segment(text: str) -> list[str]:
        return list(cut(text))

    return segment
