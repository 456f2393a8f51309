#!/usr/bin/env python3
"""Standby coordinators on etcd, measured (docs/ha.md): real etcd members, coordinators and
agents on loopback, every destination byte compared with the sources. One JSON line per
measurement on stdout; progress on stderr. Run through bench/ha.sh.

  failover   the leader killed (SIGKILL) mid-job; from the kill to the next step's release
             by the new leader (its log line "job J step S: released to N agents"), and to
             its "leads at epoch" line; one line per run, then the median.
  step       one job of >= 100 short steps on a coordinator with the SQLite journal and on
             one with the etcd journal (3 members), alternating, side by side in one run;
             per-step time = the job's elapsed seconds / its steps.
  fig16      a Fig.-16-size job (10 x 10 agents, pairs uniform in [1, 4] MB, k = 5) on two
             coordinators, with the leader killed when half its bytes are done and without,
             alternating; seconds from the submission to the job's end.
"""
import argparse
import datetime
import json
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

SECRET = "bench-ha-secret-0123456789abcdef\n"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def address():
    return f"127.0.0.1:{free_port()}"


def say(*args):
    print(*args, file=sys.stderr, flush=True)


def wait_for(what, predicate, timeout, interval=0.02):
    """Polls `predicate` (a log, a file or the API: another process's state) until true."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise RuntimeError(f"timed out after {timeout} s waiting for {what}")


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return b""


def http(method, url, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return json.loads(answer.read())
    except (OSError, ValueError):
        return None


class Process:
    def __init__(self, argv, log):
        self.log_path = log
        self.log_file = open(log, "ab")
        self.proc = subprocess.Popen(argv, stdout=self.log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def log(self):
        return read(self.log_path).decode(errors="replace")

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.log_file.close()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.proc.wait()
        self.log_file.close()


class Etcd:
    """Three members on loopback, as tests/support/etcd_cluster.cpp starts them."""

    def __init__(self, dir, members=3):
        os.makedirs(dir)
        self.members = []
        for i in range(members):
            self.members.append((f"m{i}", f"http://127.0.0.1:{free_port()}", f"http://127.0.0.1:{free_port()}"))
        cluster = ",".join(f"{n}={p}" for n, _, p in self.members)
        self.procs = [
            Process(["/usr/bin/etcd", "--name", n, "--data-dir", os.path.join(dir, n), "--listen-client-urls", c,
                     "--advertise-client-urls", c, "--listen-peer-urls", p, "--initial-advertise-peer-urls", p,
                     "--initial-cluster", cluster, "--initial-cluster-state", "new", "--initial-cluster-token",
                     os.path.basename(dir), "--heartbeat-interval", "50", "--election-timeout", "500",
                     "--log-outputs", "stderr"], os.path.join(dir, n + ".log")) for n, c, p in self.members]
        for _, client, _ in self.members:
            wait_for(f"etcd at {client}", lambda: (http("GET", client + "/health") or {}).get("health") == "true", 30)

    def endpoints(self):
        return [c for _, c, _ in self.members]

    def stop(self):
        for p in self.procs:
            p.stop()


def job(sizes, rate, k):
    """Sender a<i> sends sizes[i][j] bytes to receiver b<j>, its pieces one after the other in
    its in.bin, and each lands at b<j>'s out.bin after the pieces of the senders before it.
    The backbone is declared k times a node's rate: k pairs at once."""
    senders, receivers = len(sizes), len(sizes[0])
    transfers = [{"src_node": f"a{i}", "src_file": "in.bin", "src_offset": sum(sizes[i][:j]), "length": sizes[i][j],
                  "dst_node": f"b{j}", "dst_file": "out.bin", "dst_offset": sum(sizes[h][j] for h in range(i))}
                 for i in range(senders) for j in range(receivers)]
    return {"senders": [f"a{i}" for i in range(senders)], "receivers": [f"b{j}" for j in range(receivers)],
            "platform": {"sender_rate": rate, "receiver_rate": rate, "backbone_rate": k * rate,
                         "step_startup": 0.001},
            "transfers": transfers}


def expected(sources, sizes, receiver):
    return b"".join(src[sum(sizes[i][:receiver]):sum(sizes[i][:receiver + 1])] for i, src in enumerate(sources))


