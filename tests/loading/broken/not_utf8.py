# broken: Latin-1 bytes, not UTF-8
prompt = "café"
