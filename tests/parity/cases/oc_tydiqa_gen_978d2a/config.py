"""Parity case oc_tydiqa_gen_978d2a: opencompass/configs/datasets/tydiqa/tydiqa_gen_978d2a.py (tydiqa_datasets[:2]), flattened by tools/make_parity_cases.py."""

from opencompass.datasets import TydiQADataset, TydiQAEvaluator
from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

tydiqa_datasets = [
    dict(
        abbr='tydiqa-goldp_arabic',
        type=TydiQADataset,
        path='opencompass/tydiqa',
        lang='arabic',
        reader_cfg=dict(
            input_columns=['passage_text', 'question_text'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template='أجب على السؤال التالي بناءً على المعلومات في المقطع المعطى.\n\n</E>المقطع:{passage_text}\nالسؤال: {question_text}\nالإجابة: {answer}',
                ice_token='</E>',
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
            max_out_len=50,
        ),
        eval_cfg=dict(
            evaluator=dict(
                type=TydiQAEvaluator,
            ),
            ds_split='validation',
            ds_column='answer',
        ),
    ),
    dict(
        abbr='tydiqa-goldp_bengali',
        type=TydiQADataset,
        path='opencompass/tydiqa',
        lang='bengali',
        reader_cfg=dict(
            input_columns=['passage_text', 'question_text'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template='প্রদত্ত অধ্যায়ের তথ্যের উপর ভিত্তি করে নিম্নলিখিত প্রশ্নের উত্তর দিন।\n\n</E>অধ্যায়:{passage_text}\nপ্রশ্ন: {question_text}\nউত্তর: {answer}',
                ice_token='</E>',
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
            max_out_len=50,
        ),
        eval_cfg=dict(
            evaluator=dict(
                type=TydiQAEvaluator,
            ),
            ds_split='validation',
            ds_column='answer',
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
