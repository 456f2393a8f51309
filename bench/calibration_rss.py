#!/usr/bin/env python3
"""The coordinator's memory under hostile calibration bodies (issue 27, item 5).

Starts a real baton-coordinator in a temporary directory (no agents, so every body below
is refused: 413 past the 4 MiB a calibration takes, else 400 once parsed), posts hostile bodies to POST /v1/calibrations, some
of them at once, and reads the coordinator's VmRSS and VmHWM from /proc/PID/status: before,
right after, and after a pause (does the memory stay?). Prints one line per phase and a
JSON summary; exits 1 when the resident memory after the pause exceeds --max-after-mib.

  bench/calibration_rss.py --coordinator build/ci/coordinator/daemon/baton-coordinator

The bodies (each --mib MiB, below the API's 64 MiB cap):
  spaces   a valid calibration of unknown nodes followed by spaces
  string   one node name of the whole size
  numbers  "senders": [0,0,0,...]: millions of array elements
  keys     an object of millions of distinct unknown members
"""
import argparse
import http.client
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

MIB = 1 << 20


def body(kind, size):
    if kind == "spaces":
        head = b'{"senders": ["a"], "receivers": ["b"]}'
        return head + b" " * (size - len(head))
    if kind == "string":
        return b'{"senders": ["' + b"x" * (size - 32) + b'"], "receivers": ["b"]}'
    if kind == "numbers":
        count = (size - 40) // 2
        return b'{"senders": [' + b"0," * count + b'0], "receivers": ["b"]}'
    if kind == "keys":
        parts, total, i = [], 2, 0
        while total < size - 32:
            part = b'"k%d": 0,' % i
            parts.append(part)
            total += len(part)
            i += 1
        return b"{" + b"".join(parts) + b'"senders": ["a"]}'
    raise ValueError(kind)


def status(pid):
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) / 1024  # kB → MiB
    return out


def post(address, payload, answers):
    host, port = address.rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=120)
    try:
        connection.request("POST", "/v1/calibrations", body=payload, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        answers.append((response.status, response.read()[:200]))
    except OSError as e:
        answers.append((0, str(e).encode()))
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--coordinator", required=True, help="the baton-coordinator binary")
    parser.add_argument("--mib", type=int, default=60, help="each body's size in MiB (default 60)")
    parser.add_argument("--rounds", type=int, default=3, help="times each kind is posted (default 3)")
    parser.add_argument("--parallel", type=int, default=4, help="bodies posted at once (default 4)")
    parser.add_argument("--kinds", default="spaces,string,numbers,keys", help="which bodies, comma-separated")
    parser.add_argument("--pause", type=float, default=5, help="seconds idle before the last reading (default 5)")
    parser.add_argument("--max-after-mib", type=float, default=0, help="fail above this RSS after the pause")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="baton-rss-")
    try:
        with open(os.path.join(work, "secret"), "w") as f:
            f.write("calibration-rss-secret-0123456789\n")
        with open(os.path.join(work, "coordinator.toml"), "w") as f:
            f.write('id = "rss"\nagent_address = "127.0.0.1:0"\napi_address = "127.0.0.1:0"\n'
                    'secret_file = "secret"\nstate_dir = "state"\n')
        ready = os.path.join(work, "ready.json")
        log = open(os.path.join(work, "coordinator.log"), "w")
        daemon = subprocess.Popen([args.coordinator, "--config", os.path.join(work, "coordinator.toml"),
                                   "--ready-file", ready], stdout=log, stderr=subprocess.STDOUT)
        try:
            for _ in range(400):  # the ready file is the daemon's event; it says its addresses
                if os.path.exists(ready) and os.path.getsize(ready) > 0:
                    break
                if daemon.poll() is not None:
                    sys.exit("the coordinator exited: see " + log.name)
                time.sleep(0.05)
            with open(ready) as f:
                address = json.load(f)["api"]

            readings = {"before": status(daemon.pid)}
            print(f"before:            RSS {readings['before']['VmRSS']:7.1f} MiB")
            statuses = {}
            for kind in args.kinds.split(","):
                payload = body(kind, args.mib * MIB)
                answers = []
                for _ in range(args.rounds):
                    threads = [threading.Thread(target=post, args=(address, payload, answers))
                               for _ in range(args.parallel)]
                    for t in threads:
                        t.start()
                    for t in threads:
                        t.join()
                statuses[kind] = sorted({a[0] for a in answers})
                now = status(daemon.pid)
                readings["after " + kind] = now
                print(f"after {kind:8}     RSS {now['VmRSS']:7.1f} MiB, peak {now['VmHWM']:7.1f} MiB, "
                      f"answers {statuses[kind]}: {answers[0][1][:120]!r}")
            time.sleep(args.pause)
            readings["after pause"] = status(daemon.pid)
            print(f"after {args.pause:g} s pause: RSS {readings['after pause']['VmRSS']:7.1f} MiB, "
                  f"peak {readings['after pause']['VmHWM']:7.1f} MiB")
            alive = daemon.poll() is None
        finally:
            daemon.terminate()
            daemon.wait(30)
        summary = {"mib": args.mib, "rounds": args.rounds, "parallel": args.parallel, "statuses": statuses,
                   "readings": readings, "alive": alive}
        print(json.dumps(summary))
        if not alive or any(not set(s) <= {400, 413} for s in statuses.values()):
            sys.exit("the coordinator died or answered other than 400 or 413")
        if args.max_after_mib and readings["after pause"]["VmRSS"] > args.max_after_mib:
            sys.exit(f"RSS after the pause {readings['after pause']['VmRSS']:.1f} MiB > {args.max_after_mib} MiB")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
