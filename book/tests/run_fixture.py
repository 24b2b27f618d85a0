#!/usr/bin/env python3
"""run_fixture: render a small copy of the book (book/tests/fixture) after one deliberate change,
and check that the book build passes or fails as it must. One CTest test per case (label book).

  run_fixture.py --list
  run_fixture.py --case NAME --work DIR [--doxygen PATH] [--gnuplot PATH]

The fixture is a part "demo" with two steps (alpha, beta), their pages, a summary page and a
results file. `good` renders it unchanged and checks what the renderer produced; every other case
breaks one thing (a snippet marker, a referenced file, a hand-typed measurement, ...) and expects
the build to fail with a message that names the problem. The `other_gpu_*` cases render the book
from a made-up reader's GPU directory (other_gpu/), beside the fixture's GPUs. Exit 0 when the case
behaves as expected.
"""
import argparse
import io
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "fixture")
BUILD_BOOK = os.path.join(os.path.dirname(HERE), "tools", "build_book.py")
BETA_MD = "chapters/demo/02_beta/beta.md"
BETA_CUH = "chapters/demo/02_beta/beta.cuh"


def append(path, text):
    def change(root):
        with open(os.path.join(root, path), "a", encoding="utf-8") as f:
            f.write("\n" + text + "\n")
    return change


def replace(path, old, new):
    def change(root):
        p = os.path.join(root, path)
        with open(p, encoding="utf-8") as f:
            text = f.read()
        assert old in text, f"{old!r} not in {path}"
        with open(p, "w", encoding="utf-8") as f:
            f.write(text.replace(old, new, 1))
    return change


def remove(path):
    return lambda root: os.remove(os.path.join(root, path))


