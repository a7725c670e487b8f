"""Animation clips from frame names.

Quake II player models have 198 frames in a fixed layout (the spec's 20-clip table:
``anim_names``, ``anim_start_indices``, ``anim_num_frames``); their weapon models use the
first 16 clips of it (173 frames). Other models name their frames ``<clip><number>``.
"""

from __future__ import annotations

from collections.abc import Sequence

_DIGITS = "0123456789"  # ASCII digits only: str.isdigit would take other scripts' digits too

# Spellings real files use for the table's clip names (lower case, digits removed).
# The table's clip names carry a digit for pain1..3 and death1..3; their frames are
# named pain101.. or pain1..pain12 (numbered through), so the base is what counts.
_ALIASES: dict[str, frozenset[str]] = {
    "crstnd": frozenset({"crstnd", "crstand"}),
    "crattak": frozenset({"crattak", "crattk", "crattck", "crattack"}),
    "crdeath": frozenset({"crdeath", "crdeth"}),
}

PLAYER_FRAMES = 198
WEAPON_FRAMES = 173
WEAPON_CLIPS = 16


def split_name(name: str) -> tuple[str, int | None]:
    """Split a frame name into its base and trailing number: 'pain104' → ('pain', 104)."""
    base = name.rstrip(_DIGITS)
    digits = name[len(base) :]
    return base, (int(digits) if digits else None)


def _accepted_bases(clip: str) -> frozenset[str]:
    base = split_name(clip.lower())[0]
    return _ALIASES.get(base, frozenset({base}))


def table_clips(
    frame_names: Sequence[str],
    names: Sequence[str],
    starts: Sequence[int],
    counts: Sequence[int],
) -> dict[str, range] | None:
    """The spec's clip table applied to these frames, or None when the names do not fit it.

    Applies to 198 frames (all 20 clips) and 173 frames (the first 16). Every frame's base
    name (lower case, trailing digits removed) must be the clip's name or a known misspelling.
    """
    n = len(frame_names)
    if n == PLAYER_FRAMES:
        used = len(names)
    elif n == WEAPON_FRAMES:
        used = WEAPON_CLIPS
    else:
        return None
    bases = [name.lower().rstrip(_DIGITS) for name in frame_names]
    clips: dict[str, range] = {}
    for name, start, count in zip(names[:used], starts[:used], counts[:used], strict=True):
        if not set(bases[start : start + count]) <= _accepted_bases(name):
            return None
        clips[name] = range(start, start + count)
    if sum(len(r) for r in clips.values()) != n:
        return None
    return clips


def grouped_clips(frame_names: Sequence[str]) -> dict[str, range]:
    """Clips of consecutive frames with the same base name and consecutive numbers.

    A clip ends where the base changes or the number does not follow (``pain104`` →
    ``pain201``), so ``pain101``…``pain304`` are three clips. Clips that would share a name
    are told apart by a suffix: the hundreds digit when the numbers are ≥ 100 and share it
    (``pain1``, ``pain2``), else their order (``run1``, ``run2``).
    """
    runs: list[tuple[str, int, int, list[int | None]]] = []  # base, start, stop, numbers
    for i, name in enumerate(frame_names):
        base, number = split_name(name)
        if runs:
            prev_base, start, _, numbers = runs[-1]
            prev = numbers[-1]
            follows = (number is None and prev is None) or (
                number is not None and prev is not None and number == prev + 1
            )
            if base == prev_base and follows:
                runs[-1] = (base, start, i + 1, [*numbers, number])
                continue
        runs.append((base, i, i + 1, [number]))

    by_base: dict[str, int] = {}
    for base, *_ in runs:
        by_base[base] = by_base.get(base, 0) + 1
    clips: dict[str, range] = {}
    order: dict[str, int] = {}
    for base, start, stop, numbers in runs:
        label = base or "frames"
        if by_base[base] > 1:
            order[base] = order.get(base, 0) + 1
            hundreds = {n // 100 for n in numbers if n is not None}
            if len(hundreds) == 1 and all(n is not None and n >= 100 for n in numbers):
                label = f"{label}{hundreds.pop()}"
            else:
                label = f"{label}{order[base]}"
        unique = label
        k = 2
        while unique in clips:
            unique = f"{label}_{k}"
            k += 1
        clips[unique] = range(start, stop)
    return clips
