"""book_tree: the book's parts, steps and pages, found from the tree (never from a fixed list).

The reading order comes from steps.tsv, which CMake writes at configure time from the
add_chapter() calls (part <TAB> step <TAB> source directory, in the order chapters/CMakeLists.txt
adds them). A part is the directory that holds its steps (chapters/<part>/); its pages are
<part>.md (the part page, `\\page part_<part>`), the steps' <step>.md pages, each step's runs page
<step>_runs.md beside it where the step has one (`\\page <step>_runs`: its history, nested under the
step), and any other *.md in the part directory (e.g. summary.md, `\\page <part>_summary`).
"""
import os
import re


class Step:
    def __init__(self, part, name, directory, index):
        self.part = part
        self.name = name
        self.dir = directory
        self.index = index  # position in its part, from 0
        self.page = os.path.join(directory, name + ".md")
        # the step's history (hashes, dead ends), kept off the step page; optional
        self.runs_page = os.path.join(directory, name + "_runs.md")
        self.kernel_file = os.path.join(directory, name + ".cuh")


class Part:
    def __init__(self, name, directory):
        self.name = name
        self.dir = directory
        self.page = os.path.join(directory, name + ".md")
        self.steps = []

    def extra_pages(self):
        """Other pages directly in the part directory (summary.md, ...), sorted by name."""
        if not os.path.isdir(self.dir):
            return []
        return sorted(os.path.join(self.dir, f) for f in os.listdir(self.dir)
                      if f.endswith(".md") and f != self.name + ".md")


def read_steps(steps_tsv, source_dir):
    """Parts (in reading order) with their steps, from steps.tsv. Relative directories are taken
    relative to source_dir. Only steps under chapters/ are the book's (exercises/ and solutions/
    may register programs too)."""
    chapters_dir = os.path.join(os.path.realpath(source_dir), "chapters") + os.sep
    parts = []
    by_name = {}
    with open(steps_tsv, encoding="utf-8") as f:
        for line_no, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip():
                continue
            fields = line.split("\t")
            if len(fields) < 3:
                raise ValueError(f"{steps_tsv}:{line_no}: expected part<TAB>step<TAB>directory")
            part_name, step_name, directory = fields[:3]
            if not os.path.isabs(directory):
                directory = os.path.join(source_dir, directory)
            directory = os.path.normpath(directory)
            if not (os.path.realpath(directory) + os.sep).startswith(chapters_dir):
                continue
            part = by_name.get(part_name)
            if part is None:
                part = Part(part_name, os.path.dirname(directory))
                by_name[part_name] = part
                parts.append(part)
            part.steps.append(Step(part_name, step_name, directory, len(part.steps)))
    return parts


def all_steps(parts):
    return [s for p in parts for s in p.steps]


def previous_step(parts, step):
    """The step before `step` in its part, or None for the first step of a part."""
    for p in parts:
        if p.name == step.part:
            return p.steps[step.index - 1] if step.index > 0 else None
    return None


def chapter_pages(chapters_dir):
    """Every *.md under chapters/ (sorted), the pages the pairing check looks at."""
    found = []
    for root, dirs, files in os.walk(chapters_dir):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".md"):
                found.append(os.path.join(root, f))
    return found


def code_dirs(chapters_dir):
    """Directories under chapters/ holding a step's code (a CMakeLists.txt calling add_chapter)."""
    found = []
    for root, dirs, files in os.walk(chapters_dir):
        dirs.sort()
        if "CMakeLists.txt" in files:
            with open(os.path.join(root, "CMakeLists.txt"), encoding="utf-8") as f:
                if re.search(r"^\s*add_chapter\s*\(", f.read(), re.M):
                    found.append(os.path.normpath(root))
    return found


def reading_order_pages(parts):
    """The chapter pages in reading order: each part page, its steps' pages (each followed by its
    runs page, if it has one), its other pages."""
    pages = []
    for p in parts:
        pages.append(p.page)
        for s in p.steps:
            pages.append(s.page)
            if os.path.exists(s.runs_page):
                pages.append(s.runs_page)
        pages += p.extra_pages()
    return pages
