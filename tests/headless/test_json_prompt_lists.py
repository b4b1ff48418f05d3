"""The JSON export encodes a prepared template's shared items once, and writes what dumps would."""

from __future__ import annotations

import json

from workbench.core.templates.prompt_list import PromptList
from workbench.core.templates.prompt_template import PromptTemplate
from workbench.headless.formats import json_encoding
from workbench.headless.formats.json_encoding import PromptListJson, dumps

TEMPLATE = {"begin": [{"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": "Be brief. 中文 \u202e"}, "</E>"],
            "round": [{"role": "HUMAN", "prompt": "Q: {question}"}, {"role": "BOT", "prompt": "A: {answer}"}]}
ICE = PromptList([{"role": "HUMAN", "prompt": "Q: 1 + 1 \x7f"}, {"role": "BOT", "prompt": "A: 2"}])


def _filled(rows):
    template = PromptTemplate(TEMPLATE, ice_token="</E>")
    return [template.generate_item([("{question}", q), ("{answer}", a)], "answer", "", ICE) for q, a in rows]


def test_the_text_is_what_dumps_gives_and_shared_items_are_encoded_once(monkeypatch):
    encoded = []

    def counting_dumps(value, indent=None):
        encoded.append(value)
        return dumps(value, indent)

    monkeypatch.setattr(json_encoding, "dumps", counting_dumps)
    prompts = _filled([("What is 2 + 2 \u2028", "4"), ("What is 3 + 3", "6"), ("{answer}?", "7")])
    cached = PromptListJson()
    for prompt in prompts:
        assert cached(prompt) == dumps(prompt)
        assert json.loads(cached(prompt)) == json.loads(json.dumps(prompt))
    shared = [i for i, item in enumerate(prompts[0]) if item is list.__getitem__(prompts[0].filled_from, i)]
    filled = len(prompts[0]) - len(shared)
    assert shared and filled  # the examples and markers are shared, the test row's turn is not
    # each call: its filled items; the shared ones only the first time
    assert len(encoded) == len(shared) + len(prompts) * 2 * filled


def test_lists_that_are_not_prepared_fills_are_never_cached():
    """A multi-turn history changes its dicts in place between requests: no cache for it."""
    cached = PromptListJson()
    turn = {"role": "assistant", "content": ""}
    history = [{"role": "user", "content": "hi"}, turn]
    assert cached(history) == dumps(history)
    turn["content"] = "answer"
    assert cached(history) == dumps(history)
    assert cached("a string prompt") == dumps("a string prompt")
