"""Parity case oc_deprecated_mbpp_gen_1e1056: opencompass/configs/datasets/mbpp/deprecated_mbpp_gen_1e1056.py (mbpp_datasets[:1]), flattened by tools/make_parity_cases.py."""

from opencompass.datasets import MBPPDataset, MBPPEvaluator
from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

mbpp_datasets = [
    dict(
        type=MBPPDataset,
        abbr='mbpp',
        path='./data/mbpp/mbpp.jsonl',
        reader_cfg=dict(
            input_columns=['text', 'test_list'],
            output_column='test_list_2',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template=dict(
                    round=[
                        dict(
                            role='HUMAN',
                            prompt='You are an expert Python programmer, and here is your task: Write a function to find the similar elements from the given two tuple lists. Your code should pass these tests:\n\n assert similar_elements((3, 4, 5, 6),(5, 7, 4, 10)) == (4, 5)\n assert similar_elements((1, 2, 3, 4),(5, 4, 3, 7)) == (3, 4) \n assert similar_elements((11, 12, 14, 13),(17, 15, 14, 13)) == (13, 14) \n',
                        ),
                        dict(
                            role='BOT',
                            prompt="[BEGIN]\n 'def similar_elements(test_tup1, test_tup2):\r\n  res = tuple(set(test_tup1) & set(test_tup2))\r\n  return (res)' \n[DONE] \n\n ",
                        ),
                        dict(
                            role='HUMAN',
                            prompt='You are an expert Python programmer, and here is your task: Write a python function to identify non-prime numbers. Your code should pass these tests:\n\n assert is_not_prime(2) == False \n assert is_not_prime(10) == True \n assert is_not_prime(35) == True \n',
                        ),
                        dict(
                            role='BOT',
                            prompt="[BEGIN]\n 'import math\r\ndef is_not_prime(n):\r\n    result = False\r\n    for i in range(2,int(math.sqrt(n)) + 1):\r\n        if n % i == 0:\r\n            result = True\r\n    return result' \n[DONE] \n\n ",
                        ),
                        dict(
                            role='HUMAN',
                            prompt='You are an expert Python programmer, and here is your task: Write a function to find the largest integers from a given list of numbers using heap queue algorithm. Your code should pass these tests:\n\n assert heap_queue_largest( [25, 35, 22, 85, 14, 65, 75, 22, 58],3)==[85, 75, 65] \n assert heap_queue_largest( [25, 35, 22, 85, 14, 65, 75, 22, 58],2)==[85, 75] \n assert heap_queue_largest( [25, 35, 22, 85, 14, 65, 75, 22, 58],5)==[85, 75, 65, 58, 35] \n',
                        ),
                        dict(
                            role='BOT',
                            prompt="[BEGIN]\n 'import heapq as hq\r\ndef heap_queue_largest(nums,n):\r\n  largest_nums = hq.nlargest(n, nums)\r\n  return largest_nums' \n[DONE] \n\n ",
                        ),
                        dict(
                            role='HUMAN',
                            prompt='You are an expert Python programmer, and here is your task: {text} Your code should pass these tests:\n\n {test_list}  \n',
                        ),
                        dict(
                            role='BOT',
                            prompt='[BEGIN]\n',
                        ),
                    ],
                ),
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
                max_out_len=512,
            ),
        ),
        eval_cfg=dict(
            evaluator=dict(
                type=MBPPEvaluator,
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
