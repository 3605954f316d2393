#!/usr/bin/env python3
"""A scripted Piskvork brain that misbehaves on purpose, for the tournament tests.

usage: misbehave.py MODE [--after N] [--sleep-ms MS] [--at X,Y] [--no-restart] [--log FILE]
                        [--ponder-file FILE] [--watch FILE] [--checks N]

It plays legal but weak moves (the empty point nearest the centre, scanning outwards) until its
N-th own move of a game (default 2), then, by MODE:
  good      keeps playing legal moves;
  late      sleeps --sleep-ms (default 3000) before answering;
  occupied  answers the opponent's last move (an occupied point);
  crash     exits with status 3 without answering;
  foul      when it holds black, answers --at (a point the test's opening makes forbidden);
            as white it plays legal moves;
  memory    allocates and touches 200 MiB, then answers a legal move;
  memory-hang  allocates and touches 200 MiB, then never answers;
  junk      answers a line that is not a move;
  silent    never answers anything, not even START;
  judge     before each move reports `MESSAGE depth 1 | Eval V`, V = 20 times the sum of the x
            offsets from the centre of the side to move's stones less the other side's (a
            judge for `pbrain-omok tune openings`), and plays legal moves.
The mode may also come from the environment variable MISBEHAVE_MODE (for managers that start a
brain without arguments).
--no-restart answers RESTART with UNKNOWN, so the manager must start it afresh each game.
--log appends every line it reads to FILE.
--ponder-file FILE: from its first answer on, a background thread appends a line to FILE every
millisecond (a brain that keeps working while the other thinks).
--watch FILE: on its own moves 2 .. N+1 (--checks, default 2), it looks at FILE's size, waits
200 ms, looks again, and writes "WATCH grew" or "WATCH still" to its --log: whether the
pondering brain ran while this one was thinking."""
import os
import sys
import threading
import time


def main():
    args = sys.argv[1:]
    mode = args[0] if args else os.environ.get("MISBEHAVE_MODE", "good")
    after, sleep_ms, at, restart, log = 2, 3000, None, True, None
    ponder_file, watch, checks = None, None, 2
    i = 1
    while i < len(args):
        if args[i] == "--after":
            after = int(args[i + 1]); i += 2
        elif args[i] == "--sleep-ms":
            sleep_ms = int(args[i + 1]); i += 2
        elif args[i] == "--at":
            at = tuple(int(v) for v in args[i + 1].split(",")); i += 2
        elif args[i] == "--no-restart":
            restart = False; i += 1
        elif args[i] == "--log":
            log = args[i + 1]; i += 2
        elif args[i] == "--ponder-file":
            ponder_file = args[i + 1]; i += 2
        elif args[i] == "--watch":
            watch = args[i + 1]; i += 2
        elif args[i] == "--checks":
            checks = int(args[i + 1]); i += 2
        else:
            sys.exit("unknown option " + args[i])
    size = 15
    stones = {}          # (x, y) -> 1 own, 2 opponent
    own_moves = 0
    last_opponent = None
    block = None
    ballast = None
    pondering = []

    def ponder():
        fd = os.open(ponder_file, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        while True:
            os.write(fd, b"tick\n")
            time.sleep(0.001)

    def look():
        def size():
            try:
                return os.path.getsize(watch)
            except OSError:
                return 0
        time.sleep(0.03)
        before = size()
        time.sleep(0.2)
        grew = size() > before
        with open(log, "a") as f:
            f.write("WATCH %s\n" % ("grew" if grew else "still"))

    def say(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def legal_move():
        c = size // 2
        for r in range(size):
            for dy in range(-r, r + 1):
                for dx in range(-r, r + 1):
                    if max(abs(dx), abs(dy)) != r:
                        continue
                    p = (c + dx, c + dy)
                    if 0 <= p[0] < size and 0 <= p[1] < size and p not in stones:
                        return p
        return (0, 0)

    def move():
        nonlocal own_moves, ballast, last_opponent
        own_moves += 1
        if watch and 2 <= own_moves <= checks + 1:
            look()
        black = sum(1 for v in stones.values() if v == 1) == sum(1 for v in stones.values() if v == 2)
        if mode == "judge":
            c = size // 2
            value = sum(20 * (x - c) * (1 if f == 1 else -1) for (x, _), f in stones.items())
            say("MESSAGE depth 1 | Eval %d" % value)
        p = legal_move()
        if own_moves >= after:
            if mode == "late":
                time.sleep(sleep_ms / 1000.0)
            elif mode == "occupied" and last_opponent is not None:
                p = last_opponent
            elif mode == "crash":
                sys.exit(3)
            elif mode == "foul" and black and at is not None:
                p = at
            elif mode == "memory":
                ballast = b"x" * (200 << 20)
            elif mode == "memory-hang":
                ballast = b"x" * (200 << 20)
                time.sleep(60)
            elif mode == "junk":
                say("I resign")
                return
        stones[p] = 1
        say("%d,%d" % p)
        if ponder_file and not pondering:
            pondering.append(threading.Thread(target=ponder, daemon=True))
            pondering[0].start()

    for raw in sys.stdin:
        line = raw.strip()
        if log:
            with open(log, "a") as f:
                f.write(line + "\n")
        if not line:
            continue
        if block is not None:
            if line.upper() == "DONE":
                stones.clear()
                for x, y, f in block:
                    stones[(x, y)] = f
                    if f == 2:
                        last_opponent = (x, y)
                block = None
                move()
            else:
                x, y, f = (int(v) for v in line.split(","))
                block.append((x, y, f))
            continue
        word = line.split()[0].upper()
        if mode == "silent" and word != "END":
            continue
        if word == "START":
            size = int(line.split()[1])
            stones.clear()
            own_moves = 0
            say("OK")
        elif word == "RESTART":
            if restart:
                stones.clear()
                own_moves = 0
                say("OK")
            else:
                say("UNKNOWN RESTART")
        elif word == "INFO":
            pass
        elif word == "BOARD":
            block = []
        elif word == "BEGIN":
            stones.clear()
            move()
        elif word == "TURN":
            x, y = (int(v) for v in line.split()[1].split(","))
            stones[(x, y)] = 2
            last_opponent = (x, y)
            move()
        elif word == "ABOUT":
            say('name="misbehave", version="1", author="omok tests", country="-"')
        elif word == "END":
            return
        else:
            say("UNKNOWN " + line)


if __name__ == "__main__":
    main()
