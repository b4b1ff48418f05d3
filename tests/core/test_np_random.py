"""workbench.core.replicas.numpy_random against numpy 1.x goldens (tools/gen_retriever_goldens.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.replicas.numpy_random import LegacyRandomState, random_retriever_picks

GOLDENS = json.loads(
    (Path(__file__).parent / "data" / "random_retriever_goldens.json").read_text(encoding="utf-8")
)


def _case_id(case: dict) -> str:
    return f"seed{case['seed']}-n{case['num_train']}-rows{case['num_test']}-k{case['ice_num']}"


@pytest.mark.parametrize("case", GOLDENS["cases"], ids=_case_id)
def test_random_retriever_picks(case: dict) -> None:
    got = random_retriever_picks(
        case["seed"], case["num_train"], case["num_test"], case["ice_num"]
    )
    assert got == case["picks"]


def test_default_seed_is_covered() -> None:
    assert any(case["seed"] == 43 for case in GOLDENS["cases"])


@pytest.mark.parametrize("case", GOLDENS["errors"], ids=lambda c: f"n{c['n']}-k{c['k']}")
def test_choice_errors_match_numpy_and_consume_nothing(case: dict) -> None:
    state = LegacyRandomState(case["seed"])
    with pytest.raises(ValueError) as info:
        state.choice_without_replacement(case["n"], case["k"])
    assert str(info.value) == case["error"]
    assert state.choice_without_replacement(10, 3) == case["then"]


@pytest.mark.parametrize("case", GOLDENS["empty"], ids=lambda c: f"n{c['n']}-k{c['k']}")
def test_degenerate_choices(case: dict) -> None:
    state = LegacyRandomState(case["seed"])
    assert state.choice_without_replacement(case["n"], case["k"]) == case["picks"]
    assert state.choice_without_replacement(10, 3) == case["then"]


def test_larger_sample_than_population_message() -> None:
    message = r"^Cannot take a larger sample than population when 'replace=False'$"
    with pytest.raises(ValueError, match=message):
        random_retriever_picks(43, 3, 1, 4)


@pytest.mark.parametrize("case", GOLDENS["seed_errors"], ids=lambda c: str(c["seed"]))
def test_seed_range(case: dict) -> None:
    with pytest.raises(ValueError) as info:
        LegacyRandomState(case["seed"])
    assert str(info.value) == case["error"]


@pytest.mark.parametrize("seed", sorted(GOLDENS["words"]))
def test_raw_words(seed: str) -> None:
    state = LegacyRandomState(int(seed))
    expected = GOLDENS["words"][seed]
    assert [state.random_uint32() for _ in expected] == expected


@pytest.mark.parametrize(
    "case", GOLDENS["intervals"], ids=lambda c: f"seed{c['seed']}-max{c['max']}"
)
def test_bounded_integers(case: dict) -> None:
    state = LegacyRandomState(case["seed"])
    assert [state.random_interval(case["max"]) for _ in case["draws"]] == case["draws"]


def test_word_stream_is_shared_between_calls() -> None:
    # Mixing raw draws and shuffles must not skip or repeat words.
    a = LegacyRandomState(43)
    b = LegacyRandomState(43)
    first = a.random_uint32()
    assert b.random_uint32() == first
    assert a.permutation(700) == b.permutation(700)
    assert a.random_uint32() == b.random_uint32()


def test_seed_accepts_integer_like_only() -> None:
    assert LegacyRandomState(True).choice_without_replacement(5, 5) == LegacyRandomState(
        1
    ).choice_without_replacement(5, 5)
    with pytest.raises(TypeError):
        LegacyRandomState(1.5)  # type: ignore[arg-type]
