#!/usr/bin/env python3
"""build_book: render the book (build/book/html) from the pages, the sources and the committed
results. What the `book` target and the `book` CTest test run.

1. check_pages: pairing of chapters and pages, no pasted code, no hand-typed measurement.
2. Generate (into <out>/generated, never into the source tree): per step <step>_results.html,
   <step>_diff.html, <step>_variants.svg; per part <part>_bandwidth.svg; measurements.html; the
   \\fact aliases; the front matter with the list of parts; the theme's HTML header.
3. Doxygen with WARN_AS_ERROR = FAIL_ON_WARNINGS: a broken snippet marker, file, \\ref, \\image,
   \\htmlinclude or \\fact fails the build.
4. Copy MathJax (Debian's libjs-mathjax) next to the pages; print the path of index.html.

Exit codes: 0 rendered, 1 a check or Doxygen failed, 2 bad usage or a missing tool.
"""
import argparse
import glob
import html
import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # nothing of the build lands in the source tree
import book_tree
import check_pages
import gen_diff
import gen_results
import navtree_fix

try:  # the README header table of an exercise
    import check_exercises
except ImportError:  # the `book` target and the fixture tests put common/tools on the path
    print("book: common/tools is not on PYTHONPATH (run the `book` target, or "
          "PYTHONPATH=common/tools python3 book/tools/build_book.py ...)", file=sys.stderr)
    sys.exit(2)

TOOLS_DIR = os.path.dirname(os.path.abspath(__file__))
BOOK_DIR = os.path.dirname(TOOLS_DIR)
AWESOME_FILES = ["doxygen-awesome.css", "doxygen-awesome-sidebar-only.css",
                 "doxygen-awesome-sidebar-only-darkmode-toggle.css"]
AWESOME_JS = ["doxygen-awesome-darkmode-toggle.js", "doxygen-awesome-fragment-copy-button.js",
              "doxygen-awesome-interactive-toc.js"]
# What MathJax 2 loads for input/TeX + output/SVG (plus its menu and the AMS extensions).
MATHJAX_PARTS = ["MathJax.js", "extensions", "jax/element", "jax/input/TeX",
                 "jax/output/SVG/config.js", "jax/output/SVG/jax.js", "jax/output/SVG/autoload",
                 "jax/output/SVG/fonts/TeX", "localization/en"]
HEADER_SCRIPTS = "".join(f'<script type="text/javascript" src="$relpath^{js}"></script>\n'
                         for js in AWESOME_JS) + """<script type="text/javascript">
  DoxygenAwesomeDarkModeToggle.init()
  DoxygenAwesomeFragmentCopyButton.init()
  DoxygenAwesomeInteractiveToc.init()
</script>
"""


def fail(message, code=2):
    print(f"book: {message}", file=sys.stderr)
    sys.exit(code)


def page_id_and_title(path):
    """(id, title) from a page's first line `\\page <id> <title>`; (None, None) if absent."""
    if not os.path.exists(path):
        return None, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                m = re.match(r"^\s*[\\@]page\s+(\S+)\s*(.*)$", line)
                return (m.group(1), m.group(2).strip()) if m else (None, None)
    return None, None


def doxygen_quote(path):
    return '"' + path.replace('"', '\\"') + '"'


def front_and_back(pages_dir):
    """The book's own pages: NN_name.md, NN < 50 before the parts, NN >= 50 after them."""
    files = sorted(f for f in os.listdir(pages_dir) if re.match(r"^\d\d_.*\.md$", f))
    front = [f for f in files if int(f[:2]) < 50]
    back = [f for f in files if int(f[:2]) >= 50]
    return front, back


def parts_list(parts):
    lines = []
    for p in parts:
        pid, _ = page_id_and_title(p.page)
        if not pid:
            continue
        lines.append(f"- \\ref {pid}")
        for s in p.steps:
            sid, _ = page_id_and_title(s.page)
            if sid:
                lines.append(f"  - \\ref {sid}")
        for extra in p.extra_pages():
            eid, _ = page_id_and_title(extra)
            if eid:
                lines.append(f"  - \\ref {eid}")
    return "\n".join(lines) if lines else "(No parts yet.)"


