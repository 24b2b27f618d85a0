"""gen_diff: a coloured side-by-side diff of a step's kernel file (<step>.cuh) against the previous
step's, as an HTML fragment for `\\htmlinclude <step>_diff.html`.

Only the changed regions and CONTEXT lines around them are shown; the unchanged stretches between
them are folded into one row that says how many lines it hides. Long lines wrap inside their column
(no horizontal scrolling). Changed lines that are similar are paired and their changed characters
marked.
"""
import difflib
import html
import os
import re

CONTEXT = 3


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


def _intraline(a, b):
    """(a_html, b_html) with the differing words of a and b wrapped in <del>/<ins>."""
    ta, tb = TOKEN.findall(a), TOKEN.findall(b)
    sm = difflib.SequenceMatcher(None, ta, tb, autojunk=False)
    out_a, out_b = [], []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        sa, sb = html.escape("".join(ta[i1:i2])), html.escape("".join(tb[j1:j2]))
        if op == "equal":
            out_a.append(sa)
            out_b.append(sb)
        else:
            if sa:
                out_a.append(f"<del>{sa}</del>")
            if sb:
                out_b.append(f"<ins>{sb}</ins>")
    return "".join(out_a), "".join(out_b)


def _row(left_no, left, right_no, right, kind):
    ln = "" if left_no is None else str(left_no)
    rn = "" if right_no is None else str(right_no)
    lcls = {"equal": "", "delete": " book-del", "replace": " book-del", "insert": " book-none"}
    rcls = {"equal": "", "insert": " book-add", "replace": " book-add", "delete": " book-none"}
    return (f'<tr><td class="book-ln">{ln}</td><td class="book-code{lcls[kind]}">{left}</td>'
            f'<td class="book-ln">{rn}</td><td class="book-code{rcls[kind]}">{right}</td></tr>')


def diff_table(old_lines, new_lines, old_label, new_label):
    sm = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    groups = list(sm.get_grouped_opcodes(CONTEXT))
    added = removed = 0
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op in ("replace", "delete"):
            removed += i2 - i1
        if op in ("replace", "insert"):
            added += j2 - j1
    rows = []
    last_old = 0
    for g in groups:
        first_old = g[0][1]
        if first_old > last_old:
            hidden = first_old - last_old
            rows.append(f'<tr class="book-fold"><td colspan="4">⋯ {hidden} unchanged line'
                        f'{"s" if hidden != 1 else ""} ⋯</td></tr>')
        for op, i1, i2, j1, j2 in g:
            if op == "equal":
                for k in range(i2 - i1):
                    text = html.escape(old_lines[i1 + k])
                    rows.append(_row(i1 + k + 1, text, j1 + k + 1, text, "equal"))
            elif op == "replace":
                span = max(i2 - i1, j2 - j1)
                for k in range(span):
                    a = old_lines[i1 + k] if i1 + k < i2 else None
                    b = new_lines[j1 + k] if j1 + k < j2 else None
                    if a is not None and b is not None:
                        if difflib.SequenceMatcher(None, a, b).ratio() > 0.5:
                            ha, hb = _intraline(a, b)
                        else:
                            ha, hb = html.escape(a), html.escape(b)
                        rows.append(_row(i1 + k + 1, ha, j1 + k + 1, hb, "replace"))
                    elif a is not None:
                        rows.append(_row(i1 + k + 1, html.escape(a), None, "", "delete"))
                    else:
                        rows.append(_row(None, "", j1 + k + 1, html.escape(b), "insert"))
            elif op == "delete":
                for k in range(i1, i2):
                    rows.append(_row(k + 1, html.escape(old_lines[k]), None, "", "delete"))
            elif op == "insert":
                for k in range(j1, j2):
                    rows.append(_row(None, "", k + 1, html.escape(new_lines[k]), "insert"))
        last_old = g[-1][2]
    if groups and last_old < len(old_lines):
        hidden = len(old_lines) - last_old
        rows.append(f'<tr class="book-fold"><td colspan="4">⋯ {hidden} unchanged line'
                    f'{"s" if hidden != 1 else ""} ⋯</td></tr>')
    if not groups:
        rows.append('<tr class="book-fold"><td colspan="4">The two files are identical.</td></tr>')
    head = (f'<div class="book-diff-head"><span class="book-diff-old">{html.escape(old_label)}'
            f'</span><span class="book-diff-new">{html.escape(new_label)}</span>'
            f'<span class="book-diff-stat"><span class="book-minus">−{removed}</span> '
            f'<span class="book-plus">+{added}</span> lines</span></div>')
    return ('<div class="book-diff">' + head + '<table class="book-diff-table"><colgroup>'
            '<col class="book-ln-col"/><col/><col class="book-ln-col"/><col/></colgroup><tbody>' +
            "\n".join(rows) + "</tbody></table></div>\n")


def step_diff(step, prev, part_title, source_dir):
    """The fragment for one step: the diff against `prev`, or a note for a part's first step."""
    rel = os.path.relpath(step.kernel_file, source_dir)
    if not os.path.exists(step.kernel_file):
        return (f'<div class="book-diff-note"><p><code>{html.escape(rel)}</code> does not exist: '
                f'each step keeps its kernel in <code>{html.escape(step.name)}.cuh</code>.</p>'
                "</div>\n")
    if prev is None:
        return (f'<div class="book-diff-note"><p><b>{html.escape(step.name)}</b> is the first step '
                f'of {html.escape(part_title)}: there is no previous step to compare '
                f'<code>{html.escape(rel)}</code> with. The next step\'s page shows what it '
                "changes here.</p></div>\n")
    prel = os.path.relpath(prev.kernel_file, source_dir)
    if not os.path.exists(prev.kernel_file):
        return (f'<div class="book-diff-note"><p>The previous step\'s kernel file '
                f'<code>{html.escape(prel)}</code> does not exist.</p></div>\n')
    return diff_table(_read(prev.kernel_file), _read(step.kernel_file), prel, rel)
