"""Modal screens: help, and the one-line prompts for jump and search."""
