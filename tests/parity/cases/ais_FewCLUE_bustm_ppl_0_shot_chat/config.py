"""Parity case ais_FewCLUE_bustm_ppl_0_shot_chat: ais_bench/benchmark/configs/datasets/FewCLUE_bustm/FewCLUE_bustm_ppl_0_shot_chat.py (bustm_datasets[:1]), flattened by tools/make_parity_cases.py."""

from ais_bench.benchmark.datasets import HFDataset
from ais_bench.benchmark.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, VLLMCustomAPIChat
from ais_bench.benchmark.openicl.icl_evaluator import AccEvaluator
from ais_bench.benchmark.openicl.icl_inferencer import PPLInferencer
from ais_bench.benchmark.openicl.icl_prompt_template import PromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever

bustm_datasets = [
    dict(
        type=HFDataset,
        abbr='bustm-dev',
        path='json',
        data_files='ais_bench/datasets/FewCLUE/bustm/dev_few_all.json',
        split='train',
        reader_cfg=dict(
            input_columns=['sentence1', 'sentence2'],
            output_column='label',
            test_split='train',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template={
                    0: dict(
                        round=[
                            dict(
                                role='HUMAN',
                                prompt='语句一：“{sentence1}”\n语句二：“{sentence2}”\n请判断语句一和语句二说的是否是一个意思？',
                            ),
                            dict(
                                role='BOT',
                                prompt='两句话说的毫不相关。',
                            ),
                        ],
                    ),
                    1: dict(
                        round=[
                            dict(
                                role='HUMAN',
                                prompt='语句一：“{sentence1}”\n语句二：“{sentence2}”\n请判断语句一和语句二说的是否是一个意思？',
                            ),
                            dict(
                                role='BOT',
                                prompt='两句话说是的一个意思。',
                            ),
                        ],
                    ),
                },
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
