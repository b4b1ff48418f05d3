def choices(doc):
    return [f"({label}) {text}" for label, text in zip(doc["choices"]["label"], doc["choices"]["text"])]


def keep_short(dataset):
    return dataset.filter(lambda doc: len(doc["question"]) < 30)
