"""The main screen's widgets: the template tree (left), a view pane (each of the four on the
right: PromptList, final input, timeline) and the footer."""
