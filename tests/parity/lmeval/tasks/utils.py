def doc_to_text(doc):
    return "Question: " + doc["question"] + "\nAnswer:"

def process_docs(ds):
    def f(d):
        return {**d, "answer": d["answer"].split("####")[-1].strip()}
    return ds.map(f) if hasattr(ds, "map") else [f(d) for d in ds]
