#!/usr/bin/env python3
"""bench_test.py: host tests of book/tools/bench.py with fake programs (no GPU needed).

1. A run where every program succeeds writes <results>/<gpu>.csv: metadata lines, one header,
   every row, and nothing else is left in the results directory.
2. A run where one program fails (or prints a row that is not "ok") exits 1 and leaves the
   previous results file byte for byte as it was.
3. Without a CUDA device bench exits 77 and writes nothing.
"""
import os
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(HERE, "..", "tools", "bench.py")
HEADER = "part,step,variant,type,n,rows,cols,bytes,reps,median_ms,min_ms,max_ms,gbps," \
         "copy_gbps,read_gbps,pct_copy,pct_read,peer,peer_gbps,pct_peer,check"


def write_program(path, body):
    with open(path, "w") as f:
        f.write("#!/usr/bin/env bash\n" + body + "\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)


def make_build(root, device=True, step_body=None):
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
    write_program(os.path.join(bindir, "step_a"), step_body or f"""
echo "{HEADER}"
echo "intro,step_a,$2,float,16,0,0,128,30,1,1,1,1,1,1,100,100,,0,0,ok"
""")
    with open(os.path.join(root, "bench_manifest.tsv"), "w") as f:
        f.write("intro\tstep_a\t--n 1\nintro\tstep_a\t--n 2\n")


def run_bench(build, results):
    env = dict(os.environ, BOOK_GIT_COMMIT="0123abc")
    return subprocess.run([sys.executable, BENCH, "--build-dir", build, "--results-dir", results],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)


def main():
    failures = []

    def expect(condition, what):
        if not condition:
            failures.append(what)

    with tempfile.TemporaryDirectory() as tmp:
        build, results = os.path.join(tmp, "build"), os.path.join(tmp, "results")
        make_build(build)
        r = run_bench(build, results)
        expect(r.returncode == 0, f"a good run exits 0 (got {r.returncode}):\n{r.stdout}")
        path = os.path.join(results, "fake-gpu.csv")
        text = open(path).read() if os.path.exists(path) else ""
        lines = text.splitlines()
        expect("# gpu: Fake GPU" in lines, "metadata: gpu")
        expect("# git_commit: 0123abc" in lines, "metadata: git commit")
        expect(any(l.startswith("# date: ") for l in lines), "metadata: date")
        expect(lines.count(HEADER) == 1, "exactly one header")
        expect(sum(1 for l in lines if l.endswith(",ok")) == 3, "yardstick row + two step rows")
        expect(os.listdir(results) == ["fake-gpu.csv"], f"no temporary files left: {os.listdir(results)}")
        expect("[2/3] step_a --n 1" in r.stdout, "progress is shown")

    for name, body in (("a failing program", "exit 1"),
                       ("a WRONG row", f'echo "{HEADER}"\necho "intro,step_a,,float,16,0,0,128,30,'
                                       f'1,1,1,1,1,1,100,100,,0,0,WRONG"')):
        with tempfile.TemporaryDirectory() as tmp:
            build, results = os.path.join(tmp, "build"), os.path.join(tmp, "results")
            make_build(build, step_body=body)
            os.makedirs(results)
            previous = os.path.join(results, "fake-gpu.csv")
            with open(previous, "w") as f:
                f.write("# the previous results\n")
            r = run_bench(build, results)
            expect(r.returncode == 1, f"{name}: exit 1 (got {r.returncode})")
            expect(open(previous).read() == "# the previous results\n",
                   f"{name}: the previous file is untouched")
            expect(os.listdir(results) == ["fake-gpu.csv"], f"{name}: nothing else written")

    with tempfile.TemporaryDirectory() as tmp:
        build, results = os.path.join(tmp, "build"), os.path.join(tmp, "results")
        make_build(build, device=False)
        r = run_bench(build, results)
        expect(r.returncode == 77, f"no device: exit 77 (got {r.returncode})")
        expect(not os.path.exists(results), "no device: nothing written")

    for f in failures:
        print("FAIL:", f)
    print(f"bench_test: {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