def same_sizes(senders, receivers, size):
    return [[size] * receivers for _ in range(senders)]


class Cluster:
    """Coordinators (etcd-backed when `etcd` is given, else one on SQLite) and senders +
    receivers agents that know every coordinator, in a fresh directory."""

    def __init__(self, bin, dir, names, etcd, prefix, ttl, sizes, seed):
        self.bin, self.dir = bin, dir
        os.makedirs(dir)
        with open(os.path.join(dir, "secret"), "w") as f:
            f.write(SECRET)
        self.coordinators = {}
        for name in names:
            api, agents = address(), address()
            config = (f'id = "{name}"\nagent_address = "{agents}"\napi_address = "{api}"\nsecret_file = "secret"\n'
                      f'state_dir = "{name}-state"\nheartbeat_seconds = 0.2\n')
            if etcd:
                endpoints = ", ".join(f'"{e}"' for e in etcd.endpoints())
                config += (f'journal = "etcd"\netcd_endpoints = [{endpoints}]\netcd_prefix = "{prefix}"\n'
                           f"leader_ttl_seconds = {ttl}\n")
            with open(os.path.join(dir, name + ".toml"), "w") as f:
                f.write(config)
            self.coordinators[name] = {"api": api, "agents": agents, "proc": None}
        self.sizes, self.senders, self.receivers = sizes, len(sizes), len(sizes[0])
        rng = random.Random(seed)
        self.sources = [rng.randbytes(sum(row)) for row in sizes]
        self.agents = []

    def start(self, name):
        c = self.coordinators[name]
        c["proc"] = Process([os.path.join(self.bin, "coordinator/daemon/baton-coordinator"), "--config",
                             os.path.join(self.dir, name + ".toml"), "--ready-file",
                             os.path.join(self.dir, name + ".ready")], os.path.join(self.dir, name + ".log"))

    def ready(self, name):
        return read(os.path.join(self.dir, name + ".ready")) != b""

    def start_pair(self):
        """c1 leading, c2 standing by, then the agents."""
        self.start("c1")
        wait_for("c1 to lead", lambda: self.ready("c1"), 30)
        self.start("c2")
        wait_for("c2 to stand by", lambda: "standby: " in self.coordinators["c2"]["proc"].log(), 30)
        self.start_agents()

    def start_agents(self):
        listed = ", ".join(f'"{c["agents"]}"' for c in self.coordinators.values())
        for node in self.nodes():
            home = os.path.join(self.dir, node)
            os.makedirs(os.path.join(home, "data"))
            if node.startswith("a"):
                with open(os.path.join(home, "data", "in.bin"), "wb") as f:
                    f.write(self.sources[int(node[1])])
            with open(os.path.join(home, "agent.toml"), "w") as f:
                f.write(f'node_id = "{node}"\ncoordinator = [{listed}]\nsecret_file = "../secret"\n'
                        'data_root = "data"\ndata_address = "127.0.0.1:0"\nrate = 100000000\nbuffer_count = 8\n'
                        "buffer_size = 262144\n")
            self.agents.append(Process([os.path.join(self.bin, "agent/baton-agent"), "--config",
                                        os.path.join(home, "agent.toml")], os.path.join(home, "agent.log")))

    def nodes(self):
        return [f"a{i}" for i in range(self.senders)] + [f"b{j}" for j in range(self.receivers)]

    def api(self, name):
        return "http://" + self.coordinators[name]["api"]

    def alive(self, name):
        answer = http("GET", self.api(name) + "/v1/agents") or {}
        return sum(1 for a in answer.get("agents", []) if a.get("alive")) >= len(self.nodes())

    def submit(self, name, rate, k=1):
        wait_for("every agent alive", lambda: self.alive(name), 60)
        answer = http("POST", self.api(name) + "/v1/jobs", job(self.sizes, rate, k))
        if not answer or "id" not in answer:
            raise RuntimeError(f"submit refused: {answer}")
        return answer["id"]

    def finished(self, name, id, timeout):
        def ended():
            j = http("GET", f"{self.api(name)}/v1/jobs/{id}") or {}
            return j if j.get("state") in ("done", "failed", "cancelled") else None
        j = wait_for(f"job {id} to end", ended, timeout, 0.05)
        if j["state"] != "done":
            raise RuntimeError(f"job {id} ended {j['state']}: {j.get('error')}")
        for r in range(self.receivers):
            got = read(os.path.join(self.dir, f"b{r}", "data", "out.bin"))
            if got != expected(self.sources, self.sizes, r):
                raise RuntimeError(f"b{r}'s out.bin differs from the sources")
        return j

    def stop(self):
        for a in self.agents:  # SIGTERM to all, then wait: each finishes its step first
            if a.proc.poll() is None:
                a.proc.terminate()
        for a in self.agents:
            a.stop()
        for c in self.coordinators.values():
            if c["proc"]:
                c["proc"].stop()


