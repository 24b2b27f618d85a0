#!/usr/bin/env python3
"""check_pages: the book's rules that Doxygen cannot check, run before every render.

1. Pairing: every step (a line of steps.tsv) has its page <dir>/<step>.md starting with
   `\\page <step> ...`; every part has chapters/<part>/<part>.md (`\\page part_<part>`); every
   *.md under chapters/ belongs to a registered step or part; every directory with an
   add_chapter() call is registered (in steps.tsv).
2. Code only from the sources: no fenced or \\code block of C, C++ or CUDA in a page (code enters
   through \\snippet / \\include of the compiled sources); no Markdown image (use \\image html,
   which Doxygen checks).
3. No hand-typed measurement: no number with a unit of bandwidth (GB/s ...), time (ms, us ...) or
   speedup (2.3x), and no "<number>% of <yardstick/peak/peer>", outside a quoted "then" table. A
   then table is a Markdown table that names its source document ("Source 001", in the table, in
   the paragraph right before it or the line right after it). Measured numbers come from the
   generated tables and plots and from \\fact{...}.
4. No solution's code: no \\snippet, \\include, \\dontinclude or \\verbinclude of a file under
   solutions/ (the instructor's side; a handed-out book must not answer the exercises).
5. Citable commits: every commit a page names ("commit 1a2b3c4") is in the history of HEAD,
   or the page says that its development branches were "not kept in the published repository"
   (only main is published: a branch's commits are gone, and a page must not send the reader to
   them). Checked only where the source directory is the root of a full (not shallow) git
   checkout.
6. Pages for readers: step pages, part pages and summaries carry no commit hash (a run of 7 to 40
   hex digits with a digit and a letter, not part of a file name), no reference to the project's
   issues (the word "issue" and a number, "the issue's targets") and no story of the runs ("the
   H200 has not run it", "was asked for and not given", "predates", "development branch",
   "session"). That history goes on the step's runs page, <step dir>/<step>_runs.md
   (`\\page <step>_runs ...`), which the step page lists with `\\subpage <step>_runs` (the link,
   and the page's place under the step in the navigation).
7. A page reads in one sitting: a "What you will learn" section of at most LEARN_MAX_WORDS words;
   a step page of at most PROSE_MAX_WORDS words of prose (generated includes, snippets, tables and
   fenced blocks not counted).

Exit codes: 0 all pages pass, 1 a rule is broken (each as file:line: error: ...), 2 bad usage.
"""
import argparse
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # nothing of the build lands in the source tree
import book_tree  # noqa: E402  (beside this file: on the path of a script run from here)

