#!/usr/bin/env python3
"""Jobs at once, measured (docs/runtime.md, "Jobs at once"): a coordinator (SQLite journal)
and agents on loopback, every destination byte compared with the sources after every run.

  disjoint   two ~3 s redistributions on disjoint nodes (s0,s1 -> r0,r1 and s2,s3 -> r2,r3),
             each alone and both submitted together; seconds from the first submission to
             the last job's end. Target: together <= 1.05 x the longer one alone.
  small      a 2-node 1 MiB job (x0 -> y0) alone, and submitted while the first long
             redistribution runs on other nodes; seconds from its submission to its end.
             Target: while the long one runs <= 1.2 x alone + 0.3 s.
  shared     two redistributions on the same nodes (s0,s1 -> r0,r1, 2 steps of 3 MB pairs
             at 4 MB/s a node) submitted together, weights 1:1 and 3:1, the coordinator
             letting two jobs share a node (max_jobs_per_node = 2). Each job's rate a node
             over its steps planned for a share (the report's "node share" re-plans), against
             that share of the node's rate. Target: within 10 %.

Runs alternate between variants; each is repeated --runs times (default 3) and the median
compared with the target. One JSON line per run and one per summary on stdout (each with
the commit and the UTC time), progress on stderr.

  python3 bench/jobs_at_once.py [--bin BUILD_DIR] [--runs N] [--out FILE]

BUILD_DIR (default build/ci) must hold coordinator/daemon/baton-coordinator and
agent/baton-agent. --out also writes the lines to FILE (e.g.
docs/bench/jobs-at-once/jobs_at_once.jsonl). About 2 minutes; no root.
"""
import argparse
import datetime
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ha_bench import Process, address, http, read, say, wait_for  # noqa: E402

SECRET = "bench-jobs-at-once-secret-0123456789\n"
LONG_RATE = 4e6  # bytes/s a node: a 6 MB piece is a 1.5 s step
LONG_PIECE = 6_000_000
SMALL_BYTES = 1 << 20
SHARED_PIECE = 3_000_000  # at a quarter of 4 MB/s a 3 s step, at three quarters 1 s


class Exchange:
    """Every sender owes every receiver `piece` bytes of its in.bin; receiver j's out.bin
    holds the senders' j-th pieces in order."""

    def __init__(self, senders, receivers, piece, rate, seed, tag="", weight=None):
        self.senders, self.receivers, self.piece, self.rate = senders, receivers, piece, rate
        self.source, self.destination, self.weight = f"in{tag}.bin", f"out{tag}.bin", weight
        rng = random.Random(seed)
        self.sources = {s: rng.randbytes(piece * len(receivers)) for s in senders}

    def job(self):
        transfers = [{"src_node": s, "src_file": self.source, "src_offset": j * self.piece, "length": self.piece,
                      "dst_node": r, "dst_file": self.destination, "dst_offset": i * self.piece}
                     for i, s in enumerate(self.senders) for j, r in enumerate(self.receivers)]
        width = min(len(self.senders), len(self.receivers))
        job = {"senders": self.senders, "receivers": self.receivers,
               "platform": {"sender_rate": self.rate, "receiver_rate": self.rate,
                            "backbone_rate": self.rate * width, "step_startup": 0.001},
               "transfers": transfers}
        if self.weight is not None:
            job["weight"] = self.weight
        return job

    def expected(self, j):
        return b"".join(self.sources[s][j * self.piece:(j + 1) * self.piece] for s in self.senders)


