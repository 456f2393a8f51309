#!/usr/bin/env python3
"""Summarizes bench/collectives.sh's runs (one JSON line each) and checks its targets.

  collectives_summary.py RESULTS.jsonl [RESULTS.jsonl ...] [--csv CHART.csv]

Prints, per shape and array size, each algorithm's measured makespan beside the report's
plan prediction and paper-model makespan, then the issue's targets, each met or MISSED with
its numbers:
  - the papers' schedules (snf, bnb, snf-fnf, wrp) measured within 15 % of the prediction;
  - snf (reduce), snf-fnf (allreduce) and wrp (multicast) at least 20 % faster than Baton's
    binomial and than Open MPI, where the model predicts a gain that large over binomial;
  - where the ring all-reduction beats snf-fnf, and by how much;
and those of issue 26 (collectives at the bandwidth bound), for the default `auto` at 1 MiB
and up: measured within 1.3x the bound the links allow (all-reduce at 16 and 64 MiB, reduce
and multicast), all-reduce at least 1.4x faster than the ring and 2x faster than the best
Open MPI configuration, auto within 5 % of the fastest algorithm measured for the case, and
every algorithm's plan prediction within 15 % of what it measured.
Then the peers' runs (Gloo, Open MPI's forced tuned algorithms) with their CPU time, and
the comparison under issue 42's rules (docs/collectives-bench.md, "Fair to the peers"):
`auto`'s dataflow step and submit-to-done times beside two bounds, the one on the links' TCP
goodput (each tc rate x 1448/1514, computed here from the line's rates_mbit) and the one
on the rates the agents declare (the report's), and against the ring and each peer's
fastest configuration; markdown rows, as docs/collectives-bench.md quotes them.
Several lines of one case (bench/collectives.sh's rounds) count as their median.
A run that failed is listed with its error. The CSV holds one block per shape and kind (gnuplot's `index`): size, then the measured
seconds of the kind's algorithms, Open MPI and the first algorithm's plan prediction.
"""
import argparse
import json
import math
import statistics

ALGORITHMS = {"reduce": ["snf", "bnb", "binomial", "flat", "pipelined-tree", "auto"],
              "allreduce": ["snf-fnf", "binomial", "ring", "pipelined-tree", "rate-rsag", "auto"],
              "multicast": ["wrp", "binomial", "flat", "pipelined-tree", "auto"]}
# The chart's columns per kind: the paper's schedule, two textbook ones, Baton's default.
CHART = {"reduce": ["snf", "binomial", "flat", "auto"],
         "allreduce": ["snf-fnf", "binomial", "ring", "auto"],
         "multicast": ["wrp", "binomial", "flat", "auto"]}
PAPERS = {"reduce": ["snf", "bnb"], "allreduce": ["snf-fnf"], "multicast": ["wrp"]}
SHAPES = ["fig8", "mix3", "slow1"]


def size_text(b):
    return f"{b // 1048576} MiB" if b >= 1048576 else f"{b // 1024} KiB"


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt(x, digits=3):
    return "-" if x is None else f"{x:.{digits}f}"


def goodput_bound(kind, rates_mbit, size):
    """What the links' TCP goodput allows (docs/collectives.md, "The bandwidth bound", on each
    link's tc rate x 1448/1514 instead of the declared rate): every byte of the array through
    the slowest link (reduce into, multicast out of and into it), and for an all-reduce at
    least 2 (n - 1) / n of it through every link together. The root is never faster than
    the slowest link, so the slowest link bounds a reduce and a multicast wherever it is."""
    rates = [r * 1e6 / 8 * 1448 / 1514 for r in rates_mbit]
    one = size / min(rates)
    return max(one, 2 * (len(rates) - 1) * size / sum(rates)) if kind == "allreduce" else one