C_LANGS = {"c", "cc", "cpp", "c++", "cxx", "h", "hh", "hpp", "hxx", "cu", "cuh", "cuda", "objc"}
CUDA_TOKENS = re.compile(r"__global__|__device__|__shared__|__syncthreads|<<<|threadIdx|blockIdx"
                         r"|blockDim|#include\s*[<\"]|\bint\s+main\s*\(")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*\{?\s*\.?([\w+#-]*)\s*\}?\s*$")
CODE_CMD = re.compile(r"^\s*[\\@]code(\{\s*\.?([\w+-]+)\s*\})?")
END_CODE_CMD = re.compile(r"^\s*[\\@]endcode\b")
VERBATIM = re.compile(r"^\s*[\\@]verbatim\b")
END_VERBATIM = re.compile(r"^\s*[\\@]endverbatim\b")
MD_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")

NUMBER = r"(?<![\w.^/])\d+(?:[.,]\d+)*"
UNIT = (r"(?:[KMGTP]i?B\s*/\s*s(?:ec)?|[KMGTP]i?Bps|ms|msec|us|usec|µs|μs|ns|nsec"
        r"|milliseconds?|microseconds?|nanoseconds?|seconds?|sec|s)")
WITH_UNIT = re.compile(NUMBER + r"\s*(?:&nbsp;|&#160;|~)?\s*" + UNIT + r"(?![\w/])")
# "2.3x", "30x faster", "a 12x speedup"; "32x32" and "32 x 8" (shapes) and "0x1f" are not.
SPEEDUP = re.compile(NUMBER + r"\s*(?:x|×|&times;|\\times)(?![\w])(?!\s*(?:\d|\\f\$))"
                     r"(\s+[\w-]+(?:\s+[\w-]+)?)?")
# A factor is a speedup when it has decimals ("2.3x"), ends the phrase ("12x."), or a word of
# speed follows it ("12x faster", "a 30x speedup"); "4x unrolled", "20x the L2" and "2 x n" are
# counts and products.
SPEED_WORD = re.compile(r"\s+(faster|slower|speed-?ups?|quicker|better|worse|improvement|gain"
                        r"|higher|lower|over|as\s+fast|the\s+(speed|bandwidth|throughput))\b",
                        re.I)
SHAPE_BEFORE = re.compile(r"(?:[x×]|&times;|\\times)\s*$")
PCT_OF = re.compile(NUMBER + r"\s*(?:%|percent)\s+of\s+(?:the\s+|its\s+|a\s+)?(?:\w+[\s-]+)?"
                    r"(?:copy|read|yardstick|peak|peer|theoretical|bandwidth|memcpy|cub|cublas"
                    r"|thrust|library|speed[- ]of[- ]light)", re.I)
SOURCE_NAMED = re.compile(r"\bsource\s+0\d\d\b", re.I)
COMMIT_REF = re.compile(r"\bcommits?\s+`?([0-9a-f]{7,40})\b")
NOT_KEPT = "not kept in the published repository"
# A commit hash: 7 to 40 hex digits with at least one digit and one letter, standing alone (not
# inside a word or a file name such as `probe_4c289fc.txt`, nor a colour `#1a2b3c4`).
HASH = re.compile(r"(?<![\w/.#-])(?=[0-9a-f]{0,39}[0-9])(?=[0-9a-f]{0,39}[a-f])[0-9a-f]{7,40}"
                  r"(?![\w-])")
# "issue" and a number, "the issue's targets", "every size of the issue" (not "the issue slots"
# of a warp)
ISSUE = re.compile(r"\bissues?\s+#?\d+\b|\bthe\s+issues?\b(?!\s+(?:slots?|rate|width|queue|"
                   r"stage|logic|port))", re.I)
RUN_STORY = re.compile(r"\b(?:has|have|had)\s+not\s+(?:yet\s+)?(?:been\s+)?run\b"
                       r"|\bnot\s+yet\s+run\b|\basked\s+for\b[^.]{0,60}\bnot\s+given\b"
                       r"|\bpredates?\b|\bdevelopment\s+branch(?:es)?\b|\bsessions?\b", re.I)
LEARN_HEADING = re.compile(r"^#{1,3}\s*What you will learn\s*$", re.I)
LEARN_MAX_WORDS = 150
PROSE_MAX_WORDS = 2500
COMMAND_LINE = re.compile(r"^\s*[\\@](snippet|include|htmlinclude|image|dontinclude|example)\b")


class Report:
    def __init__(self, source_dir):
        self.source_dir = source_dir
        self.errors = []
        self.notes = []
        self.commit_known = commit_lookup(source_dir)

    def rel(self, path):
        return os.path.relpath(path, self.source_dir)

    def error(self, path, line, message):
        self.errors.append(f"{self.rel(path)}:{line}: error: {message}")

    def note(self, path, message):
        self.notes.append(f"{self.rel(path)}: note: {message}")


def git(source_dir, *args):
    try:
        return subprocess.run(["git", "-C", source_dir, *args], capture_output=True, text=True)
    except OSError:  # no git
        return None


def commit_lookup(source_dir):
    """A function telling whether a commit id is in the history of HEAD, or None where that
    cannot be told: the source directory is not the root of a git checkout (a tarball, a test's
    copy), or the checkout is shallow."""
    top = git(source_dir, "rev-parse", "--show-toplevel")
    if top is None or top.returncode != 0:
        return None
    if os.path.realpath(top.stdout.strip()) != os.path.realpath(source_dir):
        return None
    shallow = git(source_dir, "rev-parse", "--is-shallow-repository")
    if shallow is None or shallow.stdout.strip() != "false":
        return None
    cache = {}

    def known(sha):
        if sha not in cache:
            r = git(source_dir, "merge-base", "--is-ancestor", sha, "HEAD")  # not a branch's
            cache[sha] = r is not None and r.returncode == 0
        return cache[sha]
    return known


def check_commits(report, path, lines):
    if report.commit_known is None:
        return
    says_not_kept = NOT_KEPT in " ".join(" ".join(lines).split())
    for i, line in enumerate(lines):
        for m in COMMIT_REF.finditer(line):
            if not says_not_kept and not report.commit_known(m.group(1)):
                report.error(path, i + 1, f"commit {m.group(1)} is not in this repository's "
                             "history: cite a commit of main, or say on the page that the "
                             f"development branches were '{NOT_KEPT}' (and keep the change as a "
                             "patch beside the run's output)")


def check_for_readers(report, path, lines):
    """Rule 6: no commit hash, issue number or story of the runs (not on a runs page)."""
    for i, line in enumerate(lines):
        if COMMAND_LINE.match(line):
            continue
        for m in HASH.finditer(line):
            report.error(path, i + 1, f"commit hash '{m.group(0)}' on a reader's page: history "
                         "goes on the step's runs page (<step>_runs.md, see book/README.md)")
        for m in ISSUE.finditer(line):
            report.error(path, i + 1, f"'{m.group(0)}': the reader knows no issues; say what "
                         "the target or the test is")
        for m in RUN_STORY.finditer(line):
            report.error(path, i + 1, f"story of the runs '{m.group(0)}' on a reader's page: say "
                         "what was measured and where (on the H100, say), and put the history on "
                         "the step's runs page")


def prose_lines(lines):
    """(index, line) of the lines a reader reads as prose: not in a fenced, \\code or \\verbatim
    block, not a table row, not a command that brings in generated or compiled content."""
    inside = None
    for i, line in enumerate(lines):
        if inside is not None:
            if inside.match(line):
                inside = None
            continue
        fence = FENCE.match(line)
        if fence:
            inside = re.compile(r"^\s*" + re.escape(fence.group(2)[0]) + "{%d,}\\s*$"
                                % len(fence.group(2)))
            continue
        if CODE_CMD.match(line):
            inside = END_CODE_CMD
            continue
        if VERBATIM.match(line):
            inside = END_VERBATIM
            continue
        stripped = line.strip()
        if stripped.startswith("|") or COMMAND_LINE.match(line) or re.match(
                r"[\\@](verbinclude|htmlinclude|page|subpage|diffbase)\b", stripped):
            continue
        yield i, line


def words(line):
    return len(re.findall(r"[^\s|]+", line))


def check_length(report, path, lines, is_step):
    """Rule 7: a short "What you will learn"; a step page's prose within PROSE_MAX_WORDS."""
    prose = list(prose_lines(lines))
    learn_at, learn_words = None, 0
    for i, line in prose:
        if LEARN_HEADING.match(line.strip()):
            learn_at = i
            continue
        if learn_at is not None:
            if re.match(r"^\s*#{1,3}\s", line):
                break
            learn_words += words(line)
    if learn_at is not None and learn_words > LEARN_MAX_WORDS:
        report.error(path, learn_at + 1, f"'What you will learn' runs to {learn_words} words; "
                     f"keep it to {LEARN_MAX_WORDS} at most: the lesson in a few sentences")
    if is_step:
        total = sum(words(line) for _, line in prose)
        if total > PROSE_MAX_WORDS:
            report.error(path, 1, f"{total} words of prose; a step page reads in one sitting "
                         f"({PROSE_MAX_WORDS} at most, generated tables and snippets not counted): "
                         "keep the lesson, move history and dead ends to the runs page")


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")


def first_command(lines):
    """(line number, text) of the first non-empty line."""
    for i, line in enumerate(lines, 1):
        if line.strip():
            return i, line.strip()
    return 1, ""


def check_header(report, path, lines, want_id):
    line_no, first = first_command(lines)
    m = re.match(r"^[\\@](page|mainpage)\s*(\S*)", first)
    if not m:
        report.error(path, line_no, "a page must start with `\\page <id> <title>`")
        return
    if want_id is None:
        return
    if want_id == "mainpage":
        if m.group(1) != "mainpage":
            report.error(path, line_no, "the front page must start with `\\mainpage <title>`")
        return
    if m.group(1) != "page" or m.group(2) != want_id:
        report.error(path, line_no, f"this page must start with `\\page {want_id} <title>` "
                     f"(found `{first[:60]}`)")


def looks_like_c(block_lines):
    text = "\n".join(block_lines)
    if CUDA_TOKENS.search(text):
        return True
    statements = sum(1 for ln in block_lines if re.search(r"[;{}]\s*(//.*)?$", ln.strip()))
    return statements >= 2


def check_code_blocks(report, path, lines):
    """Fenced, \\code and \\verbatim blocks of C/C++/CUDA; Markdown images; '*' '/'."""
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        fence = FENCE.match(line)
        code = CODE_CMD.match(line)
        verb = VERBATIM.match(line)
        if fence or code or verb:
            start = i
            if fence:
                marker, lang = fence.group(2), fence.group(3).lower()
                close = re.compile(r"^\s*" + re.escape(marker[0]) + "{%d,}\\s*$" % len(marker))
            elif code:
                lang = (code.group(2) or "").lower() or "cpp"  # \code defaults to the C++ lexer
                close = END_CODE_CMD
            else:
                lang = ""
                close = END_VERBATIM
            i += 1
            body = []
            while i < n and not close.match(lines[i]):
                body.append(lines[i])
                i += 1
            is_c = lang.lstrip(".") in C_LANGS
            if is_c or (lang in ("", "text", "plain", "none", "txt") and looks_like_c(body)) or (
                    CUDA_TOKENS.search("\n".join(body)) and lang not in ("sh", "bash", "console",
                                                                        "shell", "cmake")):
                report.error(path, start + 1, "a C/C++/CUDA code block typed into the page; code "
                             "enters the book only through `\\snippet{lineno} <path> <tag>` or "
                             "`\\include` of the compiled sources")
            i += 1
            continue
        if MD_IMAGE.search(line):
            report.error(path, i + 1, "a Markdown image is not checked by Doxygen; use "
                         "`\\image html <file> \"<caption>\"`")
        if "*/" in line:
            report.error(path, i + 1, "'*/' cannot appear in a page (the renderer passes pages to "
                         "Doxygen inside a comment); write '* /' or use a snippet")
        i += 1


def then_tables(lines):
    """Line indexes (0-based) of Markdown tables that name their source document."""
    exempt = set()
    i = 0
    n = len(lines)
    while i < n:
        if lines[i].lstrip().startswith("|"):
            start = i
            while i < n and lines[i].lstrip().startswith("|"):
                i += 1
            end = i  # exclusive
            context = lines[start:end]
            # the caption: the paragraph right before the table and the line right after it
            j = start - 1
            while j >= 0 and not lines[j].strip():
                j -= 1
            while j >= 0 and lines[j].strip():
                context.append(lines[j])
                j -= 1
            k = end
            while k < n and not lines[k].strip():
                k += 1
            if k < n:
                context.append(lines[k])
            if SOURCE_NAMED.search("\n".join(context)):
                exempt.update(range(start, end))
        else:
            i += 1
    return exempt


def check_numbers(report, path, lines):
    exempt = then_tables(lines)
    for i, line in enumerate(lines):
        if i in exempt or COMMAND_LINE.match(line):
            continue
        found = []
        for m in WITH_UNIT.finditer(line):
            found.append(m.group(0).strip())
        for m in SPEEDUP.finditer(line):
            if SHAPE_BEFORE.search(line[:m.start()]):
                continue  # the last factor of a shape: "32 x 8"
            decimal = re.search(r"[.,]", re.match(NUMBER, m.group(0)).group(0))
            after = line[m.end(0) - len(m.group(1) or ""):]
            if decimal or not re.match(r"\s*\w", after) or SPEED_WORD.match(after):
                found.append(m.group(0).strip())
        for m in PCT_OF.finditer(line):
            found.append(m.group(0).strip())
        for text in found:
            report.error(path, i + 1, f"hand-typed measurement '{text}': measured numbers come "
                         "from the generated tables and plots or from \\fact{...} (see "
                         "book/README.md); numbers quoted from a source document belong in a "
                         "table that names it ('Source 001, G80')")


SOURCE_COMMAND = re.compile(r"^\s*[\\@](snippet|include|dontinclude|verbinclude|example)"
                            r"(\{[^}]*\})?\s+(\S+)")


def check_no_solution_code(report, path, lines):
    for i, line in enumerate(lines):
        m = SOURCE_COMMAND.match(line)
        if m and re.search(r"(^|/)solutions/", m.group(3)):
            report.error(path, i + 1, f"'{m.group(3)}' is a solution: the site never shows "
                         "solution code (show the skeleton in exercises/, or nothing)")


def check_page_text(report, path, want_id, kind=None):
    """kind: "step", "runs", "chapter" (a part page, a summary, another page of a part) or None
    (the book's own pages)."""
    lines = read_lines(path)
    check_header(report, path, lines, want_id)
    check_code_blocks(report, path, lines)
    check_numbers(report, path, lines)
    check_no_solution_code(report, path, lines)
    check_commits(report, path, lines)
    if kind in ("step", "chapter"):
        check_for_readers(report, path, lines)
        check_length(report, path, lines, kind == "step")
    return lines


def check_tree(report, source_dir, parts, book_pages):
    chapters_dir = os.path.join(source_dir, "chapters")
    expected = {}  # page path -> page id it must declare (None: any id)
    kinds = {}  # page path -> "step", "runs" or "chapter"
    for part in parts:
        expected[os.path.normpath(part.page)] = "part_" + part.name
        kinds[os.path.normpath(part.page)] = "chapter"
        for extra in part.extra_pages():
            stem = os.path.splitext(os.path.basename(extra))[0]
            expected[os.path.normpath(extra)] = part.name + "_" + stem
            kinds[os.path.normpath(extra)] = "chapter"
        for step in part.steps:
            expected[os.path.normpath(step.page)] = step.name
            kinds[os.path.normpath(step.page)] = "step"
            if os.path.exists(step.runs_page):
                expected[os.path.normpath(step.runs_page)] = step.name + "_runs"
                kinds[os.path.normpath(step.runs_page)] = "runs"
                if os.path.exists(step.page) and not re.search(
                        r"^\s*(?:-\s*)?[\\@]subpage\s+" + re.escape(step.name + "_runs") + r"\b",
                        "\n".join(read_lines(step.page)), re.M):
                    report.error(step.page, 1, f"{step.name} has a runs page: list it on this "
                                 f"page with `\\subpage {step.name}_runs` (the reader's link, and "
                                 "its place under the step in the navigation)")
            if not os.path.isdir(step.dir):
                report.error(step.dir, 0, f"step {step.name} is registered but its directory is "
                             "missing")
            elif not os.path.exists(step.page):
                report.error(step.page, 0, f"chapter {step.name} has no page: write "
                             f"{os.path.basename(step.page)} starting with `\\page {step.name} "
                             f"{step.name}: <short title>`")
        if not os.path.exists(part.page):
            report.error(part.page, 0, f"part {part.name} has no page: write "
                         f"{os.path.basename(part.page)} starting with `\\page part_{part.name} "
                         "<title>` and \\subpage each step")

    registered = {os.path.normpath(s.dir) for s in book_tree.all_steps(parts)}
    if os.path.isdir(chapters_dir):
        for d in book_tree.code_dirs(chapters_dir):
            if d not in registered:
                report.error(os.path.join(d, "CMakeLists.txt"), 1, "this chapter directory is not "
                             "in the build (add_subdirectory missing?), so the book has no page "
                             "for it")
        for page in book_tree.chapter_pages(chapters_dir):
            if os.path.normpath(page) not in expected:
                report.error(page, 1, "this page has no chapter: a page is <step dir>/<step>.md "
                             "of a registered step (or its runs page <step>_runs.md beside it), "
                             "chapters/<part>/<part>.md, or another page directly in a part "
                             "directory")

    for page, want_id in sorted(expected.items()):
        if os.path.exists(page):
            lines = check_page_text(report, page, want_id, kinds.get(page))
            text = "\n".join(lines)
            step = next((s for s in book_tree.all_steps(parts)
                         if os.path.normpath(s.page) == page), None)
            if step:
                for gen in (f"{step.name}_results.html", f"{step.name}_diff.html"):
                    if not re.search(r"[\\@]htmlinclude\s+" + re.escape(gen), text):
                        report.note(page, f"not complete yet: no `\\htmlinclude {gen}`")
    for page in book_pages:
        want = "mainpage" if os.path.basename(page).startswith("00_") else None
        check_page_text(report, page, want)


def run_checks(source_dir, steps_tsv, book_pages_dir=None):
    report = Report(source_dir)
    parts = book_tree.read_steps(steps_tsv, source_dir)
    book_pages = []
    if book_pages_dir and os.path.isdir(book_pages_dir):
        book_pages = sorted(os.path.join(book_pages_dir, f) for f in os.listdir(book_pages_dir)
                            if re.match(r"^\d\d_.*\.md$", f))
    check_tree(report, source_dir, parts, book_pages)
    return report


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--source-dir", required=True, help="the repository root")
    ap.add_argument("--steps", required=True, help="steps.tsv written by CMake")
    ap.add_argument("--book-pages", help="directory of the book's own pages (book/pages)")
    args = ap.parse_args()
    if not os.path.exists(args.steps):
        print(f"check_pages: {args.steps} not found: configure with CMake first", file=sys.stderr)
        return 2
    report = run_checks(os.path.abspath(args.source_dir), args.steps, args.book_pages)
    for line in report.notes:
        print(line)
    for line in report.errors:
        print(line, file=sys.stderr)
    if report.errors:
        print(f"check_pages: {len(report.errors)} error(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
