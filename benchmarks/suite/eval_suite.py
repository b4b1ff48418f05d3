# The suite benchmark's evaluation config: OpenCompass's chat_OC15 collection (234 datasets,
# recorded as plain data in datasets/ by tools/gen_suite_fixture.py) through two chat models.
# Rows come from the workbench.toml the benchmark writes beside this file
# (benchmarks/suite_rows.py: 100 test rows and 10 train rows per dataset).
from mmengine.config import read_base

with read_base():
    from .chat_OC15 import datasets
    from .models import models