def merged(lines):
    """One case's lines (bench/collectives.sh's rounds, or a single line) as one: the median of
    each time, every run's step time in `runs`, the failures counted."""
    done = [r for r in lines if "measured_seconds" in r]
    if not done:  # its error, and no time: a failed job's time until it failed is no result
        return lines[0] | {"failures": len(lines), "runs": [], "submit_to_done_seconds": None}
    m = dict(done[0])
    for field in ("measured_seconds", "submit_to_done_seconds", "job_seconds", "predicted_seconds"):
        values = [r[field] for r in done if r.get(field) is not None]
        m[field] = statistics.median(values) if values else None
    m["runs"] = [r["measured_seconds"] for r in done]
    m["failures"] = len(lines) - len(done)
    return m


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="+")
    parser.add_argument("--csv")
    args = parser.parse_args()
    lines = []
    for path in args.results:
        with open(path) as f:
            lines += [json.loads(line) for line in f if line.strip()]
    # Another implementation's algorithms are named with it ("gloo-ring" beside Baton's "ring"),
    # an Open MPI configuration also with its segment size ("openmpi-pipeline-64k").
    for r in lines:
        if r["impl"] != "baton" and not r["algorithm"].startswith(r["impl"]):
            r["algorithm"] = f'{r["impl"]}-{r["algorithm"]}'
        if r.get("segment_bytes") and r.get("mpirun_options"):  # issue 42's runs, several sizes each
            r["algorithm"] += f'-{r["segment_bytes"] // 1024}k'
    cases = {}
    for r in lines:
        cases.setdefault((r["shape"], r["kind"], r["algorithm"], r["bytes"]), []).append(r)
    by = {key: merged(group) for key, group in cases.items()}
    runs = list(by.values())
    shapes = [s for s in SHAPES if any(r["shape"] == s for r in runs)]
    sizes = sorted({r["bytes"] for r in runs})

    def get(shape, kind, algorithm, size, field="measured_seconds"):
        r = by.get((shape, kind, algorithm, size))
        return None if r is None else r.get(field)

    def peers(kind):
        """The other implementations' runs of `kind` (Open MPI's configurations, Gloo's), by algorithm."""
        return sorted({r["algorithm"] for r in runs if r["impl"] != "baton" and r["kind"] == kind})

    def bound_of(shape, kind, size):
        return next((r["bound_seconds"] for r in runs if (r["shape"], r["kind"], r["bytes"]) == (shape, kind, size)
                     and r.get("bound_seconds")), None)

    for shape in shapes:
        rates = next(r["rates_mbit"] for r in runs if r["shape"] == shape)
        print(f"== {shape}: {len(rates)} nodes, link rates (Mbit/s) {','.join(f'{x:g}' for x in rates)}, root n0")
        print(f"{'kind':<10} {'size':>8} {'algorithm':<14} {'measured s':>10} {'plan s':>8} {'model s':>8} "
              f"{'meas/plan':>9} {'meas/model':>10} {'meas/bound':>10}")
        for kind, algorithms in ALGORITHMS.items():
            for size in sizes:
                for a in algorithms + peers(kind):
                    failed = get(shape, kind, a, size, "failed")
                    if failed:
                        print(f"{kind:<10} {size_text(size):>8} {a:<14} {'FAILED':>10} "
                              f"{fmt(get(shape, kind, a, size, 'predicted_seconds')):>8}  {failed[:110]}")
                    m = get(shape, kind, a, size)
                    if m is None:
                        continue
                    plan, model = get(shape, kind, a, size, "predicted_seconds"), get(shape, kind, a, size, "model_seconds")
                    chosen = get(shape, kind, a, size, "chosen")
                    name = f"{a} ({chosen})" if a == "auto" and chosen else a
                    print(f"{kind:<10} {size_text(size):>8} {name:<14} {m:>10.3f} {fmt(plan):>8} {fmt(model):>8} "
                          f"{fmt(ratio(m, plan), 2):>9} {fmt(ratio(m, model), 2):>10} "
                          f"{fmt(ratio(m, bound_of(shape, kind, size)), 2):>10}")

    print("\n== targets")
    for shape in shapes:
        for kind, papers in PAPERS.items():
            for a in papers:
                for size in sizes:
                    m, plan = get(shape, kind, a, size), get(shape, kind, a, size, "predicted_seconds")
                    model = get(shape, kind, a, size, "model_seconds")
                    if m is None or not plan:
                        continue
                    ok = abs(m / plan - 1) <= 0.15
                    print(f"{shape} {kind} {a} {size_text(size)}: measured {m:.3f} s / plan {plan:.3f} s = "
                          f"{m / plan:.2f} (model {fmt(model)} s, {fmt(ratio(m, model), 2)}): "
                          f"within 15 % {'met' if ok else 'MISSED'}")
        for kind in ALGORITHMS:
            best = ALGORITHMS[kind][0]
            for size in sizes:
                m = get(shape, kind, best, size)
                if m is None:
                    continue
                model_best, model_binomial = (get(shape, kind, best, size, "model_seconds"),
                                              get(shape, kind, "binomial", size, "model_seconds"))
                predicted_gain = 1 - model_best / model_binomial if model_best and model_binomial else None
                for other in ("binomial", "openmpi"):
                    o = get(shape, kind, other, size)
                    if o is None:
                        continue
                    gain = 1 - m / o
                    if predicted_gain is not None and predicted_gain >= 0.2:
                        verdict = "met" if gain >= 0.2 else "MISSED"
                    else:
                        verdict = "not expected (the model predicts " + (
                            "no gain over binomial)" if predicted_gain is None else f"{predicted_gain:.0%} over binomial)")
                    print(f"{shape} {kind} {best} vs {other} {size_text(size)}: {m:.3f} s vs {o:.3f} s, "
                          f"gain {gain:+.0%} (model's gain over binomial {fmt(predicted_gain, 2)}): {verdict}")
        for size in sizes:
            ring, snf = get(shape, "allreduce", "ring", size), get(shape, "allreduce", "snf-fnf", size)
            mpi = get(shape, "allreduce", "openmpi", size)
            if ring is None or snf is None:
                continue
            who = "ring wins" if ring < snf else "snf-fnf wins"
            print(f"{shape} allreduce {size_text(size)}: ring {ring:.3f} s, snf-fnf {snf:.3f} s, Open MPI "
                  f"{fmt(mpi)} s: {who} (snf-fnf/ring {snf / ring:.2f})")

    print("\n== targets of issue 26 (auto, 1 MiB and up)")
    for shape in shapes:
        for kind, algorithms in ALGORITHMS.items():
            for size in sizes:
                if size < 1048576:
                    continue
                m, bound = get(shape, kind, "auto", size), bound_of(shape, kind, size)
                if m is None:
                    continue
                where = f"{shape} {kind} {size_text(size)}"
                if bound and (kind != "allreduce" or size >= 16 * 1048576):
                    print(f"{where}: auto {m:.3f} s / bound {bound:.3f} s = {m / bound:.2f}: "
                          f"within 1.3x {'met' if m <= 1.3 * bound else 'MISSED'}")
                ring = get(shape, kind, "ring", size)
                if kind == "allreduce" and ring and size >= 16 * 1048576:
                    print(f"{where}: ring {ring:.3f} s / auto {m:.3f} s = {ring / m:.2f}: "
                          f"1.4x faster {'met' if ring >= 1.4 * m else 'MISSED'}")
                others = [(get(shape, kind, p, size), p) for p in peers(kind)]
                others = [(t, p) for t, p in others if t is not None]
                # The target is against Open MPI's best configuration; Gloo's best is
                # shown beside it, for the record.
                mpi = [(t, p) for t, p in others if p.startswith("openmpi")]
                if kind == "allreduce" and mpi and size >= 16 * 1048576:
                    t, p = min(mpi)
                    print(f"{where}: Open MPI's best, {p} {t:.3f} s / auto {m:.3f} s = {t / m:.2f}: "
                          f"2x faster {'met' if t >= 2 * m else 'MISSED'}")
                gloo = [(t, p) for t, p in others if p.startswith("gloo")]
                if kind == "allreduce" and gloo and size >= 16 * 1048576:
                    t, p = min(gloo)
                    print(f"{where}: Gloo's best, {p} {t:.3f} s / auto {m:.3f} s = {t / m:.2f} (no target)")
                measured = [(get(shape, kind, a, size), a) for a in algorithms if a != "auto"]
                measured = [(t, a) for t, a in measured if t is not None]
                if measured:
                    t, a = min(measured)
                    print(f"{where}: auto {m:.3f} s against the fastest measured, {a} {t:.3f} s: "
                          f"within 5 % {'met' if m <= 1.05 * t else 'MISSED'}")
                for a in algorithms:
                    t, plan = get(shape, kind, a, size), get(shape, kind, a, size, "predicted_seconds")
                    if t is None or not plan:
                        continue
                    print(f"{where}: {a} measured / plan = {t / plan:.2f}: "
                          f"within 15 % {'met' if abs(t / plan - 1) <= 0.15 else 'MISSED'}")

    print_peers(runs)
    print_fair(runs, shapes, sizes, get)

    if args.csv:
        with open(args.csv, "w") as f:
            for shape in shapes:
                for kind, columns in CHART.items():
                    f.write(f"# {shape} {kind}: bytes,{','.join(columns)},openmpi,auto_plan\n")
                    for size in sizes:
                        cells = [get(shape, kind, a, size) for a in columns]
                        cells += [get(shape, kind, "openmpi", size), get(shape, kind, "auto", size, "predicted_seconds")]
                        f.write(f"{size}," + ",".join("NaN" if c is None or math.isnan(c) else f"{c:.6f}"
                                                     for c in cells) + "\n")
                    f.write("\n\n")


