#!/usr/bin/env python3
"""check_evidence.py [--source-dir DIR] [--results-dir DIR]: keeps the evidence, its index and its
citations in step (book/README.md, "Evidence"). What the test book.evidence runs.

The evidence of a GPU is every file under book/results/<gpu>/ but the bench's results files
(<part>.csv at the top) and the index itself: each lies at <gpu>/<part>/<step>/<file> and has one
row in <gpu>/evidence.tsv (file, step, commit, command, claim). Pages cite a file with
\\evidence{<gpu>/<part>/<step>/<file>} (a link) or show it with \\verbinclude <part>/<step>/<file>
(the shown GPU's file, else another GPU's); a source gives a tuning constant's evidence on a line
`// provenance: <gpu>/<part>/<step>/<file>` (or a bench results file, <gpu>/<part>.csv). Errors, as `path:line: error: ...`:

- a file in a GPU directory outside <part>/<step>/ (other than a results file and the index);
- a file under <part>/<step>/ that the index does not list, and an index row whose file is
  missing; a malformed row (five tab-separated fields, the step its path's <part>/<step>, a
  commit, a command and a claim);
- a page's \\evidence{...} or \\verbinclude that names no file, and an evidence file named in a
  page as bare text (`x_1234abc.txt`) instead of through \\evidence{...};
- a provenance key that names no indexed file (or bench results file, <gpu>/<part>.csv).

Exit codes: 0 all in step, 1 a problem found (each printed), 2 bad usage.
"""
import argparse
import os
import re
import sys

INDEX = "evidence.tsv"
COLUMNS = ["file", "step", "commit", "command", "claim"]
CITE = re.compile(r"[\\@]evidence\{([^}]*)\}")
SHOW = re.compile(r"[\\@]verbinclude\s+(\S+)")
PROVENANCE = re.compile(r"(?://|#)\s*provenance:\s*(\S*)")
# An evidence-like file name in prose: a .txt or .patch name that is not part of a path.
BARE_NAME = re.compile(r"(?<![\w/.{-])([\w-]+\.(?:txt|patch))(?![\w.-])")
NOT_EVIDENCE = {"CMakeLists.txt"}
# Where a bare name is fine: a citation, a shown file, a `git show <rev>:<path>` of a deleted one.
EXEMPT_SPAN = re.compile(r"[\\@]evidence\{[^}]*\}|[\\@]verbinclude\s+\S+|git show \S+")
SOURCE_EXTENSIONS = (".cu", ".cuh", ".hpp", ".cpp", ".h", ".py", ".sh", ".cmake", ".txt")


def is_results_file(path):
    """A bench results file at the top of a GPU directory: a CSV whose first lines are '#'
    metadata with a '# gpu:' line (gen_results.is_results_file, without importing it), or JSON."""
    if path.endswith(".json"):
        return True
    if not path.endswith(".csv"):
        return False
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.startswith("#"):
                return False
            if line.startswith("# gpu:"):
                return True
    return False


