# broken: the dataset's local rows file has a bad JSON line
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import ZeroRetriever

datasets = [
    dict(
        abbr='demo',
        path='_data/bad_line.jsonl',
        reader_cfg=dict(input_columns=['question'], output_column='answer'),
        infer_cfg=dict(
            prompt_template=dict(type=PromptTemplate, template='Q: {question}'),
            retriever=dict(type=ZeroRetriever),
            inferencer=dict(type=GenInferencer),
        ),
    )
]
