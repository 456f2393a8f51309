#!/usr/bin/env python3
"""A Fig.-16-size job with a fail-over, in the namespace cluster (docs/ha.md, "bench/ha_netns.sh").
Runs inside the cluster's router namespace P-gw1 (bench/ha_netns.sh starts it there): three
etcd members and two coordinators on it (agents reach them at 10.77.1.254 through their own
shaped links), one agent per node namespace with its data address on its own eth0. Each run
starts the coordinators and agents afresh under a prefix of its own, submits the traffic of
scripts/netns_traffic.py (WORK) as one OGGP job at k, and with a fail-over kills the leader
(SIGKILL) when half its bytes are done; its time is from the submission to the job's end on
whichever coordinator ended it. Every destination byte is compared with its source
(netns_traffic.py verify). One JSON line per run, then a summary; progress on stderr.
"""
import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ha_bench as hb  # noqa: E402  (its Process, Etcd, http and wait_for)

HUB = "10.77.1.254"


def port_on(host):
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def nodes(args):
    return [f"s{i}" for i in range(1, args.senders + 1)] + [f"r{j}" for j in range(1, args.receivers + 1)]


def data_address(node):
    return f"10.77.{1 if node.startswith('s') else 2}.{node[1:]}:7072"


def traffic(args, *command):
    return subprocess.run([sys.executable, "scripts/netns_traffic.py", *command], check=True,
                          capture_output=True, text=True).stdout


def one_run(args, etcd, kill, run):
    dir = os.path.join(args.work, f"run-{'kill' if kill else 'none'}-{run}")
    os.makedirs(dir)
    with open(os.path.join(dir, "secret"), "w") as f:
        f.write(hb.SECRET)
    coordinators = {}
    for name in ("c1", "c2"):
        api, agents = f"127.0.0.1:{port_on('127.0.0.1')}", f"{HUB}:{port_on(HUB)}"
        endpoints = ", ".join(f'"{e}"' for e in etcd.endpoints())
        with open(os.path.join(dir, name + ".toml"), "w") as f:
            f.write(f'id = "{name}"\nagent_address = "{agents}"\napi_address = "{api}"\nsecret_file = "secret"\n'
                    f'state_dir = "{name}-state"\nheartbeat_seconds = 1\njournal = "etcd"\n'
                    f'etcd_endpoints = [{endpoints}]\netcd_prefix = "/baton/ha-netns-{os.path.basename(dir)}/"\n'
                    f"leader_ttl_seconds = {args.ttl}\n")
        coordinators[name] = {"api": "http://" + api, "agents": agents}
    procs = []

    def coordinator(name):
        p = hb.Process([os.path.join(args.bin, "coordinator/daemon/baton-coordinator"), "--config",
                        os.path.join(dir, name + ".toml"), "--ready-file", os.path.join(dir, name + ".ready")],
                       os.path.join(dir, name + ".log"))
        procs.append(p)
        return p

    try:
        traffic(args, "clear", args.work)
        c1 = coordinator("c1")
        hb.wait_for("c1 to lead", lambda: hb.read(os.path.join(dir, "c1.ready")) != b"", 30)
        c2 = coordinator("c2")
        hb.wait_for("c2 to stand by", lambda: "standby: " in c2.log(), 30)
        listed = ", ".join(f'"{c["agents"]}"' for c in coordinators.values())
        for node in nodes(args):
            os.makedirs(os.path.join(args.work, node, "data"), exist_ok=True)  # a receiver's is made here
            config = os.path.join(dir, node + ".toml")
            with open(config, "w") as f:
                f.write(f'node_id = "{node}"\ncoordinator = [{listed}]\nsecret_file = "secret"\n'
                        f'data_root = "{os.path.join(args.work, node, "data")}"\n'
                        f'data_address = "{data_address(node)}"\nrate = {args.node_rate * 1448 // 1514}\n'
                        "buffer_count = 16\nbuffer_size = 1048576\n")
            procs.append(hb.Process(["ip", "netns", "exec", f"{args.prefix}-{node}",
                                     os.path.join(args.bin, "agent/baton-agent"), "--config", config],
                                    os.path.join(dir, node + ".log")))
        everyone = len(nodes(args))
        hb.wait_for("every agent alive", lambda: sum(
            1 for a in (hb.http("GET", coordinators["c1"]["api"] + "/v1/agents") or {}).get("agents", [])
            if a.get("alive")) >= everyone, 60)
        job = json.loads(traffic(args, "job", args.work, "--algo", "oggp", "--node-rate", str(args.node_rate),
                                 "--backbone-rate", str(args.k * args.node_rate), "--beta", "0.01"))
        total = sum(t["length"] for t in job["transfers"])
        answer = hb.http("POST", coordinators["c1"]["api"] + "/v1/jobs", job)
        if not answer or "id" not in answer:
            raise RuntimeError(f"submit refused: {answer}")
        id = answer["id"]
        submitted = time.monotonic()
        leader = "c1"
        if kill:
            hb.wait_for("half the bytes", lambda: (hb.http("GET", f"{coordinators['c1']['api']}/v1/jobs/{id}") or {})
                        .get("bytes_done", 0) >= total / 2, 600, 0.05)
            c1.kill()
            leader = "c2"

        def ended():
            j = hb.http("GET", f"{coordinators[leader]['api']}/v1/jobs/{id}") or {}
            return j if j.get("state") in ("done", "failed", "cancelled") else None
        j = hb.wait_for(f"job {id} to end on {leader}", ended, 600, 0.05)
        seconds = time.monotonic() - submitted
        if j["state"] != "done":
            raise RuntimeError(f"job {id} ended {j['state']}: {j.get('error')}")
        traffic(args, "verify", args.work)  # exit 1 naming the first difference
        return {"bench": "ha_netns", "measure": "fig16", "failover": kill, "run": run, "ttl_seconds": args.ttl,
                "k": args.k, "node_rate": args.node_rate, "bytes": total, "steps": j.get("steps"),
                "seconds": round(seconds, 3), "verified": True}
    finally:
        for p in reversed(procs):
            p.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("work", help="the traffic's directory (netns_traffic.py make)")
    parser.add_argument("--bin", required=True)
    parser.add_argument("--prefix", required=True, help="the namespace cluster's")
    parser.add_argument("--senders", type=int, default=10)
    parser.add_argument("--receivers", type=int, default=10)
    parser.add_argument("--node-rate", type=int, required=True, help="bytes/s of frames on each node link")
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--ttl", type=int, default=2)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    args.work, args.bin = os.path.abspath(args.work), os.path.abspath(args.bin)
    etcd = hb.Etcd(os.path.join(args.work, "etcd"))
    try:
        with_kill, without = [], []
        for run in range(args.runs):
            for kill in ((False, True) if run % 2 == 0 else (True, False)):
                line = one_run(args, etcd, kill, run)
                print(json.dumps(line), flush=True)
                (with_kill if kill else without).append(line["seconds"])
        print(json.dumps({"bench": "ha_netns", "measure": "fig16_summary", "runs": args.runs, "ttl_seconds": args.ttl,
                          "median_seconds_without": statistics.median(without),
                          "median_seconds_with_failover": statistics.median(with_kill),
                          "longer_seconds": round(statistics.median(with_kill) - statistics.median(without), 3),
                          "target_seconds": args.ttl + 2}), flush=True)
    finally:
        etcd.stop()


if __name__ == "__main__":
    main()
