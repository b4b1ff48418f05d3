"""Parity case x_dataset_repeats: OpenCompass dataset n repeats (OpenCompass: whole split repeated; AISBench: each row repeated in place), with k. Written by tools/parity_x_cases.py."""

from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever, RandomRetriever

dataset_repeats_datasets = [
    dict(
        abbr='repeat_n2',
        type='ParityJsonDataset',
        path='parity/x',
        n=2,
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template='[{idx}|{subdivision}] {question}={answer}',
            ),
            prompt_template=dict(
                type=PromptTemplate,
                template='</E>({idx}|{subdivision}) {question}=',
                ice_token='</E>',
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[0, 4],
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='repeat_n3_k2',
        type='ParityJsonDataset',
        path='parity/x',
        n=3,
        k=2,
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template='[{idx}|{subdivision}] {question}={answer}',
            ),
            prompt_template=dict(
                type=PromptTemplate,
                template='</E>({idx}|{subdivision}) {question}=',
                ice_token='</E>',
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[0, 1],
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='repeat_n2_test_range',
        type='ParityJsonDataset',
        path='parity/x',
        n=2,
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
            test_range='[2:5]',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template='[{idx}|{subdivision}] {question}={answer}',
            ),
            prompt_template=dict(
                type=PromptTemplate,
                template='</E>({idx}|{subdivision}) {question}=',
                ice_token='</E>',
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[0, 1],
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='repeat_n2_random',
        type='ParityJsonDataset',
        path='parity/x',
        n=2,
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template='[{idx}|{subdivision}] {question}={answer}',
            ),
            prompt_template=dict(
                type=PromptTemplate,
                template='</E>({idx}|{subdivision}) {question}=',
                ice_token='</E>',
            ),
            retriever=dict(
                type=RandomRetriever,
                ice_num=2,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='repeat_k_above_n',
        type='ParityJsonDataset',
        path='parity/x',
        n=2,
        k=3,
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template='[{idx}|{subdivision}] {question}={answer}',
            ),
            prompt_template=dict(
                type=PromptTemplate,
                template='</E>({idx}|{subdivision}) {question}=',
                ice_token='</E>',
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[0, 1],
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
