"""Time and memory budgets on full-size inputs: every seed and its structured mutations.

The coverage-guided fuzzer works on small inputs (``-max_len``); this driver holds the big
ones — every corpus file and the truncations, header values, overlaps and bit flips the
hypothesis suite uses — to the budgets of ``harness.check_budgets`` (≤ 100 ms per MB plus a
small fixed allowance, peak traced memory ≤ 20 × the input plus a small allowance), and
prints the worst ratios seen. Exits 1 when any input is over budget or escapes.

    python fuzz/budgets.py [--seconds N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import struct
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import harness  # noqa: E402
import seeds  # noqa: E402

SPECIAL = (0, -1, 1, 2**31 - 1, -(2**31), 0xFFFF, 1 << 20)


def mutations(data: bytes, rng: random.Random) -> list[tuple[str, bytes]]:
    """Structured mutations of one seed: header words, truncations, bit flips."""
    out: list[tuple[str, bytes]] = [("seed", data)]
    words = min(len(data), 108) // 4
    for i in range(1, words):
        for value in SPECIAL:
            mutated = bytearray(data)
            mutated[4 * i : 4 * i + 4] = struct.pack("<i", value)
            out.append((f"word{i}={value}", bytes(mutated)))
    for _ in range(16):
        cut = rng.randrange(len(data) + 1)
        out.append((f"cut{cut}", data[:cut]))
    for _ in range(16):
        mutated = bytearray(data)
        for _ in range(rng.randint(1, 32)):
            mutated[rng.randrange(len(mutated))] ^= 1 << rng.randrange(8)
        out.append(("flips", bytes(mutated)))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60.0, help="stop after this long")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    pool = [
        *seeds.synthetic_models(),
        *seeds.corpus_files(1 << 30),
    ]
    deadline = time.monotonic() + args.seconds
    runs = failures = 0
    worst_time = worst_memory = 0.0
    worst_time_at = worst_memory_at = ""
    rounds = 0
    while time.monotonic() < deadline:
        # A random seed each round, and a random sample of its mutations: big and small seeds
        # alike get their turn however short the run.
        index = rng.randrange(len(pool))
        sample = mutations(pool[index], rng)
        rng.shuffle(sample)
        for label, mutated in sample[:12]:
            if time.monotonic() >= deadline:
                break
            runs += 1
            try:
                harness.exercise(mutated, heavy=False)
                seconds, peak = harness.check_budgets(mutated)
            except Exception:
                failures += 1
                print(f"seed {index} {label} ({len(mutated)} bytes):", file=sys.stderr)
                traceback.print_exc()
                continue
            size = max(len(mutated), 1)
            t_ratio = seconds / harness.time_budget(size)
            m_ratio = peak / size
            if t_ratio > worst_time:
                worst_time, worst_time_at = t_ratio, f"seed {index} {label} {size} B"
            if m_ratio > worst_memory and size >= 4096:
                worst_memory, worst_memory_at = m_ratio, f"seed {index} {label} {size} B"
        rounds += 1
    print(
        f"{runs} inputs ({rounds} seeds drawn from {len(pool)}), {failures} failures;"
        f" worst time {worst_time:.2f} of budget ({worst_time_at});"
        f" worst memory {worst_memory:.1f}x input for inputs ≥ 4 KB ({worst_memory_at})"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
