#!/usr/bin/env python3
"""Differential check of `mancala oware replay` against OpenSpiel's `oware`.

Plays seeded random games in OpenSpiel (PyPI package `open_spiel`, game "oware"), replays each
with our binary (`mancala oware replay --moves ... --cycle own-rows --grand-slam no-capture
--jsonl`) and compares every ply: side to move, board, stores, legal moves, terminal flag, and
at the end the final scores and the winner.

Mapping (checked against OpenSpiel's source, open_spiel/games/oware/oware.cc):
- OpenSpiel player 0 moves first = our South; player 1 = North.
- OpenSpiel's board `seeds[0..12]` is player 0's houses then player 1's, both in sowing
  (counterclockwise) order = our absolute `pits` (South 0..5, North 0..5).
- OpenSpiel action `a` = house `6*player + a`, i.e. the mover's own index in sowing order,
  which is our own index (counterclockwise from the owner's left). The mapping is the identity;
  the per-ply board comparison would catch any mistake in it at the first ply.
- Rules: OpenSpiel skips the origin on every lap, captures 2/3 backwards in the opponent's
  row, makes a grand slam legal but capture-free (our default `--grand-slam no-capture`),
  requires feeding, ends on the first repetition since the last capture with each player
  taking his own row (our `--cycle own-rows`), ends when no legal move exists (everyone takes
  his own row, which equals our O5/O6 sweeps), and ends when a score exceeds 24 or both are 24.
- Known, deliberate difference (docs/rules/oware.md O7): when a player reaches 25 (or both 24) OpenSpiel
  also moves the seeds left on the board into the owners' scores (CollectAndTerminate), while
  docs/rules/oware.md says they stay unallocated. The winner is the same either way. Every OpenSpiel
  ending empties the board into the scores, so at the terminal ply the script compares our
  `stores + own rows` with OpenSpiel's scores and OpenSpiel's board with zeros, and reports
  final-score differences by class.
- OpenSpiel refuses more than 1000 moves (kMaxGameLength); a random game still running then is
  compared up to that ply and counted as truncated.

Usage:
    python3 scripts/openspiel_diff.py --games 5000 --seed 1 [--bin target/release/mancala]
        [--grand-slam no-capture|forbidden|awari] [--show 3] [--json]
Exit status: 0 when no unexpected discrepancy was found, 1 otherwise.
"""

import argparse
import collections
import json
import random
import subprocess
import sys
import time

try:
    import pyspiel
except ImportError:  # pragma: no cover
    sys.exit("openspiel_diff: needs the `open_spiel` package (pip install open_spiel)")

SIDES = ("south", "north")
MAX_PLIES = 1000  # OpenSpiel's kMaxGameLength


def os_snapshot(state):
    """(player to move or None, seeds[12], scores[2], legal, terminal) of an OpenSpiel state."""
    # ObservationString is OwareBoard::ToString: "player | score0 score1 | s0 ... s11".
    text = state.observation_string(0)
    player, scores, seeds = (part.split() for part in text.split("|"))
    terminal = state.is_terminal()
    return {
        "to_move": None if terminal else SIDES[state.current_player()],
        "board_player": SIDES[int(player[0])],
        "pits": [int(x) for x in seeds],
        "stores": [int(x) for x in scores],
        "legal": list(state.legal_actions()),
        "terminal": terminal,
    }


def play_random(game, rng):
    """Play one uniformly random game; return (moves, snapshots, returns, truncated)."""
    state = game.new_initial_state()
    moves, snaps = [], [os_snapshot(state)]
    while not state.is_terminal() and len(moves) < MAX_PLIES:
        a = rng.choice(state.legal_actions())
        state.apply_action(a)
        moves.append(a)
        snaps.append(os_snapshot(state))
    return moves, snaps, state.returns() if state.is_terminal() else None, not state.is_terminal()


def replay(binary, moves, grand_slam):
    cmd = [binary, "oware", "replay", "--cycle", "own-rows", "--grand-slam", grand_slam, "--jsonl"]
    if moves:
        cmd[3:3] = ["--moves", ",".join(map(str, moves))]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr.strip()
    return [json.loads(line) for line in out.stdout.splitlines()], None


