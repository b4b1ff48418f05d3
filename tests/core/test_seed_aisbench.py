"""AISBench's template docs (spec/seeds/000, 003): multi-turn in three modes, multimodal URL and base64."""

from __future__ import annotations

from tests.conftest import make_pair, no_markers
from workbench.core.inferencers.plan import placeholder

ROW = {"question": ["1+1=?", "2+2=?", "3+3=?"], "answer": ["2", "4", "6"]}


def multiturn(mode: str) -> dict:
    return {
        "abbr": "mt",
        "reader_cfg": {"input_columns": ["question"], "output_column": "answer"},
        "infer_cfg": {
            "prompt_template": {"type": "MultiTurnPromptTemplate", "template": {"round": [
                {"role": "HUMAN", "prompt": "{question}"}, {"role": "BOT", "prompt": "{answer}"}]}},
            "retriever": {"type": "ZeroRetriever"},
            "inferencer": {"type": "MultiTurnGenInferencer", "infer_mode": mode},
        },
    }


def turns(mode: str) -> list[list[dict]]:
    pair = make_pair(multiturn(mode), [ROW], framework="ais_bench")
    return [no_markers(r.prompt_list) for r in pair.sample(0).requests]


def H(text):
    return {"role": "HUMAN", "prompt": text}


def B(text):
    return {"role": "BOT", "prompt": text}


def test_every_uses_the_models_earlier_answers():
    assert turns("every") == [
        [H("1+1=?")],
        [H("1+1=?"), B(placeholder(0)), H("2+2=?")],
        [H("1+1=?"), B(placeholder(0)), H("2+2=?"), B(placeholder(1)), H("3+3=?")],
    ]


def test_every_with_gt_uses_the_ground_truth():
    assert turns("every_with_gt") == [
        [H("1+1=?")],
        [H("1+1=?"), B("2"), H("2+2=?")],
        [H("1+1=?"), B("2"), H("2+2=?"), B("4"), H("3+3=?")],
    ]


def test_last_is_one_request_without_the_last_answer():
    pair = make_pair(multiturn("last"), [ROW], framework="ais_bench")
    assert [no_markers(r.prompt_list) for r in pair.sample(0).requests] == [
        [H("1+1=?"), B("2"), H("2+2=?"), B("4"), H("3+3=?")],
    ]
    assert any("AISBench 3.1.20260630 fails here" in w and "RecursionError" in w
               for w in pair.notes.messages)


def test_every_marks_requests_that_depend_on_model_output():
    pair = make_pair(multiturn("every"), [ROW], framework="ais_bench")
    assert [r.depends_on for r in pair.sample(0).requests] == [(), (0,), (0, 1)]
    assert [r.turn for r in pair.sample(0).requests] == [0, 1, 2]


def test_every_takes_real_predictions_when_given():
    from workbench.core.render import PairRenderer, RenderOptions
    from workbench.core.spec import DatasetSpec

    def lookup(dataset, model, index, turn):
        return f"model said {turn}"

    pair = PairRenderer(DatasetSpec("mt", multiturn("every"), [ROW], "ais_bench"), None,
                        RenderOptions(predictions=lookup))
    last = no_markers(pair.sample(0).requests[2].prompt_list)
    assert last[1] == B("model said 0") and last[3] == B("model said 1")


def mm(kind: str) -> dict:
    url = {"url": "file://{image}"} if kind == "url" else {"url": "data:image/jpeg;base64,{image}"}
    return {
        "abbr": "mm",
        "reader_cfg": {"input_columns": ["anything", "question"], "output_column": "answer"},
        "infer_cfg": {
            "prompt_template": {"type": "MMPromptTemplate", "template": {"round": [{"role": "HUMAN", "prompt_mm": {
                "text": {"type": "text", "text": "{anything}\nQuestion: {question}"},
                "image": {"type": "image_url", "image_url": url},
                "video": {"type": "video_url", "video_url": {"url": "file://{video}"}},
                "audio": {"type": "audio_url", "audio_url": {"url": "file://{audio}"}},
            }}]}},
            "retriever": {"type": "ZeroRetriever"},
            "inferencer": {"type": "GenInferencer"},
        },
    }


MM_ROW = {
    "anything": "blabla",
    "content": "<AIS_TEXT_START>What is this?<AIS_CONTENT_TAG><AIS_IMAGE_START>cat.jpg<AIS_CONTENT_TAG>"
               "<AIS_AUDIO_START>meow.wav<AIS_CONTENT_TAG><AIS_VIDEO_START>cat.mp4<AIS_CONTENT_TAG>",
    "answer": "a cat",
}
CHAT_API = {"type": "VLLMCustomAPIChat", "path": "m", "abbr": "vllm-chat"}


def test_multimodal_url_form():
    pair = make_pair(mm("url"), [MM_ROW], CHAT_API, framework="ais_bench")
    request = pair.sample(0).requests[0]
    # AISBench's code reads the row's `content` column and fills only {question} in the
    # text part, so {anything} stays as written (the docs show it filled).
    parts = [
        {"type": "text", "text": "{anything}\nQuestion: What is this?"},
        {"type": "image_url", "image_url": {"url": "file://cat.jpg"}},
        {"type": "audio_url", "audio_url": {"url": "file://meow.wav"}},
        {"type": "video_url", "video_url": {"url": "file://cat.mp4"}},
    ]
    assert no_markers(request.prompt_list) == [{"role": "HUMAN", "prompt_mm": parts}]
    assert request.model_input == [{"role": "HUMAN", "prompt": parts}]


def test_multimodal_base64_form():
    row = dict(MM_ROW, content="<AIS_TEXT_START>What is this?<AIS_CONTENT_TAG>"
                               "<AIS_IMAGE_START>iVBORw0KGgo=<AIS_CONTENT_TAG>")
    pair = make_pair(mm("base64"), [row], CHAT_API, framework="ais_bench")
    parts = no_markers(pair.sample(0).requests[0].prompt_list)[0]["prompt_mm"]
    assert parts[1] == {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,iVBORw0KGgo="}}


def test_multimodal_accepts_image_url_as_the_prompt_mm_key():
    cfg = mm("url")
    spec = cfg["infer_cfg"]["prompt_template"]["template"]["round"][0]["prompt_mm"]
    spec["image_url"] = spec.pop("image")
    pair = make_pair(cfg, [MM_ROW], CHAT_API, framework="ais_bench")
    parts = no_markers(pair.sample(0).requests[0].prompt_list)[0]["prompt_mm"]
    assert parts[1] == {"type": "image_url", "image_url": {"url": "file://cat.jpg"}}
