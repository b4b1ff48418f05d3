# An API model: the meta template maps dataset roles to API roles, so the model
# receives a list of role messages (system / user / assistant) instead of one string.
# APIs return no token losses, so PPL datasets are refused for this model.
# key='ENV' is the OpenCompass convention for "read the key from OPENAI_API_KEY".
from opencompass.models import OpenAI

api_meta_template = dict(
    round=[
        dict(role='HUMAN', api_role='HUMAN'),
        dict(role='BOT', api_role='BOT', generate=True),
    ],
    reserved_roles=[dict(role='SYSTEM', api_role='SYSTEM')],
)

models = [
    dict(
        type=OpenAI,
        abbr='gpt-4o-demo',
        path='gpt-4o-2024-05-13',
        key='ENV',
        meta_template=api_meta_template,
        query_per_second=1,
        max_out_len=2048,
        max_seq_len=4096,
        batch_size=8,
    )
]
