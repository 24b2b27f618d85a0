#!/usr/bin/env python3
"""bench: run the steps of one part (or of every part in turn) at their reference sizes on this
machine's GPU and write book/results/<gpu>/<part>.csv for each part: metadata lines
("# key: value"), then one CSV row per measurement.

Each part is one run: it measures the yardsticks itself (gpu_info's rows come first in every
part's file), so the percentages of a part's tables all come from one process-sequence on one GPU.
The runs come from build/bench_manifest.tsv, which add_chapter(... BENCH "<args>") fills.

Every program checks its own results; if any run of a part fails or prints a row that is not
"ok", that part's file is not written and its previous file stays as it was (the other parts go
on; the exit code is then 1). Each file is replaced atomically (write, then rename) as soon as its
part finishes. The file also records how long each run took (# run_seconds), which the next bench
uses to estimate the time left.

  bench.py --build-dir build --results-dir book/results                     every part in turn
  bench.py --build-dir build --results-dir book/results --part reduction    one part
  bench.py ... --only reduce9      the runs whose step name contains "reduce9", written into the
                                   build directory (build/bench-only/<gpu>/<part>.csv), never into
                                   the results directory
  bench.py ... --part-time-limit 290   a part still running after 290 s fails (its running program
                                   is stopped), so a part fits a machine's command limit
  bench.py ... --device 1          measure on the second GPU of this machine (named in the
                                   results' "# device:" line)

While a part runs, the rows so far are kept in build/bench-partial/<gpu>/<part>.csv (with a
"# partial:" line), rewritten after every run and removed when the part's file is written: a part
that fails or is stopped (by the time limit, or by whatever ran the bench) leaves what it measured
there, for diagnosis. It is never a results file.

A step that exits with 78 (its one idea is a feature this GPU or this build lacks, such as bulk
copies before Hopper) is reported as "not available on this GPU" and leaves no rows; the part's
file names it in "# not_available:" and is still written.

Exit codes: 0 written, 1 a run failed, 2 bad usage, 77 no CUDA device.
"""
import argparse
import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time


# A step's exit code when its one idea is a feature this GPU or build lacks (common/exit_codes.hpp).
NOT_AVAILABLE = 78


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


def built_for(build_dir):
    """The build's CMAKE_CUDA_ARCHITECTURES ("75-virtual;90": an older GPU runs the compute_75
    PTX, the portable paths), from its CMakeCache.txt; "unknown" without one."""
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CMAKE_CUDA_ARCHITECTURES:"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


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


def read_manifest(path):
    """[(part, step, args)] in the order of the add_chapter() calls; parts in first-seen order."""
    runs = []
    with open(path) as f:
        for line in f:
            if line.strip():
                part, step, step_args = (line.rstrip("\n").split("\t") + [""])[:3]
                runs.append((part, step, step_args))
    return runs


def run_key(step, step_args):
    return f"{step} {step_args}".strip()


def previous_run_seconds(path):
    """{run key: seconds} from a previous results file's `# run_seconds:` line ({} if none)."""
    try:
        with open(path) as f:
            for line in f:
                if not line.startswith("#"):
                    break
                if line.startswith("# run_seconds:"):
                    return {str(k): float(v) for k, v in
                            json.loads(line.split(":", 1)[1]).items()}
    except (OSError, ValueError, AttributeError):
        pass
    return {}


def fmt_seconds(s):
    s = int(round(s))
    return f"{s // 60} min {s % 60:02d} s" if s >= 60 else f"{s} s"


