"""``Request.evolve`` is ``dataclasses.replace`` made cheap: the same request, the same errors."""

from __future__ import annotations

from dataclasses import replace

import pytest

from workbench.core.result import Request


def test_evolve_equals_replace():
    request = Request(prompt_list="a", model_input="a", label="A", extra=(("k", 1),))
    for changes in ({"model_text": "t", "tokens": 3}, {"extra": ()}, {}, {"turn": 2, "depends_on": (0, 1)}):
        evolved = request.evolve(**changes)
        assert evolved == replace(request, **changes)
        assert evolved is not request and hash(evolved) == hash(replace(request, **changes))
    assert request.model_text is None  # the original is untouched


def test_evolve_refuses_what_replace_refuses():
    request = Request(prompt_list="a", model_input="a")
    with pytest.raises(TypeError, match="modeltext"):
        request.evolve(modeltext="t")
    with pytest.raises(AttributeError):
        request.evolve(model_text="t").model_text = "u"  # still frozen
