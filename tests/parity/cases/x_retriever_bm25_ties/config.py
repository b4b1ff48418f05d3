"""Parity case x_retriever_bm25_ties: OpenCompass BM25Retriever over tied scores (ordered by the CPU's numpy sort). Written by tools/parity_x_cases.py."""

from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import BM25Retriever

retriever_bm25_ties_datasets = [
    dict(
        abbr='bm25_ties_k1',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template='{question}={answer}',
            ),
            prompt_template=dict(
                type=PromptTemplate,
                template='</E>{question}=',
                ice_token='</E>',
            ),
            retriever=dict(
                type=BM25Retriever,
                ice_num=1,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='bm25_ties_k3',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template='{question}={answer}',
            ),
            prompt_template=dict(
                type=PromptTemplate,
                template='</E>{question}=',
                ice_token='</E>',
            ),
            retriever=dict(
                type=BM25Retriever,
                ice_num=3,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='bm25_ties_k8',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template='{question}={answer}',
            ),
            prompt_template=dict(
                type=PromptTemplate,
                template='</E>{question}=',
                ice_token='</E>',
            ),
            retriever=dict(
                type=BM25Retriever,
                ice_num=8,
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
