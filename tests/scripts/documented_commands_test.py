#!/usr/bin/env python3
"""The documented command sequences that need neither root nor minutes work as written.

    documented_commands_test.py SOURCE_DIR BUILD_DIR

A sequence is a ```sh block of README.md, docs/*.md or examples/**/*.md right after the
line MARKER below: the test runs the docs' own text, so the two cannot drift apart. Each
block runs with bash -euo pipefail in a scratch checkout (every top-level entry of
SOURCE_DIR linked in) where build/release, the tree the README's first command makes, is
BUILD_DIR. A block that fails is named by file and line, with its output.
"""
import glob
import os
import subprocess
import sys
import tempfile

MARKER = "<!-- documented-commands: tests/scripts/documented_commands_test.py runs this block -->"


def marked_blocks(source):
    files = ["README.md"] + sorted(glob.glob("docs/*.md", root_dir=source)) + sorted(
        glob.glob("examples/**/*.md", root_dir=source, recursive=True))
    blocks = []
    for name in files:
        lines = open(os.path.join(source, name), encoding="utf-8").read().splitlines()
        for i, line in enumerate(lines):
            if line.strip() != MARKER:
                continue
            if i + 1 >= len(lines) or lines[i + 1].strip() != "```sh":
                sys.exit(f"{name}:{i + 1}: the marker is not followed by a ```sh block")
            end = next((j for j in range(i + 2, len(lines)) if lines[j].startswith("```")), None)
            if end is None:
                sys.exit(f"{name}:{i + 2}: the ```sh block does not end")
            blocks.append((f"{name}:{i + 3}", "\n".join(lines[i + 2:end])))
    return blocks


def scratch_checkout(source, build, where):
    for entry in os.listdir(source):
        if entry not in ("build", ".git"):
            os.symlink(os.path.join(source, entry), os.path.join(where, entry))
    os.mkdir(os.path.join(where, "build"))
    os.symlink(os.path.abspath(build), os.path.join(where, "build", "release"))


def main(source, build):
    blocks = marked_blocks(source)
    # The sequences this test was written for; fewer means a marker was lost.
    if len(blocks) < 2:
        sys.exit(f"only {len(blocks)} marked blocks in the docs; expected examples/coupled's and docs/embedding.md's")
    failed = 0
    for where, text in blocks:
        with tempfile.TemporaryDirectory(prefix="baton-documented-") as checkout:
            scratch_checkout(source, build, checkout)
            run = subprocess.run(["bash", "-euo", "pipefail", "-c", text], cwd=checkout, capture_output=True,
                                 text=True, timeout=300)
        if run.returncode != 0:
            failed += 1
            print(f"{where}: exit {run.returncode} running\n{text}\n--- output:\n{run.stdout}{run.stderr}",
                  file=sys.stderr)
        else:
            print(f"ok: {where} ({len(text.splitlines())} lines)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
