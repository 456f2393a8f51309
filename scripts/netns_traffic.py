#!/usr/bin/env python3
"""The traffic of a namespace-cluster run (scripts/netns-daemons.sh's WORK layout).

  netns_traffic.py make WORK --senders N1 --receivers N2 --min-mb A --max-mb B --seed S
      Draws every pair's size uniformly in [A, B] MB (10^6 bytes; seeded), writes
      WORK/traffic.json and, on sender si, one source file to-rj.bin of random bytes per
      receiver rj.
  netns_traffic.py job WORK --algo NAME --node-rate BYTES --backbone-rate BYTES --beta S
                                 [--measured [--calibration ID]] [--replan yes|no] [--half first|second]
      Prints the job (docs/runtime.md): every pair's whole file to from-si.bin on rj, and
      the platform of links shaped to those rates (below). --measured: no platform, the
      coordinator plans on its newest calibration of the nodes, or on calibration ID
      (docs/calibration.md); --replan: the job's "replan"; --half: only the first or the
      second half of each pair's bytes.
  netns_traffic.py clear WORK     removes every destination file
  netns_traffic.py verify WORK    compares every destination file with its source, byte
                                  for byte; exit 1 naming the first difference

The platform: tc counts whole frames, while the model's d is what one flow delivers. A
full TCP segment on these veths carries 1448 bytes of payload in 1514 bytes of frame
(14 Ethernet + 20 IP + 32 TCP with timestamps), so d = node rate x 1448/1514 and
D = backbone rate x 1448/1514, in whole bytes/s (with D = k x node rate, floor(D/d) = k).
"""
import argparse
import json
import os
import random
import sys

PAYLOAD, FRAME = 1448, 1514


def load(work):
    with open(os.path.join(work, "traffic.json")) as f:
        return json.load(f)


def pairs(traffic):
    for i, row in enumerate(traffic["bytes"], start=1):
        for j, size in enumerate(row, start=1):
            if size > 0:
                yield f"s{i}", f"r{j}", size


def source(work, s, r):
    return os.path.join(work, s, "data", f"to-{r}.bin")


def destination(work, s, r):
    return os.path.join(work, r, "data", f"from-{s}.bin")


def make(args):
    if not (0 < args.min_mb <= args.max_mb):
        sys.exit("netns_traffic.py: need 0 < --min-mb <= --max-mb")
    rng = random.Random(args.seed)
    sizes = [[int(rng.uniform(args.min_mb, args.max_mb) * 1e6) for _ in range(args.receivers)]
             for _ in range(args.senders)]
    traffic = {"senders": args.senders, "receivers": args.receivers, "min_mb": args.min_mb,
               "max_mb": args.max_mb, "seed": args.seed, "bytes": sizes}
    for s, r, size in pairs(traffic):
        os.makedirs(os.path.dirname(source(args.work, s, r)), exist_ok=True)
        with open(source(args.work, s, r), "wb") as f:
            f.write(os.urandom(size))
    with open(os.path.join(args.work, "traffic.json"), "w") as f:
        json.dump(traffic, f)
    total = sum(map(sum, sizes))
    print(f"netns_traffic.py: {args.senders} x {args.receivers} pairs, {total} bytes "
          f"(sizes uniform in [{args.min_mb}, {args.max_mb}] MB, seed {args.seed})", file=sys.stderr)


def job(args):
    traffic = load(args.work)
    transfers = []
    for s, r, size in pairs(traffic):
        begin, end = {"all": (0, size), "first": (0, size // 2), "second": (size // 2, size)}[args.half]
        transfers.append({"src_node": s, "src_file": f"to-{r}.bin", "src_offset": begin, "length": end - begin,
                          "dst_node": r, "dst_file": f"from-{s}.bin", "dst_offset": begin})
    out = {"senders": [f"s{i}" for i in range(1, traffic["senders"] + 1)],
           "receivers": [f"r{j}" for j in range(1, traffic["receivers"] + 1)],
           "algorithm": args.algo}
    if not args.measured:
        if args.node_rate is None or args.backbone_rate is None:
            sys.exit("netns_traffic.py: job: give --node-rate and --backbone-rate, or --measured")
        out["platform"] = {"sender_rate": args.node_rate * PAYLOAD // FRAME, "receiver_rate": args.node_rate * PAYLOAD // FRAME,
                           "backbone_rate": args.backbone_rate * PAYLOAD // FRAME, "step_startup": args.beta}
    if args.calibration is not None:
        if not args.measured:
            sys.exit("netns_traffic.py: job: --calibration goes with --measured")
        out["calibration"] = args.calibration
    if args.replan is not None:
        out["replan"] = args.replan == "yes"
    out["transfers"] = transfers
    json.dump(out, sys.stdout)
    print()


def clear(args):
    for s, r, _ in pairs(load(args.work)):
        if os.path.exists(destination(args.work, s, r)):
            os.remove(destination(args.work, s, r))


def verify(args):
    total = 0
    for s, r, size in pairs(load(args.work)):
        src, dst = source(args.work, s, r), destination(args.work, s, r)
        if not os.path.exists(dst):
            sys.exit(f"netns_traffic.py: {dst} is missing")
        with open(src, "rb") as f:
            want = f.read()
        with open(dst, "rb") as f:
            got = f.read()
        if got != want:
            first = next((n for n, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
            sys.exit(f"netns_traffic.py: {dst} differs from {src} at byte {first} "
                     f"({len(got)} bytes, {len(want)} expected)")
        total += size
    print(f"verified: {total} bytes, every destination file equal to its source")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("make")
    p.add_argument("work")
    p.add_argument("--senders", type=int, required=True)
    p.add_argument("--receivers", type=int, required=True)
    p.add_argument("--min-mb", type=float, required=True)
    p.add_argument("--max-mb", type=float, required=True)
    p.add_argument("--seed", type=int, default=16)
    p.set_defaults(run=make)
    p = sub.add_parser("job")
    p.add_argument("work")
    p.add_argument("--algo", required=True)
    p.add_argument("--node-rate", type=int, help="bytes/s of frames on each node link")
    p.add_argument("--backbone-rate", type=int, help="bytes/s of frames on the backbone")
    p.add_argument("--beta", type=float, default=0.01, help="the model's step start-up, seconds")
    p.add_argument("--measured", action="store_true", help="no platform: the coordinator's calibration")
    p.add_argument("--calibration", help="with --measured: plan on this calibration's id, not the newest")
    p.add_argument("--replan", choices=("yes", "no"), help="re-plan when the network drifts")
    p.add_argument("--half", choices=("all", "first", "second"), default="all", help="which bytes of each pair")
    p.set_defaults(run=job)
    for name, run in (("clear", clear), ("verify", verify)):
        p = sub.add_parser(name)
        p.add_argument("work")
        p.set_defaults(run=run)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
