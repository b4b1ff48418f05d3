"""Parity case oc_ceval_ppl_1cd8bf: opencompass/configs/datasets/ceval/ceval_ppl_1cd8bf.py (ceval_datasets[:1]), flattened by tools/make_parity_cases.py."""

from opencompass.datasets import CEvalDataset
from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_evaluator import AccEvaluator
from opencompass.openicl.icl_inferencer import PPLInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever

ceval_datasets = [
    dict(
        type=CEvalDataset,
        path='opencompass/ceval-exam',
        name='computer_network',
        abbr='ceval-computer_network',
        reader_cfg=dict(
            input_columns=['question', 'A', 'B', 'C', 'D'],
            output_column='answer',
            train_split='dev',
            test_split='val',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template=dict(
                    A='{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\n答案: A\n',
                    B='{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\n答案: B\n',
                    C='{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\n答案: C\n',
                    D='{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\n答案: D\n',
                ),
            ),
            prompt_template=dict(
                type=PromptTemplate,
                template=dict(
                    A='以下是关于计算机网络的单项选择题，请直接给出正确答案的选项。\n</E>{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\n答案: A',
                    B='以下是关于计算机网络的单项选择题，请直接给出正确答案的选项。\n</E>{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\n答案: B',
                    C='以下是关于计算机网络的单项选择题，请直接给出正确答案的选项。\n</E>{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\n答案: C',
                    D='以下是关于计算机网络的单项选择题，请直接给出正确答案的选项。\n</E>{question}\nA. {A}\nB. {B}\nC. {C}\nD. {D}\n答案: D',
                ),
                ice_token='</E>',
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[0, 1, 2, 3, 4],
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
