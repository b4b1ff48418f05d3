# broken: the model's meta template names HUMAN twice
from opencompass.models import HuggingFaceCausalLM
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

datasets = [
    dict(
        abbr='demo',
        reader_cfg=dict(input_columns=['question'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(type=PromptTemplate, template=dict(round=[dict(role='HUMAN', prompt='{question}')])),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=GenInferencer),
        ),
    )
]

models = [
    dict(
        type=HuggingFaceCausalLM,
        abbr='lm',
        path='org/lm',
        meta_template=dict(round=[
            dict(role='HUMAN', begin='<user>', end='\n'),
            dict(role='BOT', begin='<bot>', end='\n', generate=True),
            dict(role='HUMAN', begin='<again>', end='\n'),
        ]),
    )
]
