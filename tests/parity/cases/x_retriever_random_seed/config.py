"""Parity case x_retriever_random_seed: OpenCompass RandomRetriever, custom seeds, ice_num 1..4, and more examples than rows. Written by tools/parity_x_cases.py."""

from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import RandomRetriever

retriever_random_seed_datasets = [
    dict(
        abbr='random_seed7_k1',
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
                type=RandomRetriever,
                ice_num=1,
                seed=7,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='random_seed7_k2',
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
                type=RandomRetriever,
                ice_num=2,
                seed=7,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='random_seed7_k3',
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
                type=RandomRetriever,
                ice_num=3,
                seed=7,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='random_seed7_k4',
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
                type=RandomRetriever,
                ice_num=4,
                seed=7,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='random_seed0_k2_dialogue',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template=dict(
                    round=[
                        dict(
                            role='HUMAN',
                            prompt='{question}',
                        ),
                        dict(
                            role='BOT',
                            prompt='{answer}',
                        ),
                    ],
                ),
            ),
            prompt_template=dict(
                type=PromptTemplate,
                template=dict(
                    begin='</E>',
                    round=[
                        dict(
                            role='HUMAN',
                            prompt='{question}',
                        ),
                        dict(
                            role='BOT',
                            prompt='{answer}',
                        ),
                    ],
                ),
                ice_token='</E>',
            ),
            retriever=dict(
                type=RandomRetriever,
                ice_num=2,
                seed=0,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='random_k0',
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
                type=RandomRetriever,
                ice_num=0,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='random_k_above_train',
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
                type=RandomRetriever,
                ice_num=11,
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
