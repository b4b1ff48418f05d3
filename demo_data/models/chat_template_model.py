# A local model driven by its tokenizer's chat template: OpenCompass turns the prompt
# into chat messages and the tokenizer's Jinja `chat_template` (see
# tiny-chat/tokenizer_config.json) renders them.  `path` is computed from this
# file's location, so the demo finds its tokenizer folder wherever it is checked out.
# No get_ppl here, so PPL datasets are refused for this model.
import os

from opencompass.models import HuggingFacewithChatTemplate

models = [
    dict(
        type=HuggingFacewithChatTemplate,
        abbr='qwen-like-chat-demo',
        path=os.path.join(os.path.dirname(__file__), 'tiny-chat'),
        max_out_len=1024,
        batch_size=8,
        run_cfg=dict(num_gpus=1),
    )
]
