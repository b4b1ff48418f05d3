"""process_docs that draw from the global random state, as lm-eval's GPQA does."""

import random

import numpy as np


def shuffle_choices(dataset):
    def _doc(doc):
        texts = list(doc["choices"]["text"])
        correct = texts[0]
        random.shuffle(texts)
        return {"question": doc["question"], "options": texts, "gold": texts.index(correct)}

    return dataset.map(_doc)


def sample_choices(dataset):
    def _doc(doc):
        texts = random.sample(list(doc["choices"]["text"]), 3)
        return {"question": doc["question"], "options": texts, "gold": texts.index(doc["choices"]["text"][0])}

    return dataset.map(_doc)


def permute_choices(dataset):
    def _doc(doc):
        texts = list(doc["choices"]["text"])
        order = [int(i) for i in np.random.permutation(len(texts))]
        options = [texts[i] for i in order]
        return {"question": doc["question"], "options": options, "gold": order.index(0)}

    return dataset.map(_doc)
