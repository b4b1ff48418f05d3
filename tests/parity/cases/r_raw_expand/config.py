"""Parity case r_raw_expand: OpenCompass RawPromptTemplate expand_column: a copy of the row's list of messages, unfilled. Written by tools/parity_r_cases.py."""

from opencompass.datasets import RawPromptTemplate
from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_retriever import FixKRetriever, ZeroRetriever

raw_expand_datasets = [
    dict(
        abbr='expand_then_user',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question', 'history', 'note'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        role='system',
                        content='sys {note}',
                    ),
                    dict(
                        expand_column='history',
                    ),
                    dict(
                        role='user',
                        content='{question}',
                    ),
                ],
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='expand_no_format',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question', 'history', 'note'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        expand_column='history',
                    ),
                    dict(
                        role='user',
                        content='{question}',
                    ),
                ],
                format_variables=False,
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='expand_not_a_list',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question', 'history', 'note'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        expand_column='note',
                    ),
                    dict(
                        role='user',
                        content='{question}',
                    ),
                ],
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='expand_missing_column',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question', 'history', 'note'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        expand_column='absent',
                    ),
                    dict(
                        role='user',
                        content='{question}',
                    ),
                ],
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='expand_in_examples',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question', 'history', 'note'],
            output_column='answer',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        expand_column='history',
                    ),
                    dict(
                        role='assistant',
                        content='{answer}',
                    ),
                ],
            ),
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    '</E>',
                    dict(
                        expand_column='history',
                    ),
                    dict(
                        role='user',
                        content='{question}',
                    ),
                ],
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[1, 0],
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
]

# ---- the five model kinds every parity case renders against ----------------
_internlm_chat_meta = dict(
    round=[
        dict(role='HUMAN', begin='<|im_start|>user\n', end='<|im_end|>\n'),
        dict(role='BOT', begin='<|im_start|>assistant\n', end='<|im_end|>\n', generate=True),
    ],
    reserved_roles=[dict(role='SYSTEM', begin='<|im_start|>system\n', end='<|im_end|>\n')],
    eos_token_id=92542,
)
_llama2_chat_meta = dict(
    round=[
        dict(role='HUMAN', begin='[INST] ', end=' [/INST]'),
        dict(role='BOT', begin=' ', end=' ', generate=True),
    ],
)
_api_meta = dict(
    round=[
        dict(role='HUMAN', api_role='HUMAN'),
        dict(role='BOT', api_role='BOT', generate=True),
    ],
    reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')],
)
models = [
    dict(abbr='internlm-chat-style', type=HuggingFaceCausalLM,
         path='/nonexistent/parity/internlm-chat',
         meta_template=_internlm_chat_meta, max_out_len=64, batch_size=1),
    dict(abbr='llama2-chat-style', type=HuggingFaceCausalLM,
         path='/nonexistent/parity/llama2-chat',
         meta_template=_llama2_chat_meta, max_out_len=64, batch_size=1),
    dict(abbr='plain-base', type=HuggingFaceCausalLM,
         path='/nonexistent/parity/base-model',
         max_out_len=64, batch_size=1),
    dict(abbr='openai-api', type=OpenAI, path='gpt-4o-mini', key='EMPTY',
         meta_template=_api_meta, max_out_len=64, batch_size=1),
    dict(abbr='hf-chat-template', type=HuggingFacewithChatTemplate,
         path='/nonexistent/parity/chat-model', max_out_len=64, batch_size=1),
]
