# broken: a name that was never defined or imported
from opencompass.openicl.icl_retriever import ZeroRetriever

gsm8k_infer_cfg = dict(retriever=dict(type=ZeroRetriever), inferencer=dict(type=GenInferencer))