def sow(pits, mover, own):
    """Our own small sowing (for coverage statistics only): returns (last pit, board)."""
    b = list(pits)
    origin = 6 * mover + own
    hand, b[origin], at = b[origin], 0, origin
    while hand:
        at = (at + 1) % 12
        if at != origin:
            b[at] += 1
            hand -= 1
    return at, b


def features(lines, moves):
    """Coverage counters: which rules did this game exercise?"""
    f = collections.Counter()
    for line, m in zip(lines, moves):
        mover = SIDES.index(line["to_move"])
        pits = line["pits"]
        opp = range(6 * (1 - mover), 6 * (1 - mover) + 6)
        if all(pits[i] == 0 for i in opp):
            f["plies where the opponent was empty (feeding rule)"] += 1
        if len(line["legal"]) < sum(1 for i in range(6) if pits[6 * mover + i] > 0):
            f["plies where the feeding rule removed a move"] += 1
        if pits[6 * mover + m] >= 12:
            f["moves of 12+ seeds (origin skipped)"] += 1
        last, b = sow(pits, mover, m)
        if last in opp:
            k, cap = last, []
            while k in opp and b[k] in (2, 3):
                cap.append(k)
                k -= 1
            if cap and all(b[i] == 0 for i in opp if i not in cap):
                f["grand slams played (capture-free)"] += 1
            elif cap:
                f["capturing moves"] += 1
    end = lines[-1]
    if end["terminal"]:
        st, pits = end["stores"], end["pits"]
        mover = SIDES.index(end["to_move"])
        if max(st) >= 25 or st == [24, 24]:
            f["end: 25 captured / 24-24"] += 1
        elif sum(pits[6 * mover: 6 * mover + 6]) == 0:
            f["end: mover has no seeds (O6)"] += 1
        elif sum(pits[6 * (1 - mover): 6 * (1 - mover) + 6]) == 0:
            f["end: cannot feed (O5)"] += 1
        else:
            f["end: repetition (own-rows)"] += 1
    return f


def compare(game_no, moves, snaps, returns, truncated, lines):
    """List of (class, detail) discrepancies for one game."""
    diffs = []
    if len(lines) != len(snaps):
        return [("trace length", f"ours {len(lines)} lines, OpenSpiel {len(snaps)} states")]
    for ply, (o, u) in enumerate(zip(snaps, lines)):
        where = f"game {game_no} ply {ply}"
        if u["ply"] != ply:
            diffs.append(("ply numbering", f"{where}: ours says ply {u['ply']}"))
        if o["terminal"] != u["terminal"]:
            diffs.append(("terminal flag", f"{where}: OpenSpiel {o['terminal']}, ours {u['terminal']}"))
            break
        if ply < len(moves) and u.get("move") != moves[ply]:
            diffs.append(("move echo", f"{where}: ours {u.get('move')}, played {moves[ply]}"))
        if not o["terminal"]:
            if o["to_move"] != u["to_move"]:
                diffs.append(("side to move", f"{where}: OpenSpiel {o['to_move']}, ours {u['to_move']}"))
            if o["pits"] != u["pits"]:
                diffs.append(("board", f"{where}: OpenSpiel {o['pits']}, ours {u['pits']}"))
            if o["stores"] != u["stores"]:
                diffs.append(("stores", f"{where}: OpenSpiel {o['stores']}, ours {u['stores']}"))
            if o["legal"] != u["legal"]:
                diffs.append(("legal moves", f"{where}: OpenSpiel {o['legal']}, ours {u['legal']}"))
            continue
        # Terminal ply: OpenSpiel has emptied the board into the owners' scores.
        if u["legal"] != [] or o["legal"] != []:
            diffs.append(("legal at end", f"{where}: OpenSpiel {o['legal']}, ours {u['legal']}"))
        pits, st = u["pits"], u["stores"]
        collected = [st[0] + sum(pits[:6]), st[1] + sum(pits[6:])]
        if any(o["pits"]):
            diffs.append(("board at end", f"{where}: OpenSpiel left {o['pits']} on the board"))
        if collected != o["stores"]:
            diffs.append(("board before the end", f"{where}: ours stores+own rows {collected}, OpenSpiel {o['stores']}"))
        res = u.get("result")
        if res is None:
            diffs.append(("result missing", where))
            continue
        score = res["score"]
        if score != o["stores"]:
            majority = max(st) >= 25 or st == [24, 24]
            cls = "final score: 25/24-24 ending leaves seeds unallocated (docs/rules/oware.md O7)" if majority else "final score"
            diffs.append((cls, f"{where}: stores {st}, board {pits}; ours {score}, OpenSpiel {o['stores']}"))
        os_winner = "draw" if returns[0] == returns[1] else ("south" if returns[0] > returns[1] else "north")
        if res["winner"] != os_winner:
            diffs.append(("winner", f"{where}: ours {res['winner']}, OpenSpiel {os_winner} (returns {returns})"))
    if truncated and lines[-1]["terminal"]:
        diffs.append(("truncation", f"game {game_no}: ours ended, OpenSpiel ran out of moves"))
    return diffs