def write(path, text):
    def change(root):
        p = os.path.join(root, path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
    return change


RESULTS = os.path.join("results", "fixture-gpu", "demo.csv")


def results_as_json(root):
    """The fixture's results file rewritten as JSON ({"metadata": {...}, "rows": [...]})."""
    import csv
    import json
    src = os.path.join(root, RESULTS)
    meta, body = {}, []
    with open(src, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                key, value = line[1:].split(":", 1)
                meta[key.strip()] = value.strip()
            else:
                body.append(line)
    rows = list(csv.DictReader(body))
    os.remove(src)
    with open(os.path.join(root, "results", "fixture-gpu", "demo.json"), "w",
              encoding="utf-8") as f:
        json.dump({"metadata": meta, "rows": rows}, f, indent=1)


def second_gpu(root, slug="newer-gpu", name="Newer GPU", part="demo"):
    """A second GPU's results of one part, measured later, with other numbers (beta at 900 GB/s
    there) and without the fixture GPU's evidence file."""
    with open(os.path.join(root, RESULTS), encoding="utf-8") as f:
        text = f.read()
    text = text.replace("# gpu: Fixture GPU", f"# gpu: {name}")
    text = text.replace("# date: 2026-01-01", "# date: 2026-06-01")
    text = text.replace("# part: demo", f"# part: {part}")
    text = text.replace("demo,beta,two_per_thread,float,16777216,0,0,134217728,30,0.100000,",
                        f"{part},beta,two_per_thread,float,16777216,0,0,134217728,30,0.149130,")
    text = text.replace(",1342.2,1677.7,1800.0,80.0,74.6,Lib,1500.0,89.5,ok",
                        ",900.0,1677.7,1800.0,53.6,50.0,Lib,1500.0,60.0,ok")
    if part != "demo":
        text = text.replace("\ndemo,", f"\n{part},")
    os.makedirs(os.path.join(root, "results", slug), exist_ok=True)
    with open(os.path.join(root, "results", slug, f"{part}.csv"), "w", encoding="utf-8") as f:
        f.write(text)


def git_init(root):
    """Makes the copy the root of a git checkout (one commit): check_pages then looks commits up."""
    def run(*args):
        subprocess.run(["git", "-C", root, "-c", "user.name=fixture", "-c",
                        "user.email=fixture@example.invalid", "-c", "commit.gpgsign=false",
                        *args], check=True, capture_output=True)
    run("init", "-q")
    run("add", "-A")
    run("commit", "-q", "-m", "fixture")


def results_at_head(root):
    """The fixture's results file names the commit git_init made, as the bench writes it."""
    head = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()
    path = os.path.join(root, "results", "fixture-gpu", "demo.csv")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    with open(path, "w", encoding="utf-8") as f:
        f.write(re.sub(r"(?m)^# git_commit: .*$", f"# git_commit: {head}", text))


def chain(*changes):
    def change(root):
        for c in changes:
            c(root)
    return change


# A reader's own GPU: a made-up RTX 4090 folder, kept in book/tests/other_gpu/ (never in
# book/results/), with the part demo but not its step beta (named in its `# not_available:` line,
# as the bench writes a step that exits 78) and no file for a second part, extra.
OTHER_GPU = os.path.join(HERE, "other_gpu")
RTX_4090 = "nvidia-geforce-rtx-4090"
RTX_4090_NAME = "NVIDIA GeForce RTX 4090"


def extra_part(root):
    """A second part, "extra" (one step, gamma), measured on the fixture GPU only."""
    write("chapters/extra/extra.md", "\\page part_extra Part E: A second fixture part\n\n"
          "Measured on the fixture GPU only.\n\n\\image html extra_sizes.svg \"gamma\"\n\n"
          "- \\subpage gamma\n")(root)
    write("chapters/extra/01_gamma/CMakeLists.txt", "add_chapter(gamma PART extra)\n")(root)
    write("chapters/extra/01_gamma/gamma.md", "\\page gamma gamma: one step of part E\n\n"
          "## Measured results\n\n\\htmlinclude gamma_results.html\n\n"
          "It reaches \\fact{gamma_gbps}.\n")(root)
    append("steps.tsv", "extra\tgamma\tchapters/extra/01_gamma")(root)
    with open(os.path.join(root, RESULTS), encoding="utf-8") as f:
        lines = [x for x in f if x.startswith(("#", "part,", "yardstick,"))]
    text = "".join(lines).replace("# part: demo", "# part: extra")
    text += ("extra,gamma,,float,16777216,0,0,134217728,30,0.125000,0.124000,0.126000,1073.7,"
             "1677.7,1800.0,64.0,59.7,,0.0,0.0,ok\n")
    with open(os.path.join(root, "results", "fixture-gpu", "extra.csv"), "w",
              encoding="utf-8") as f:
        f.write(text)


def reader_gpu(root):
    """The fixture's two GPUs (fixture-gpu with both parts, newer-gpu with demo) and the reader's
    made-up RTX 4090 beside them, as make_book.sh leaves book/results/ after benching it."""
    second_gpu(root)
    extra_part(root)
    shutil.copytree(os.path.join(OTHER_GPU, RTX_4090), os.path.join(root, "results", RTX_4090))


THEN_TABLE = """## Then and now

{caption}

| GPU | bandwidth then |
|---|---|
| G80 | 123 GB/s |
"""

BETA_RUNS = "chapters/demo/02_beta/beta_runs.md"
# beta's runs page (its history: commits, dead ends), listed under beta
RUNS_PAGE = chain(
    write(BETA_RUNS, "\\page beta_runs beta: runs and dead ends\n\n## First runs\n\n"
          "Two elements per thread were tried at commit 0123abc; the H200 has not run them.\n\n"
          "## Dead ends\n\nFour elements per thread were slower.\n"),
    append(BETA_MD, "The runs behind this page:\n\n- \\subpage beta_runs"))
LEARN = "## What you will learn\n\n"
PROSE = "Each thread of the kernel reads two elements and writes them back. "  # 12 words

def sweep_rows(count):
    """`count` more variants of beta at the reference size, after its default's row (its first):
    beta's table grows past the length at which a table is collapsed."""
    rows = "".join(f"demo,beta,sweep={k},float,16777216,0,0,134217728,30,0.110000,0.109000,"
                   f"0.111000,1220.2,1677.7,1800.0,72.7,67.8,Lib,1500.0,81.3,ok\n"
                   for k in range(count))

    def change(root):
        with open(os.path.join(root, RESULTS), "a", encoding="utf-8") as f:
            f.write(rows)
    return change


def zero_bandwidth(root):
    """Every step row of the fixture with 0 GB/s: nothing of the steps falls inside the size
    plot's logarithmic axis, so the plot would be empty."""
    p = os.path.join(root, RESULTS)
    with open(p, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out = []
    for line in lines:
        cells = line.split(",")
        if line.startswith("demo,") and len(cells) > 12:
            cells[12] = "0.0"
        out.append(",".join(cells))
    with open(p, "w", encoding="utf-8") as f:
        f.write("\n".join(out))


# A part generator that draws its then-and-now plot (a line with an option in generators.txt,
# an SVG on its standard output), shown on the summary with \image; a step without a "then"
# value is left out.
THEN_NOW_PLOT_PY = '''"""then_now.py RESULTS_FILE [--plot] > demo_then_now.svg

A part's plot generator (fixture): a quoted "then" beside the results file's rows ("now").
"""
import sys

import gen_results

THEN = {"alpha": 40.0, "beta": 60.0}  # % of the copy yardstick, quoted
results, options = gen_results.generator_args(sys.argv, ("--plot",))
steps = sorted(THEN)
now = []
for step in steps:
    rows = results.step_rows(step) if results else []
    now.append(gen_results.best_row(rows)["pct_copy"] if rows else None)
series = [("then", gen_results.THEN_COLOURS[0], [THEN[s] for s in steps]),
          ("now", gen_results.NOW_COLOURS[0], now)]
sys.stdout.write(gen_results.svg_text(lambda path: gen_results.grouped_hbar_plot(
    gen_results.gnuplot_command(), path, "then and now", steps, series, "% of the copy",
    gen_results.fmt_pct)))
'''
THEN_NOW_PLOT = chain(
    write("chapters/demo/tools/then_now.py", THEN_NOW_PLOT_PY),
    append("chapters/demo/tools/generators.txt", "then_now.py --plot > demo_then_now.svg"),
    append("chapters/demo/summary.md", '\\image html demo_then_now.svg "Then and now"'))


# name: (change, expected exit code, regex the output must match[, extra build_book arguments])
CASES = {
    "good": (None, 0, r"book: .*index\.html"),
    "other_csv_is_not_results": (write("results/fixture-gpu/ncu_export.csv",
                                       "ID,Kernel,Metric,Value\n1,k,x,2\n"),
                                 0, r"results from results/fixture-gpu \(Fixture GPU\): demo ok"),
    "json_results": (results_as_json, 0, r"results from results/fixture-gpu \(Fixture GPU\)"),
    # several GPUs: the named (reference) GPU's files make the pages; Appendix A compares all
    "two_gpus_reference_pages": (second_gpu, 0,
                                 r"results from results/fixture-gpu \(Fixture GPU\): demo ok",
                                 ["--gpu", "fixture-gpu"]),
    "two_gpus_render_the_second": (second_gpu, 0,
                                   r"results from results/newer-gpu \(Newer GPU\): demo ok",
                                   ["--gpu", "newer-gpu"]),
    "two_gpus_unnamed_newest": (second_gpu, 0, r"results from results/newer-gpu \(Newer GPU\)"),
    "missing_part_file": (lambda root: second_gpu(root, "other-gpu", "Other GPU", "other"), 0,
                          r"results from results/other-gpu \(Other GPU\): demo not measured",
                          ["--gpu", "other-gpu"]),
    # a reader's own GPU (book/tests/other_gpu/): its numbers on the pages, a step it cannot run
    # shown as such, a part it has no file for "not measured yet", Appendix A beside the others
    "other_gpu_own_numbers": (reader_gpu, 0,
                              r"results from results/nvidia-geforce-rtx-4090 \(NVIDIA GeForce RTX "
                              r"4090\): demo ok \(not available on this GPU: beta\), extra not "
                              r"measured", ["--gpu", RTX_4090]),
    # the same folder without its `# not_available:` line: beta is then only "not measured"
    "other_gpu_step_missing_unnamed": (chain(reader_gpu, replace(
        f"results/{RTX_4090}/demo.csv", "# not_available: beta\n", "")), 0,
        r"results from results/nvidia-geforce-rtx-4090 \(NVIDIA GeForce RTX 4090\): demo ok, "
        r"extra not measured", ["--gpu", RTX_4090]),
    # Appendix A: the newer GPU measured beta at 2^20 only, the fixture GPU at 2^24 only: no size
    # both measured, so the newer GPU's row says so instead of setting 2^20 beside 2^24
    "two_gpus_compared_alike": (chain(second_gpu, replace(
        "results/newer-gpu/demo.csv", "demo,beta,two_per_thread,float,16777216,0,0,134217728,",
        "demo,beta,two_per_thread,float,1048576,0,0,8388608,")), 0,
        r"results from results/fixture-gpu \(Fixture GPU\)", ["--gpu", "fixture-gpu"]),
    "unknown_gpu": (None, 2, r"BOOK_GPU=no-such-gpu: no directory .*GPUs with results: "
                             r"fixture-gpu", ["--gpu", "no-such-gpu"]),
    # Doxygen's side: WARN_AS_ERROR = FAIL_ON_WARNINGS
    "broken_snippet_marker": (replace(BETA_CUH, "//! [kernel]\n__global__",
                                      "//! [kernal]\n__global__"), 1,
                              r"block marked with \[kernel\].*beta\.cuh"),
    "missing_snippet_file": (remove("chapters/demo/02_beta/main.cu"), 1,
                             r"included file chapters/demo/02_beta/main\.cu is not found"),
    "missing_snippet_tag": (append(BETA_MD, "\\snippet{lineno} chapters/demo/02_beta/beta.cuh "
                                   "no_such_tag"), 1, r"no_such_tag"),
    "broken_ref": (append(BETA_MD, "See \\ref no_such_page."), 1,
                   r"unable to resolve reference to 'no_such_page'"),
    "missing_image": (append(BETA_MD, "\\image html no_such_plot.svg"), 1,
                      r"image file no_such_plot\.svg is not found"),
    "missing_htmlinclude": (append(BETA_MD, "\\htmlinclude no_such_table.html"), 1,
                            r"included file no_such_table\.html is not found"),
    "unknown_fact": (append(BETA_MD, "It reaches \\fact{no_such_fact}."), 1,
                     r"unknown command '\\fact_no_such_fact'"),
    # a page names the step its diff is taken against
    "diffbase_names_a_step": (append(BETA_MD, "\\diffbase{alpha}"), 0, r"book: .*index\.html"),
    "diffbase_unknown_step": (append(BETA_MD, "\\diffbase{no_such_step}"), 2,
                              r"beta\.md: \\diffbase\{no_such_step\} names no other step"),
    # check_pages: hand-typed measurements
    "typed_bandwidth": (append(BETA_MD, "The kernel reaches 123 GB/s on our GPU."), 1,
                        r"beta\.md:\d+: error: hand-typed measurement '123 GB/s'"),
    "typed_time": (append(BETA_MD, "One launch takes 0.5 ms."), 1,
                   r"hand-typed measurement '0\.5 ms'"),
    "typed_speedup": (append(BETA_MD, "That is 2.5x faster than alpha."), 1,
                      r"hand-typed measurement '2\.5x"),
    "typed_percent_of_peak": (append(BETA_MD, "It reaches 80% of the copy yardstick."), 1,
                              r"hand-typed measurement '80% of the copy"),
    "typed_in_unnamed_table": (append(BETA_MD, THEN_TABLE.format(caption="Measured long ago.")),
                               1, r"hand-typed measurement '123 GB/s'"),
    "then_table_naming_its_source": (append(BETA_MD, THEN_TABLE.format(
        caption="Quoted from Source 001 (G80):")), 0, r"book: .*index\.html"),
    "typed_integer_speedup": (append(BETA_MD, "A 12x speedup over the CPU; beta is 3x faster."),
                              1, r"hand-typed measurement '12x speedup(.|\n)*'3x faster"),
    "shapes_are_not_speedups": (append(BETA_MD, "A 32x32 tile of 32 x 8 threads, a 4x unrolled "
                                       "loop, 2^28 floats, 20x the L2, 2 x n x 4 bytes."),
                                0, r"book: .*index\.html"),
    # check_pages: the site never shows a solution's code
    "solution_snippet": (append(BETA_MD, "\\snippet{lineno} solutions/01_saxpy/saxpy.cuh launch"),
                         1, r"beta\.md:\d+: error: 'solutions/01_saxpy/saxpy\.cuh' is a solution"),
    # check_pages: code only from the sources
    "pasted_cpp_block": (append(BETA_MD, "```cpp\nint x = 0;\n```"), 1,
                         r"beta\.md:\d+: error: a C/C\+\+/CUDA code block"),
    "pasted_cuda_untagged": (append(BETA_MD, "```\n__global__ void k(float* p) { p[0] = 1; }\n```"),
                             1, r"a C/C\+\+/CUDA code block"),
    "pasted_code_command": (append(BETA_MD, "\\code\nint y = 1;\n\\endcode"), 1,
                            r"a C/C\+\+/CUDA code block"),
    "shell_block_is_fine": (append(BETA_MD, "```sh\nbuild/bin/beta --quick\n```"), 0,
                            r"book: .*index\.html"),
    "markdown_image": (append(BETA_MD, "![plot](demo_bandwidth.svg)"), 1,
                       r"a Markdown image is not checked by Doxygen"),
    # check_pages: every chapter has a page and every page a chapter
    "chapter_without_page": (remove(BETA_MD), 1, r"chapter beta has no page"),
    "page_without_chapter": (write("chapters/demo/03_gamma/gamma.md",
                                   "\\page gamma gamma: not registered\n"), 1,
                             r"gamma\.md:1: error: this page has no chapter"),
    "unregistered_chapter_dir": (write("chapters/demo/03_gamma/CMakeLists.txt",
                                       "add_chapter(gamma PART demo)\n"), 1,
                                 r"03_gamma/CMakeLists\.txt:1: error: this chapter directory is "
                                 r"not in the build"),
    # a part's own generator (chapters/demo/tools/rows.py, listed in its generators.txt) must
    # succeed, and a generator that is not listed (or a script outside tools/) would never run
    "failing_part_generator": (replace("chapters/demo/tools/rows.py", "import sys\n",
                                       "import sys\nsys.exit('rows.py: broken on purpose')\n"),
                               1, r"rows\.py: error: exit 1 while generating demo_rows\.html"),
    "unlisted_part_generator": (write("chapters/demo/tools/more_rows.py",
                                      '"""more_rows.py RESULTS_FILE > demo_more.html\n"""\n'), 1,
                                r"more_rows\.py: error: says it generates a page's content but is "
                                r"not listed in generators\.txt"),
    # a generator line may pass options, and a generator may write the SVG its summary shows;
    # a plot of no value at all fails the build
    "part_generator_plot": (THEN_NOW_PLOT, 0,
                            r"then_now\.py -> demo_then_now\.svg(.|\n)*book: .*index\.html"),
    "empty_part_generator_plot": (chain(THEN_NOW_PLOT, replace(
        "chapters/demo/tools/then_now.py", "steps = sorted(THEN)", "steps = []")), 1,
        r"then_now\.py: error: exit 1 while generating demo_then_now\.svg(.|\n)*"
        r"an empty plot: no series of 'then and now' has a value"),
    "script_outside_tools": (write("chapters/demo/loose.py", "print()\n"), 1,
                             r"chapters/demo/loose\.py: error: a part's scripts go in its tools/"),
    # \fact names: a variant "block" of step alpha and a step alpha_block both define
    # alpha_block_gbps; the build must refuse rather than show one of them silently
    "fact_collision": (chain(
        append("steps.tsv", "demo\talpha_block\tchapters/demo/03_alpha_block"),
        write("chapters/demo/03_alpha_block/CMakeLists.txt",
              "add_chapter(alpha_block PART demo)\n"),
        write("chapters/demo/03_alpha_block/alpha_block.md", "\\page alpha_block alpha_block: x\n"),
        replace("chapters/demo/demo.md", "- \\subpage beta\n",
                "- \\subpage beta\n- \\subpage alpha_block\n"),
        append("results/fixture-gpu/demo.csv", "demo,alpha,block,float,16777216,0,0,134217728,30,"
               "0.2,0.2,0.2,671.1,1677.7,1800.0,40.0,37.3,Lib,1500.0,44.7,ok")),
        1, r"\\fact\{alpha_block_gbps\} is defined by step alpha_block and by step alpha "
           r"variant block"),
    # a step whose code changed after its part's run says so above its table; its test, tools
    # and page may change without it, and the other steps stay as they are
    "stale_step_notice": (chain(git_init, results_at_head,
                                append("chapters/demo/02_beta/beta.cuh", "// changed\n"),
                                append("chapters/demo/01_alpha/alpha.md", "\nMore prose.\n")),
                          0, r"book: .*index\.html"),
    # check_pages: a commit a page names is in the history, or the page says it was not kept
    "commit_not_in_history": (chain(RUNS_PAGE, git_init), 1,
                              r"beta_runs\.md:\d+: error: commit 0123abc is not in this "
                              r"repository's history"),
    "commit_not_kept_said": (chain(RUNS_PAGE, append(
        BETA_RUNS, "The development branches were not kept in the\npublished repository."),
        git_init), 0, r"book: .*index\.html"),
    # evidence: a page's \\evidence{...} and \\verbinclude name files that exist
    "evidence_cites_missing_file": (append(BETA_MD,
                                           "See \\evidence{fixture-gpu/demo/beta/gone.txt}."),
                                    1, r"beta\.md:\d+: error: \\evidence\{fixture-gpu/demo/beta/"
                                       r"gone\.txt\}: no file book/results/fixture-gpu/demo/beta/"
                                       r"gone\.txt"),
    "evidence_shown_missing_file": (append(BETA_MD, "\\verbinclude demo/beta/gone.txt"), 1,
                                    r"included file demo/beta/gone\.txt is not found"),
    "wrong_page_id": (replace(BETA_MD, "\\page beta ", "\\page beta2 "), 1,
                      r"must start with `\\page beta <title>`"),
    # check_pages: pages for readers; the history goes on the step's runs page
    "hash_on_step_page": (append(BETA_MD, "The loop was unrolled in 5f3e2a1 and kept."), 1,
                          r"beta\.md:\d+: error: commit hash '5f3e2a1' on a reader's page"),
    "hash_on_summary_page": (append("chapters/demo/summary.md", "Measured at commit c0ffee42."),
                             1, r"summary\.md:\d+: error: commit hash 'c0ffee42'"),
    "hash_in_file_name_is_fine": (append(BETA_MD, "The profile is in `beta_ncu_4c289fc.txt`."), 0,
                                  r"book: .*index\.html"),
    "issue_number_on_part_page": (append("chapters/demo/demo.md", "Issue 12 set this target."), 1,
                                  r"demo\.md:\d+: error: 'Issue 12': the reader knows no issues"),
    "issue_named_on_step_page": (append(BETA_MD, "Every size of the issue is tested; a warp fills "
                                         "the issue slots."), 1,
                                 r"beta\.md:\d+: error: 'the issue': the reader knows no issues"),
    "run_story_on_step_page": (append(BETA_MD, "The H200 has not run it yet."), 1,
                               r"beta\.md:\d+: error: story of the runs 'has not run'"),
    "run_story_asked_not_given": (append("chapters/demo/summary.md", "The H200 was asked for and "
                                         "not given."), 1,
                                  r"summary\.md:\d+: error: story of the runs 'asked for and not "
                                  r"given'"),
    "runs_page_holds_the_history": (RUNS_PAGE, 0, r"book: .*index\.html"),
    "runs_page_not_listed": (write(BETA_RUNS, "\\page beta_runs beta: runs\n"), 1,
                             r"beta\.md:1: error: beta has a runs page: list it on this page with "
                             r"`\\subpage beta_runs`"),
    "runs_page_wrong_id": (chain(RUNS_PAGE, replace(BETA_RUNS, "\\page beta_runs ",
                                                    "\\page beta_history ")), 1,
                           r"beta_runs\.md:1: error: this page must start with `\\page beta_runs"),
    "other_page_in_step_dir": (write("chapters/demo/02_beta/notes.md", "\\page beta_notes x\n"), 1,
                               r"notes\.md:1: error: this page has no chapter"),
    # check_pages: a page reads in one sitting
    "learn_too_long": (replace(BETA_MD, "## The code", LEARN + PROSE * 13 + "\n\n## The code"), 1,
                       r"beta\.md:\d+: error: 'What you will learn' runs to 156 words"),
    "learn_short_is_fine": (replace(BETA_MD, "## The code", LEARN + PROSE * 12 + "\n\n## The code"),
                            0, r"book: .*index\.html"),
    "step_page_too_long": (append(BETA_MD, (PROSE * 10 + "\n\n") * 21), 1,
                           r"beta\.md:1: error: \d+ words of prose; a step page reads in one "
                           r"sitting \(2500 at most"),
    # tables and plots a reader can look at: every part page shows its plot against n, which
    # draws its steps' lines; a long table is collapsed behind a summary line
    "part_page_without_size_plot": (replace("chapters/demo/demo.md",
                                            "\\image html demo_sizes.svg", "Plot:"), 1,
                                    r"demo\.md: error: the part page does not show its size plot: "
                                    r"add `\\image html demo_sizes\.svg"),
    "empty_size_plot": (zero_bandwidth, 1, r"demo: error: demo_sizes\.svg: an empty plot"),
    "long_table_collapsed": (sweep_rows(30), 0, r"book: .*index\.html"),
    "long_table_is_not_prose": (append(BETA_MD, "| variant | what it does |\n|---|---|\n" +
                                       ("| beta | " + PROSE + "|\n") * 250), 0,
                                r"book: .*index\.html"),
}


def js_value(path, name):
    """The JSON value of `var <name> = ...;` in one of Doxygen's navigation files."""
    import json
    with open(path, encoding="utf-8") as f:
        m = re.search(r"var\s+" + name + r"\s*=\s*(\[.*?\]|\{.*?\})\s*;", f.read(), re.S)
    return json.loads(m.group(1))


def navigation_problems(html):
    """beta's entry in the navigation: its own sections, then its runs page holding the runs
    page's sections (Doxygen 1.9.4 alone nests them the wrong way round: navtree_fix.py); and the
    index's path of every entry leads to that entry."""
    problems = []
    beta = js_value(os.path.join(html, "beta.js"), "beta")
    urls = [entry[1] for entry in beta]
    if not (urls and urls[-1] == "beta_runs.html"
            and all(u.startswith("beta.html#") for u in urls[:-1]) and len(urls) > 1):
        problems.append(f"beta's navigation entries are not its sections then its runs page: {urls}")
    elif [e[1].split("#")[0] for e in beta[-1][2] or []] != ["beta_runs.html"] * 2:
        problems.append(f"the runs page's entries are not its two sections: {beta[-1][2]}")
    tree = js_value(os.path.join(html, "navtreedata.js"), "NAVTREE")
    index = js_value(os.path.join(html, "navtreeindex0.js"), "NAVTREEINDEX0")
    for url, path in index.items():
        node = tree[0]
        for k in path:
            kids = node[2]
            if isinstance(kids, str):
                kids = js_value(os.path.join(html, kids + ".js"), kids)
            node = kids[k] if kids and k < len(kids) else [None, None, None]
        if node[1] != url and url != "pages.html":
            problems.append(f"navtreeindex0.js: {url} leads to {node[1]}")
    return problems


def check_good(work, case):
    """What a correct render must contain."""
    out = os.path.join(work, "out")
    problems = []

    def need(path, pattern):
        p = os.path.join(out, path)
        if not os.path.exists(p):
            problems.append(f"{path} was not produced")
            return
        with open(p, encoding="utf-8") as f:
            if not re.search(pattern, f.read()):
                problems.append(f"{path} does not match /{pattern}/")

    need("html/index.html", r"alpha\.html")
    need("html/part_demo.js", r"beta\.html")                       # steps nest under the part
    need("generated/beta_diff.html", r"01_alpha/alpha\.cuh.*02_beta/beta\.cuh")
    need("generated/alpha_diff.html", r"first step of Part D")
    fixture_numbers = case in ("good", "json_results", "two_gpus_reference_pages")
    if fixture_numbers:
        need("generated/beta_results.html", r"1\.60×")              # step speedup over alpha
        need("generated/beta_results.html", r"Fixture GPU")         # the GPU under the table
    need("generated/demo_bandwidth.svg", r"<svg")
    if case != "missing_part_file":
        need("html/alpha.html", r"839 GB/s")                        # \fact{alpha_gbps}
        need("html/beta.html", r'img src="beta_progress\.svg"')    # plots under every table
        need("html/alpha.html", r'img src="alpha_variants\.svg"')  # (two variants: both plots)
        need("html/beta_progress.svg", r"<svg")
    need("html/beta.html", r"book-diff-table")                      # the diff on the page
    stale = "Measured at an older commit"
    for page in ("alpha_results.html", "beta_results.html"):
        path = os.path.join(out, "generated", page)
        with open(path, encoding="utf-8") if os.path.exists(path) else io.StringIO() as f:
            says_stale = stale in f.read()
        if says_stale != (case == "stale_step_notice" and page == "beta_results.html"):
            problems.append(f"generated/{page}: the '{stale}' notice is "
                            f"{'there' if says_stale else 'missing'}")
    if case == "stale_step_notice":
        need("generated/beta_results.html", stale + r".*beta\.cuh")
    if case == "good":  # the part's own generator (it reads the CSV)
        need("html/demo_summary.html", r"has 5 rows of part demo")
    need("html/mathjax/MathJax.js", r".")
    need("html/beta.html", r"sectors/request")                     # evidence by \\verbinclude
    need("html/beta.html", r'href="results/fixture-gpu/demo/beta/ncu\.txt"')  # \\evidence{...}
    need("html/results/fixture-gpu/demo/beta/ncu.txt", r"sectors/request")  # published
    if case.startswith("two_gpus"):
        rows = table_rows(open(os.path.join(out, "generated", "gpu_comparison.html"),
                               encoding="utf-8").read())
        problems += comparison_problems(rows[0], rows[1:]) if rows else ["no comparison table"]
        # Appendix A compares the final step (beta) on both GPUs, each against its own memcpy
        need("generated/gpu_comparison.html", r"Fixture GPU(.|\n)*1342(.|\n)*80\.0%")
        need("generated/gpu_comparison.html", r"Newer GPU(.|\n)*900(.|\n)*53\.6%")
        shown, other = (("Newer GPU", "Fixture GPU") if case != "two_gpus_reference_pages"
                        else ("Fixture GPU", "Newer GPU"))
        need("generated/beta_results.html", shown)
        need("html/beta.html", r"1\.60×" if shown == "Fixture GPU" else r"1\.07×")  # \\fact
        with open(os.path.join(out, "generated", "beta_results.html"), encoding="utf-8") as f:
            if other in f.read():
                problems.append(f"beta's table shows {other}, not only {shown}")
    if case == "runs_page_holds_the_history":  # the runs page nests under its step
        need("html/beta.html", r'href="beta_runs\.html"')
        problems += navigation_problems(os.path.join(out, "html"))
    if case == "missing_part_file":
        need("generated/beta_results.html", r"not measured yet on the Other GPU")
        need("generated/gpu_comparison.html", r"Other GPU(.|\n)*not measured yet")
        need("html/beta.html", r"not measured")                    # \\fact{beta_speedup}
    problems += table_problems(os.path.join(out, "generated"))
    problems += size_plot_problems(out, "demo", measured=case != "missing_part_file")
    if case == "long_table_collapsed":
        with open(os.path.join(out, "generated", "beta_results.html"), encoding="utf-8") as f:
            text = f.read()
        tables = re.findall(r"<table.*?</table>", text, re.S)
        shown = [re.findall(r"<tr[^>]*>", x) for x in tables]
        if "<details class=\"book-more\">" not in text or len(tables) != 2:
            problems.append("beta's table of 31 rows is not collapsed behind a <details> line")
        elif not (len(shown[0]) == 2 and "two_per_thread" in tables[0] and "sweep=" not in
                  tables[0] and len(shown[1]) == 32):
            problems.append(f"beta's collapsed table shows {len(shown[0]) - 1} rows, not the "
                            f"default's one, or its whole table lacks rows ({len(shown[1]) - 1})")
    # generated files go to the output directory, never into the sources
    for root, _, files in os.walk(os.path.join(work, "src")):
        for f in files:
            if f.endswith(("_results.html", "_diff.html", ".svg")):
                problems.append(f"generated file in the source tree: {os.path.join(root, f)}")
    return problems


def table_problems(gen_dir):
    """Every generated table sits in a sideways-scrolling box (<div class="book-scroll">) and has
    no column whose every body cell is empty ("—")."""
    problems = []
    for name in sorted(os.listdir(gen_dir)):
        if not name.endswith(".html") or name.endswith("_diff.html") or name in (
                "header.html", "footer.html"):
            continue
        with open(os.path.join(gen_dir, name), encoding="utf-8") as f:
            text = f.read()
        for k, table in enumerate(re.findall(r"(.{0,40})(<table.*?</table>)", text, re.S)):
            before, body = table
            if not before.endswith('<div class="book-scroll">'):
                problems.append(f"{name}: table {k + 1} is not inside a scroll box")
            rows = [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(
                r"<td[^>]*>(.*?)</td>", r, re.S)] for r in re.findall(r"<tr[^>]*>(.*?)</tr>",
                                                                      body, re.S)]
            rows = [r for r in rows if r]
            width = max((len(r) for r in rows), default=0)
            for j in range(width):
                if all(j < len(r) and r[j] == "—" for r in rows):
                    problems.append(f"{name}: table {k + 1}: column {j + 1} is empty in every row")
    return problems


def size_plot_problems(out, part, measured=True):
    """The part page shows <part>_sizes.svg, and the plot draws at least one step's line (a
    gnuplot series group with a data point besides its key's sample); for a part the GPU has not
    measured, a plot that says so."""
    problems = []
    page = os.path.join(out, "html", f"part_{part}.html")
    with open(page, encoding="utf-8") as f:
        if not re.search(f'(src|data)="{part}_sizes\\.svg"', f.read()):
            problems.append(f"part_{part}.html does not show {part}_sizes.svg")
    svg = os.path.join(out, "html", f"{part}_sizes.svg")
    if not os.path.exists(svg):
        return problems + [f"{part}_sizes.svg was not produced"]
    with open(svg, encoding="utf-8") as f:
        text = f.read()
    if not measured:
        return problems + ([] if "not measured yet" in text else
                           [f"{part}_sizes.svg does not say the part is not measured yet"])
    groups = re.split(r'<g id="gnuplot_plot_\d+"', text)[1:]
    if not any(g.count("<use xlink:href='#gpPt") > 1 for g in groups):
        problems.append(f"{part}_sizes.svg draws no line (an empty plot)")
    return problems


def comparison_problems(head, body):
    """Appendix A compares like with like: within a part, every GPU's row is at one size and type."""
    if "size" not in head or "type" not in head:
        return [f"gpu_comparison.html: no size or type column in {head}"]
    size, type_ = head.index("size"), head.index("type")
    seen = {}
    for r in body:
        if len(r) == len(head) and r[size] != "—":
            seen.setdefault(r[0], set()).add((r[size], r[type_]))
    return [f"gpu_comparison.html: {part} is compared at several sizes or types: {sorted(keys)}"
            for part, keys in seen.items() if len(keys) > 1]


def table_rows(text):
    """The rows of the first table in an HTML fragment: [[cell text]], tags stripped."""
    return [[re.sub(r"<[^>]+>", "", c.replace("<br/>", " ")).strip()
             for c in re.findall(r"<t[dh]>(.*?)</t[dh]>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", text, re.S)]


def check_other_gpu(work, case):
    """What a book rendered from the reader's RTX 4090 folder must show."""
    out = os.path.join(work, "out")
    named = case == "other_gpu_own_numbers"  # the folder names beta as not available
    problems = []

    def read(path):
        p = os.path.join(out, path)
        if not os.path.exists(p):
            problems.append(f"{path} was not produced")
            return ""
        with open(p, encoding="utf-8") as f:
            return f.read()

    def need(path, pattern, present=True):
        if bool(re.search(pattern, read(path))) != present:
            problems.append(f"{path} {'does not match' if present else 'matches'} /{pattern}/")

    # the pages show the 4090's numbers: alpha's table, its \fact{}s, the GPU on the front page
    for pattern in (RTX_4090_NAME, r"128 SMs", r"72 MiB L2", r"theoretical 1008 GB/s",
                    r"<td>731</td>", r">79\.0%<"):
        need("generated/alpha_results.html", pattern)
    need("generated/alpha_results.html", r"Fixture GPU|Newer GPU", present=False)
    need("html/alpha.html", r"731 GB/s</span>, <span[^>]*>79\.0%")  # \fact{alpha_gbps}, _pct_copy
    need("html/index.html", RTX_4090_NAME)                   # \fact{gpu}
    # beta: "not available on this GPU" where the folder names it, else "not measured"
    beta_said = (r"beta</b> is not available on this GPU \(NVIDIA GeForce RTX 4090\)" if named
                 else r"beta</b> is not measured in <code>results/" + RTX_4090 + r"/demo\.csv")
    need("generated/beta_results.html", beta_said)
    need("html/beta.html", beta_said)
    need("generated/beta_results.html", r"not measured" if named else r"not available",
         present=False)
    need("generated/beta_progress.svg", r"beta: not available on this GPU" if named
         else r"beta: not measured yet")
    # its facts stay "(not measured)", so the pages that cite them build
    need("html/beta.html", r"book-fact-missing\">\(not measured\)")     # \fact{beta_speedup}
    need("html/demo_summary.html", r"book-fact-missing\">\(not measured\)")
    # the part without a file on this GPU
    need("generated/gamma_results.html", r"not measured yet on the NVIDIA GeForce RTX 4090")
    need("html/gamma.html", r"book-fact-missing\">\(not measured\)")  # \fact{gamma_gbps}
    need("generated/measurements.html",
         r"Not available on this GPU[^<]*<code>beta</code>" if named else r"Not available",
         present=named)
    # Appendix A: every GPU of the fixture beside the 4090, in the same columns
    rows = table_rows(read("generated/gpu_comparison.html"))
    head, body = (rows[0], rows[1:]) if rows else ([], [])
    if any(len(r) != len(head) for r in body):
        problems.append(f"gpu_comparison.html: rows of other widths than its {len(head)} columns")
    by_part_gpu = {(r[0], r[1]): r for r in body if len(r) == len(head)}
    gb = head.index("GB/s") if "GB/s" in head else None
    book_gpu = f"{RTX_4090_NAME} (the book's)"
    want = {("Part D: A fixture part", book_gpu): (
                "alpha (block=128)" + (" (beta: not available on this GPU)" if named else ""),
                "639"),  # the step's default (its first row), not its fastest variant
            ("Part D: A fixture part", "Fixture GPU"): ("beta (two_per_thread)", "1342"),
            ("Part D: A fixture part", "Newer GPU"): ("beta (two_per_thread)", "900"),
            ("Part E: A second fixture part", "Fixture GPU"): ("gamma", "1074"),
            ("Part E: A second fixture part", book_gpu): ("not measured yet", "—"),
            ("Part E: A second fixture part", "Newer GPU"): ("not measured yet", "—")}
    for key, (step, gbps) in want.items():
        r = by_part_gpu.get(key)
        if r is None or gb is None or (r[2], r[gb]) != (step, gbps):
            problems.append(f"gpu_comparison.html: {key}: want step {step!r} at {gbps} GB/s, got "
                            f"{r}")
    problems += comparison_problems(head, body)
    if body and body[0][1] != book_gpu:
        problems.append(f"gpu_comparison.html: the book's GPU is not first: {body[0]}")
    need("html/measurements.html", r"Fixture GPU(.|\n)*Newer GPU")  # Appendix A rendered
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", action="store_true", help="print the case names")
    ap.add_argument("--case")
    ap.add_argument("--work", help="scratch directory (the case gets <work>/<case>)")
    ap.add_argument("--doxygen", default="doxygen")
    ap.add_argument("--gnuplot", default="gnuplot")
    args = ap.parse_args()
    if args.list:
        print(";".join(CASES))
        return 0
    if args.case not in CASES or not args.work:
        print(f"run_fixture: need --work and --case, one of: {', '.join(CASES)}", file=sys.stderr)
        return 2
    change, want_rc, pattern, *extra = CASES[args.case]
    extra = extra[0] if extra else []
    work = os.path.join(os.path.abspath(args.work), args.case)
    shutil.rmtree(work, ignore_errors=True)
    src = os.path.join(work, "src")
    shutil.copytree(FIXTURE, src)
    if change:
        change(src)
    cmd = [sys.executable, BUILD_BOOK, "--source-dir", src, "--steps",
           os.path.join(src, "steps.tsv"), "--out", os.path.join(work, "out"),
           "--pages-dir", os.path.join(src, "pages"), "--results-dir",
           os.path.join(src, "results"), "--doxygen", args.doxygen, "--gnuplot", args.gnuplot] + extra
    # The runner sets the path (build_book.py imports common/tools/check_exercises.py).
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(os.path.dirname(HERE)),
                                                   "common", "tools"))
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    print(r.stdout)
    problems = []
    if r.returncode != want_rc:
        problems.append(f"the book build exited {r.returncode}, expected {want_rc}")
    if not re.search(pattern, r.stdout):
        problems.append(f"its output does not match /{pattern}/")
    if args.case in ("good", "json_results", "two_gpus_reference_pages",
                     "long_table_collapsed",
                     "two_gpus_render_the_second", "two_gpus_unnamed_newest",
                     "missing_part_file", "runs_page_holds_the_history",
                     "stale_step_notice") and r.returncode == 0:
        problems += check_good(work, args.case)
    if args.case == "two_gpus_compared_alike" and r.returncode == 0:
        with open(os.path.join(work, "out", "generated", "gpu_comparison.html"),
                  encoding="utf-8") as f:
            rows = table_rows(f.read())
        problems += comparison_problems(rows[0], rows[1:])
        newer = [x for x in rows[1:] if x[1] == "Newer GPU"]
        if not (newer and "not measured at this size and type" in newer[0][2]):
            problems.append(f"gpu_comparison.html: the newer GPU's row does not say that it has no "
                            f"row at the compared size: {newer}")
    if args.case.startswith("other_gpu_") and r.returncode == 0:
        problems += check_other_gpu(work, args.case)
    for p in problems:
        print(f"run_fixture {args.case}: FAIL: {p}")
    if not problems:
        print(f"run_fixture {args.case}: as expected (exit {r.returncode}, /{pattern}/)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