def exercise_table(source_dir, parts):
    """The Exercises page's table, from each exercises/<NN_name>/README.md header table (part,
    read first, idea, speed target). Parts and steps that exist become \\ref links."""
    base = os.path.join(source_dir, "exercises")
    dirs = sorted(d for d in (os.listdir(base) if os.path.isdir(base) else [])
                  if re.match(r"^\d\d_", d) and os.path.isfile(os.path.join(base, d, "README.md")))
    if not dirs:
        return "*No exercises yet.*"
    part_pages = {p.name: page_id_and_title(p.page)[0] for p in parts}
    step_pages = {s.name: page_id_and_title(s.page)[0] for p in parts for s in p.steps}

    def link_part(name):
        return f"\\ref {part_pages[name]}" if part_pages.get(name) else name

    def link_step(name):
        return (f"\\ref {step_pages[name]} \"{name}\"" if step_pages.get(name)
                else f"`{name}`")

    def speed(target):
        m = re.match(r"full speed marks within (\S+) of the solution's time on (`.*`)$", target)
        return f"{m.group(1)} the solution's time, on {m.group(2)}" if m else target

    lines = ["| | exercise | part | read first | the idea it practises | full speed marks within |",
             "|---|---|---|---|---|---|"]
    for d in dirs:
        with open(os.path.join(base, d, "README.md"), encoding="utf-8") as f:
            text = f.read()
        title = re.match(r"^#\s*(.*)", text)
        rows = check_exercises.readme_table(text)
        name = title.group(1).split(":", 1)[-1].strip() if title else d[3:]
        parts_cell = ", ".join(link_part(x.strip()) for x in rows.get("part", "").split(",")
                               if x.strip())
        read = ", ".join(link_step(x.strip()) for x in rows.get("read first", "").split(",")
                         if x.strip())
        lines.append(f"| {d[:2]} | **{name}** (`exercises/{d}/`) | {parts_cell} | {read} | "
                     f"{rows.get('idea', '')} | {speed(rows.get('speed target', ''))} |")
    return "\n".join(lines)


GENERATORS_FILE = "generators.txt"


def part_generators(part, source_dir):
    """A part's own generators, listed in chapters/<part>/tools/generators.txt, one per line:
    `<script>.py [--option ...] > <output file>` (the script in that tools/ directory, its options
    passed after the results file; '#' starts a comment). One script may make several outputs,
    one per line, each with its own options (`then_now.py --plot > <part>_then_now.svg`).
    Returns ([(script path, [options], output file name)], [error messages]). A tools/ script
    whose usage line says it makes an output (`<script>.py RESULTS_FILE > <output>`) but that is
    not listed is an error, and so is a Python script left directly in the part directory: neither
    would run."""
    tools = os.path.join(part.dir, "tools")
    manifest = os.path.join(tools, GENERATORS_FILE)
    found, errors = [], []
    if os.path.isdir(part.dir):
        for name in sorted(os.listdir(part.dir)):
            if name.endswith(".py"):
                errors.append(f"{os.path.relpath(os.path.join(part.dir, name), source_dir)}: "
                              "error: a part's scripts go in its tools/ directory")
    if os.path.exists(manifest):
        rel = os.path.relpath(manifest, source_dir)
        with open(manifest, encoding="utf-8") as f:
            for line_no, line in enumerate(f, 1):
                line = line.split("#", 1)[0].strip()
                if not line:
                    continue
                m = re.match(r"^([\w.-]+\.py)((?:\s+--[\w-]+(?:=[\w.,-]+)?)*)\s*>\s*"
                             r"([\w.-]+\.(?:html|svg))$", line)
                if not m:
                    errors.append(f"{rel}:{line_no}: error: expected `<script>.py [--option ...] "
                                  f"> <output>.html` (or .svg), got `{line}`")
                elif not os.path.isfile(os.path.join(tools, m.group(1))):
                    errors.append(f"{rel}:{line_no}: error: {m.group(1)} is not in {tools}")
                else:
                    found.append((os.path.join(tools, m.group(1)), m.group(2).split(),
                                  m.group(3)))
    listed = {os.path.basename(s) for s, _, _ in found}
    for name in sorted(os.listdir(tools)) if os.path.isdir(tools) else []:
        if not name.endswith(".py") or name in listed:
            continue
        with open(os.path.join(tools, name), encoding="utf-8") as f:
            head = f.read(400)
        if re.search(r'^"""\s*' + re.escape(name) + r"\s+RESULTS_FILE(?:\s+\[[^]]*\])*\s*>",
                     head, re.M):
            errors.append(f"{os.path.relpath(os.path.join(tools, name), source_dir)}: error: says "
                          f"it generates a page's content but is not listed in {GENERATORS_FILE}")
    return found, errors