STAMP = re.compile(r"^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}) ")


def stamped(log, pattern):
    """The time of the first log line matching `pattern` (spdlog's local time, ms)."""
    for line in log.splitlines():
        if re.search(pattern, line):
            m = STAMP.match(line)
            if m:
                return datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S.%f").timestamp()
    return None


def failover(args, work, etcd, run):
    # 2 + 2 agents, 4 steps of about 1 s (1 MB at 1 MB/s): the kill lands while step 2 runs.
    c = Cluster(args.bin, os.path.join(work, f"failover-{run}"), ["c1", "c2"], etcd, f"/baton/bench-failover-{run}/",
                args.ttl, same_sizes(2, 2, 1_000_000), run)
    try:
        c.start_pair()
        id = c.submit("c1", 1e6)
        wait_for("step 2's release", lambda: re.search(rf"job {id} step 2: released",
                                                       c.coordinators["c1"]["proc"].log()), 30)
        killed = time.time()
        c.coordinators["c1"]["proc"].kill()
        wait_for("c2's first release", lambda: re.search(rf"job {id} step \d+: released",
                                                         c.coordinators["c2"]["proc"].log()), 60)
        log = c.coordinators["c2"]["proc"].log()
        c.finished("c2", id, 120)
        return {"bench": "ha", "measure": "failover", "run": run, "ttl_seconds": args.ttl,
                "to_leader_seconds": round(stamped(log, r"leads at epoch") - killed, 3),
                "to_release_seconds": round(stamped(log, rf"job {id} step \d+: released") - killed, 3),
                "verified": True}
    finally:
        c.stop()


def per_step(args, work, etcd, store, run):
    c = Cluster(args.bin, os.path.join(work, f"step-{store}-{run}"), ["c1"], etcd if store == "etcd" else None,
                f"/baton/bench-step-{run}/", args.ttl, same_sizes(args.nodes, args.nodes, args.piece), 100 + run)
    try:
        c.start("c1")
        wait_for("c1 ready", lambda: c.ready("c1"), 30)
        c.start_agents()
        id = c.submit("c1", args.rate)
        j = c.finished("c1", id, 600)
        steps = j.get("steps") or 0
        elapsed = j.get("elapsed_seconds") or 0
        return {"bench": "ha", "measure": "step", "store": store, "run": run, "steps": steps,
                "elapsed_seconds": round(elapsed, 3), "per_step_ms": round(1000 * elapsed / steps, 3),
                "verified": True}
    finally:
        c.stop()


def fig16(args, work, etcd, kill, run):
    """A Fig.-16-size job (10 x 10 nodes, each pair's size uniform in [1, 4] MB, k = 5) on
    two coordinators; with `kill`, the leader is SIGKILLed when half its bytes are done.
    Its time: from the submission to the job's end on whichever coordinator ended it."""
    rng = random.Random(16 + run)
    sizes = [[rng.randint(1_000_000, 4_000_000) for _ in range(10)] for _ in range(10)]
    c = Cluster(args.bin, os.path.join(work, f"fig16-{'kill' if kill else 'none'}-{run}"), ["c1", "c2"], etcd,
                f"/baton/bench-fig16-{'kill' if kill else 'none'}-{run}/", args.ttl, sizes, 16 + run)
    try:
        c.start_pair()
        id = c.submit("c1", args.fig16_rate, 5)
        submitted = time.monotonic()
        total = sum(map(sum, sizes))
        leader = "c1"
        if kill:
            wait_for("half the bytes", lambda: (http("GET", f"{c.api('c1')}/v1/jobs/{id}") or {}).get(
                "bytes_done", 0) >= total / 2, 600, 0.05)
            c.coordinators["c1"]["proc"].kill()
            leader = "c2"
        j = c.finished(leader, id, 600)
        return {"bench": "ha", "measure": "fig16", "failover": kill, "run": run, "ttl_seconds": args.ttl,
                "bytes": total, "steps": j.get("steps"), "seconds": round(time.monotonic() - submitted, 3),
                "verified": True}
    finally:
        c.stop()