class Cluster:
    def __init__(self, bin, dir, exchanges):
        self.bin, self.dir = bin, dir
        with open(os.path.join(dir, "secret"), "w") as f:
            f.write(SECRET)
        self.api, agents = address(), address()
        with open(os.path.join(dir, "coordinator.toml"), "w") as f:
            f.write(f'id = "c"\nagent_address = "{agents}"\napi_address = "{self.api}"\nsecret_file = "secret"\n'
                    'state_dir = "state"\nheartbeat_seconds = 0.2\nmax_jobs_per_node = 2\n')
        self.coordinator = Process([os.path.join(bin, "coordinator/daemon/baton-coordinator"), "--config",
                                    os.path.join(dir, "coordinator.toml"), "--ready-file",
                                    os.path.join(dir, "ready.json")], os.path.join(dir, "coordinator.log"))
        wait_for("the coordinator", lambda: read(os.path.join(dir, "ready.json")) != b"", 30)
        self.agents = []
        nodes = sorted({n for e in exchanges for n in e.senders + e.receivers})
        for node in nodes:
            home = os.path.join(dir, node)
            os.makedirs(os.path.join(home, "data"))
            for e in exchanges:
                if node in e.sources:
                    with open(os.path.join(home, "data", e.source), "wb") as f:
                        f.write(e.sources[node])
            with open(os.path.join(home, "agent.toml"), "w") as f:
                f.write(f'node_id = "{node}"\ncoordinator = "{agents}"\nsecret_file = "../secret"\n'
                        'data_root = "data"\ndata_address = "127.0.0.1:0"\nrate = 100000000\nbuffer_count = 8\n'
                        "buffer_size = 262144\n")
            self.agents.append(Process([os.path.join(bin, "agent/baton-agent"), "--config",
                                        os.path.join(home, "agent.toml")], os.path.join(home, "agent.log")))
        wait_for("every agent alive", lambda: sum(
            1 for a in (http("GET", f"http://{self.api}/v1/agents") or {}).get("agents", []) if a.get("alive"))
            >= len(nodes), 60)

    def clear(self, e):
        for r in e.receivers:
            path = os.path.join(self.dir, r, "data", e.destination)
            if os.path.exists(path):
                os.remove(path)

    def submit(self, e):
        answer = http("POST", f"http://{self.api}/v1/jobs", e.job())
        if not answer or "id" not in answer:
            raise RuntimeError(f"submit refused: {answer}")
        return answer["id"]

    def state(self, id):
        return (http("GET", f"http://{self.api}/v1/jobs/{id}") or {}).get("state")

    def finished(self, id, e):
        """Waits for the job's end (GET ?wait: answered when it ends), checks every byte."""
        def ended():
            j = http("GET", f"http://{self.api}/v1/jobs/{id}?wait=5") or {}
            return j if j.get("state") in ("done", "failed", "cancelled") else None
        j = wait_for(f"job {id} to end", ended, 120, 0)
        if j["state"] != "done":
            raise RuntimeError(f"job {id} ended {j['state']}: {j.get('error')}")
        for i, r in enumerate(e.receivers):
            if read(os.path.join(self.dir, r, "data", e.destination)) != e.expected(i):
                raise RuntimeError(f"{r}'s {e.destination} differs from the sources")
        return j

    def stop(self):
        for a in self.agents:
            a.stop()
        self.coordinator.stop()


def run_together(cluster, exchanges):
    """Submits every exchange at once; seconds from the first submission to the last end."""
    for e in exchanges:
        cluster.clear(e)
    start = time.monotonic()
    ids = [cluster.submit(e) for e in exchanges]
    ends = []
    for id, e in zip(ids, exchanges):
        cluster.finished(id, e)
        ends.append(time.monotonic())
    return max(ends) - start


def shared_rate(report, flows, node_rate):
    """A job's rate a node over its steps planned for a share below the whole, over the
    rate its shares promised (its bytes at each step's share of `node_rate`), and the
    shares it ran at."""
    shares = {}
    for r in report.get("replans", []):
        if r["cause"] == "node share" and "error" not in r:
            shares[r["at_step"]] = r["share"]
    promised = measured = 0
    share, seen = 1.0, set()
    for step in report["steps"]:
        share = shares.get(step["index"], share)
        if share < 1:
            promised += step["bytes"] / flows / (share * node_rate)
            measured += step["measured_seconds"]
            seen.add(share)
    if measured == 0:
        raise RuntimeError("no step of the job ran at a share below the whole: " + json.dumps(report["replans"]))
    return promised / measured, sorted(seen)


def run_shared(cluster, exchanges):
    """Submits the exchanges (on the same nodes) at once; each one's rate a node while it
    shared them, over its share of the node's rate."""
    for e in exchanges:
        cluster.clear(e)
    ids = [cluster.submit(e) for e in exchanges]
    jobs = []
    for id, e in zip(ids, exchanges):
        ratio, shares = shared_rate(cluster.finished(id, e)["report"], min(len(e.senders), len(e.receivers)), e.rate)
        jobs.append({"weight": e.weight, "shares": shares, "ratio": round(ratio, 4)})
    return jobs