def write_atomically(path, metadata, header, rows):
    out_dir = os.path.dirname(path)
    os.makedirs(out_dir, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=out_dir, prefix=".bench-", suffix=".csv")
    with os.fdopen(fd, "w") as f:
        for key, value in metadata.items():
            f.write(f"# {key}: {value}\n")
        f.write(header + "\n")
        for row in rows:
            f.write(row + "\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


def part_metadata(metadata, part, started, seconds):
    meta = dict(metadata)
    meta["date"] = datetime.datetime.fromtimestamp(started, datetime.timezone.utc).strftime(
        "%Y-%m-%dT%H:%M:%SZ")
    meta["part"] = part
    meta["bench_seconds"] = f"{time.time() - started:.0f}"
    meta["run_seconds"] = json.dumps(seconds, separators=(",", ":"))
    return meta


def bench_part(part, runs, bindir, gpu_info, metadata, path, partial_path, time_limit=None):
    """Runs one part (its yardsticks first) and writes its file; keeps the rows so far in
    partial_path while it runs. Returns (ok, seconds)."""
    runs = [("yardstick", "gpu_info", "")] + runs
    before = previous_run_seconds(path)
    header, rows, seconds, started = None, [], {}, time.time()
    not_available = []  # steps that exited with NOT_AVAILABLE: no rows, named in the metadata
    print(f"bench: part {part}: {len(runs)} runs"
          + (f", about {fmt_seconds(sum(before.get(run_key(s, a), 0) for _, s, a in runs))} "
             "by the previous results" if before else ""), flush=True)
    for i, (_, step, step_args) in enumerate(runs, 1):
        cmd = [os.path.join(bindir, step)] + shlex.split(step_args) + ["--format", "csv"]
        print(f"[{part} {i}/{len(runs)}] {step} {step_args}".rstrip(), end=" ... ", flush=True)
        t0 = time.time()
        kept = (f"; the rows of its {i - 1} earlier run(s) are in {partial_path}"
                if rows else "")
        try:
            timeout = None if time_limit is None else max(1.0, time_limit - (t0 - started))
            r = run(cmd, timeout=timeout)
        except subprocess.TimeoutExpired:
            print(f"STOPPED at the part's time limit ({fmt_seconds(time_limit)})")
            print(f"bench: part {part} ran past --part-time-limit; {path} not written (the "
                  f"previous file, if any, is untouched){kept}", file=sys.stderr)
            return False, time.time() - started
        if r.returncode == NOT_AVAILABLE:  # the step's idea needs what this GPU or build lacks
            print("not available on this GPU: " + r.stderr.strip().splitlines()[-1]
                  if r.stderr.strip() else "not available on this GPU", flush=True)
            not_available.append(step)
            continue
        h, got = csv_rows(r.stdout)
        bad = [row for row in got if not row.endswith(",ok")]
        if r.returncode != 0 or bad or not got:
            print(f"FAILED (exit {r.returncode})")
            print(r.stdout + r.stderr, file=sys.stderr)
            print(f"bench: a run of part {part} failed; {path} not written (the previous file, "
                  f"if any, is untouched){kept}", file=sys.stderr)
            return False, time.time() - started
        header = header or h
        rows += got
        took = time.time() - t0
        seconds[run_key(step, step_args)] = round(took, 1)
        left = [run_key(s, a) for _, s, a in runs[i:]]
        known = [before[k] for k in left if k in before]
        eta = ""
        if left and known:
            eta = f", about {fmt_seconds(sum(known))} left" + \
                  ("" if len(known) == len(left) else f" (+{len(left) - len(known)} runs not timed before)")
        print(f"ok, {len(got)} rows, {took:.1f} s{eta}", flush=True)
        partial = part_metadata(metadata, part, started, seconds)
        partial["partial"] = (f"{i} of {len(runs)} runs; NOT a results file (bench.py keeps "
                              "the rows so far here while the part runs)")
        write_atomically(partial_path, partial, header, rows)
    total = time.time() - started
    meta = part_metadata(metadata, part, started, seconds)
    if not_available:
        meta["not_available"] = " ".join(sorted(set(not_available)))
    write_atomically(path, meta, header, rows)
    if os.path.exists(partial_path):
        os.remove(partial_path)
    print(f"bench: part {part}: {len(rows)} rows in {fmt_seconds(total)} -> {path}", flush=True)
    return True, total


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--results-dir", required=True,
                    help="where <gpu>/<part>.csv go (book/results)")
    ap.add_argument("--source-dir", default=".")
    ap.add_argument("--part", action="append", default=[],
                    help="measure this part only (repeatable; default: every part in turn)")
    ap.add_argument("--only", help="run only steps whose name contains this; writes into the "
                    "build directory, never into the results directory")
    ap.add_argument("--part-time-limit", type=float, metavar="SECONDS",
                    help="a part still running after this long fails (its program is stopped)")
    ap.add_argument("--device", type=int, metavar="N",
                    help="measure on CUDA device N (of those visible) instead of device 0: the "
                    "programs then see only that device; the results name it (# device:)")
    args = ap.parse_args()

    bindir = os.path.join(args.build_dir, "bin")
    manifest = os.path.join(args.build_dir, "bench_manifest.tsv")
    if not os.path.exists(manifest):
        print(f"bench: {manifest} not found: configure and build first", file=sys.stderr)
        return 2
    all_runs = read_manifest(manifest)
    parts = []
    for part, _, _ in all_runs:
        if part not in parts:
            parts.append(part)
    unknown = [p for p in args.part if p not in parts]
    if unknown:
        print(f"bench: unknown part {', '.join(unknown)}; the parts are: {', '.join(parts)}",
              file=sys.stderr)
        return 2
    chosen = [p for p in parts if p in args.part] if args.part else parts
    if args.part_time_limit is not None and args.part_time_limit <= 0:
        print(f"bench: --part-time-limit {args.part_time_limit:g}: must be more than 0 seconds",
              file=sys.stderr)
        return 2

    if args.device is not None:
        if args.device < 0:
            print(f"bench: --device {args.device}: must be 0 or more", file=sys.stderr)
            return 2
        # Every program uses device 0: show it only device N (counted among those visible now).
        visible = os.environ.get("CUDA_VISIBLE_DEVICES")
        ids = [v.strip() for v in visible.split(",")] if visible else None
        if ids is not None and args.device >= len(ids):
            print(f"bench: --device {args.device}: only {len(ids)} device(s) are visible "
                  f"(CUDA_VISIBLE_DEVICES={visible})", file=sys.stderr)
            return 2
        os.environ["CUDA_VISIBLE_DEVICES"] = ids[args.device] if ids else str(args.device)

    gpu_info = os.path.join(bindir, "gpu_info")
    if run([gpu_info, "--check"]).returncode != 0:
        if args.device is not None:
            print(f"bench: no CUDA device {args.device} here", file=sys.stderr)
            return 77
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
        "date": "",  # each part's own start, filled in by bench_part()
        "host_cpu": cpu_model(),
        "host_cores": str(os.cpu_count()),
    })
    metadata["cuda_architectures"] = built_for(args.build_dir)
    if args.device is not None:
        metadata["device"] = (f"{args.device} (CUDA_VISIBLE_DEVICES="
                              f"{os.environ['CUDA_VISIBLE_DEVICES']})")

    out_dir = (os.path.join(args.build_dir, "bench-only") if args.only else args.results_dir)
    failed, times = [], []
    for part in chosen:
        runs = [r for r in all_runs if r[0] == part and (not args.only or args.only in r[1])]
        if not runs:
            continue
        ok, seconds = bench_part(part, runs, bindir, gpu_info, metadata,
                                 os.path.join(out_dir, slug, f"{part}.csv"),
                                 os.path.join(args.build_dir, "bench-partial", slug,
                                              f"{part}.csv"), args.part_time_limit)
        times.append((part, seconds, ok))
        if not ok:
            failed.append(part)
    for part, seconds, ok in times:
        print(f"bench: {part:<12} {fmt_seconds(seconds):>12}  {'written' if ok else 'FAILED'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
