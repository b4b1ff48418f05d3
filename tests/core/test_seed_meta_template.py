"""The meta-template design doc's MOSS example (spec/seeds/004), in gen and ppl mode."""

from __future__ import annotations

from tests.conftest import make_pair

MOSS = {
    "begin": "meta instruction\nYou are an AI assistant.\n",
    "round": [
        {"role": "HUMAN", "begin": "<|HUMAN|>:", "end": "脷\n"},
        {"role": "THOUGHTS", "begin": "<|Inner Thoughts|>:", "end": "茔\n", "prompt": "None"},
        {"role": "COMMANDS", "begin": "<|Commands|>:", "end": "蝮\n", "prompt": "None"},
        {"role": "RESULTS", "begin": "<|Results|>:", "end": "兒\n", "prompt": "None"},
        {"role": "BOT", "begin": "<|MOSS|>:", "generate": True, "end": "氡\n"},
    ],
    "end": "end of conversion",
    "reserved_roles": [{"role": "SYSTEM", "begin": "<|SYSTEM|>: ", "end": "\n"}],
    "eos_token_id": 65605,
}
MODEL = {"type": "HuggingFaceCausalLM", "path": "moss", "meta_template": MOSS}
QUESTION = "Which of the following is NOT a characteristic of an oligotrophic lake?"
ROW = {"input": QUESTION, "A": "Low nutrient levels", "B": "High altitudes", "C": "Shallow water",
       "D": "Sand or gravel bottom", "target": "A"}
READER = {"input_columns": ["input", "A", "B", "C", "D"], "output_column": "target"}
HUMAN_PROMPT = "{input}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\nAnswer: "
FILLED = f"{QUESTION}\nA. Low nutrient levels\nB. High altitudes\nC. Shallow water\nD. Sand or gravel bottom\nAnswer: "
SYSTEM = "The following are multiple choice questions (with answers) about physics."


def mmlu_dataset(inferencer: str) -> dict:
    template = {
        "begin": [{"role": "SYSTEM", "fallback_role": "HUMAN", "prompt": SYSTEM}, "</E>"],
        "round": [{"role": "HUMAN", "prompt": HUMAN_PROMPT}, {"role": "BOT", "prompt": "{target}"}],
        "end": "end of dataset prompt template.",
    }
    if inferencer == "PPLInferencer":
        template = {label: {**template, "round": [template["round"][0], {"role": "BOT", "prompt": label}]}
                    for label in "ABCD"}
    return {
        "abbr": "mmlu-physics",
        "reader_cfg": READER,
        "infer_cfg": {
            "prompt_template": {"type": "PromptTemplate", "template": template, "ice_token": "</E>"},
            "retriever": {"type": "ZeroRetriever"},
            "inferencer": {"type": inferencer},
        },
    }


def test_gen_mode_stops_at_the_generating_role():
    pair = make_pair(mmlu_dataset("GenInferencer"), [ROW], MODEL)
    assert pair.sample(0).requests[0].model_input == (
        "meta instruction\nYou are an AI assistant.\n"
        f"<|SYSTEM|>: {SYSTEM}\n"
        f"<|HUMAN|>:{FILLED}脷\n"
        "<|Inner Thoughts|>:None茔\n<|Commands|>:None蝮\n<|Results|>:None兒\n"
        "<|MOSS|>:"
    )


def test_ppl_mode_renders_every_role_and_both_ends():
    pair = make_pair(mmlu_dataset("PPLInferencer"), [ROW], MODEL)
    requests = pair.sample(0).requests
    assert [r.label for r in requests] == ["A", "B", "C", "D"]
    assert requests[0].model_input == (
        "meta instruction\nYou are an AI assistant.\n"
        f"<|SYSTEM|>: {SYSTEM}\n"
        f"<|HUMAN|>:{FILLED}脷\n"
        "<|Inner Thoughts|>:None茔\n<|Commands|>:None蝮\n<|Results|>:None兒\n"
        "<|MOSS|>:A氡\n"
        "end of dataset prompt template."
        "end of conversion"
    )
    # OpenCompass crashes on the `end` section (and on a string `end` beside an ice_token);
    # the render follows the docs and says so.
    failures = [w for w in pair.notes.messages if "OpenCompass 0.5.4 fails here" in w]
    assert any("IndexError" in w for w in failures)
    assert any("LookupError" in w for w in failures)


def test_without_meta_template_items_are_joined_by_newlines():
    pair = make_pair(mmlu_dataset("PPLInferencer"), [ROW], {"type": "HuggingFaceCausalLM", "path": "x"})
    assert pair.sample(0).requests[1].model_input == (
        f"{SYSTEM}\n{FILLED}\nB\nend of dataset prompt template."
    )
    # No meta template: OpenCompass skips the markers and never pops the stack.
    assert not any("IndexError" in w for w in pair.notes.messages)
