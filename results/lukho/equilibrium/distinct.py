#!/usr/bin/env python3
"""Are any two choices of the family interchangeable (identical payoff vectors)? A lower bound
on the number of distinct vectors from the columns an equilibrium run has swept.

    python3 results/lukho/equilibrium/distinct.py DIR [K ...]

DIR is a run's directory (its `columns/col-N.i16` or `col-N.i8`: South's payoff, little-endian,
of every family choice against North's choice N; i8 where every entry fits, as for one-outcome
margins). Each family choice p gets the signature
(A(p, n1), ..., A(p, nK)) over the first K columns (sorted by file name); two choices whose
signatures differ have different payoff vectors, so the number of distinct signatures is a
lower bound on the number of distinct vectors, reaching the family's size when all differ.
Signatures are compared by their 64-bit hashes: distinct hashes prove distinct signatures,
and a collision could only undercount. In a symmetric model (sequential, lockstep) a row is
the negated column of the same choice, so the answer holds for rows and columns alike.
Prints K, the distinct count, the family size, and the largest group of equal signatures.
"""
import os
import sys
from collections import Counter


def main():
    d = sys.argv[1]
    ks = [int(k) for k in sys.argv[2:]] or [1, 2, 4, 8, 16, 32, 64]
    names = sorted(
        n for n in os.listdir(os.path.join(d, "columns")) if n.startswith("col-") and n.endswith((".i16", ".i8", ".i8x2"))
    )
    cols = []
    for k in ks:
        k = min(k, len(names))
        while len(cols) < k:
            with open(os.path.join(d, "columns", names[len(cols)]), "rb") as f:
                cols.append(memoryview(f.read()).cast("h" if names[len(cols)].endswith(".i16") else "b"))
        hashes = Counter(map(hash, zip(*cols)))
        n = len(cols[0])
        print(f"K {k}: {len(hashes)} distinct signatures of {n} choices; largest group {max(hashes.values())}", flush=True)
        if len(hashes) == n or k == len(names):
            break


if __name__ == "__main__":
    main()
