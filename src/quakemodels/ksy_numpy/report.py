"""What a ksy-numpy run found: specs, types, refusals by reason, mismatches, the last line."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .layout import Entry, Spec


@dataclass
class Report:
    """Counts and messages of one run; :meth:`summary` is its last line.

    A type is each entry of a spec's ``types:`` and its root, bound to each literal argument
    list it is used with when it has ``params``; types of imported specs count in their own
    spec only."""

    specs: int = 0
    types: int = 0
    accepted: int = 0
    mismatches: int = 0
    instances: int = 0  # parse instances at a literal pos, checked by --verify
    failed: bool = False
    refused: Counter[str] = field(default_factory=Counter)
    messages: list[str] = field(default_factory=list)

    def refuse_spec(self, path: Path, reason: str) -> None:
        self.specs += 1
        self.failed = True
        self.refused["spec not read: " + reason.split(":", 1)[0]] += 1

    def add_spec(self, spec: Spec, entries: Sequence[Entry]) -> None:
        self.specs += 1
        for e in entries:
            if e.info.imported:
                continue
            self.types += 1
            name = spec.const_of(e.info, e.env)
            if e.layout.complete:
                self.accepted += 1
            else:
                self.refused[e.layout.kind] += 1
                self.messages.append(f"{spec.path}: {name}: {e.layout.reason}")

    def unverified(self, spec: Spec, entries: Sequence[Entry], reason: str) -> None:
        """The spec's complete types could not be checked: refused for ``reason``."""
        for e in entries:
            if e.info.imported or not e.layout.complete:
                continue
            self.accepted -= 1
            self.refused[reason.split(":", 1)[0] if "refused" in reason else reason] += 1
            self.messages.append(f"{spec.path}: {spec.const_of(e.info, e.env)}: {reason}")

    def mismatch(self, spec: Spec, const: str, what: str) -> None:
        self.mismatches += 1
        self.failed = True
        self.messages.append(f"{spec.path}: {const}: MISMATCH: {what}")

    def table(self) -> list[str]:
        """The coverage table: accepted, then the refusals by reason, most first."""
        out = [f"accepted: {self.accepted}"]
        if self.instances:
            out.append(f"instances at a literal pos, checked: {self.instances}")
        return out + [f"refused: {n}: {kind}" for kind, n in self.refused.most_common()]

    def summary(self) -> str:
        return (
            f"ksy-numpy: {self.specs} specs, {self.types} types, {self.accepted} accepted, "
            f"{self.mismatches} mismatches"
        )
