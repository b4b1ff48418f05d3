"""Parity case x_ais_value_types: AISBench: int/float/bool/None/list/dict values, keys missing from some rows (data loaded as load_dataset('json') does), {{other_col}} inside values. Written by tools/parity_x_cases.py."""

from ais_bench.benchmark.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, VLLMCustomAPIChat
from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer, PPLInferencer
from ais_bench.benchmark.openicl.icl_prompt_template import PromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import FixKRetriever, ZeroRetriever

ais_value_types_datasets = [
    dict(
        abbr='types_string',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['text', 'num', 'ratio', 'flag', 'maybe', 'tags', 'extra', 'nested'],
            output_column='num',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template='T={text}|N={num}|R={ratio}|F={flag}|M={maybe}|L={tags}|X={extra}|D={nested}',
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
        abbr='types_dialogue',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['text', 'num', 'ratio', 'flag', 'maybe', 'tags', 'extra', 'nested'],
            output_column='num',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template=dict(
                    round=[
                        dict(
                            role='HUMAN',
                            prompt='T={text}|N={num}|R={ratio}|F={flag}|M={maybe}|L={tags}|X={extra}|D={nested}',
                        ),
                        dict(
                            role='BOT',
                            prompt='{num}',
                        ),
                    ],
                ),
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
        abbr='types_ice',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['text', 'num', 'ratio', 'flag', 'maybe', 'tags', 'extra', 'nested'],
            output_column='num',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template='{text} -> {num} ({ratio})',
            ),
            prompt_template=dict(
                type=PromptTemplate,
                template='</E>{text} ->',
                ice_token='</E>',
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[0, 1, 2],
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='types_ppl_bool_labels',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['text'],
            output_column='flag',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template={
                    True: '{text} yes',
                    False: '{text} no',
                },
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=PPLInferencer,
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
    dict(attr='local', abbr='internlm-chat-style', type=HuggingFaceCausalLM,
         path='/nonexistent/parity/internlm-chat',
         meta_template=_internlm_chat_meta, max_out_len=64, batch_size=1),
    dict(attr='local', abbr='llama2-chat-style', type=HuggingFaceCausalLM,
         path='/nonexistent/parity/llama2-chat',
         meta_template=_llama2_chat_meta, max_out_len=64, batch_size=1),
    dict(attr='local', abbr='plain-base', type=HuggingFaceCausalLM,
         path='/nonexistent/parity/base-model',
         max_out_len=64, batch_size=1),
    dict(attr='service', abbr='vllm-api-chat', type=VLLMCustomAPIChat, path='',
         model='parity-model', host_ip='localhost', host_port=8080,
         meta_template=_api_meta, max_out_len=64, batch_size=1),
    dict(attr='local', abbr='hf-chat-template', type=HuggingFacewithChatTemplate,
         path='/nonexistent/parity/chat-model', max_out_len=64, batch_size=1),
]
