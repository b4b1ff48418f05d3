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
