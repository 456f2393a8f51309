#!/usr/bin/env python3
"""Summarizes bench/fig16.sh's runs (one JSON line each) per k and algorithm.

  fig16_summary.py RESULTS.jsonl [--json SUMMARY.json] [--csv CHART.csv]

Prints a table and the paper's targets: OGGP at least 10 % faster than all-at-once, its
measured time within 15 % of the model's prediction, and its spread (max - min over the
repeats) smaller than all-at-once's. The CSV has one row per k for bench/fig16.gp.
"""
import statistics
import sys

from summary_cli import run, time_stats

ALGORITHMS = ("all-at-once", "ggp", "oggp")


def summarize(runs):
    out = []
    for k in sorted({r["k"] for r in runs}):
        row = {"k": k}
        for algo in ALGORITHMS:
            times = [r["measured_seconds"] for r in runs if r["k"] == k and r["algorithm"] == algo]
            mine = [r for r in runs if r["k"] == k and r["algorithm"] == algo]
            if not times:
                sys.exit(f"fig16_summary.py: no run of {algo} at k = {k}")
            row[algo] = {**time_stats(times),
                         "stddev": statistics.stdev(times) if len(times) > 1 else 0.0,
                         "spread": max(times) - min(times),
                         "predicted": mine[0]["predicted_seconds"], "lower_bound": mine[0]["lower_bound_seconds"],
                         "steps": mine[0]["steps"],
                         "tcp_retransmits": statistics.fmean(r["tcp_retransmits"] for r in mine),
                         "attempts": statistics.fmean(r.get("attempts", r["steps"]) for r in mine)}
            # A one-step run (all-at-once): the median node's finish beside the last one's.
            finishes = [r["node_seconds"] for r in mine if r.get("node_seconds")]
            if finishes:
                row[algo]["median_node_seconds"] = statistics.fmean(statistics.median(f) for f in finishes)
        aao, ggp, oggp = (row[a] for a in ALGORITHMS)
        row["oggp_over_all_at_once"] = oggp["mean"] / aao["mean"]
        row["ggp_over_all_at_once"] = ggp["mean"] / aao["mean"]
        row["oggp_over_predicted"] = oggp["mean"] / oggp["predicted"]
        row["targets"] = {"oggp_10pct_faster": row["oggp_over_all_at_once"] <= 0.9,
                          "oggp_within_15pct_of_prediction": abs(row["oggp_over_predicted"] - 1) <= 0.15,
                          "oggp_spread_smaller": oggp["spread"] < aao["spread"]}
        out.append(row)
    return out


def print_table(rows):
    print(f"{'k':>2} {'algorithm':<12} {'runs':>4} {'mean s':>8} {'min s':>8} {'max s':>8} {'stddev':>7} "
          f"{'predicted':>9} {'bound':>7} {'steps':>5} {'retrans':>8}")
    for row in rows:
        for algo in ALGORITHMS:
            a = row[algo]
            print(f"{row['k']:>2} {algo:<12} {a['runs']:>4} {a['mean']:>8.2f} {a['min']:>8.2f} {a['max']:>8.2f} "
                  f"{a['stddev']:>7.3f} {a['predicted']:>9.2f} {a['lower_bound']:>7.2f} {a['steps']:>5} "
                  f"{a['tcp_retransmits']:>8.0f}")
        if "median_node_seconds" in row["all-at-once"]:
            print(f"   all-at-once: the median node finished after {row['all-at-once']['median_node_seconds']:.2f} s "
                  f"(mean over runs), the last after {row['all-at-once']['mean']:.2f} s")
        t = row["targets"]
        print(f"   OGGP/all-at-once {row['oggp_over_all_at_once']:.3f} (target <= 0.90: "
              f"{'met' if t['oggp_10pct_faster'] else 'MISSED'}), GGP/all-at-once {row['ggp_over_all_at_once']:.3f}, "
              f"OGGP/predicted {row['oggp_over_predicted']:.3f} (target within 15 %: "
              f"{'met' if t['oggp_within_15pct_of_prediction'] else 'MISSED'}), spread OGGP "
              f"{row['oggp']['spread']:.2f} s vs all-at-once {row['all-at-once']['spread']:.2f} s "
              f"({'met' if t['oggp_spread_smaller'] else 'MISSED'})")


def csv_lines(rows):
    yield "k," + ",".join(f"{a}_mean,{a}_min,{a}_max" for a in ALGORITHMS) + ",oggp_predicted,lower_bound"
    for row in rows:
        cells = [str(row["k"])]
        for algo in ALGORITHMS:
            cells += [f"{row[algo][x]:.4f}" for x in ("mean", "min", "max")]
        cells += [f"{row['oggp']['predicted']:.4f}", f"{row['oggp']['lower_bound']:.4f}"]
        yield ",".join(cells)


if __name__ == "__main__":
    run(__doc__, summarize, print_table, csv_lines)
