"""Parity case oc_ARC_c_few_shot_ppl: opencompass/configs/datasets/ARC_c/ARC_c_few_shot_ppl.py (ARC_c_datasets[:1]), flattened by tools/make_parity_cases.py."""

from opencompass.datasets import ARCDataset
from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_evaluator import AccEvaluator
from opencompass.openicl.icl_inferencer import PPLInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever

ARC_c_datasets = [
    dict(
        type=ARCDataset,
        abbr='ARC-c',
        path='opencompass/ai2_arc-dev',
        name='ARC-Challenge',
        reader_cfg=dict(
            input_columns=['question', 'textA', 'textB', 'textC', 'textD'],
            output_column='answerKey',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template=dict(
                    A=dict(
                        begin='</E>',
                        round=[
                            dict(
                                role='HUMAN',
                                prompt='Question: {question}\nAnswer: ',
                            ),
                            dict(
                                role='BOT',
                                prompt='{textA}',
                            ),
                        ],
                    ),
                    B=dict(
                        begin='</E>',
                        round=[
                            dict(
                                role='HUMAN',
                                prompt='Question: {question}\nAnswer: ',
                            ),
                            dict(
                                role='BOT',
                                prompt='{textB}',
                            ),
                        ],
                    ),
                    C=dict(
                        begin='</E>',
                        round=[
                            dict(
                                role='HUMAN',
                                prompt='Question: {question}\nAnswer: ',
                            ),
                            dict(
                                role='BOT',
                                prompt='{textC}',
                            ),
                        ],
                    ),
                    D=dict(
                        begin='</E>',
                        round=[
                            dict(
                                role='HUMAN',
                                prompt='Question: {question}\nAnswer: ',
                            ),
                            dict(
                                role='BOT',
                                prompt='{textD}',
                            ),
                        ],
                    ),
                ),
                ice_token='</E>',
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[0, 2, 4, 6, 8],
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