def print_peers(runs):
    """The peers' runs beside Baton's fastest of the same shape, kind and size."""
    peers = [r for r in runs if r.get("impl") in ("gloo", "openmpi")]
    if not peers:
        return
    print("\n== peers (cpu s: CPU time of all ranks from barrier to result)")
    print(f"{'shape':<6} {'kind':<10} {'size':>8} {'impl':<8} {'algorithm':<34} {'measured s':>10} {'min-max s':>13} "
          f"{'warm-up s':>9} {'cpu s':>7} {'/baton best':>11}")
    for r in peers:
        baton = [b["measured_seconds"] for b in runs if b.get("impl", "baton") == "baton" and "measured_seconds" in b
                 and (b["shape"], b["kind"], b["bytes"]) == (r["shape"], r["kind"], r["bytes"])]
        spread = f"{min(r['seconds']):.3f}-{max(r['seconds']):.3f}" if r.get("seconds") else "-"
        warm = r.get("warmup_seconds")
        print(f"{r['shape']:<6} {r['kind']:<10} {size_text(r['bytes']):>8} {r['impl']:<8} {r['algorithm']:<34} "
              f"{r['measured_seconds']:>10.3f} {spread:>13} {fmt(warm[0] if warm else None):>9} "
              f"{fmt(r.get('cpu_seconds'), 2):>7} "
              f"{fmt(ratio(r['measured_seconds'], min(baton) if baton else None), 2):>11}")


