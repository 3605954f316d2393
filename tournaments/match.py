#!/usr/bin/env python3
"""A small engine-vs-engine match over the Piskvork protocol, for checking search changes until the
tournament runner (`pbrain-omok tournament`) exists.

usage: match.py ENGINE1 ENGINE2 [--rule freestyle|standard|renju] [--size 15] [--games 40]
                [--turn-ms 200] [--seed 1] [--concurrency 2] [--stones 3]
                [--info1 'strength 30' ...] [--info2 ...]

Each opening (random stones near the centre, seeded) is played twice with colours swapped.
Moves are judged here: on the board and empty, five detection per rule, and renju black's
forbidden moves through `ENGINE1 forbid --rule renju` (the engine's exact rule module), which lose.
A late answer (turn time + 1 s tolerance) loses. Prints W/L/D from ENGINE1's view, the score and
an Elo estimate with a 95% interval."""
import argparse, json, math, random, subprocess, sys, threading, time
from concurrent.futures import ThreadPoolExecutor

RULE_CODE = {"freestyle": 0, "standard": 1, "renju": 4}


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def answer(self):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            line = line.strip()
            if line.startswith(("MESSAGE", "DEBUG")) or not line:
                continue
            return line

    def close(self):
        try:
            self.send("END")
            self.p.wait(timeout=2)
        except Exception:
            self.p.kill()


def wins(board, size, x, y, color, rule):
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        n = 1
        for s in (1, -1):
            cx, cy = x + s * dx, y + s * dy
            while 0 <= cx < size and 0 <= cy < size and board.get((cx, cy)) == color:
                n += 1
                cx, cy = cx + s * dx, cy + s * dy
        exact = rule == "standard" or (rule == "renju" and color == 1)
        if (n == 5) if exact else (n >= 5):
            return True
    return False


class Judge:
    def __init__(self, binary):
        self.p = subprocess.Popen([binary, "forbid", "--rule", "renju"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lock = threading.Lock()

    def forbidden(self, board, size):
        black = [list(k) for k, v in board.items() if v == 1]
        white = [list(k) for k, v in board.items() if v == 2]
        with self.lock:
            self.p.stdin.write(json.dumps({"size": size, "black": black, "white": white, "to_move": "black"}) + "\n")
            self.p.stdin.flush()
            out = json.loads(self.p.stdout.readline())
        return {(f["x"], f["y"]) for f in out.get("forbidden", [])}


def play(paths, opening, first, args, judge):
    """One game; `first` is the index of the engine playing black. Returns (score for engine 0, reason)."""
    engines = [Engine(p) for p in paths]
    try:
        size = args.size
        for e in engines:
            e.send(f"START {size}")
            if e.answer() != "OK":
                raise RuntimeError("START failed")
            e.send(f"INFO timeout_turn {args.turn_ms}")
            e.send("INFO timeout_match 0")
            e.send(f"INFO rule {RULE_CODE[args.rule]}")
        for e, infos in zip(engines, (args.info1, args.info2)):
            for info in infos:
                e.send(f"INFO {info}")
        board = {}
        moves = list(opening)
        for i, (x, y) in enumerate(moves):
            board[(x, y)] = 1 if i % 2 == 0 else 2
        color = 1 if len(moves) % 2 == 0 else 2
        to_move = first if color == 1 else 1 - first
        # The side to move gets BOARD; the other learns the moves as it goes.
        own = 1 if color == 1 else 2
        e = engines[to_move]
        e.send("BOARD")
        for (x, y) in moves:
            e.send(f"{x},{y},{1 if board[(x, y)] == own else 2}")
        e.send("DONE")
        pending_board = {1 - to_move: True}
        last = None
        while True:
            t0 = time.time()
            if to_move in pending_board:
                del pending_board[to_move]
                e = engines[to_move]
                own = color
                e.send("BOARD")
                for (x, y) in moves:
                    e.send(f"{x},{y},{1 if board[(x, y)] == own else 2}")
                e.send("DONE")
            elif last is not None:
                engines[to_move].send(f"TURN {last[0]},{last[1]}")
            ans = engines[to_move].answer()
            dt = (time.time() - t0) * 1000
            loser = to_move
            if dt > args.turn_ms + 1000:
                return (0.0 if loser == 0 else 1.0), "time"
            try:
                x, y = (int(v) for v in ans.split(","))
            except ValueError:
                return (0.0 if loser == 0 else 1.0), f"bad answer {ans!r}"
            if not (0 <= x < size and 0 <= y < size) or (x, y) in board:
                return (0.0 if loser == 0 else 1.0), "illegal"
            if args.rule == "renju" and color == 1 and not wins({**board, (x, y): 1}, size, x, y, 1, "renju"):
                if (x, y) in judge.forbidden(board, size):
                    return (0.0 if loser == 0 else 1.0), "foul"
            board[(x, y)] = color
            moves.append((x, y))
            if wins(board, size, x, y, color, args.rule):
                return (1.0 if to_move == 0 else 0.0), "five"
            if len(board) == size * size or (args.rule == "renju" and len(board) >= 200):
                return 0.5, "draw"
            last = (x, y)
            color = 3 - color
            to_move = 1 - to_move
    finally:
        for e in engines:
            e.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine1")
    ap.add_argument("engine2")
    ap.add_argument("--rule", default="freestyle", choices=sorted(RULE_CODE))
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--turn-ms", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--stones", type=int, default=3)
    ap.add_argument("--info1", action="append", default=[], help="extra INFO line for ENGINE1, e.g. 'strength 30'")
    ap.add_argument("--info2", action="append", default=[], help="extra INFO line for ENGINE2")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    c = args.size // 2
    openings = []
    while len(openings) < (args.games + 1) // 2:
        stones = set()
        while len(stones) < args.stones:
            stones.add((c + rng.randint(-2, 2), c + rng.randint(-2, 2)))
        openings.append(sorted(stones, key=lambda s: rng.random()))
    judge = Judge(args.engine1)
    jobs = [(o, first) for o in openings for first in (0, 1)][: args.games]
    results = []
    with ThreadPoolExecutor(args.concurrency) as pool:
        for score, reason in pool.map(lambda j: play([args.engine1, args.engine2], j[0], j[1], args, judge), jobs):
            results.append((score, reason))
            w = sum(1 for s, _ in results if s == 1.0)
            l = sum(1 for s, _ in results if s == 0.0)
            d = len(results) - w - l
            print(f"\r{len(results)}/{len(jobs)} +{w} -{l} ={d}", end="", file=sys.stderr)
    print(file=sys.stderr)
    n = len(results)
    w = sum(1 for s, _ in results if s == 1.0)
    l = sum(1 for s, _ in results if s == 0.0)
    d = n - w - l
    score = (w + 0.5 * d) / n
    var = sum((s - score) ** 2 for s, _ in results) / n
    se = math.sqrt(var / n)

    def elo(p):
        p = min(max(p, 1e-3), 1 - 1e-3)
        return -400 * math.log10(1 / p - 1)

    reasons = {}
    for s, r in results:
        reasons[r] = reasons.get(r, 0) + 1
    print(f"{args.rule} {args.size}x{args.size} {args.turn_ms} ms/move: {n} games +{w} -{l} ={d} "
          f"score {score:.3f} elo {elo(score):+.0f} [{elo(score - 1.96 * se):+.0f}, {elo(score + 1.96 * se):+.0f}] "
          f"reasons {reasons}")


if __name__ == "__main__":
    main()
