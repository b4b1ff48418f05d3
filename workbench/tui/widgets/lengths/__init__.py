"""The lengths screen's widget: one model's histogram (plotext, loaded when the screen opens)."""
