"""Parity case oc_summscreen_gen_653185: opencompass/configs/datasets/summscreen/summscreen_gen_653185.py (summscreen_datasets[:1]), flattened by tools/make_parity_cases.py."""

from opencompass.datasets import SummScreenDataset
from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_evaluator import BleuEvaluator
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever
from opencompass.utils.text_postprocessors import general_cn_postprocess

summscreen_datasets = [
    dict(
        type=SummScreenDataset,
        path='./data/SummScreen/',
        abbr='SummScreen',
        reader_cfg=dict(
            input_columns='content',
            output_column='summary',
            train_split='dev',
            test_split='dev',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template=dict(
                    begin=[
                        dict(
                            role='SYSTEM',
                            fallback_role='HUMAN',
                            prompt='Please summarize the following English play script in English:',
                        ),
                    ],
                    round=[
                        dict(
                            role='HUMAN',
                            prompt='{content}',
                        ),
                        dict(
                            role='BOT',
                            prompt='{summary}',
                        ),
                    ],
                ),
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
                batch_size=4,
                max_out_len=500,
                max_seq_len=8192,
            ),
        ),
        eval_cfg=dict(
            evaluator=dict(
                type=BleuEvaluator,
            ),
            pred_role='BOT',
            pred_postprocessor=dict(
                type=general_cn_postprocess,
            ),
            dataset_postprocessor=dict(
                type=general_cn_postprocess,
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
