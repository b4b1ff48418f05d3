"""Parity case oc_nq_open_1shot_gen_20a989: opencompass/configs/datasets/nq/nq_open_1shot_gen_20a989.py (nq_datasets[:1]), flattened by tools/make_parity_cases.py."""

from opencompass.datasets import NQEvaluator, NQOpenDataset
from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever

nq_datasets = [
    dict(
        type=NQOpenDataset,
        abbr='nq_open_1shot',
        path='opencompass/nq_open',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
            train_split='train',
            test_split='validation',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template='Q: {question}\nA: {answer}.\n',
            ),
            prompt_template=dict(
                type=PromptTemplate,
                template='</E>Q: {question}\nA: ',
                ice_token='</E>',
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[0],
            ),
            inferencer=dict(
                type=GenInferencer,
                max_out_len=50,
                stopping_criteria=['Q:', '\n'],
            ),
        ),
        eval_cfg=dict(
            evaluator=dict(
                type=NQEvaluator,
            ),
            pred_role='BOT',
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
