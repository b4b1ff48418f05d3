# broken: a config that ends the process outright
import os

os._exit(5)
