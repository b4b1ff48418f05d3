"""Warnings collected while rendering one (dataset, model) pair.

May import: the standard library only: it is the core's bottom layer, which every other core
module may use.
"""

from __future__ import annotations

from dataclasses import dataclass, field

OC_VERSION = "OpenCompass 0.5.4"
AIS_VERSION = "AISBench 3.1.20260630"


@dataclass
class Notes:
    """Deduplicated warnings, in the order first seen, with how often each came up."""

    _counts: dict[str, int] = field(default_factory=dict)

    def warn(self, message: str) -> None:
        self._counts[message] = self._counts.get(message, 0) + 1

    def framework_fails(self, framework: str, failure: str, what_we_do: str) -> None:
        """A config the docs call valid on which the framework crashes."""
        self.warn(f"{framework} fails here: {failure}; rendered as the docs describe ({what_we_do})")

    @property
    def messages(self) -> list[str]:
        return list(self._counts)

    def count(self, message: str) -> int:
        return self._counts.get(message, 0)

    def extend(self, other: Notes) -> None:
        for message, n in other._counts.items():
            self._counts[message] = self._counts.get(message, 0) + n