def print_fair(runs, shapes, sizes, get):
    """`auto` against both bounds, the ring and each peer's fastest configuration, as markdown rows."""
    print("\n== auto against the bounds and the peers (medians; step: the dataflow step, s2d: submit-to-done)")
    print("| shape | kind | MiB | goodput bound s | declared bound s | auto step s (runs) | auto s2d s | step / goodput bound "
          "| step / declared bound | ring / auto | Open MPI best | MPI / auto step | MPI / auto s2d | Gloo best "
          "| Gloo / auto step |")
    print("|" + "---|" * 15)
    for shape in shapes:
        for kind in ALGORITHMS:
            for size in sizes:
                auto = next((r for r in runs if r["impl"] == "baton" and (r["shape"], r["kind"], r["algorithm"],
                             r["bytes"]) == (shape, kind, "auto", size)), None)
                if auto is None:
                    continue
                step, s2d = auto.get("measured_seconds"), auto.get("submit_to_done_seconds")
                goodput, declared = goodput_bound(kind, auto["rates_mbit"], size), auto.get("bound_seconds")
                ring = get(shape, kind, "ring", size)

                def best(impl):
                    mine = [r for r in runs if r["impl"] == impl and (r["shape"], r["kind"], r["bytes"]) ==
                            (shape, kind, size) and "measured_seconds" in r]
                    return min(mine, key=lambda r: r["measured_seconds"]) if mine else None

                mpi, gloo = best("openmpi"), best("gloo")
                times = ", ".join(f"{t:.2f}" for t in sorted(auto.get("runs", [])))
                failures = auto.get("failures", 0)
                spread = ", ".join(x for x in (times, f"{failures} failed" if failures else "") if x)
                cells = [shape, kind, f"{size / 1048576:g}", f"{goodput:.2f}", fmt(declared, 2),
                         f"{fmt(step, 2)} ({spread})", fmt(s2d, 2), fmt(ratio(step, goodput), 2),
                         fmt(ratio(step, declared), 2), fmt(ratio(ring, step), 2),
                         f"{mpi['algorithm']} {mpi['measured_seconds']:.2f} s" if mpi else "-",
                         fmt(ratio(mpi and mpi["measured_seconds"], step), 2),
                         fmt(ratio(mpi and mpi["measured_seconds"], s2d), 2),
                         f"{gloo['algorithm']} {gloo['measured_seconds']:.2f} s" if gloo else "-",
                         fmt(ratio(gloo and gloo["measured_seconds"], step), 2)]
                print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
