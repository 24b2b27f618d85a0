#!/usr/bin/env python3
"""bench_test.py: host tests of book/tools/bench.py with fake programs (no GPU needed).

1. `--part intro` writes <results>/<gpu>/intro.csv only: metadata lines (the GPU, the part, the
   commit, the date, the run times), the part's own yardstick rows, one header, the part's rows,
   progress lines with the part and [i/N], and no temporary file.
2. A second run estimates the time left from the first run's times.
3. A run of a part where one program fails (or prints a row that is not "ok") exits 1 and leaves
   that part's previous file byte for byte as it was.
4. The plain run (every part in turn) writes each part's file as soon as that part finishes: when
   the second part fails, the first part's file is already written, the second's is untouched, and
   the per-part times are printed at the end.
5. `--only` writes into the build directory, never into the results directory.
6. An unknown part is bad usage (exit 2); without a CUDA device bench exits 77 and writes nothing.
7. While a part runs its rows so far are kept in build/bench-partial/<gpu>/<part>.csv, removed when
   the part's file is written; a part that runs past --part-time-limit is stopped, exits 1, leaves
   its previous file untouched and its earlier rows in the partial file.
"""
import os
import stat
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "..", "tools", "bench.py")
HEADER = "part,step,variant,type,n,rows,cols,bytes,reps,median_ms,min_ms,max_ms,gbps," \
         "copy_gbps,read_gbps,pct_copy,pct_read,peer,peer_gbps,pct_peer,check"


