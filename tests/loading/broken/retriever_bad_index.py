# broken: fix_id_list holds a string where an example index goes
from opencompass.openicl.icl_inferencer import GenInferencer
from opencompass.openicl.icl_prompt_template import PromptTemplate
from opencompass.openicl.icl_retriever import FixKRetriever

datasets = [
    dict(
        abbr='demo',
        reader_cfg=dict(input_columns=['question'], output_column='answer'),
        infer_cfg=dict(
            ice_template=dict(type=PromptTemplate, template='Q: {question}\nA: {answer}\n'),
            prompt_template=dict(type=PromptTemplate, template='</E>Q: {question}\nA:', ice_token='</E>'),
            retriever=dict(type=FixKRetriever,
                           fix_id_list=['0']),
            inferencer=dict(type=GenInferencer),
        ),
    )
]
