# The suite's two chat models, as an evaluation would list them.
#
# `meta-chat`: a local model whose meta template wraps each turn in ChatML-style markers
# (the prompts become one string); max_seq_len makes OpenCompass drop in-context examples
# that do not fit, so token counting is part of every render.
# `template-chat`: a local model driven by its tokenizer's Jinja chat template, which is
# ours (chat-model/tokenizer_config.json): messages, then the template renders them.
import os

from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate

_meta_template = dict(
    round=[
        dict(role='HUMAN', begin='<|im_start|>user\n', end='<|im_end|>\n'),
        dict(role='BOT', begin='<|im_start|>assistant\n', end='<|im_end|>\n', generate=True),
    ],
    reserved_roles=[dict(role='SYSTEM', begin='<|im_start|>system\n', end='<|im_end|>\n')],
    eos_token_id=92542,
)

models = [
    dict(
        type=HuggingFaceCausalLM,
        abbr='meta-chat',
        path='internlm/internlm2-chat-7b',
        meta_template=_meta_template,
        max_out_len=1024,
        max_seq_len=4096,
        batch_size=8,
        end_str='<|im_end|>',
        run_cfg=dict(num_gpus=1),
    ),
    dict(
        type=HuggingFacewithChatTemplate,
        abbr='template-chat',
        path=os.path.join(os.path.dirname(__file__), 'chat-model'),
        max_out_len=1024,
        batch_size=8,
        run_cfg=dict(num_gpus=1),
    ),
]
