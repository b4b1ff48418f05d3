# broken: _base_ files and framework imports in one config
from opencompass.openicl.icl_retriever import ZeroRetriever

_base_ = ['_bases/classic_a.py']
retriever = dict(type=ZeroRetriever)
