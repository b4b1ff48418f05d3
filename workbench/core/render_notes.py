"""Warnings collected while rendering one (dataset, model) pair.

May import: the standard library, ``findings`` and ``result`` (the bottom layer's other modules).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .findings import Finding
from .result import PairWarning

OC_VERSION = "OpenCompass 0.5.4"
AIS_VERSION = "AISBench 3.1.20260630"


@dataclass
class Notes:
    """Deduplicated warnings, in the order first seen, with how often each came up."""

    _counts: dict[str, int] = field(default_factory=dict)
    _findings: dict[str, Finding] = field(default_factory=dict)  # by message: the warnings rules raised

    def warn(self, message: str) -> None:
        self._counts[message] = self._counts.get(message, 0) + 1

    def find(self, finding: Finding) -> None:
        """A warning a rule raised: said like any other, and known by its id and place."""
        self._findings.setdefault(finding.message, finding)
        self.warn(finding.message)

    def finding(self, message: str) -> Finding | None:
        return self._findings.get(message)

    def found(self, rule: str) -> bool:
        """Whether a finding of this rule was said."""
        return any(f.rule == rule for f in self._findings.values())

    def pair_warnings(self, dataset: str | None, model: str | None,
                      locate: Callable[[tuple], tuple[str | None, int | None]] | None = None,
                      ) -> list[PairWarning]:
        """The warnings as a result lists them (a finding's id, place and hint kept); ``locate``
        turns a finding's ``key_path`` into the file and line it was written on."""
        out = []
        for message in self._counts:
            found = self._findings.get(message)
            if found is None:
                out.append(PairWarning(dataset, model, message))
                continue
            file, line = found.file, found.line
            if file is None and found.key_path is not None and locate is not None:
                file, line = locate(found.key_path)
            out.append(PairWarning(dataset, model, message, found.rule, file, line, found.hint))
        return out

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
        for message, found in other._findings.items():
            self._findings.setdefault(message, found)
