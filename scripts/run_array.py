#!/usr/bin/env python3
"""The array of scripts/run.sh: random bytes from a seed, written block-wise to the
senders and checked block-cyclically on the receivers.

    run_array.py write WORK BYTES SENDER...          WORK/array.seed, WORK/<sender>/data/array.bin
    run_array.py verify WORK BYTES BLOCK RECEIVER... every byte of WORK/<receiver>/data/array.bin
    run_array.py size BYTES                          BYTES in the units run.sh prints (MB = 10^6)

The array is never stored whole: chunk c is random.Random(f"{seed}/{c}").randbytes, so
any part of it can be made again to check a receiver. Anything taking more than a second
shows its progress on a terminal; Ctrl-C stops it without a traceback.
"""
import os
import random
import sys
import time

CHUNK = 1 << 22  # bytes made at a time


def size_text(n):
    if n < 1000:
        return f"{n} B"
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if n >= scale:
            return f"{n / scale:.2f} {unit}" if n % scale else f"{n // scale} {unit}"


class Array:
    def __init__(self, seed, size):
        self.seed, self.size, self.cached = seed, size, (-1, b"")

    def chunk(self, c):
        if self.cached[0] != c:
            length = min(CHUNK, self.size - c * CHUNK)
            self.cached = (c, random.Random(f"{self.seed}/{c}").randbytes(length))
        return self.cached[1]

    def read(self, start, length):
        out = bytearray()
        while length > 0:
            c, at = divmod(start, CHUNK)
            piece = self.chunk(c)[at:at + length]
            out += piece
            start += len(piece)
            length -= len(piece)
        return bytes(out)


class Progress:
    """'label: done / total' on stderr, redrawn in place, once the work has taken a second."""

    def __init__(self, label, total):
        self.label, self.total, self.start, self.shown = label, total, time.monotonic(), 0.0

    def update(self, done):
        now = time.monotonic()
        if now - self.start < 1 or now - self.shown < 0.2:
            return
        self.shown = now
        line = f"{self.label}: {size_text(done)} / {size_text(self.total)}"
        if sys.stderr.isatty():
            print(f"\r{line}\x1b[K", end="", file=sys.stderr, flush=True)
        elif now - self.start >= 5 and int(now - self.start) % 5 == 0:
            print(line, file=sys.stderr, flush=True)

    def end(self):
        if self.shown and sys.stderr.isatty():
            print(f"\r{self.label}: {size_text(self.total)}, done\x1b[K", file=sys.stderr, flush=True)


def write(work, size, senders):
    seed = os.urandom(16).hex()
    with open(f"{work}/array.seed", "w") as f:
        f.write(seed)
    array = Array(seed, size)
    piece = -(-size // len(senders))  # the block layout: ceil(size / P) bytes per sender
    progress = Progress(f"writing the {size_text(size)} array on {len(senders)} senders", size)
    for p, node in enumerate(senders):
        with open(f"{work}/{node}/data/array.bin", "wb") as out:
            at, end = min(p * piece, size), min((p + 1) * piece, size)
            while at < end:
                length = min(CHUNK - at % CHUNK, end - at)
                out.write(array.read(at, length))
                at += length
                progress.update(at)
    progress.end()


def verify(work, size, block, receivers):
    with open(f"{work}/array.seed") as f:
        array = Array(f.read().strip(), size)
    q = len(receivers)
    expected_length = [0] * q
    for i in range(0, -(-size // block)):
        expected_length[i % q] += min(block, size - i * block)
    files = []
    for r, node in enumerate(receivers):
        path = f"{work}/{node}/data/array.bin"
        if not os.path.exists(path):
            if expected_length[r]:  # a receiver that gets no block has no file, rightly
                sys.exit(f"run.sh: {node}/array.bin is missing ({expected_length[r]} bytes expected)")
            files.append(None)
            continue
        got = os.path.getsize(path)
        if got != expected_length[r]:
            sys.exit(f"run.sh: {node}/array.bin holds {got} bytes, {expected_length[r]} expected")
        files.append(open(path, "rb"))
    progress = Progress("verifying every byte on the receivers", size)
    for i in range(0, -(-size // block)):
        start = i * block
        want = array.read(start, min(block, size - start))
        f = files[i % q]
        f.seek((i // q) * block)
        got = f.read(len(want))
        if got != want:
            first = next((j for j, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            sys.exit(f"run.sh: {receivers[i % q]}/array.bin differs from the source array at its byte "
                     f"{(i // q) * block + first} (block {i} of the array)")
        progress.update(start + len(want))
    progress.end()
    exact = f" ({size} bytes)" if size >= 1000 else ""
    print(f"verified: all {size_text(size)}{exact} landed where the block-cyclic layout puts them on {q} receivers")


def main(argv):
    command = argv[1] if len(argv) > 1 else ""
    if command == "write" and len(argv) >= 5:
        write(argv[2], int(argv[3]), argv[4:])
    elif command == "verify" and len(argv) >= 6:
        verify(argv[2], int(argv[3]), int(argv[4]), argv[5:])
    elif command == "size" and len(argv) == 3:
        print(size_text(int(argv[2])))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    try:
        main(sys.argv)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        sys.exit(130)
