# A local chat model whose meta template wraps each turn in ChatML-style markers.
# SYSTEM is a reserved role, so a dataset's SYSTEM instruction gets its own block;
# BOT has generate=True, so a generative prompt stops right after
# '<|im_start|>assistant\n' and the model writes the rest.
from opencompass.models import HuggingFaceCausalLM

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
        abbr='internlm2-chat-7b-demo',
        path='internlm/internlm2-chat-7b',
        tokenizer_path='internlm/internlm2-chat-7b',
        model_kwargs=dict(trust_remote_code=True, device_map='auto'),
        tokenizer_kwargs=dict(padding_side='left', truncation_side='left', trust_remote_code=True),
        meta_template=_meta_template,
        max_out_len=512,
        max_seq_len=4096,
        batch_size=8,
        end_str='<|im_end|>',
        run_cfg=dict(num_gpus=1, num_procs=1),
    )
]