def write_program(path, body):
    with open(path, "w") as f:
        f.write("#!/usr/bin/env bash\n" + body + "\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)


def good_step(part, name):
    return f"""
echo "{HEADER}"
echo "{part},{name},$2,float,16,0,0,128,30,1,1,1,1,1,1,100,100,,0,0,ok"
"""


def make_build(root, device=True, step_a=None, step_b=None):
    bindir = os.path.join(root, "bin")
    os.makedirs(bindir)
    write_program(os.path.join(bindir, "gpu_info"), f"""
case "$1" in
  --check) exit {0 if device else 77} ;;
  --metadata) echo "gpu: Fake GPU"; echo "sm_count: 4"; echo "results_name: fake-gpu"; exit 0 ;;
esac
echo "{HEADER}"
echo "yardstick,memcpy_d2d,,float,16,0,0,128,30,1,1,1,1,1,1,100,100,,0,0,ok"
""")
    write_program(os.path.join(bindir, "step_a"), step_a or good_step("intro", "step_a"))
    write_program(os.path.join(bindir, "step_b"), step_b or good_step("reduction", "step_b"))
    with open(os.path.join(root, "bench_manifest.tsv"), "w") as f:
        f.write("intro\tstep_a\t--n 1\nintro\tstep_a\t--n 2\nreduction\tstep_b\t--n 3\n")


def run_bench(build, results, *extra):
    env = dict(os.environ, BOOK_GIT_COMMIT="0123abc")
    return subprocess.run([sys.executable, BENCH, "--build-dir", build, "--results-dir", results]
                          + list(extra), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, env=env)


def read(path):
    return open(path).read() if os.path.exists(path) else ""


def main():
    failures = []

    def expect(condition, what):
        if not condition:
            failures.append(what)

    # 1, 2: one part
    with tempfile.TemporaryDirectory() as tmp:
        build, results = os.path.join(tmp, "build"), os.path.join(tmp, "results")
        make_build(build)
        r = run_bench(build, results, "--part", "intro")
        expect(r.returncode == 0, f"--part intro exits 0 (got {r.returncode}):\n{r.stdout}")
        path = os.path.join(results, "fake-gpu", "intro.csv")
        lines = read(path).splitlines()
        expect("# gpu: Fake GPU" in lines, "metadata: gpu")
        expect("# part: intro" in lines, "metadata: part")
        expect("# git_commit: 0123abc" in lines, "metadata: git commit")
        expect("# cuda_architectures: unknown" in lines, "metadata: what the programs were built for")
        expect(any(l.startswith("# date: 20") for l in lines), "metadata: date")
        expect(any(l.startswith("# run_seconds: {") for l in lines), "metadata: run times")
        expect(lines.count(HEADER) == 1, "exactly one header")
        expect(sum(1 for l in lines if l.startswith("yardstick,")) == 1, "the part's yardstick row")
        expect(sum(1 for l in lines if l.startswith("intro,step_a,")) == 2, "the part's two rows")
        expect(not any(l.startswith("reduction,") for l in lines), "no row of another part")
        expect(os.listdir(results) == ["fake-gpu"] and os.listdir(os.path.dirname(path)) ==
               ["intro.csv"], f"only intro.csv written: {os.listdir(os.path.dirname(path))}")
        expect("[intro 2/3] step_a --n 1 ... ok, 1 rows" in r.stdout,
               f"progress shows the part, [i/N], the step and its arguments:\n{r.stdout}")
        r = run_bench(build, results, "--part", "intro")
        expect("left" in r.stdout and "by the previous results" in r.stdout,
               f"the second run estimates the time left from the first:\n{r.stdout}")

    # 3: a failing run of a part leaves that part's previous file untouched
    for name, body in (("a failing program", "exit 1"),
                       ("a WRONG row", f'echo "{HEADER}"\necho "intro,step_a,,float,16,0,0,128,30,'
                                       f'1,1,1,1,1,1,100,100,,0,0,WRONG"')):
        with tempfile.TemporaryDirectory() as tmp:
            build, results = os.path.join(tmp, "build"), os.path.join(tmp, "results")
            make_build(build, step_a=body)
            gpu_dir = os.path.join(results, "fake-gpu")
            os.makedirs(gpu_dir)
            previous = os.path.join(gpu_dir, "intro.csv")
            with open(previous, "w") as f:
                f.write("# the previous results\n")
            r = run_bench(build, results, "--part", "intro")
            expect(r.returncode == 1, f"{name}: exit 1 (got {r.returncode})")
            expect(read(previous) == "# the previous results\n",
                   f"{name}: the previous file is untouched")
            expect(os.listdir(gpu_dir) == ["intro.csv"], f"{name}: nothing else written")

    # 4: every part in turn; the second fails after the first was written
    with tempfile.TemporaryDirectory() as tmp:
        build, results = os.path.join(tmp, "build"), os.path.join(tmp, "results")
        make_build(build, step_b="exit 1")
        gpu_dir = os.path.join(results, "fake-gpu")
        os.makedirs(gpu_dir)
        with open(os.path.join(gpu_dir, "reduction.csv"), "w") as f:
            f.write("# the previous reduction results\n")
        r = run_bench(build, results)
        expect(r.returncode == 1, f"all parts, one failing: exit 1 (got {r.returncode})")
        expect("intro,step_a," in read(os.path.join(gpu_dir, "intro.csv")),
               "all parts: the first part is written although a later one fails")
        expect(read(os.path.join(gpu_dir, "reduction.csv")) ==
               "# the previous reduction results\n", "all parts: the failed part is untouched")
        expect("bench: intro" in r.stdout and "written" in r.stdout and "FAILED" in r.stdout,
               f"all parts: each part's time and outcome printed at the end:\n{r.stdout}")
        partial = read(os.path.join(build, "bench-partial", "fake-gpu", "reduction.csv"))
        expect("# partial: 1 of 2 runs" in partial and "yardstick,memcpy_d2d" in partial,
               f"all parts: the failed part's rows so far are in its partial file:\n{partial}")
        expect(not os.path.exists(os.path.join(build, "bench-partial", "fake-gpu", "intro.csv")),
               "all parts: a written part leaves no partial file")
        expect(r.stdout.index("-> " + os.path.join(gpu_dir, "intro.csv")) <
               r.stdout.index("[reduction 1/2]"), "all parts: intro written before reduction runs")

    # 5: --only goes to the build directory
    with tempfile.TemporaryDirectory() as tmp:
        build, results = os.path.join(tmp, "build"), os.path.join(tmp, "results")
        make_build(build)
        r = run_bench(build, results, "--only", "step_b")
        expect(r.returncode == 0, f"--only exits 0 (got {r.returncode}):\n{r.stdout}")
        expect(not os.path.exists(results), "--only writes nothing into the results directory")
        expect(os.path.exists(os.path.join(build, "bench-only", "fake-gpu", "reduction.csv")),
               "--only writes into the build directory")
        expect(not os.path.exists(os.path.join(build, "bench-only", "fake-gpu", "intro.csv")),
               "--only: a part with no matching run is not written")

    # 6: bad usage, no device
    with tempfile.TemporaryDirectory() as tmp:
        build, results = os.path.join(tmp, "build"), os.path.join(tmp, "results")
        make_build(build)
        r = run_bench(build, results, "--part", "nosuchpart")
        expect(r.returncode == 2 and "intro, reduction" in r.stdout,
               f"unknown part: exit 2 naming the parts (got {r.returncode}):\n{r.stdout}")
    with tempfile.TemporaryDirectory() as tmp:
        build, results = os.path.join(tmp, "build"), os.path.join(tmp, "results")
        make_build(build, device=False)
        r = run_bench(build, results)
        expect(r.returncode == 77, f"no device: exit 77 (got {r.returncode})")
        expect(not os.path.exists(results), "no device: nothing written")

    # 7: --part-time-limit stops a part that runs too long; its rows so far stay in the partial file
    with tempfile.TemporaryDirectory() as tmp:
        build, results = os.path.join(tmp, "build"), os.path.join(tmp, "results")
        make_build(build, step_a=good_step("intro", "step_a").replace(
            'echo "{HEADER}"'.format(HEADER=HEADER), '[ "$2" = 2 ] && sleep 30\necho "' + HEADER + '"'))
        gpu_dir = os.path.join(results, "fake-gpu")
        os.makedirs(gpu_dir)
        with open(os.path.join(gpu_dir, "intro.csv"), "w") as f:
            f.write("# the previous results\n")
        t0 = time.time()
        r = run_bench(build, results, "--part", "intro", "--part-time-limit", "3")
        expect(r.returncode == 1 and time.time() - t0 < 20,
               f"time limit: exit 1 well before the slow run ends (got {r.returncode})")
        expect("STOPPED at the part's time limit" in r.stdout and "--part-time-limit" in r.stdout,
               f"time limit: says so:\n{r.stdout}")
        expect(read(os.path.join(gpu_dir, "intro.csv")) == "# the previous results\n",
               "time limit: the previous file is untouched")
        partial = read(os.path.join(build, "bench-partial", "fake-gpu", "intro.csv"))
        expect("# partial: 2 of 3 runs" in partial and "intro,step_a,--n,float" not in partial
               and partial.count("intro,step_a,") == 1,
               f"time limit: the rows before the slow run are in the partial file:\n{partial}")
        r = run_bench(build, results, "--part", "intro", "--part-time-limit", "0")
        expect(r.returncode == 2, f"time limit 0: bad usage (got {r.returncode})")

    # 8: a step whose idea this GPU lacks (exit 78) is named, leaves no rows, and the part is written
    with tempfile.TemporaryDirectory() as tmp:
        build, results = os.path.join(tmp, "build"), os.path.join(tmp, "results")
        make_build(build, step_b='echo "step_b: not available on this GPU: needs bulk copies '
                                 '(sm_90); skipped, exit 78" >&2\nexit 78')
        r = run_bench(build, results, "--part", "reduction")
        expect(r.returncode == 0, f"not available: exit 0 (got {r.returncode}):\n{r.stdout}")
        expect("not available on this GPU" in r.stdout, f"not available: says so:\n{r.stdout}")
        text = read(os.path.join(results, "fake-gpu", "reduction.csv"))
        expect("# not_available: step_b" in text and "reduction,step_b," not in text
               and "yardstick," in text,
               f"not available: named in the metadata, no rows, yardsticks kept:\n{text}")

    # 9: --device N shows the programs only device N and names it in the metadata
    with tempfile.TemporaryDirectory() as tmp:
        build, results = os.path.join(tmp, "build"), os.path.join(tmp, "results")
        make_build(build, step_a=good_step("intro", "step_a").replace(
            'echo "{HEADER}"'.format(HEADER=HEADER),
            '[ "$CUDA_VISIBLE_DEVICES" = 1 ] || exit 1\necho "' + HEADER + '"'))
        r = run_bench(build, results, "--part", "intro", "--device", "1")
        expect(r.returncode == 0, f"--device 1: exit 0 (got {r.returncode}):\n{r.stdout}")
        text = read(os.path.join(results, "fake-gpu", "intro.csv"))
        expect("# device: 1 (CUDA_VISIBLE_DEVICES=1)" in text,
               f"--device 1: named in the metadata:\n{text}")
        r = run_bench(build, results, "--part", "intro", "--device", "-1")
        expect(r.returncode == 2, f"--device -1: bad usage (got {r.returncode})")

    for f in failures:
        print("FAIL:", f)
    print(f"bench_test: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
