# A local chat model with a Llama-2-chat style meta template: '[INST] ' ... ' [/INST]'
# around each human turn.  There is no SYSTEM role here, so a dataset's
# SYSTEM instruction uses its fallback_role (HUMAN) and becomes an [INST] turn of its own.
from opencompass.models import HuggingFaceCausalLM

_meta_template = dict(
    round=[
        dict(role='HUMAN', begin='[INST] ', end=' [/INST]'),
        dict(role='BOT', begin=' ', end=' ', generate=True),
    ],
)

models = [
    dict(
        type=HuggingFaceCausalLM,
        abbr='llama-2-7b-chat-demo',
        path='meta-llama/Llama-2-7b-chat-hf',
        tokenizer_path='meta-llama/Llama-2-7b-chat-hf',
        model_kwargs=dict(device_map='auto'),
        tokenizer_kwargs=dict(padding_side='left', truncation_side='left', use_fast=False),
        meta_template=_meta_template,
        max_out_len=512,
        max_seq_len=4096,
        batch_size=8,
        run_cfg=dict(num_gpus=1, num_procs=1),
    )
]