# Differences that the rule book (docs/rules/oware.md) prescribes on purpose: reported, not failures.
EXPECTED = {"final score: 25/24-24 ending leaves seeds unallocated (docs/rules/oware.md O7)"}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", default="target/release/mancala")
    ap.add_argument("--grand-slam", default="no-capture", choices=["no-capture", "forbidden", "awari"],
                    help="our variant to compare with (OpenSpiel plays no-capture)")
    ap.add_argument("--show", type=int, default=3, help="examples shown per discrepancy class")
    ap.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    args = ap.parse_args()

    game = pyspiel.load_game("oware")
    t0 = time.time()
    plies = 0
    truncated = 0
    classes = collections.Counter()
    games_with = collections.Counter()
    examples = collections.defaultdict(list)
    feats = collections.Counter()
    for g in range(args.games):
        rng = random.Random(args.seed * 1_000_003 + g)
        moves, snaps, returns, trunc = play_random(game, rng)
        truncated += trunc
        lines, err = replay(args.bin, moves, args.grand_slam)
        if lines is None:
            diffs = [("replay refused", f"game {g}: {err}")]
        else:
            if lines and lines[0].get("rules", {}).get("cycle") != "own-rows":
                sys.exit(f"openspiel_diff: {args.bin} did not report cycle=own-rows: {lines[0].get('rules')}")
            diffs = compare(g, moves, snaps, returns, trunc, lines)
            feats += features(lines, moves)
            plies += len(lines)
        seen = set()
        for cls, detail in diffs:
            classes[cls] += 1
            if cls not in seen:
                games_with[cls] += 1
                seen.add(cls)
                if len(examples[cls]) < args.show:
                    examples[cls].append(f"{detail}\n      moves: {','.join(map(str, moves))}")
    secs = time.time() - t0
    unexpected = sum(n for c, n in classes.items() if c not in EXPECTED)
    summary = {
        "openspiel": getattr(pyspiel, "__version__", None) or _dist_version(),
        "games": args.games,
        "seed": args.seed,
        "grand_slam": args.grand_slam,
        "plies_compared": plies,
        "truncated_at_1000": truncated,
        "seconds": round(secs, 1),
        "discrepancies": {c: {"plies": n, "games": games_with[c]} for c, n in sorted(classes.items())},
        "unexpected": unexpected,
        "coverage": dict(sorted(feats.items())),
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"OpenSpiel {summary['openspiel']}: {args.games} random games (seed {args.seed}), "
              f"our --grand-slam {args.grand_slam} --cycle own-rows")
        print(f"plies compared: {plies}; games truncated at {MAX_PLIES} moves: {truncated}; {secs:.1f}s")
        print("coverage:")
        for k, v in sorted(feats.items()):
            print(f"  {k}: {v}")
        if not classes:
            print("discrepancies: none")
        for c, n in sorted(classes.items()):
            tag = "expected (docs/rules)" if c in EXPECTED else "UNEXPECTED"
            print(f"discrepancy [{tag}] {c}: {n} plies in {games_with[c]} games, e.g.")
            for e in examples[c]:
                print(f"    {e}")
    return 1 if unexpected else 0


def _dist_version():
    try:
        from importlib.metadata import version
        return version("open_spiel")
    except Exception:  # pragma: no cover
        return "unknown"


if __name__ == "__main__":
    sys.exit(main())
