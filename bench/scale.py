#!/usr/bin/env python3
"""What a step costs as the cluster grows (docs/runtime.md, "Scale").

For each N of --agents and each path of --paths ("self-paced": lockstep steps run behind the
agents' own barrier, released once; "per-step": every step released and reported through
the coordinator, its configuration's self_paced_steps = false; docs/runtime.md, "Self-paced
steps"): a local coordinator (the daemon) and N embedded agents in one
process (bench/scale_agents.cpp: N/2 senders, N/2 receivers), then for each S of --steps a
redistribution of S steps (each step one perfect matching of --block-bytes flows), --repeats
times. Every receiver's bytes are checked after each job. Per job it prints one JSON line:

  {"bench": "scale_run", "commit", "utc", "path", "agents", "loops_per_process" (--loops: the
   shared event loops of each agents process; 0, a thread per agent), "heartbeat_seconds" (the coordinator's,
   --heartbeat-seconds), "max_heartbeats_per_second" (--max-heartbeats-per-second; null: the
   daemon's default), "heartbeat_interval_seconds" (the interval the agents were told, from
   batonctl agents, once all registered; null from a coordinator that does not say), "steps",
   "repeat", "seconds" (submit to
   the answer of batonctl submit --wait), "plan_distribution_seconds" (the job's start to its
   first step's release), "step_period_seconds" (median time from one step's release to the
   next's), "step_measured_seconds" (median release-to-last-report), "coordinator_cpu_seconds"
   (user + system over the job), "steps_cpu_ms_per_step" (user + system from the first step's
   release to the last step's end, over the steps: sampled every 10 ms, so planning and plan
   distribution are left out and the agents' heartbeats meanwhile are in), "coordinator_rss_mib"
   (after it), "verified"}

and per N and path, from the medians: {"bench": "scale", ..., "cpu_per_step_ms"}: the coordinator's CPU
per step as the slope between the smallest and the largest S (of those <= N/2; a longer job
also plans and sends more steps, so this counts a step's share of planning too),
"steps_cpu_ms_per_step" (of the largest S), "idle_cpu_ms_per_second" (the coordinator's CPU
with every agent registered and heartbeating at the cluster's interval (one interval after the
last registered) and no job, over 5 s: the heartbeats, one every interval from each agent,
answered), and "step_period_ms".

  cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DBATON_BUILD_TESTS=OFF
  cmake --build build/release --target baton-coordinator batonctl scale_agents
  bench/scale.py --agents 16,64,256,1024 --steps 4,32 --repeats 3 > scale.jsonl
"""
import argparse
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time


