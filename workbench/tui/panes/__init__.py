"""The four panes: each shows one renderable from :mod:`workbench.views`."""
