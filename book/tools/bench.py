#!/usr/bin/env python3
"""bench: run every step program at its reference sizes on this machine's GPU and write
book/results/<gpu>.csv: metadata lines ("# key: value"), then one CSV row per measurement.

The runs come from build/bench_manifest.tsv, which add_chapter(... BENCH "<args>") fills. Every
program checks its own results; if any run fails or any row is not "ok", nothing is written and
the previous results file stays as it was. The file is replaced atomically (write, then rename).

Exit codes: 0 written, 1 a run failed, 2 bad usage, 77 no CUDA device.
"""
import argparse
import datetime
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def git_commit(source_dir):
    if os.environ.get("BOOK_GIT_COMMIT"):  # a copy of the tree without .git (a remote GPU box)
        return os.environ["BOOK_GIT_COMMIT"]
    r = run(["git", "-C", source_dir, "rev-parse", "HEAD"])
    if r.returncode != 0:
        return "unknown"
    dirty = run(["git", "-C", source_dir, "status", "--porcelain", "--untracked-files=no"])
    return r.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def csv_rows(stdout):
    """The data rows of a program's --format csv output, and its header."""
    header, rows = None, []
    for line in stdout.splitlines():
        if line.startswith("part,step,"):
            header = line
        elif line.strip():
            rows.append(line)
    return header, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--results-dir", required=True)
    ap.add_argument("--source-dir", default=".")
    ap.add_argument("--only", help="run only steps whose name contains this; writes into the "
                    "build directory, never into the results directory")
    args = ap.parse_args()

    bindir = os.path.join(args.build_dir, "bin")
    manifest = os.path.join(args.build_dir, "bench_manifest.tsv")
    if not os.path.exists(manifest):
        print(f"bench: {manifest} not found: configure and build first", file=sys.stderr)
        return 2
    gpu_info = os.path.join(bindir, "gpu_info")
    if run([gpu_info, "--check"]).returncode != 0:
        print("bench: no CUDA device here; the committed results are kept", file=sys.stderr)
        return 77

    meta = run([gpu_info, "--metadata"])
    metadata = {}
    for line in meta.stdout.splitlines():
        if ": " in line and not line.startswith(("gpu_info on", "gpu_info ")):
            key, value = line.split(": ", 1)
            metadata[key.strip()] = value.strip()
    slug = metadata.pop("results_name", "unknown-gpu")
    metadata.update({
        "git_commit": git_commit(args.source_dir),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "host_cpu": cpu_model(),
        "host_cores": str(os.cpu_count()),
    })

    runs = [("yardstick", "gpu_info", "")]
    with open(manifest) as f:
        for line in f:
            if line.strip():
                part, step, step_args = (line.rstrip("\n").split("\t") + [""])[:3]
                runs.append((part, step, step_args))
    if args.only:
        runs = [r for r in runs if args.only in r[1] or r[1] == "gpu_info"]

    header, rows, started = None, [], time.time()
    for i, (part, step, step_args) in enumerate(runs, 1):
        cmd = [os.path.join(bindir, step)] + shlex.split(step_args) + ["--format", "csv"]
        print(f"[{i}/{len(runs)}] {step} {step_args}".rstrip(), end=" ... ", flush=True)
        t0 = time.time()
        r = run(cmd)
        h, got = csv_rows(r.stdout)
        bad = [row for row in got if not row.endswith(",ok")]
        if r.returncode != 0 or bad or not got:
            print(f"FAILED (exit {r.returncode})")
            print(r.stdout + r.stderr, file=sys.stderr)
            print("bench: a run failed; results not written", file=sys.stderr)
            return 1
        header = header or h
        rows += got
        print(f"ok, {len(got)} rows, {time.time() - t0:.1f} s", flush=True)

    out_dir = args.results_dir if not args.only else args.build_dir
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"{slug}.csv")
    fd, tmp = tempfile.mkstemp(dir=out_dir, prefix=".bench-", suffix=".csv")
    with os.fdopen(fd, "w") as f:
        for key, value in metadata.items():
            f.write(f"# {key}: {value}\n")
        f.write(header + "\n")
        for row in rows:
            f.write(row + "\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
    print(f"bench: {len(rows)} rows in {time.time() - started:.0f} s -> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
