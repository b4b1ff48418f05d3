# broken: without read_base or framework imports, mmengine gives no __file__
import os.path as osp

prompt_path = osp.join(osp.dirname(__file__), 'prompts.txt')
