# broken: round must be a list of turns
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

datasets = [
    dict(
        abbr='demo',
        reader_cfg=dict(input_columns=['question'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(
                type=PromptTemplate,
                template=dict(round=dict(role='HUMAN', prompt='{question}')),
            ),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=GenInferencer),
        ),
    )
]
