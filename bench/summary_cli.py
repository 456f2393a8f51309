"""What the benchmark summaries share (fig16_summary.py, drift_summary.py): their command line,
RESULTS.jsonl [--json SUMMARY.json] [--csv CHART.csv]; the runs read from it, one JSON line
each; the table printed; the summary's rows written as JSON and the chart's lines as CSV
when asked; and the statistics of a set of measured times.
"""
import argparse
import json
import statistics


def time_stats(times):
    return {"runs": len(times), "mean": statistics.fmean(times), "min": min(times), "max": max(times)}


def run(doc, summarize, print_table, csv_lines):
    """summarize(runs) -> rows; print_table(rows); csv_lines(rows) -> the CSV's lines."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results")
    parser.add_argument("--json")
    parser.add_argument("--csv")
    args = parser.parse_args()
    with open(args.results) as f:
        runs = [json.loads(line) for line in f if line.strip()]
    rows = summarize(runs)
    print_table(rows)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
            f.write("\n")
    if args.csv:
        with open(args.csv, "w") as f:
            f.writelines(line + "\n" for line in csv_lines(rows))