def run_small(cluster, small, long):
    """The small job's seconds from its submission to its end, alone or (long given) while
    `long` runs."""
    long_id = None
    if long:
        cluster.clear(long)
        long_id = cluster.submit(long)
        wait_for("the long job to run", lambda: cluster.state(long_id) == "running", 30)
    cluster.clear(small)
    start = time.monotonic()
    cluster.finished(cluster.submit(small), small)
    seconds = time.monotonic() - start
    if long_id:
        cluster.finished(long_id, long)
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="build/ci")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out")
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    out = open(args.out, "w") if args.out else None

    def emit(line):
        line = {"bench": "jobs_at_once", **line, "commit": commit,
                "utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
        text = json.dumps(line)
        print(text, flush=True)
        if out:
            out.write(text + "\n")
            out.flush()

    a = Exchange(["s0", "s1"], ["r0", "r1"], LONG_PIECE, LONG_RATE, 1)
    b = Exchange(["s2", "s3"], ["r2", "r3"], LONG_PIECE, LONG_RATE, 2)
    small = Exchange(["x0"], ["y0"], SMALL_BYTES, 1e9, 3)
    # On a's nodes: two of equal weight, and two of weights 3 and 1.
    shared = {"equal": [Exchange(["s0", "s1"], ["r0", "r1"], SHARED_PIECE, LONG_RATE, 4, "e1", 1),
                        Exchange(["s0", "s1"], ["r0", "r1"], SHARED_PIECE, LONG_RATE, 5, "e2", 1)],
              "3:1": [Exchange(["s0", "s1"], ["r0", "r1"], SHARED_PIECE, LONG_RATE, 6, "w3", 3),
                      Exchange(["s0", "s1"], ["r0", "r1"], SHARED_PIECE, LONG_RATE, 7, "w1", 1)]}
    work = tempfile.mkdtemp(prefix="baton-jobs-at-once.")
    cluster = Cluster(args.bin, work, [a, b, small] + shared["equal"] + shared["3:1"])
    try:
        variants = {
            "a_alone": lambda: run_together(cluster, [a]),
            "b_alone": lambda: run_together(cluster, [b]),
            "together": lambda: run_together(cluster, [a, b]),
            "small_alone": lambda: run_small(cluster, small, None),
            "small_beside_long": lambda: run_small(cluster, small, a),
            "shared_equal": lambda: run_shared(cluster, shared["equal"]),
            "shared_3_to_1": lambda: run_shared(cluster, shared["3:1"]),
        }
        seconds = {name: [] for name in variants}
        for run in range(1, args.runs + 1):
            names = list(variants)
            names = names[run - 1:] + names[:run - 1]  # rotating order
            for name in names:
                s = variants[name]()
                seconds[name].append(s)
                if name.startswith("shared"):
                    say(f"run {run} {name}: " + ", ".join(f"weight {j['weight']} at {j['shares']}: {j['ratio']:.3f}"
                                                          for j in s))
                    emit({"kind": "run", "variant": name, "run": run, "jobs": s, "load1": os.getloadavg()[0]})
                    continue
                say(f"run {run} {name}: {s:.3f} s")
                emit({"kind": "run", "variant": name, "run": run, "seconds": round(s, 4),
                      "load1": os.getloadavg()[0]})
        for name in ("shared_equal", "shared_3_to_1"):
            runs = seconds.pop(name)
            jobs = [{"weight": runs[0][j]["weight"], "shares": runs[0][j]["shares"],
                     "ratio": statistics.median(r[j]["ratio"] for r in runs)} for j in range(len(runs[0]))]
            emit({"kind": "summary", "scenario": name, "jobs": jobs,
                  "target": "each job's rate within 10 % of its share",
                  "met": all(abs(j["ratio"] - 1) <= 0.10 for j in jobs)})
        med = {name: statistics.median(v) for name, v in seconds.items()}
        longer = max(med["a_alone"], med["b_alone"])
        emit({"kind": "summary", "scenario": "disjoint", "a_alone": med["a_alone"], "b_alone": med["b_alone"],
              "together": med["together"], "ratio": med["together"] / longer, "target": "together <= 1.05 x longer",
              "met": med["together"] <= 1.05 * longer})
        limit = 1.2 * med["small_alone"] + 0.3
        emit({"kind": "summary", "scenario": "small", "alone": med["small_alone"],
              "beside_long": med["small_beside_long"], "limit": limit, "target": "beside_long <= 1.2 x alone + 0.3 s",
              "met": med["small_beside_long"] <= limit})
    except Exception:
        say(read(os.path.join(work, "coordinator.log")).decode(errors="replace")[-4000:])
        raise
    finally:
        cluster.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
