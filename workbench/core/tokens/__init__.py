"""Token counting and chat templates: tokenizers and estimates, and chat templates rendered in a
Jinja sandbox with bounds on the work a template may do.

May import: the top of ``workbench.core`` only (errors, provenance, package_data).
"""
