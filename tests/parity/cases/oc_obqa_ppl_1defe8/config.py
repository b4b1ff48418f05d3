"""Parity case oc_obqa_ppl_1defe8: opencompass/configs/datasets/obqa/obqa_ppl_1defe8.py (obqa_datasets[:2]), flattened by tools/make_parity_cases.py."""

from opencompass.datasets import OBQADataset
from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_evaluator import AccEvaluator
from opencompass.openicl.icl_inferencer import PPLInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

obqa_datasets = [
    dict(
        abbr='openbookqa',
        type=OBQADataset,
        path='opencompass/openbookqa_test',
        name='main',
        reader_cfg=dict(
            input_columns=['question_stem', 'A', 'B', 'C', 'D'],
            output_column='answerKey',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template=dict(
                    A='{question_stem} {A}',
                    B='{question_stem} {B}',
                    C='{question_stem} {C}',
                    D='{question_stem} {D}',
                ),
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=PPLInferencer,
            ),
        ),
        eval_cfg=dict(
            evaluator=dict(
                type=AccEvaluator,
            ),
        ),
    ),
    dict(
        abbr='openbookqa_fact',
        type=OBQADataset,
        path='opencompass/openbookqa_fact',
        name='additional',
        reader_cfg=dict(
            input_columns=['question_stem', 'A', 'B', 'C', 'D', 'fact1'],
            output_column='answerKey',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template=dict(
                    A='Given the fact {fact1}, we know that {question_stem} {A}',
                    B='Given the fact {fact1}, we know that {question_stem} {B}',
                    C='Given the fact {fact1}, we know that {question_stem} {C}',
                    D='Given the fact {fact1}, we know that {question_stem} {D}',
                ),
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=PPLInferencer,
            ),
        ),
        eval_cfg=dict(
            evaluator=dict(
                type=AccEvaluator,
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