def emit(line):
    print(json.dumps(line), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default="build/ci", help="the build directory (default build/ci)")
    parser.add_argument("--ttl", type=int, default=2, help="leader_ttl_seconds (default 2)")
    parser.add_argument("--failovers", type=int, default=10, help="fail-over runs (default 10)")
    parser.add_argument("--step-runs", type=int, default=3, help="runs per store of the step job (default 3)")
    parser.add_argument("--nodes", type=int, default=10,
                        help="senders, and as many receivers, of the step job: nodes^2 steps (default 10)")
    parser.add_argument("--piece", type=int, default=10_000, help="bytes per pair of the step job (default 10000)")
    parser.add_argument("--rate", type=float, default=10e6, help="declared rates of the step job, B/s (default 1e7)")
    parser.add_argument("--fig16-runs", type=int, default=2,
                        help="runs of the Fig.-16-size job, each with and without a fail-over (default 2)")
    parser.add_argument("--fig16-rate", type=float, default=5e6,
                        help="declared node rate of the Fig.-16-size job, B/s (default 5e6: about 10 s)")
    parser.add_argument("--only", choices=["failover", "step", "fig16"], help="one measurement only")
    parser.add_argument("--keep", action="store_true", help="keep the logs and files (their directory is said)")
    args = parser.parse_args()
    if not os.access("/usr/bin/etcd", os.X_OK):
        sys.exit("ha_bench.py: /usr/bin/etcd is missing (Debian etcd-server; scripts/setup.sh installs it)")
    work = tempfile.mkdtemp(prefix="baton-ha-bench.")
    etcd = Etcd(os.path.join(work, "etcd"))
    try:
        if args.only in (None, "step"):
            lines = {"sqlite": [], "etcd": []}
            for run in range(args.step_runs):
                for store in (("sqlite", "etcd") if run % 2 == 0 else ("etcd", "sqlite")):
                    line = per_step(args, work, etcd, store, run)
                    emit(line)
                    lines[store].append(line["per_step_ms"])
            sqlite, etcd_ms = statistics.median(lines["sqlite"]), statistics.median(lines["etcd"])
            emit({"bench": "ha", "measure": "step_summary", "runs": args.step_runs, "sqlite_per_step_ms": sqlite,
                  "etcd_per_step_ms": etcd_ms, "etcd_minus_sqlite_ms": round(etcd_ms - sqlite, 3),
                  "target_ms": 2.0})
        if args.only in (None, "failover"):
            times, leads = [], []
            for run in range(args.failovers):
                line = failover(args, work, etcd, run)
                emit(line)
                times.append(line["to_release_seconds"])
                leads.append(line["to_leader_seconds"])
            emit({"bench": "ha", "measure": "failover_summary", "runs": args.failovers, "ttl_seconds": args.ttl,
                  "median_to_leader_seconds": round(statistics.median(leads), 3),
                  "median_to_release_seconds": round(statistics.median(times), 3),
                  "max_to_release_seconds": max(times), "target_seconds": args.ttl + 1})
        if args.only in (None, "fig16"):
            with_kill, without = [], []
            for run in range(args.fig16_runs):
                for kill in ((False, True) if run % 2 == 0 else (True, False)):
                    line = fig16(args, work, etcd, kill, run)
                    emit(line)
                    (with_kill if kill else without).append(line["seconds"])
            emit({"bench": "ha", "measure": "fig16_summary", "runs": args.fig16_runs, "ttl_seconds": args.ttl,
                  "median_seconds_without": statistics.median(without),
                  "median_seconds_with_failover": statistics.median(with_kill),
                  "longer_seconds": round(statistics.median(with_kill) - statistics.median(without), 3),
                  "target_seconds": args.ttl + 2})
    finally:
        etcd.stop()
        if args.keep:
            say(f"ha_bench.py: logs and files kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
