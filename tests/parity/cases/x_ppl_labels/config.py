"""Parity case x_ppl_labels: OpenCompass PPLInferencer: int label keys, labels given on the inferencer, labels from an int output column, sep_token. Written by tools/parity_x_cases.py."""

from opencompass.models import HuggingFaceCausalLM, HuggingFacewithChatTemplate, OpenAI
from opencompass.openicl.icl_inferencer import GenInferencer, PPLInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever, ZeroRetriever

ppl_labels_datasets = [
    dict(
        abbr='ppl_int_keys',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template={
                    0: 'Q: {question} No',
                    1: 'Q: {question} Yes',
                },
            ),
            prompt_template=dict(
                type=PromptTemplate,
                template={
                    0: '</E>Q: {question} No',
                    1: '</E>Q: {question} Yes',
                },
                ice_token='</E>',
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[0, 1],
            ),
            inferencer=dict(
                type=PPLInferencer,
            ),
        ),
    ),
    dict(
        abbr='ppl_labels_given',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template={
                    0: '{question} No',
                    1: '{question} Yes',
                },
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=PPLInferencer,
                labels=[1, 0],
            ),
        ),
    ),
    dict(
        abbr='ppl_labels_not_in_template',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template={
                    0: '{question} No',
                    1: '{question} Yes',
                },
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=PPLInferencer,
                labels=[0, 2],
            ),
        ),
    ),
    dict(
        abbr='ppl_labels_on_dialogue',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template=dict(
                    round=[
                        dict(
                            role='HUMAN',
                            prompt='{question}',
                        ),
                        dict(
                            role='BOT',
                            prompt='{answer}',
                        ),
                    ],
                ),
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=PPLInferencer,
                labels=['x', 'y'],
            ),
        ),
    ),
    dict(
        abbr='ppl_string_template_int_output',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='score',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template='Q: {question} S: {score}',
            ),
            retriever=dict(
                type=ZeroRetriever,
            ),
            inferencer=dict(
                type=PPLInferencer,
            ),
        ),
    ),
    dict(
        abbr='ppl_sep_token',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template={
                    0: 'Q: {question}<SEP> No',
                    1: 'Q: {question}<SEP> Yes',
                },
                sep_token='<SEP>',
            ),
            prompt_template=dict(
                type=PromptTemplate,
                template={
                    0: '</E>Q: {question}<SEP> No',
                    1: '</E>Q: {question}<SEP> Yes',
                },
                ice_token='</E>',
                sep_token='<SEP>',
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[0, 1],
            ),
            inferencer=dict(
                type=PPLInferencer,
            ),
        ),
    ),
    dict(
        abbr='gen_sep_token',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            ice_template=dict(
                type=PromptTemplate,
                template='Q: {question}<SEP>{answer}',
                sep_token='<SEP>',
            ),
            prompt_template=dict(
                type=PromptTemplate,
                template='</E>Q: {question}<SEP>',
                ice_token='</E>',
                sep_token='<SEP>',
            ),
            retriever=dict(
                type=FixKRetriever,
                fix_id_list=[1],
            ),
            inferencer=dict(
                type=GenInferencer,
            ),
        ),
    ),
    dict(
        abbr='gen_int_key_template',
        type='ParityJsonDataset',
        path='parity/x',
        reader_cfg=dict(
            input_columns=['question'],
            output_column='answer',
        ),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template={
                    1: '{question} Yes',
                    0: '{question} No',
                },
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