def read_index(path, problems):
    """{file: (line number, row dict)} from one GPU's evidence.tsv; problems appended."""
    rows = {}
    header_seen = False
    with open(path, encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            fields = line.split("\t")
            if not header_seen:
                header_seen = True
                if fields != COLUMNS:
                    problems.append(f"{path}:{line_no}: error: the header must be "
                                    f"{' <TAB> '.join(COLUMNS)}")
                continue
            if len(fields) != len(COLUMNS):
                problems.append(f"{path}:{line_no}: error: {len(fields)} fields, expected "
                                f"{len(COLUMNS)} ({', '.join(COLUMNS)})")
                continue
            row = dict(zip(COLUMNS, fields))
            parts = row["file"].split("/")
            if len(parts) != 3 or not all(parts) or ".." in parts:
                problems.append(f"{path}:{line_no}: error: file '{row['file']}' is not "
                                "<part>/<step>/<name>")
            elif row["step"] != "/".join(parts[:2]):
                problems.append(f"{path}:{line_no}: error: step '{row['step']}' is not the "
                                f"file's <part>/<step>, {'/'.join(parts[:2])}")
            for column in ("commit", "command", "claim"):
                if not row[column].strip():
                    problems.append(f"{path}:{line_no}: error: {row['file']} has no {column}")
            if row["file"] in rows:
                problems.append(f"{path}:{line_no}: error: {row['file']} is listed twice "
                                f"(also line {rows[row['file']][0]})")
            rows[row["file"]] = (line_no, row)
    if not header_seen:
        problems.append(f"{path}:1: error: no header line ({' <TAB> '.join(COLUMNS)})")
    return rows


def check_results(results_dir, problems):
    """Checks every GPU directory against its index. Returns the set of indexed keys
    (<gpu>/<part>/<step>/<file>) that exist."""
    keys = set()
    if not os.path.isdir(results_dir):
        return keys
    for gpu in sorted(os.listdir(results_dir)):
        gpu_dir = os.path.join(results_dir, gpu)
        if not os.path.isdir(gpu_dir):
            continue
        on_disk = set()
        for root, dirs, files in os.walk(gpu_dir):
            dirs.sort()
            rel_root = os.path.relpath(root, gpu_dir)
            depth = 0 if rel_root == "." else rel_root.count(os.sep) + 1
            for name in sorted(files):
                path = os.path.join(root, name)
                rel = os.path.relpath(path, gpu_dir).replace(os.sep, "/")
                if depth == 0 and (name == INDEX or is_results_file(path)):
                    continue
                if depth != 2:
                    problems.append(f"{path}:1: error: evidence goes in "
                                    f"{gpu}/<part>/<step>/<file> (with a row in {gpu}/{INDEX})")
                    continue
                on_disk.add(rel)
        index_path = os.path.join(gpu_dir, INDEX)
        if not os.path.exists(index_path):
            if on_disk:
                problems.append(f"{index_path}:1: error: missing: {len(on_disk)} evidence files "
                                "have no index")
            continue
        rows = read_index(index_path, problems)
        for rel in sorted(on_disk - set(rows)):
            problems.append(f"{os.path.join(gpu_dir, rel)}:1: error: not in {gpu}/{INDEX}: add "
                            "its row (file, step, commit, command, claim)")
        for rel in sorted(set(rows) - on_disk):
            problems.append(f"{index_path}:{rows[rel][0]}: error: {rel} is listed but missing")
        keys |= {f"{gpu}/{rel}" for rel in on_disk & set(rows)}
    return keys


def pages_of(source_dir):
    found = []
    for top in ("chapters", os.path.join("book", "pages")):
        for root, dirs, files in os.walk(os.path.join(source_dir, top)):
            dirs.sort()
            found += [os.path.join(root, f) for f in sorted(files) if f.endswith(".md")]
    return found


def check_pages(source_dir, keys, problems):
    shown = {k.split("/", 1)[1] for k in keys}  # <part>/<step>/<file> of any GPU
    for page in pages_of(source_dir):
        rel = os.path.relpath(page, source_dir)
        with open(page, encoding="utf-8") as f:
            lines = f.read().split("\n")
        for line_no, line in enumerate(lines, 1):
            for key in CITE.findall(line):
                if key not in keys:
                    problems.append(f"{rel}:{line_no}: error: \\evidence{{{key}}} names no "
                                    "indexed file (<gpu>/<part>/<step>/<file> under book/results)")
            for name in SHOW.findall(line):
                if name not in shown and not os.path.isfile(os.path.join(source_dir, name)):
                    problems.append(f"{rel}:{line_no}: error: \\verbinclude {name} names no "
                                    "evidence file (<part>/<step>/<file> under a GPU's directory)")
            for name in BARE_NAME.findall(EXEMPT_SPAN.sub("", line)):
                if name not in NOT_EVIDENCE:
                    problems.append(f"{rel}:{line_no}: error: '{name}' named as text: cite "
                                    "evidence with \\evidence{<gpu>/<part>/<step>/<file>} (a "
                                    "deleted file: `git show <commit>:<path>`)")


def is_results_key(source_dir, key):
    """A bench results file, <gpu>/<part>.csv (its --sweep rows are evidence too)."""
    parts = key.split("/")
    return (len(parts) == 2 and parts[1].endswith(".csv")
            and os.path.isfile(os.path.join(source_dir, "book", "results", key)))


def check_provenance(source_dir, keys, problems):
    for top in ("chapters", "common", "solutions"):
        for root, dirs, files in os.walk(os.path.join(source_dir, top)):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith(SOURCE_EXTENSIONS):
                    continue
                path = os.path.join(root, name)
                with open(path, encoding="utf-8", errors="replace") as f:
                    for line_no, line in enumerate(f, 1):
                        for key in PROVENANCE.findall(line):
                            key = key.rstrip(".,;)")
                            if key not in keys and not is_results_key(source_dir, key):
                                problems.append(
                                    f"{os.path.relpath(path, source_dir)}:{line_no}: error: "
                                    f"provenance key '{key}' names no indexed evidence file "
                                    "(<gpu>/<part>/<step>/<file> under book/results)")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--source-dir", default=os.path.dirname(os.path.dirname(here)),
                    help="the repository root (default: this checkout)")
    ap.add_argument("--results-dir", help="default: <source>/book/results")
    args = ap.parse_args()
    source_dir = os.path.abspath(args.source_dir)
    results_dir = os.path.abspath(args.results_dir or
                                  os.path.join(source_dir, "book", "results"))
    if not os.path.isdir(os.path.join(source_dir, "chapters")):
        print(f"check_evidence: {source_dir} has no chapters/: not the repository root",
              file=sys.stderr)
        return 2
    problems = []
    keys = check_results(results_dir, problems)
    check_pages(source_dir, keys, problems)
    check_provenance(source_dir, keys, problems)
    for p in problems:
        print(p)
    print(f"check_evidence: {len(keys)} indexed files, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
