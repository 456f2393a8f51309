#!/usr/bin/env python3
"""README.md's commands work as written after its first command.

    readme_commands_test.py SOURCE_DIR BUILD_DIR [--without-bench]

The README's commands are its ```sh blocks' lines and its inline code that starts with a
program (scripts/, bench/, build/, sudo). The first must be `scripts/setup.sh &&
scripts/run.sh`. Every build/release/PROGRAM they name must be one that scripts/run.sh
builds (its `--target` list) and exist at the same place in BUILD_DIR (so the path is
right; with --without-bench, BUILD_DIR was configured without the benchmarks, and only
the other programs must be there); every scripts/ or bench/ program they run must exist
and be executable; the offline planning example runs (on BUILD_DIR's batonctl) and prints
a plan.
"""
import json
import os
import re
import shlex
import subprocess
import sys


def readme_commands(text):
    commands = []
    in_sh = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_sh = line.strip() == "```sh"
            continue
        if in_sh:
            commands.append(line.split("  #")[0].strip())
        else:
            for span in re.findall(r"`([^`]+)`", line):
                if re.match(r"(sudo )?(scripts|bench|build)/", span):
                    commands.append(span)
    return [c for c in commands if c]


def run_sh_targets(source):
    text = open(os.path.join(source, "scripts/run.sh")).read().replace("\\\n", " ")
    match = re.search(r"cmake --build build/release[^\n]*--target ([^\n]+)", text)
    if not match:
        sys.exit("scripts/run.sh: no `cmake --build build/release ... --target` line found")
    return set(match.group(1).split())


def main(source, build, with_bench):
    errors = []
    commands = readme_commands(open(os.path.join(source, "README.md")).read())
    if not commands or commands[0] != "scripts/setup.sh && scripts/run.sh":
        errors.append(f"the README's first command is {commands[:1]}, not `scripts/setup.sh && scripts/run.sh`")
    targets = run_sh_targets(source)
    for command in commands:
        for word in shlex.split(command.replace("|", " | ").replace("&&", " && ")):
            if word.startswith("build/release/"):
                program = word[len("build/release/"):]
                if os.path.basename(program) not in targets:
                    errors.append(f"`{command}`: scripts/run.sh does not build {os.path.basename(program)}")
                if (with_bench or not program.startswith("bench/")) and not os.access(
                        os.path.join(build, program), os.X_OK):
                    errors.append(f"`{command}`: no program {program} in a build tree ({build})")
            elif word.startswith("/usr/bin/") and not os.access(word, os.X_OK):
                errors.append(f"`{command}`: {word} is not installed (scripts/setup.sh must install it)")
            elif re.match(r"(scripts|bench)/[\w./-]+\.(sh|py)$", word):
                if not os.access(os.path.join(source, word), os.X_OK):
                    errors.append(f"`{command}`: {word} is not an executable file of the repository")
    planning = [c for c in commands if "batonctl plan" in c]
    if not planning:
        errors.append("no `batonctl plan` example in the README")
    for command in planning:
        shell = command.replace("build/release/", build.rstrip("/") + "/")
        result = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=60)
        try:
            ok = result.returncode == 0 and "steps" in json.loads(result.stdout)
        except json.JSONDecodeError:
            ok = False
        if not ok:
            errors.append(f"`{command}` failed ({result.returncode}): {result.stderr.strip()}")
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        sys.exit(1)
    print(f"ok: {len(commands)} README commands; every program they name is built by scripts/run.sh")


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or sys.argv[3:] not in ([], ["--without-bench"]):
        sys.exit("usage: readme_commands_test.py SOURCE_DIR BUILD_DIR [--without-bench]")
    main(sys.argv[1], sys.argv[2], sys.argv[3:] == [])
