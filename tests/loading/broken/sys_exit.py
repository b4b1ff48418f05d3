# broken: a config that exits
import sys

sys.exit(2)
