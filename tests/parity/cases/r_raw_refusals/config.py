"""Parity case r_raw_refusals: OpenCompass RawPromptTemplate configs the framework refuses. Written by tools/parity_r_cases.py."""

from opencompass.datasets import RawPromptTemplate
from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_inferencer import GenInferencer, PPLInferencer
from opencompass.openicl.icl_retriever import FixKRetriever, ZeroRetriever

raw_refusals_datasets = [
    dict(
        abbr='raw_messages_not_a_list',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages='{question}',
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
        abbr='raw_bad_role',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        role='HUMAN',
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
        abbr='raw_missing_content',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    dict(
                        role='user',
                        prompt='{question}',
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
        abbr='raw_unknown_argument',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                template='{question}',
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
        abbr='raw_examples_without_ice_template',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
                    '</E>',
                    dict(
                        role='user',
                        content='{question}',
                    ),
                ],
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[0],
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='raw_ppl_no_labels',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
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
                type=PPLInferencer,
            ),
        ),
    ),
    dict(
        abbr='raw_ppl_labels_given',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=RawPromptTemplate,
                messages=[
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
                type=PPLInferencer,
                labels=['a', 'b'],
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
