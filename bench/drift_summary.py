#!/usr/bin/env python3
"""Summarizes bench/drift.sh's runs (one JSON line each) per scenario and variant.

  drift_summary.py RESULTS.jsonl [--json SUMMARY.json] [--csv CHART.csv]

Prints a table and the issue's targets: the job that re-plans within 10 % of the one planned
right from the start, and faster than the one that keeps its plan. Means over the repeats.
The CSV has one row per scenario for bench/drift.gp.
"""
import statistics
import sys

from summary_cli import run, time_stats

VARIANTS = ("keep", "replan", "right")
SCENARIOS = ("half", "double")


def summarize(runs):
    out = []
    for scenario in [s for s in SCENARIOS if any(r["scenario"] == s for r in runs)]:
        row = {"scenario": scenario}
        for variant in VARIANTS:
            mine = [r for r in runs if r["scenario"] == scenario and r["variant"] == variant]
            if not mine:
                sys.exit(f"drift_summary.py: no run of {variant} in scenario {scenario}")
            times = [r["measured_seconds"] for r in mine]
            row[variant] = {**time_stats(times),
                            "predicted": statistics.fmean(r["predicted_seconds"] for r in mine),
                            "steps": statistics.fmean(r["steps"] for r in mine),
                            "k": mine[0]["k"],
                            "replans": statistics.fmean(len(r["replans"]) for r in mine),
                            "new_k": sorted({p["new"]["k"] for r in mine for p in r["replans"] if p.get("new")})}
        keep, replan, right = (row[v]["mean"] for v in VARIANTS)
        row["replan_over_right"] = replan / right
        row["replan_over_keep"] = replan / keep
        row["targets"] = {"replan_within_10pct_of_right": row["replan_over_right"] <= 1.10,
                          "replan_faster_than_keep": replan < keep}
        out.append(row)
    return out


def print_table(rows):
    print(f"{'scenario':<8} {'variant':<7} {'runs':>4} {'mean s':>8} {'min s':>8} {'max s':>8} {'predicted':>9} "
          f"{'steps':>6} {'k':>8} {'re-plans':>8} {'new k':>6}")
    for row in rows:
        for v in VARIANTS:
            a = row[v]
            print(f"{row['scenario']:<8} {v:<7} {a['runs']:>4} {a['mean']:>8.2f} {a['min']:>8.2f} {a['max']:>8.2f} "
                  f"{a['predicted']:>9.2f} {a['steps']:>6.1f} {'+'.join(map(str, a['k'])):>8} {a['replans']:>8.1f} "
                  f"{','.join(map(str, a['new_k'])) or '-':>6}")
        t = row["targets"]
        print(f"   replan/right {row['replan_over_right']:.3f} (target <= 1.10: "
              f"{'met' if t['replan_within_10pct_of_right'] else 'MISSED'}), replan/keep {row['replan_over_keep']:.3f} "
              f"(target < 1: {'met' if t['replan_faster_than_keep'] else 'MISSED'})")


def csv_lines(rows):
    yield "scenario,keep,keep_min,keep_max,replan,replan_min,replan_max,right,right_min,right_max"
    for row in rows:
        label = {"half": "backbone to D/2", "double": "backbone to 2D"}[row["scenario"]]
        yield label + "".join(f",{row[v]['mean']:.3f},{row[v]['min']:.3f},{row[v]['max']:.3f}" for v in VARIANTS)


if __name__ == "__main__":
    run(__doc__, summarize, print_table, csv_lines)
