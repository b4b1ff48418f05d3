"""Parity case seed_fix_id_list_on_inferencer: shared/spec/seeds/002 (OpenCompass prompt_template.md, zh): the typical infer_cfg, which passes fix_id_list to the inferencer (the framework raises)."""

from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_inferencer import GenInferencer, PPLInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever, ZeroRetriever

fix_id_list_on_inferencer_datasets = [
    dict(
        abbr='fix_id_list_on_inferencer',
        type='ParityJsonDataset',
        path='parity/seed',
        reader_cfg=dict(input_columns=['question'], output_column='answer'),
        infer_cfg=dict(
        ice_template=dict(  # 用于构造 In Context Example (ice) 的模板
            type=PromptTemplate,
            template='{question}\n{answer}'
        ),
        prompt_template=dict(  # 用于构造主干 prompt 的模板
            type=PromptTemplate,
            template='Solve the following questions.\n</E>{question}\n{answer}',
            ice_token="</E>"
        ),
        retriever=dict(type=FixKRetriever),  # 定义 in context example 的获取方式
        inferencer=dict(type=GenInferencer, fix_id_list=[0, 1]),  # 使用何种方式推理得到 prediction
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
