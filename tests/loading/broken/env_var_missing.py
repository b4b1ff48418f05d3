# broken: an environment variable with no default
data_root = '{{$WORKBENCH_SURELY_UNSET_VARIABLE:}}'
