inferencer = 'GenInferencer'
