#!/usr/bin/env python3
"""md_filter: Doxygen's input filter for the book's Markdown pages (FILTER_PATTERNS = *.md=...).

Doxygen 1.9.4 renames a Markdown file's `\\page <id>` to md_<file name> and keeps <id> only as an
anchor, so `\\subpage <id>` from another file does not nest the page in the tree view (doxygen
issue #9254). The book maps *.md to the C++ parser and this filter hands each page over as one
`/*! ... */` comment block, where `\\page` keeps its id and Markdown still works. Every line
stays on its own line number, so warnings point at the right line of the .md file. The " * "
put before each line is the comment decoration Doxygen strips; a page's own "* item" bullets
survive it.
"""
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    lines = f.read().split("\n")
if lines and lines[-1] == "":
    lines.pop()
out = ["/*! " + (lines[0] if lines else "")] + [" * " + line for line in lines[1:]] + [" */"]
sys.stdout.write("\n".join(out) + "\n")
