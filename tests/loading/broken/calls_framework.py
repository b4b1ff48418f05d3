# broken: framework code never runs at load time
from opencompass.utils.text_postprocessors import first_capital_postprocess

answer = first_capital_postprocess('the answer is B')
