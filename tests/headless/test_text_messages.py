"""The text export shows every shape of final input an API class can receive."""

from workbench.headless.formats.text_export import message_body


def test_a_content_part_list_is_shown_part_by_part_not_as_null() -> None:
    # VITAGenerateAPI's input is a list of content parts, not role messages
    text = {"type": "text", "text": "What animal?"}
    image = {"type": "image_url", "image_url": {"url": "file://cat.png"}}
    assert message_body(text) == (None, '{"type": "text", "text": "What animal?"}')
    assert message_body(image) == (None, '{"type": "image_url", "image_url": {"url": "file://cat.png"}}')


def test_role_messages_keep_role_and_body() -> None:
    assert message_body({"role": "user", "content": "hi"}) == ("user", "hi")
    assert message_body({"role": "HUMAN", "prompt": "hi"}) == ("HUMAN", "hi")
    assert message_body({"role": "user", "content": [{"type": "text", "text": "x"}]}) == (
        "user", '[{"type": "text", "text": "x"}]')


def _request_text(model_input, options, model_text=None) -> str:
    from types import SimpleNamespace

    from workbench.core.result import Request, Sample
    from workbench.headless.formats.text_export import request_text

    pair = SimpleNamespace(dataset_abbr="qa", model_abbr="m", notes=None)
    request = Request(prompt_list=None, model_input=model_input, model_text=model_text)
    return request_text(pair, Sample(index=0, source_index=0, ice_indices=(), requests=(request,)),
                        request, options)


def test_a_request_is_escaped_wherever_one_piece_needs_it() -> None:
    """A request is checked once, as a whole: one unsafe character anywhere (a role, a body,
    the chat template's text) escapes that piece, and only what visible() changes differs."""
    from workbench.headless.formats.text_export import TextOptions

    plain = TextOptions()
    clean = _request_text([{"role": "user", "content": "hi\tthere"}], plain, "<s>hi\n")
    assert clean == "=== qa · m · sample 0 ===\n[user]\nhi\tthere\n--- chat template text ---\n<s>hi\n\n"
    for messages, text in (([{"role": "us\x1ber", "content": "hi\tthere"}], "<s>hi\n"),
                           ([{"role": "user", "content": "hi\tthere"}], "<s>h\x1bi\n")):
        shown = _request_text(messages, plain, text)
        assert "\x1b" not in shown and shown.count("␛") == 1
        assert shown.replace("␛", "\x1b") == _request_text(messages, TextOptions(raw=True), text)
    # --whitespace marks every piece, trailing spaces at a piece's end included
    marked = _request_text([{"role": "user", "content": "hi  "}], TextOptions(whitespace=True))
    assert "[user]\nhi··\n" in marked
