"""Parity case ais_winogrande_gen_5_shot_chat_prompt: ais_bench/benchmark/configs/datasets/winogrande/winogrande_gen_5_shot_chat_prompt.py (winogrande_datasets[:1]), flattened by tools/make_parity_cases.py."""

from ais_bench.benchmark.datasets import WinograndeDatasetV3
from ais_bench.benchmark.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, VLLMCustomAPIChat
from ais_bench.benchmark.openicl.icl_evaluator import AccwithDetailsEvaluator
from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer
from ais_bench.benchmark.openicl.icl_prompt_template import PromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import FixKRetriever
from ais_bench.benchmark.utils.postprocess.text_postprocessors import last_option_postprocess

winogrande_datasets = [
    dict(
        abbr='winogrande',
        type=WinograndeDatasetV3,
        path='ais_bench/datasets/winogrande',
        reader_cfg=dict(
            input_columns=['prompt', 'only_option1', 'only_option2'],
            output_column='answer',
            train_split='train_xs',
            test_split='dev',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template=dict(
                    begin='</E>',
                    round=[
                        dict(
                            role='HUMAN',
                            prompt='There is a single choice question about physical knowledge. Answer the question by replying A or B. The last line of your response should be of the form Answer: $ANSWER (without quotes) where $ANSWER is the answer to the question.\n\nQuestion: {prompt}\nA. {only_option1}\nB. {only_option2}',
                        ),
                        dict(
                            role='BOT',
                            prompt='Answer: {answer}',
                        ),
                    ],
                ),
                ice_token='</E>',
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[0, 2, 4, 6, 8],
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
        eval_cfg=dict(
            evaluator=dict(
                type=AccwithDetailsEvaluator,
            ),
            pred_role='BOT',
            pred_postprocessor=dict(
                type=last_option_postprocess,
                options='AB',
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