def coordinator_cpu(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class CpuSampler:
    """The process's CPU time every 10 ms, each sample with its system-clock time."""

    def __init__(self, pid):
        self.pid, self.samples, self.stop = pid, [], threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop.is_set():
            self.samples.append((time.time(), coordinator_cpu(self.pid)))
            self.stop.wait(0.01)

    def finish(self):
        self.stop.set()
        self.thread.join()

    def between(self, start, end):
        """CPU seconds from the last sample at or before `start` to the first at or after `end`."""
        before = [c for t, c in self.samples if t <= start]
        after = [c for t, c in self.samples if t >= end]
        if not before or not after:
            return None
        return after[0] - before[-1]


def wait_for_file(path, process, what, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.path.exists(path) and os.path.getsize(path) > 0:
            return
        if process.poll() is not None:
            sys.exit(f"scale.py: {what} exited ({process.returncode})")
        time.sleep(0.05)
    sys.exit(f"scale.py: {what} did not start within {seconds} s")


def run_size(args, agents, path, loops, stamp):
    work = tempfile.mkdtemp(prefix=f"baton-scale-{agents}-{path}.")
    secret = os.path.join(work, "secret")
    with open(secret, "w") as f:
        f.write(os.urandom(32).hex())
    with open(os.path.join(work, "coordinator.toml"), "w") as f:
        f.write('id = "coordinator"\nagent_address = "127.0.0.1:0"\napi_address = "127.0.0.1:0"\n'
                'secret_file = "secret"\nstate_dir = "state"\n' +
                f'self_paced_steps = {"false" if path == "per-step" else "true"}\n'
                f'heartbeat_seconds = {args.heartbeat_seconds}\n' +
                (f'max_heartbeats_per_second = {args.max_heartbeats_per_second}\n'
                 if args.max_heartbeats_per_second is not None else ''))
    ready = os.path.join(work, "ready.json")
    log = open(os.path.join(work, "coordinator.log"), "w")
    # Each process in a session of its own: where the kernel groups the scheduler by session
    # (sched_autogroup, on by default on Debian), the coordinator then gets its share of the
    # cores beside the agents' processes, as on a cluster where it has a host of its own, and
    # is not one thread among N agents' threads (at 1 024 agents, a share of about 1/500 of
    # the CPU by the threads' count: it answered heartbeats seconds late, and the agents
    # dropped their sessions).
    coordinator = subprocess.Popen(
        [os.path.join(args.bin, "coordinator/daemon/baton-coordinator"), "--config", "coordinator.toml",
         "--ready-file", ready], cwd=work, stderr=log, start_new_session=True)
    agents_processes = []
    try:
        wait_for_file(ready, coordinator, "the coordinator")
        with open(ready) as f:
            addresses = json.load(f)
        env = dict(os.environ, BATON_COORDINATOR="http://" + addresses["api"])
        steps = sorted(s for s in set(args.steps) if s <= agents // 2)  # a step is a matching of N/2 pairs
        command = [os.path.join(args.bin, "bench/scale_agents"), "--agents", str(agents), "--blocks", str(steps[-1]),
                   "--block-bytes", str(args.block_bytes), "--coordinator", addresses["agents"],
                   "--secret-file", secret, "--loops", str(loops)]
        # At most --per-process agents a process (its open-file limit holds their sockets).
        hosts = []
        for first in range(0, agents, args.per_process):
            extra = ["--host-first", str(first), "--host-count", str(args.per_process)]
            if first == 0:
                for s in steps:
                    extra += ["--write-job", f"{s}:{work}/job-{s}.json"]
            hosts.append(subprocess.Popen(command + extra, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                          stderr=open(os.path.join(work, f"agents-{first}.log"), "w"),
                                          start_new_session=True))
        agents_processes = hosts
        for host in hosts:
            if not host.stdout.readline():
                sys.exit(f"scale.py: an agents process exited; see {work}/agents-*.log")
        batonctl = os.path.join(args.bin, "coordinator/batonctl/batonctl")
        # The interval grows as agents register; those told a shorter one hear the cluster's
        # at their next echo, within one interval (docs/runtime.md, "Control sessions", 3).
        told = subprocess.run([batonctl, "agents", "-o", "json"], env=env, capture_output=True, text=True, check=True)
        interval = json.loads(told.stdout).get("heartbeat_seconds")
        time.sleep(interval or 0)
        idle_before, idle_started = coordinator_cpu(coordinator.pid), time.monotonic()
        time.sleep(5)  # what the coordinator spends with every agent registered and no job
        idle_ms_per_second = 1000 * (coordinator_cpu(coordinator.pid) - idle_before) / (time.monotonic() - idle_started)
        runs = {}
        for s in steps:
            for repeat in range(1, args.repeats + 1):
                cpu_before = coordinator_cpu(coordinator.pid)
                sampler = CpuSampler(coordinator.pid)
                started = time.monotonic()
                answer = subprocess.run([batonctl, "submit", f"{work}/job-{s}.json", "--wait", "-o", "json"],
                                        env=env, capture_output=True, text=True)
                seconds = time.monotonic() - started
                sampler.finish()
                cpu = coordinator_cpu(coordinator.pid) - cpu_before
                if answer.returncode != 0:
                    sys.exit(f"scale.py: N={agents} S={s}: batonctl: {answer.stderr.strip()} {answer.stdout[:500]}")
                # The job's id on the first line, then its report as JSON.
                job = json.loads(answer.stdout.split("\n", 1)[1])
                for host in hosts:
                    host.stdin.write(f"verify {job['id']} {s}\n")
                    host.stdin.flush()
                answers = [json.loads(host.stdout.readline()) for host in hosts]
                verified = {"ok": all(a["ok"] for a in answers), "bad_blocks": sum(a["bad_blocks"] for a in answers)}
                lines = job["report"]["steps"]
                releases = [l["started_seconds"] for l in lines]
                origin = job["started_unix_seconds"]
                steps_cpu = sampler.between(origin + releases[0],
                                            origin + releases[-1] + lines[-1]["measured_seconds"])
                run = {"bench": "scale_run", "commit": args.commit, "utc": stamp(), "path": path, "agents": agents,
                       "loops_per_process": loops, "heartbeat_seconds": args.heartbeat_seconds,
                       "max_heartbeats_per_second": args.max_heartbeats_per_second,
                       "heartbeat_interval_seconds": interval,
                       "steps": s,
                       "repeat": repeat, "seconds": round(seconds, 4),
                       "plan_distribution_seconds": round(releases[0], 6),
                       "step_period_seconds": round(statistics.median(b - a for a, b in zip(releases, releases[1:])), 6)
                       if len(releases) > 1 else None,
                       "step_measured_seconds": round(statistics.median(l["measured_seconds"] for l in lines), 6),
                       "coordinator_cpu_seconds": round(cpu, 4),
                       "steps_cpu_ms_per_step": round(1000 * steps_cpu / s, 3) if steps_cpu is not None else None,
                       "coordinator_rss_mib": round(rss_mib(coordinator.pid), 1),
                       "verified": verified["ok"]}
                print(json.dumps(run), flush=True)
                if not verified["ok"]:
                    sys.exit(f"scale.py: N={agents} S={s}: {verified['bad_blocks']} blocks wrong; logs in {work}")
                runs.setdefault(s, []).append(run)
        low, high = steps[0], steps[-1]
        cpu = {s: statistics.median(r["coordinator_cpu_seconds"] for r in runs[s]) for s in steps}
        summary = {"bench": "scale", "commit": args.commit, "utc": stamp(), "path": path, "agents": agents,
                   "loops_per_process": loops, "heartbeat_seconds": args.heartbeat_seconds,
                   "max_heartbeats_per_second": args.max_heartbeats_per_second,
                   "heartbeat_interval_seconds": interval,
                   "repeats": args.repeats,
                   "step_period_ms": round(1000 * statistics.median(r["step_period_seconds"] for r in runs[high]), 2),
                   "step_measured_ms": round(1000 * statistics.median(r["step_measured_seconds"] for r in runs[high]), 2),
                   "plan_distribution_ms": round(1000 * statistics.median(r["plan_distribution_seconds"]
                                                                          for r in runs[high]), 1),
                   "coordinator_rss_mib": max(r["coordinator_rss_mib"] for rs in runs.values() for r in rs),
                   "idle_cpu_ms_per_second": round(idle_ms_per_second, 3)}
        if all(r["steps_cpu_ms_per_step"] is not None for r in runs[high]):
            summary["steps_cpu_ms_per_step"] = round(statistics.median(r["steps_cpu_ms_per_step"] for r in runs[high]), 3)
        if high > low:
            summary["cpu_per_step_ms"] = round(1000 * (cpu[high] - cpu[low]) / (high - low), 3)
        print(json.dumps(summary), flush=True)
    finally:
        for host in agents_processes:
            if host.poll() is None:
                host.stdin.write("quit\n")
                host.stdin.close()
        for host in agents_processes:
            try:
                host.wait(timeout=30)
            except subprocess.TimeoutExpired:
                host.kill()
        coordinator.terminate()
        try:
            coordinator.wait(timeout=10)
        except subprocess.TimeoutExpired:
            coordinator.kill()
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    numbers = lambda text: [int(x) for x in text.split(",")]
    parser.add_argument("--bin", default="build/release", help="build tree (default build/release)")
    parser.add_argument("--agents", type=numbers, default=[16, 64, 256], help="N, comma-separated (even)")
    parser.add_argument("--steps", type=numbers, default=[4, 32], help="steps per job, comma-separated (each N runs those <= N/2)")
    parser.add_argument("--block-bytes", type=int, default=1024, help="bytes of each flow (default 1024)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--per-process", type=int, default=256, help="agents per agents process (default 256)")
    parser.add_argument("--paths", type=lambda text: text.split(","), default=["self-paced", "per-step"],
                        help="self-paced,per-step (default both, each N's in turn)")
    parser.add_argument("--loops", type=numbers, default=[0],
                        help="shared event loops per agents process, comma-separated, each N and path run with "
                             "each (0, the default: a thread per agent)")
    parser.add_argument("--keep", action="store_true", help="keep each N's directory (logs, jobs)")
    parser.add_argument("--heartbeat-seconds", type=float, default=1.0,
                        help="the coordinator's heartbeat_seconds (default 1, the daemon's default)")
    parser.add_argument("--max-heartbeats-per-second", type=float, default=None,
                        help="the coordinator's max_heartbeats_per_second (default: the daemon's)")
    args = parser.parse_args()
    args.bin = os.path.abspath(args.bin)
    for binary in ("coordinator/daemon/baton-coordinator", "coordinator/batonctl/batonctl", "bench/scale_agents"):
        if not os.access(os.path.join(args.bin, binary), os.X_OK):
            parser.error(f"--bin {args.bin}: {binary} is missing (build baton-coordinator, batonctl and scale_agents)")
    for n in args.agents:
        if n < 2 or n % 2 or min(args.steps) > n // 2:
            parser.error(f"--agents {n}: must be even, and at least twice the smallest --steps")
    args.commit = subprocess.run(["git", "rev-parse", "--short=8", "HEAD"], capture_output=True,
                                 text=True).stdout.strip() or "unknown"
    stamp = lambda: datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    if not 0.05 <= args.heartbeat_seconds <= 60:
        parser.error(f"--heartbeat-seconds {args.heartbeat_seconds}: must be within [0.05, 60], as the coordinator's")
    if args.max_heartbeats_per_second is not None and not 1 <= args.max_heartbeats_per_second <= 1e6:
        parser.error(f"--max-heartbeats-per-second {args.max_heartbeats_per_second}: must be within [1, 1000000], "
                     "as the coordinator's")
    for path in args.paths:
        if path not in ("self-paced", "per-step"):
            parser.error(f"--paths: '{path}' is neither self-paced nor per-step")
    if any(k < 0 or k > 1024 for k in args.loops):
        parser.error(f"--loops {args.loops}: each must be within [0, 1024]")
    for n in args.agents:
        for path in args.paths:
            for loops in args.loops:
                run_size(args, n, path, loops, stamp)


if __name__ == "__main__":
    main()
