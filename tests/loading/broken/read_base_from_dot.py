# broken: mmengine needs a module name after the dots
from mmengine.config import read_base

with read_base():
    from . import syntax_error  # noqa: F401
