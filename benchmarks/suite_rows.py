"""The suite benchmark's workspace: the chat_OC15 fixture and rows generated from a seed.

``benchmarks/suite/`` holds the configs (recorded from OpenCompass by
``tools/gen_suite_fixture.py``); rows are not committed (about 25 MB), they are generated
here: per dataset 100 test rows and 10 train rows, each column about as long as the real
dataset's (the mean lengths below, in characters, from the datasets' published samples),
in English words or Chinese characters as the dataset is written. The same seed gives the
same rows, so runs compare.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

SUITE = Path(__file__).resolve().parent / "suite"
TEST_ROWS, TRAIN_ROWS = 100, 10
SEED = 20251124

#: (dataset class, column) -> mean length in characters; a column not listed is 40.
LENGTHS: dict[tuple[str, str], int] = {
    ("MMLUDataset", "input"): 260, ("MMLUDataset", "target"): 1,
    ("CMMLUDataset", "question"): 60, ("CMMLUDataset", "answer"): 1,
    ("CEvalDataset", "question"): 70, ("CEvalDataset", "answer"): 1,
    ("GaokaoBenchDataset", "question"): 420, ("GaokaoBenchDataset", "answer"): 1,
    ("TriviaQADatasetV2", "question"): 80, ("TriviaQADatasetV2", "answer"): 12,
    ("NQOpenDataset", "question"): 48, ("NQOpenDataset", "answer"): 14,
    ("RaceDataset", "article"): 1400, ("RaceDataset", "question"): 55, ("RaceDataset", "answer"): 1,
    ("WinograndeDatasetV3", "prompt"): 110, ("WinograndeDatasetV3", "only_option1"): 8,
    ("WinograndeDatasetV3", "only_option2"): 8, ("WinograndeDatasetV3", "answer"): 1,
    ("HellaswagDatasetwithICE", "ctx"): 250, ("HellaswagDatasetwithICE", "label"): 1,
    ("HellaswagDatasetwithICE", "A"): 90, ("HellaswagDatasetwithICE", "B"): 90,
    ("HellaswagDatasetwithICE", "C"): 90, ("HellaswagDatasetwithICE", "D"): 90,
    ("BBHDataset", "input"): 420, ("BBHDataset", "target"): 10,
    ("GSM8KDataset", "question"): 240, ("GSM8KDataset", "answer"): 290,
    ("MATHDataset", "problem"): 200, ("MATHDataset", "solution"): 540,
    ("TheoremQADatasetV3", "Question"): 260, ("TheoremQADatasetV3", "Answer_type"): 5,
    ("TheoremQADatasetV3", "Answer"): 6,
    ("HumanevalDataset", "prompt"): 450, ("HumanevalDataset", "task_id"): 13,
    ("SanitizedMBPPDataset", "text"): 80, ("SanitizedMBPPDataset", "test_list"): 190,
    ("SanitizedMBPPDataset", "test_list_2"): 190,
    ("GPQADataset", "question"): 460, ("GPQADataset", "answer"): 1,
    ("GPQADataset", "A"): 70, ("GPQADataset", "B"): 70, ("GPQADataset", "C"): 70, ("GPQADataset", "D"): 70,
    ("IFEvalDataset", "prompt"): 240, ("IFEvalDataset", "reference"): 60,
}
CHINESE = {"CMMLUDataset", "CEvalDataset", "GaokaoBenchDataset"}
LETTERS = "ABCD"
_WORD_TEXT = ("the of and to in is that for it as was with be by on not he this are or his from at which but "
         "have an they you were her she there been one all we their has would when if so no will what "
         "number value answer question system energy water market court patient function equation "
         "between because therefore following increase average distance probability")
WORDS = _WORD_TEXT.split()
HANZI = ("的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下"
         "过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都"
         "两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重"
         "新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想"
         "已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知"
         "较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造"
         "百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白"
         "教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集"
         "温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿"
         "千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存"
         "候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该"
         "铁价严")


def _text(rng: random.Random, mean: int, chinese: bool) -> str:
    length = max(1, int(rng.gauss(mean, mean / 3)))
    if chinese:
        return "".join(rng.choice(HANZI) for _ in range(length))
    out: list[str] = []
    size = 0
    while size < length:
        word = rng.choice(WORDS)
        out.append(word)
        size += len(word) + 1
    return " ".join(out).capitalize()


def _value(rng: random.Random, kind: str, column: str, chinese: bool) -> object:
    mean = LENGTHS.get((kind, column), 40)
    if mean == 1:
        return rng.choice(LETTERS)
    if kind in ("TriviaQADatasetV2", "NQOpenDataset") and column == "answer":
        return [_text(rng, mean, False) for _ in range(rng.randint(1, 3))]  # the answers' aliases
    return _text(rng, mean, chinese and column not in LETTERS)


def rows_for(kind: str, columns: list[str], count: int, rng: random.Random) -> list[dict[str, object]]:
    chinese = kind in CHINESE
    return [{c: _value(rng, kind, c, chinese) for c in columns} for _ in range(count)]


def write_suite(folder: Path, test_rows: int = TEST_ROWS, train_rows: int = TRAIN_ROWS,
                seed: int = SEED) -> Path:
    """Copy the fixture to ``folder`` with generated rows and its workbench.toml; the eval config."""
    shutil.copytree(SUITE, folder, dirs_exist_ok=True)
    manifest = json.loads((SUITE / "manifest.json").read_text(encoding="utf-8"))["datasets"]
    rng = random.Random(seed)
    (folder / "rows").mkdir(exist_ok=True)
    table = ["[data]"]
    for n, (abbr, entry) in enumerate(manifest.items()):
        test = rows_for(entry["type"], entry["columns"], test_rows, rng)
        train = rows_for(entry["type"], entry["columns"], train_rows, rng)
        splits = {entry["train_split"]: train, entry["test_split"]: test}
        if entry["train_split"] == entry["test_split"]:  # TheoremQA, as its config asks
            splits = {entry["test_split"]: test}
        name = f"rows/{n:03d}.json"
        (folder / name).write_text(json.dumps(splits, ensure_ascii=False), encoding="utf-8")
        table.append(f"{json.dumps(abbr)} = \"{name}\"")
    (folder / "workbench.toml").write_text("\n".join(table) + "\n", encoding="utf-8")
    return folder / "eval_suite.py"


def datasets_in(folder: Path) -> list[str]:
    """The suite's dataset abbrs, in the collection's order."""
    return list(json.loads((folder / "manifest.json").read_text(encoding="utf-8"))["datasets"])
