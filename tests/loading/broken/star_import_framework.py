# broken: `import *` from a framework package outside read_base
from opencompass.openicl.icl_retriever import *  # noqa: F403

retriever = dict(type=ZeroRetriever)  # noqa: F405
