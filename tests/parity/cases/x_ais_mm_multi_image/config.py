"""Parity case x_ais_mm_multi_image: AISBench MMPromptTemplate with several images (and texts, a video) per row. Written by tools/parity_x_cases.py."""

from ais_bench.benchmark.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, VLLMCustomAPIChat
from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer
from ais_bench.benchmark.openicl.icl_prompt_template import MMPromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever

ais_mm_multi_image_datasets = [
    dict(
        abbr='mm_images_url_dict',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question', 'anything'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=MMPromptTemplate,
                template=dict(
                    round=[
                        dict(
                            role='HUMAN',
                            prompt_mm=dict(
                                text=dict(
                                    type='text',
                                    text='{question}',
                                ),
                                image=dict(
                                    type='image_url',
                                    image_url=dict(
                                        url='file://{image}',
                                    ),
                                ),
                                video=dict(
                                    type='video_url',
                                    video_url=dict(
                                        url='file://{video}',
                                    ),
                                ),
                            ),
                        ),
                    ],
                ),
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='mm_images_url_string',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question', 'anything'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=MMPromptTemplate,
                template=dict(
                    round=[
                        dict(
                            role='HUMAN',
                            prompt_mm=dict(
                                text=dict(
                                    type='text',
                                    text='Q: {question}',
                                ),
                                image=dict(
                                    type='image_url',
                                    image_url='{image}',
                                ),
                                video=dict(
                                    type='video_url',
                                    video_url='{video}',
                                ),
                            ),
                        ),
                    ],
                ),
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=GenInferencer,
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
