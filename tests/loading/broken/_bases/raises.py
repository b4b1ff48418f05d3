from opencompass.openicl.icl_retriever import ZeroRetriever

shots = 4
per_shot = 100 // (shots - 4)