def run_part_generators(parts, gpu_results, gen_dir, source_dir, gnuplot="gnuplot"):
    """Runs them with their part's results file on the GPU the book shows (an empty argument when
    there is none), then the line's options, with book/tools on PYTHONPATH (for `import
    gen_results`) and the renderer's gnuplot in BOOK_GNUPLOT (for a generator that draws a plot);
    their stdout becomes <gen_dir>/<output>. Returns the error messages."""
    errors = []
    path = os.pathsep.join([TOOLS_DIR] + [x for x in [os.environ.get("PYTHONPATH")] if x])
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=path, BOOK_GNUPLOT=gnuplot)
    outputs = {}
    for p in parts:
        results = gpu_results.part(p.name) if gpu_results else None
        results_path = results.path if results else ""
        generators, problems = part_generators(p, source_dir)
        errors += problems
        for script, options, output in generators:
            rel = os.path.relpath(script, source_dir)
            if output in outputs:
                errors.append(f"{rel}: error: {output} is also generated by {outputs[output]}")
                continue
            outputs[output] = rel
            r = subprocess.run([sys.executable, script, results_path or ""] + options,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            if r.returncode != 0:
                errors.append(f"{rel}: error: exit {r.returncode} while generating {output}:\n"
                              f"{r.stderr.strip()}")
                continue
            with open(os.path.join(gen_dir, output), "w", encoding="utf-8") as f:
                f.write(r.stdout)
            print(f"book: {rel} -> {output}")
    return errors


EVIDENCE_CITE = re.compile(r"[\\@]evidence\{([^}\s]*)\}")


def copy_evidence(gpu_dir, all_gpu_dirs, dest):
    """The committed GPU evidence that pages \\verbinclude as <part>/<step>/<file> (profiler
    tables, sanitizer reports): the files of the GPU the book shows, and for a path it lacks, the
    same file of another GPU (whose header names the GPU it was made on), so that a book rendered
    from a reader's own bench still builds. Only <gpu>/<part>/<step>/<file>: the bench's results
    files and the index at the top of a GPU's directory are not shown this way."""
    os.makedirs(dest, exist_ok=True)
    dirs = ([gpu_dir] if gpu_dir else []) + [d for d in all_gpu_dirs if d != gpu_dir]
    for d in dirs:
        for src in sorted(glob.glob(os.path.join(d, "*", "*", "*"))):
            dst = os.path.join(dest, os.path.relpath(src, d))
            if os.path.isfile(src) and not os.path.exists(dst):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy2(src, dst)


def publish_evidence(pages, results_dir, html_dir, source_dir):
    """Copies every file a page cites with \\evidence{<gpu>/<part>/<step>/<file>} to
    <html>/results/<gpu>/<part>/<step>/<file>, where the citation's link points. Returns the error
    messages (a cited file that does not exist)."""
    errors, done = [], set()
    for page in pages:
        with open(page, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for line_no, line in enumerate(lines, 1):
            for key in EVIDENCE_CITE.findall(line):
                src = os.path.normpath(os.path.join(results_dir, key))
                if (key.count("/") != 3 or ".." in key.split("/")
                        or not os.path.isfile(src)):
                    errors.append(f"{os.path.relpath(page, source_dir)}:{line_no}: error: "
                                  f"\\evidence{{{key}}}: no file book/results/{key} "
                                  "(cite <gpu>/<part>/<step>/<file>)")
                elif key not in done:
                    done.add(key)
                    dst = os.path.join(html_dir, "results", key)
                    os.makedirs(os.path.dirname(dst), exist_ok=True)
                    shutil.copy2(src, dst)
    return errors


def copy_mathjax(mathjax_dir, html_dir):
    dest = os.path.join(html_dir, "mathjax")
    for part in MATHJAX_PARTS:
        src = os.path.join(mathjax_dir, part)
        dst = os.path.join(dest, part)
        if os.path.isdir(src):
            shutil.copytree(src, dst, dirs_exist_ok=True)
        elif os.path.isfile(src):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
        else:
            fail(f"{src} is missing: install Debian's libjs-mathjax")


def write_header(doxygen, gen_dir):
    """Doxygen's own default header for this version, with the theme's scripts added."""
    h, f, s = (os.path.join(gen_dir, x) for x in ("header.html", "footer.html", "doxygen.css"))
    # In gen_dir, where there is no Doxyfile: `doxygen -w` reads ./Doxyfile when there is one.
    r = subprocess.run([doxygen, "-w", "html", h, f, s], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, cwd=gen_dir)
    if r.returncode != 0:
        fail(f"`doxygen -w html` failed:\n{r.stderr}", 1)
    with open(h, encoding="utf-8") as fh:
        text = fh.read()
    if "</head>" not in text:
        fail("Doxygen's default header has no </head>", 1)
    text = text.replace("</head>", HEADER_SCRIPTS + "</head>", 1)
    with open(h, "w", encoding="utf-8") as fh:
        fh.write(text)
    return h


def write_aliases(facts, path):
    with open(path, "w", encoding="utf-8") as f:
        for name in sorted(facts):
            value = facts[name].replace("\\", "\\\\").replace('"', '\\"').replace(",", "\\,")
            cls = "book-fact book-fact-missing" if facts[name] == gen_results.NOT_MEASURED \
                else "book-fact"
            f.write(f'ALIASES += "fact_{name}=<span class=\\"{cls}\\">{value}</span>"\n')


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source-dir", required=True, help="the repository root")
    ap.add_argument("--steps", required=True, help="steps.tsv written by CMake")
    ap.add_argument("--out", required=True, help="output directory (build/book)")
    ap.add_argument("--doxygen", default="doxygen")
    ap.add_argument("--gnuplot", default="gnuplot")
    ap.add_argument("--gpu", default="", help="the GPU whose results the book shows: a directory "
                    "name in the results directory (BOOK_GPU; default: the only GPU with results, "
                    "else the one measured last)")
    ap.add_argument("--results-dir", help="default: <source>/book/results")
    ap.add_argument("--pages-dir", help="default: <source>/book/pages")
    ap.add_argument("--awesome-dir", default="/usr/share/doxygen-awesome-css")
    ap.add_argument("--mathjax-dir", default="/usr/share/javascript/mathjax")
    args = ap.parse_args()

    source_dir = os.path.abspath(args.source_dir)
    out_dir = os.path.abspath(args.out)
    results_dir = os.path.abspath(args.results_dir or os.path.join(source_dir, "book", "results"))
    pages_dir = os.path.abspath(args.pages_dir or os.path.join(source_dir, "book", "pages"))
    theme_dir = os.path.join(BOOK_DIR, "theme")

    for tool, package in ((args.doxygen, "doxygen"), (args.gnuplot, "gnuplot-nox")):
        if not tool or not shutil.which(tool):
            fail(f"'{tool or package}' not found: the book needs Debian's {package} "
                 f"(apt-get install {package}; common/tools/ensure_deps.sh lists every package)")
    for f in AWESOME_FILES + AWESOME_JS:
        if not os.path.exists(os.path.join(args.awesome_dir, f)):
            fail(f"{args.awesome_dir}/{f} not found: install Debian's doxygen-awesome-css")
    if not os.path.exists(os.path.join(args.mathjax_dir, "MathJax.js")):
        fail(f"{args.mathjax_dir}/MathJax.js not found: install Debian's libjs-mathjax")
    if not os.path.exists(args.steps):
        fail(f"{args.steps} not found: configure with CMake first")
    version = subprocess.run([args.doxygen, "--version"], stdout=subprocess.PIPE,
                             text=True).stdout.strip()

    parts = book_tree.read_steps(args.steps, source_dir)

    # 1. The page checks.
    report = check_pages.run_checks(source_dir, args.steps, pages_dir)
    for line in report.notes:
        print(line)
    for line in report.errors:
        print(line, file=sys.stderr)

    # 2. Generated content.
    gen_dir = os.path.join(out_dir, "generated")
    shutil.rmtree(gen_dir, ignore_errors=True)
    os.makedirs(os.path.join(gen_dir, "pages"))
    try:
        gpu_dir = gen_results.choose(results_dir, args.gpu, source_dir)
        gpu_results = gen_results.load_gpu(gpu_dir) if gpu_dir else None
        all_gpus = [gen_results.load_gpu(d) for d in gen_results.list_gpus(results_dir)]
    except (FileNotFoundError, ValueError) as e:
        fail(str(e))
    if gpu_results:
        def part_state(name):
            results = gpu_results.part(name)
            cannot = " ".join(sorted(results.not_available())) if results else ""
            return (("ok" if results else "not measured")
                    + (f" (not available on this GPU: {cannot})" if cannot else ""))
        print(f"book: results from {os.path.relpath(gpu_dir, source_dir)} ({gpu_results.gpu()}): "
              + ", ".join(f"{p.name} {part_state(p.name)}" for p in parts))
    else:
        print("book: no results in book/results/: tables say so")
    titles = {p.name: page_id_and_title(p.page)[1] or p.name for p in parts}
    for p in parts:
        title = titles[p.name]
        results = gpu_results.part(p.name) if gpu_results else None
        missing = ""
        if gpu_results is not None and results is None:
            missing = (f"The {html.escape(title)} part is not measured yet on the "
                       f"{html.escape(gpu_results.gpu())} (no <code>"
                       f"{html.escape(os.path.relpath(gpu_dir, source_dir))}/{p.name}.csv</code>): "
                       f"run <code>cmake --build --preset default --target bench_{p.name}</code> "
                       "on that GPU and commit the file.")
        for s in p.steps:
            prev = p.steps[s.index - 1] if s.index > 0 else None
            page_text = open(s.page, encoding="utf-8").read() if os.path.exists(s.page) else ""
            # A page may name the step its diff is taken against: \diffbase{<step>}.
            base = re.search(r"[\\@]diffbase\{(\w+)\}", page_text)
            if base:
                prev = next((b for b in book_tree.all_steps(parts) if b.name == base.group(1)),
                            None)
                if prev is None or prev is s:
                    fail(f"{os.path.relpath(s.page, source_dir)}: \\diffbase{{{base.group(1)}}} "
                         "names no other step of the book")
            images = gen_results.step_plots(results, p, title, s, args.gnuplot, gen_dir,
                                            page_text)
            with open(os.path.join(gen_dir, f"{s.name}_results.html"), "w", encoding="utf-8") as f:
                f.write(gen_results.step_table(results, parts, p, s, source_dir, images, missing))
            with open(os.path.join(gen_dir, f"{s.name}_diff.html"), "w", encoding="utf-8") as f:
                f.write(gen_diff.step_diff(s, prev, title, source_dir))
        gen_results.part_plot(results, p, title, args.gnuplot,
                              os.path.join(gen_dir, f"{p.name}_bandwidth.svg"))
    with open(os.path.join(gen_dir, "measurements.html"), "w", encoding="utf-8") as f:
        f.write(gen_results.measurements_html(gpu_results, parts, [g.path for g in all_gpus],
                                              source_dir, titles))
    with open(os.path.join(gen_dir, "gpu_comparison.html"), "w", encoding="utf-8") as f:
        f.write(gen_results.gpu_comparison_html(all_gpus, parts,
                                                gpu_results.slug if gpu_results else "",
                                                source_dir, titles))
    copy_evidence(gpu_dir, [g.path for g in all_gpus], os.path.join(gen_dir, "evidence"))
    generator_errors = run_part_generators(parts, gpu_results, gen_dir, source_dir, args.gnuplot)
    # Each part's plot against n (<part>_sizes.svg): its page must show it, and it must draw a line.
    generator_errors += gen_results.size_plots(parts, gpu_results, titles, args.gnuplot, gen_dir,
                                               source_dir)
    for line in generator_errors:
        print(line, file=sys.stderr)
    try:
        facts = gen_results.facts(gpu_results, parts, source_dir, all_gpus)
    except gen_results.FactCollision as e:
        fail(str(e), 1)
    aliases_file = os.path.join(gen_dir, "aliases.doxy")
    write_aliases(facts, aliases_file)
    with open(os.path.join(out_dir, "facts.tsv"), "w", encoding="utf-8") as f:
        for name in sorted(facts):
            f.write(f"{name}\t{facts[name]}\n")

    front, back = front_and_back(pages_dir)
    substitutions = {"@BOOK_PARTS@": parts_list(parts),
                     "@BOOK_EXERCISE_TABLE@": exercise_table(source_dir, parts)}
    book_pages = {}
    for name in front + back:
        with open(os.path.join(pages_dir, name), encoding="utf-8") as f:
            text = f.read()
        for key, value in substitutions.items():
            text = text.replace(key, value)
        dst = os.path.join(gen_dir, "pages", name)
        with open(dst, "w", encoding="utf-8") as f:
            f.write(text)
        book_pages[name] = dst

    header = write_header(args.doxygen, gen_dir)
    inputs = [book_pages[n] for n in front]
    inputs += [pg for pg in book_tree.reading_order_pages(parts) if os.path.exists(pg)]
    inputs += [book_pages[n] for n in back]
    # Sources for \snippet and \include, committed measurements (e.g. profiler tables for
    # \verbinclude), and the generated tables and diffs for \htmlinclude.
    example_path = [d for d in [os.path.join(source_dir, x) for x in ("chapters", "common",
                                                                      "exercises")]
                    + [gen_dir] if os.path.isdir(d)]
    styles = [os.path.join(args.awesome_dir, f) for f in AWESOME_FILES]
    styles.append(os.path.join(theme_dir, "book.css"))
    images_dir = os.path.join(BOOK_DIR, "images")
    values = {
        "@OUTPUT_DIR@": doxygen_quote(out_dir),
        "@INPUT@": " \\\n                         ".join(doxygen_quote(p) for p in inputs),
        "@FILTER@": "*.md=" + doxygen_quote(f"{sys.executable} "
                                            f"{os.path.join(TOOLS_DIR, 'md_filter.py')}"),
        "@EXAMPLE_PATH@": " ".join(doxygen_quote(p) for p in example_path),
        "@IMAGE_PATH@": " ".join(doxygen_quote(p) for p in [gen_dir, images_dir]
                                 if os.path.isdir(p)),
        "@HEADER@": doxygen_quote(header),
        "@EXTRA_STYLESHEETS@": " ".join(doxygen_quote(p) for p in styles),
        "@EXTRA_FILES@": " ".join(doxygen_quote(os.path.join(args.awesome_dir, f))
                                  for f in AWESOME_JS),
        "@ALIASES_FILE@": doxygen_quote(aliases_file),
    }
    with open(os.path.join(BOOK_DIR, "Doxyfile.in"), encoding="utf-8") as f:
        doxyfile = f.read()
    for key, value in values.items():
        doxyfile = doxyfile.replace(key, value)
    doxyfile_path = os.path.join(out_dir, "Doxyfile")
    with open(doxyfile_path, "w", encoding="utf-8") as f:
        f.write(doxyfile)

    # 3. Doxygen.
    html_dir = os.path.join(out_dir, "html")
    shutil.rmtree(html_dir, ignore_errors=True)
    print(f"book: Doxygen {version}: {len(inputs)} pages, "
          f"{len(book_tree.all_steps(parts))} steps in {len(parts)} parts")
    r = subprocess.run([args.doxygen, doxyfile_path], cwd=out_dir, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    output = r.stdout.strip()
    if output:
        print(output, file=sys.stderr)
    if r.returncode != 0:
        print("book: Doxygen reported the problems above (WARN_AS_ERROR = FAIL_ON_WARNINGS)",
              file=sys.stderr)
    if report.errors:
        print(f"book: {len(report.errors)} page check error(s) above (book/tools/check_pages.py)",
              file=sys.stderr)
    # 4. The plots the generated tables show (Doxygen copies only those named by \image) and
    # MathJax, also after a failure so that what was rendered can be looked at; then the verdict.
    if os.path.isdir(html_dir):
        for name in os.listdir(gen_dir):
            if name.endswith(".svg"):
                shutil.copy2(os.path.join(gen_dir, name), html_dir)
        copy_mathjax(args.mathjax_dir, html_dir)
        navtree_fix.repair(html_dir)  # each page's sections under that page (Doxygen 1.9.4)
    evidence_errors = publish_evidence(inputs, results_dir, html_dir, source_dir)
    for line in evidence_errors:
        print(line, file=sys.stderr)
    if r.returncode != 0 or report.errors or generator_errors or evidence_errors:
        return 1
    print(f"book: {os.path.join(html_dir, 'index.html')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
