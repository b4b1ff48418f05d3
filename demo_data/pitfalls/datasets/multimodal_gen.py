# PITFALL: an AISBench multimodal template sent through OpenCompass models.  OpenCompass's
# template parsers read only a turn's `prompt`, never its `prompt_mm`: the filled
# text/image parts show in the PromptList, but every model receives an empty user turn.
# AISBench's own API and chat-template models send the parts (`--models` with one).
#
# AISBench multimodal: MMPromptTemplate's prompt_mm says how each part of a row's
# `content` column becomes an OpenAI-style content part.  `content` is tagged
# <AIS_TEXT_START>...<AIS_CONTENT_TAG><AIS_IMAGE_START>...<AIS_CONTENT_TAG>; each text
# part fills {question}, each image part fills {image}.  The image files are only
# names here: the workbench shows the request, it never opens the images.
#
# `type` names the loader the real benchmark would use; the workbench never runs it
# and reads the rows from `path` (relative to this file's folder) itself.
from ais_bench.benchmark.datasets import TEXTVQADataset
from ais_bench.benchmark.openicl.icl_inferencer import GenInferencer
from ais_bench.benchmark.openicl.icl_prompt_template import MMPromptTemplate
from ais_bench.benchmark.openicl.icl_retriever import ZeroRetriever

multimodal_demo_reader_cfg = dict(input_columns=['question', 'image'], output_column='answer')

multimodal_demo_infer_cfg = dict(
    prompt_template=dict(
        type=MMPromptTemplate,
        template=dict(
            round=[
                dict(
                    role='HUMAN',
                    prompt_mm={
                        'text': {'type': 'text', 'text': '{question}'},
                        'image': {'type': 'image_url', 'image_url': {'url': 'file://{image}'}},
                    },
                ),
            ],
        ),
    ),
    retriever=dict(type=ZeroRetriever),
    inferencer=dict(type=GenInferencer),
)

multimodal_demo_datasets = [
    dict(
        abbr='multimodal-demo',
        type=TEXTVQADataset,
        path='../data/multimodal.jsonl',
        image_type='image_path',
        reader_cfg=multimodal_demo_reader_cfg,
        infer_cfg=multimodal_demo_infer_cfg,
    )
]
