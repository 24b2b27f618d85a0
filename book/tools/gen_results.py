"""gen_results: the book's numbers, generated from the committed results of one GPU:
book/results/<gpu>/<part>.csv, one file per part, each from one bench run of that part (with its
own yardsticks and metadata).

Writes into the generated directory:
  <step>_results.html   the step's table (time, GB/s, % of the yardsticks and of the peer, step and
                        cumulative speedup) with the GPU and its metadata under it
  <step>_variants.svg   GB/s of each variant of the step at the part's reference size (horizontal
                        bars, fastest first, for a sweep of more than 8)
  <part>_bandwidth.svg  GB/s by step at the part's reference size, yardsticks and peer as lines
  <part>_sizes.svg      each step's GB/s (the sieve: time) against n on log axes, the copy
                        yardstick and each peer as lines; every part page shows it

Every generated table is in a box that scrolls sideways, has no column that is empty in every row,
and, past LONG_TABLE_ROWS rows, shows the default's rows with the whole table behind a summary
line (table_html).
  measurements.html     every row of every part's file and its metadata (the appendix)
  gpu_comparison.html   each part's final step and its peer on every GPU that has results
  facts                 {name: value} for the \\fact{name} aliases (see book/README.md)
"""
import csv
import glob
import html
import io
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

NUMERIC = {"n", "rows", "cols", "bytes", "reps", "median_ms", "min_ms", "max_ms", "gbps",
           "copy_gbps", "read_gbps", "pct_copy", "pct_read", "peer_gbps", "pct_peer"}


# ---------------------------------------------------------------------------------------------
# Loading and choosing


class Results:
    def __init__(self, path, meta, rows):
        self.path = path
        self.meta = meta
        self.rows = rows

    def gpu(self):
        return self.meta.get("gpu", "unknown GPU")

    def step_rows(self, step):
        return [r for r in self.rows if r["step"] == step and r["part"] != "yardstick"]

    def yardstick(self, name):
        return next((r for r in self.rows if r["part"] == "yardstick" and r["step"] == name), None)

    def not_available(self):
        """The steps this GPU (or this build) cannot run: they exited with 78, so the bench wrote
        no rows for them and named them in the `# not_available:` line (book/tools/bench.py)."""
        return set(self.meta.get("not_available", "").split())


def _typed(row):
    out = {}
    for key, value in row.items():
        if key is None:
            continue
        value = (value or "").strip() if isinstance(value, str) else value
        if key in NUMERIC:
            try:
                out[key] = float(value) if value not in ("", None) else 0.0
            except ValueError:
                raise ValueError(f"field {key}: '{value}' is not a number")
        else:
            out[key] = "" if value is None else str(value)
    for key in NUMERIC:
        out.setdefault(key, 0.0)
    for key in ("part", "step", "variant", "type", "peer", "check"):
        out.setdefault(key, "")
    return out


def load(path):
    """A results file: CSV ("# key: value" metadata lines, a header, rows) or JSON
    ({"metadata": {...}, "rows": [{...}, ...]})."""
    if path.endswith(".json"):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        meta = {str(k): str(v) for k, v in data.get("metadata", {}).items()}
        rows = [_typed(r) for r in data.get("rows", [])]
        return Results(path, meta, rows)
    meta, body = {}, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                if ":" in line:
                    key, value = line[1:].split(":", 1)
                    meta[key.strip()] = value.strip()
            elif line.strip():
                body.append(line)
    rows = [_typed(r) for r in csv.DictReader(io.StringIO("".join(body)))]
    return Results(path, meta, rows)


def is_results_file(path):
    """A bench results file: CSV with a "# gpu:" line, or JSON with a "metadata" object (other
    .csv files, e.g. raw profiler exports committed for \\verbinclude, are not)."""
    try:
        if path.endswith(".json"):
            with open(path, encoding="utf-8") as f:
                return isinstance(json.load(f).get("metadata"), dict)
        with open(path, encoding="utf-8") as f:
            for line in f:
                if not line.startswith("#"):
                    return False
                if line.startswith("# gpu:"):
                    return True
    except (OSError, ValueError, AttributeError):
        return False
    return False


def list_results(gpu_dir):
    """The results files of one GPU directory (other .csv files there, such as profiler exports
    committed for \\verbinclude, are not results)."""
    files = sorted(glob.glob(os.path.join(gpu_dir, "*.csv")) +
                   glob.glob(os.path.join(gpu_dir, "*.json")))
    return [f for f in files if is_results_file(f)]


class GpuResults:
    """One GPU's results: {part: Results}, each from one bench run of that part."""

    def __init__(self, slug, path, parts):
        self.slug = slug
        self.path = path
        self.parts = parts

    def part(self, name):
        return self.parts.get(name)

    def first(self, order=()):
        """The first part's results in `order` (reading order), else any; None if empty."""
        for name in list(order) + sorted(self.parts):
            if name in self.parts:
                return self.parts[name]
        return None

    def gpu(self):
        r = self.first()
        return r.gpu() if r else self.slug


def load_gpu(gpu_dir):
    """Every part's results file in `gpu_dir` (the part from its `# part:` line, else the file
    name). Raises ValueError when two files hold the same part."""
    parts = {}
    for path in list_results(gpu_dir):
        r = load(path)
        name = r.meta.get("part") or os.path.splitext(os.path.basename(path))[0]
        if name in parts:
            raise ValueError(f"{gpu_dir}: two results files for part {name}: "
                             f"{os.path.basename(parts[name].path)} and {os.path.basename(path)}")
        parts[name] = r
    return GpuResults(os.path.basename(os.path.normpath(gpu_dir)), gpu_dir, parts)


def list_gpus(results_dir):
    """The GPU directories of results_dir that hold at least one results file."""
    if not os.path.isdir(results_dir):
        return []
    return [os.path.join(results_dir, d) for d in sorted(os.listdir(results_dir))
            if os.path.isdir(os.path.join(results_dir, d))
            and list_results(os.path.join(results_dir, d))]


def _newest_date(gpu_dir):
    dates = []
    for path in list_results(gpu_dir):
        try:
            dates.append(load(path).meta.get("date", ""))
        except (OSError, ValueError, json.JSONDecodeError):
            pass
    return max(dates) if dates else ""


def choose(results_dir, gpu, source_dir):
    """The GPU directory the book shows: `gpu` (a slug in results_dir, or a path) when given,
    even one without results yet (its tables then say "not measured yet"); else the only GPU
    with results, or the one measured last. None when there are no results at all."""
    if gpu:
        for c in (os.path.join(results_dir, gpu), gpu, os.path.join(source_dir, gpu)):
            if os.path.isdir(c):
                return os.path.abspath(c)
        known = ", ".join(os.path.basename(d) for d in list_gpus(results_dir)) or "none"
        raise FileNotFoundError(f"BOOK_GPU={gpu}: no directory {os.path.join(results_dir, gpu)} "
                                f"(GPUs with results: {known}); run the bench on that GPU first")
    gpus = list_gpus(results_dir)
    if not gpus:
        return None
    return max(gpus, key=lambda d: (_newest_date(d), os.path.basename(d)))


# ---------------------------------------------------------------------------------------------
# Formatting


# A table longer than this many body rows is collapsed: the rows that matter (a step's default
# variant, say) stay in sight and the whole table opens from a <details> summary line under them.
LONG_TABLE_ROWS = 25
# What a cell reads when it has no value; a column of nothing else is left out of the table.
EMPTY_CELL = "—"


def cell_text(cell_html):
    """A cell's text without its tags (to tell an empty cell)."""
    return html.unescape(re.sub(r"<[^>]+>", "", cell_html)).strip()


def _empty_columns(body, width):
    return {j for j in range(width)
            if body and all(j >= len(cells) or cell_text(cells[j]) in (EMPTY_CELL, "")
                            for cells in body)}


def _table_tag(head, body, classes, table_class, keep_cols):
    out = [f'<div class="book-scroll"><table class="{table_class}"><thead><tr>']
    out += [f"<th>{h}</th>" for j, h in enumerate(head) if j in keep_cols]
    out.append("</tr></thead><tbody>")
    for cells, cls in zip(body, classes):
        attr = f' class="{cls}"' if cls else ""
        out.append(f"<tr{attr}>" + "".join(f"<td>{c}</td>" for j, c in enumerate(cells)
                                              if j in keep_cols) + "</tr>")
    out.append("</tbody></table></div>")
    return "\n".join(out)


def table_html(head, body, classes=None, shown=None, what="rows", table_class="book-results-table"):
    """A generated table as every page shows one: `head` (HTML of each column head) and `body`
    (rows of HTML cells), in a box that scrolls sideways when the table is wider than the page's
    column; a column whose every cell is empty (EMPTY_CELL) is left out. A table of more than
    LONG_TABLE_ROWS rows shows only the rows whose index is in `shown` (by default its first
    rows) and, under them, a <details> summary line ("all N <what>") that opens the whole table.
    `classes`: a CSS class per row ("" for none)."""
    classes = list(classes) if classes is not None else [""] * len(body)
    width = max([len(head)] + [len(c) for c in body])
    empty = _empty_columns(body, width)
    keep_cols = {j for j in range(width) if j not in empty}
    if len(body) <= LONG_TABLE_ROWS:
        return _table_tag(head, body, classes, table_class, keep_cols)
    shown = sorted(set(shown) if shown else range(min(12, len(body))))
    top = _table_tag(head, [body[i] for i in shown], [classes[i] for i in shown], table_class,
                     keep_cols)
    return (top + f'\n<details class="book-more"><summary>all {len(body)} {html.escape(what)} '
            f"(the {len(shown)} above and {len(body) - len(shown)} more)</summary>\n"
            + _table_tag(head, body, classes, table_class, keep_cols) + "\n</details>")


def _split_cells(row_html):
    """A ready row of <td> cells (a part generator's) as a list of cell HTML."""
    return re.findall(r"<td[^>]*>(.*?)</td>", row_html, re.S)


def captioned_table(caption, head_html, body_rows, shown=None):
    """A results table for a part's own generator (its then_now.py): a bold caption (escaped),
    column heads given as HTML (they may hold <sup>), and rows of ready <td> cells. Shown as
    table_html shows every generated table (`shown`: the row indices a long table keeps in
    sight)."""
    body = [_split_cells(r) for r in body_rows]
    return (f'<div class="book-results"><p><b>{html.escape(caption)}</b></p>\n'
            f"{table_html(head_html, body, shown=shown)}</div>\n")


def fmt_gbps(v):
    return f"{v:.0f}" if v >= 100 else f"{v:.1f}"


def fmt_time(ms):
    if ms >= 1.0:
        return f"{ms:.2f} ms"
    us = ms * 1000.0
    return f"{us:.0f} µs" if us >= 100 else f"{us:.1f} µs"


def fmt_pct(v):
    return f"{v:.1f}%"


def fmt_share(v):
    """A percentage written on a plot's bar: one decimal, two significant digits below 1% (a drawn
    bar never reads 0.0%)."""
    return f"{v:.2g}%" if 0 < v < 1 else fmt_pct(v)


def fmt_speedup(v):
    return f"{v:.2f}×"


def fmt_ratio(v):
    """A ratio judged against a target, to 3 decimals, rounded down, so that neither 0.918 nor
    0.9199 reads as the 0.92 it misses."""
    return f"{math.floor(v * 1000 + 1e-9) / 1000:.3f}×"  # 1e-9: 0.57 * 1000 is 569.99...


# Rows of type "numbers" (Part IV, the sieve) measure time, not bandwidth: their "bytes" column holds
# the numbers sieved and "gbps" reads 10^9 numbers per second; no yardstick applies to them, and
# their ratio to the peer is a speedup.
RATE_TYPE = "numbers"


def is_rate(r):
    return r["type"] == RATE_TYPE


def rate_unit(rows):
    return "10<sup>9</sup> numbers/s" if rows and all(is_rate(r) for r in rows) else "GB/s"


def size_key(r):
    return (int(r["n"]), int(r["rows"]), int(r["cols"]))


def size_label(r, html_out=True):
    n, rows, cols = size_key(r)
    if rows and cols:
        return f"{rows} × {cols}"
    if n > 0 and n & (n - 1) == 0:
        e = n.bit_length() - 1
        return f"2<sup>{e}</sup>" if html_out else f"2^{e}"
    return f"{n:,}"


def size_slug(r):
    """A size in fact names: 2_20 for 2^20, 1e10 for 10^10, 4096_x_4096, else the digits."""
    n, rows, cols = size_key(r)
    if rows and cols:
        return f"{rows}_x_{cols}"
    if n > 0 and n & (n - 1) == 0:
        return f"2_{n.bit_length() - 1}"
    digits = str(n)
    if n >= 10 and digits == "1" + "0" * (len(digits) - 1):
        return f"1e{len(digits) - 1}"
    return digits


def slug(text):
    return re.sub(r"_+", "_", re.sub(r"[^a-z0-9]+", "_", text.lower())).strip("_")


def short_commit(c):
    return c[:7] + ("-dirty" if c.endswith("-dirty") else "") if c else "unknown"


# ---------------------------------------------------------------------------------------------
# Model: reference sizes, comparisons


def reference_size(results, part):
    """The part's reference size: the size measured for the most steps (ties: the most bytes)."""
    count, most_bytes = {}, {}
    for s in part.steps:
        for key in {size_key(r) for r in results.step_rows(s.name)}:
            count[key] = count.get(key, 0) + 1
    for s in part.steps:
        for r in results.step_rows(s.name):
            k = size_key(r)
            most_bytes[k] = max(most_bytes.get(k, 0), r["bytes"])
    if not count:
        return None
    return max(count, key=lambda k: (count[k], most_bytes[k], k))


def _reading_order(rows):
    """Rows variant by variant (the default's first, as measured), each type together, sizes
    rising."""
    first = {}
    for k, r in enumerate(rows):
        first.setdefault(("variant", r["variant"]), k)
        first.setdefault(("type", r["type"]), k)
    return sorted(rows, key=lambda r: (first[("variant", r["variant"])],
                                       first[("type", r["type"])], _elements(r), size_key(r)))


def default_variant(rows):
    """The variant name of a step's default run: that of its first row (the bench runs the
    step's plain command line first; its sweeps follow)."""
    return rows[0]["variant"] if rows else ""


def best_row(rows):
    return max(rows, key=lambda r: (r["gbps"], -r["median_ms"])) if rows else None


def matching_row(results, step_name, row):
    """The row of `step_name` to compare `row` with: same type and size, same variant if it has
    one, else its fastest variant."""
    cands = [r for r in results.step_rows(step_name)
             if r["type"] == row["type"] and size_key(r) == size_key(row)
             and (r["bytes"] > 0) == (row["bytes"] > 0)]  # timing-only rows only with their kind
    same = [r for r in cands if r["variant"] == row["variant"]]
    if same:
        return same[0]
    return min(cands, key=lambda r: r["median_ms"]) if cands else None


def meta_line(results, source_dir):
    m = results.meta
    parts = [f"<b>{html.escape(results.gpu())}</b>"]
    if m.get("sm_count"):
        parts.append(f"{m['sm_count']} SMs")
    if m.get("l2_bytes"):
        parts.append(f"{int(m['l2_bytes']) / 2**20:.0f} MiB L2")
    if m.get("theoretical_gbps"):
        extra = ""
        if m.get("memory_clock_khz") and m.get("bus_width_bits"):
            extra = (f" ({int(m['memory_clock_khz']) / 1e6:.2f} GHz × 2 × "
                     f"{m['bus_width_bits']}-bit bus)")
        parts.append(f"theoretical {m['theoretical_gbps']} GB/s{extra}")
    if m.get("driver_cuda_version") or m.get("runtime_cuda_version"):
        parts.append(f"CUDA driver {m.get('driver_cuda_version', '?')}, runtime "
                     f"{m.get('runtime_cuda_version', '?')}")
    parts.append(f"commit {html.escape(short_commit(m.get('git_commit', '')))}")
    if m.get("date"):
        parts.append(html.escape(m["date"].replace("T", " ").replace("Z", " UTC")))
    rel = os.path.relpath(results.path, source_dir)
    return " · ".join(parts) + f" · <code>{html.escape(rel)}</code>"


# ---------------------------------------------------------------------------------------------
# The step table

# What a step's measurements depend on in its own folder: its code, not its tests, tools or pages.
STEP_CODE_SUFFIXES = (".cu", ".cuh", ".hpp", ".h", ".cpp")


def is_step_code(path):
    """A source a program is built from: not a test (`*_test.cu`, a `tests/` folder), not a tool."""
    name, where = os.path.basename(path), "/" + path.replace(os.sep, "/")
    return (name.endswith(STEP_CODE_SUFFIXES) and not name.endswith(("_test.cu", "_test.cpp"))
            and "/tools/" not in where and "/tests/" not in where)


def code_changed_since(step, commit, source_dir):
    """The step's code files (its folder's sources, not its tests or tools) that differ between
    `commit` and the checkout as it is now, working tree included. [] when none did; None when it
    cannot be told: no git checkout, or a commit this checkout's history does not hold (a shallow
    clone, a copy of the tree)."""
    if not commit or not source_dir:
        return None
    folder = os.path.relpath(step.dir, source_dir)
    try:
        r = subprocess.run(["git", "-C", source_dir, "diff", "--name-only", commit, "--", folder],
                           capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if r.returncode != 0:
        return None
    return sorted(p for p in r.stdout.split() if is_step_code(p))


def stale_notice(step, results, source_dir):
    """A visible notice above a step's table when the step's code changed after the run its rows
    come from: the rows may no longer describe the code on the page."""
    commit = results.meta.get("git_commit", "")
    changed = code_changed_since(step, commit, source_dir)
    if not changed:
        return ""
    files = ", ".join(f"<code>{html.escape(os.path.basename(p))}</code>" for p in changed)
    return (f'<p class="book-stale"><b>Measured at an older commit.</b> These rows come from the '
            f'run at commit {html.escape(short_commit(commit))}, and this step\'s code has changed '
            f'since ({files}): they may not describe the code on this page. Run the bench again '
            '(<code>bash common/tools/make_book.sh</code> on a GPU) to measure it as it is.</p>\n')



def _figures(images):
    return "".join(f'<div class="image"><img src="{html.escape(f)}" alt="{html.escape(c)}"/>'
                   f'<div class="caption">{html.escape(c)}</div></div>\n' for f, c in images)


def step_table(results, parts, part, step, source_dir, images=(), missing=""):
    """The step's table; `images` [(file, caption)] are shown under it (build_book.py copies
    them next to the pages). `results` is the step's part's results (None when the GPU the book
    shows has no file for that part: `missing` then says so)."""
    if results is None:
        return ('<div class="book-results book-missing"><p>' + (missing or
                'No measurements are committed yet: run <code>cmake --build --preset default '
                '--target bench</code> on a GPU and commit <code>book/results/</code>.') +
                '</p></div>\n')
    rows = results.step_rows(step.name)
    if not rows and step.name in results.not_available():
        return (f'<div class="book-results book-missing"><p><b>{html.escape(step.name)}</b> is '
                f'not available on this GPU ({html.escape(results.gpu())}): its idea needs a '
                'feature that this GPU, or this build of the program, lacks, so the program stops '
                'with exit code 78 and the bench measured no rows of it (<code>'
                f'{html.escape(os.path.relpath(results.path, source_dir))}</code> names it under '
                '<code>not_available</code>).</p>'
                f'<p class="book-meta">{meta_line(results, source_dir)}</p></div>\n')
    if not rows:
        return (f'<div class="book-results book-missing"><p><b>{html.escape(step.name)}</b> is '
                f'not measured in <code>{html.escape(os.path.relpath(results.path, source_dir))}'
                f'</code> ({html.escape(results.gpu())}, commit '
                f'{html.escape(short_commit(results.meta.get("git_commit", "")))}): run the bench '
                'on a GPU (<code>cmake --build --preset default --target bench</code>) and commit '
                'the results.</p>'
                f'<p class="book-meta">{meta_line(results, source_dir)}</p></div>\n')
    prev = part.steps[step.index - 1] if step.index > 0 else None
    first = part.steps[0] if step.index > 0 else None
    ref = reference_size(results, part)
    ref_rows = [r for r in rows if size_key(r) == ref]
    best = best_row(ref_rows) or best_row(rows)
    has_peer = any(r["peer"] for r in rows)
    peers = sorted({r["peer"] for r in rows if r["peer"]})

    head = ["variant", "type", "size", "median time", rate_unit(rows), "% of copy", "% of read"]
    if has_peer:
        head.append("% of " + html.escape(" / ".join(peers)))
    head += [f"vs {html.escape(prev.name)}" if prev else "vs previous step",
             f"vs {html.escape(first.name)}" if first else "vs first step"]
    body, classes, shown = [], [], []
    default = default_variant(rows)
    for r in _reading_order(rows):
        if r["variant"] == default:
            shown.append(len(body))
        cells = [html.escape(r["variant"] or "—"), html.escape(r["type"]),
                 f'<span title="{int(r["bytes"]):,} bytes moved">{size_label(r)}</span>',
                 f'<span title="min {fmt_time(r["min_ms"])}, max {fmt_time(r["max_ms"])}, '
                 f'{int(r["reps"])} repetitions">{fmt_time(r["median_ms"])}</span>',
                 fmt_gbps(r["gbps"]),
                 f'<span title="copy yardstick {fmt_gbps(r["copy_gbps"])} GB/s">'
                 f'{fmt_pct(r["pct_copy"])}</span>',
                 f'<span title="read yardstick {fmt_gbps(r["read_gbps"])} GB/s">'
                 f'{fmt_pct(r["pct_read"])}</span>']
        if r["bytes"] <= 0:  # a timing-only row (an empty kernel on the same grid, say)
            cells[4:7] = ['<span title="moves no bytes: only its time counts">—</span>'] + \
                ["—"] * 2
        elif is_rate(r):  # numbers per second: no bandwidth yardstick applies
            cells[5:7] = ["—"] * 2
        if has_peer:
            if r["peer"] and r["peer_gbps"] > 0 and r["bytes"] > 0:
                cells.append(f'<span title="{html.escape(r["peer"])} {fmt_gbps(r["peer_gbps"])} '
                             f'GB/s">{fmt_pct(r["pct_peer"])}</span>')
            else:
                cells.append("—")
        for other in (prev, first):
            if other is None:
                cells.append('<span title="the first step of this part">—</span>')
                continue
            m = matching_row(results, other.name, r)
            if m is None or r["median_ms"] <= 0:
                cells.append(f'<span title="{html.escape(other.name)} has no row of this type and '
                             'size">—</span>')
            else:
                how = (f"{m['variant']}" if m["variant"] else other.name)
                cells.append(f'<span title="{html.escape(other.name)} {html.escape(how)}: '
                             f'{fmt_time(m["median_ms"])}">'
                             f'{fmt_speedup(m["median_ms"] / r["median_ms"])}</span>')
        body.append(cells)
        classes.append("book-best" if r is best else "")
    out = ['<div class="book-results">', stale_notice(step, results, source_dir),
           table_html(head, body, classes, shown,
                      what="rows: every variant" + (" at every size" if len(
                          {size_key(r) for r in rows}) > 1 else ""))]
    notes = ["Effective bandwidth: the bytes the algorithm must move ÷ the median time, in "
             "10<sup>9</sup> bytes per second; % of the copy and read yardsticks measured in the "
             "same process (see \u201cMethodology\u201d)."]
    if rows and all(is_rate(r) for r in rows):
        notes = ["Rate: the numbers sieved ÷ the median time, in 10<sup>9</sup> numbers per "
                 "second; % of the peer is this rate as a percentage of the peer's on the same "
                 "range, timed in the same process."]
    if prev:
        notes.append("Speedups divide the other step's median time by this one's, at the same type "
                     "and size, against the same variant or else that step's fastest one.")
    if best is not None:
        notes.append(f"The bold row is the fastest at the part's reference size "
                     f"({size_label(best)}).")
    if len(rows) > LONG_TABLE_ROWS:
        notes.append(f"Shown: the default's rows ({html.escape(default or step.name)}); the line "
                     "under them opens every row.")
    out.append(f'<p class="book-meta">{" ".join(notes)}<br/>'
               f"Measured on {meta_line(results, source_dir)}</p>")
    out.append(_figures(images))
    out.append("</div>")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# Plots (gnuplot SVG)


PALETTE = {"bar": "#4e79a7", "copy": "#e15759", "read": "#59a14f", "peer": "#f28e2b",
           "theory": "#8c8c8c", "here": "#2b5c93", "before": "#9bb1cc", "after": "#dbe2ec"}
# Each peer its own colour and dash, so that two peers of one part never look alike.
PEER_STYLES = [("#f28e2b", 1), ("#b07aa1", 5), ("#9c755f", 4), ("#76b7b2", 2)]


def _median(values):
    values = [v for v in values if v > 0]
    return statistics.median(values) if values else 0.0


def _placeholder_svg(path, message):
    with open(path, "w", encoding="utf-8") as f:
        f.write('<svg xmlns="http://www.w3.org/2000/svg" width="860" height="120" '
                'viewBox="0 0 860 120"><rect width="860" height="120" fill="#ffffff" '
                'stroke="#cccccc"/><text x="430" y="66" text-anchor="middle" '
                'font-family="sans-serif" font-size="16" fill="#444444">'
                f"{html.escape(message)}</text></svg>\n")


def _gp_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _run_gnuplot(gnuplot, work, script, path):
    """Writes the script beside the plot (<work>.gp, kept for a look) and runs it; returns the
    script's path. Raises RuntimeError when gnuplot fails or writes no `path`."""
    gp = work + ".gp"
    with open(gp, "w", encoding="utf-8") as f:
        f.write("\n".join(script) + "\n")
    r = subprocess.run([gnuplot, gp], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0 or not os.path.exists(path):
        raise RuntimeError(f"gnuplot failed on {gp}:\n{r.stderr}")
    return gp


def bar_plot(gnuplot, path, title, labels, values, lines, colours=None,
             ylabel="effective bandwidth (GB/s)"):
    """A bar chart (one bar per label, in `colours` or all in the bar colour) with horizontal
    reference lines [(name, value, colour, dash)], written by gnuplot as SVG."""
    work = os.path.splitext(path)[0]
    data = work + ".dat"
    colours = colours or [PALETTE["bar"]] * len(labels)
    with open(data, "w", encoding="utf-8") as f:
        for i, (label, v, c) in enumerate(zip(labels, values, colours)):
            # a value written inside a bar: white on a dark bar, dark on a pale one
            ink = "#ffffff" if c in (PALETTE["bar"], PALETTE["here"]) else "#333333"
            f.write(f"{i} {_gp_string(label)} {v:.3f} {_gp_string(fmt_gbps(v))} "
                    f"{int(c.lstrip('#'), 16)} {int(ink.lstrip('#'), 16)}\n")
    top = max([v for v in values] + [v for _, v, _, _ in lines] + [1.0]) * 1.12
    crowded = max(len(x) for x in labels) * len(labels) > 90
    rotate = "rotate by -30 left" if crowded else ""
    height = 380 + (10 * max(len(x) for x in labels) if crowded else 0)
    script = [
        f"set terminal svg size 860,{height} dynamic noenhanced font 'sans,13' "
        "background '#ffffff'",
        f"set output {_gp_string(path)}",
        f"set title {_gp_string(title)}",
        f"set ylabel {_gp_string(ylabel)}",
        "set style fill solid 0.85 border -1",
        "set boxwidth 0.6",
        f"set yrange [0:{top:.1f}]",
        f"set xrange [-0.6:{len(labels) - 0.4}]",
        "set grid ytics lc rgb '#dddddd'",
        "set border 3", "set xtics nomirror " + rotate, "set ytics nomirror",
        # gnuplot overestimates SVG text widths: a negative width gets the key into two columns
        "set key below center horizontal maxcols 2 samplen 3 width -12",
        "set lmargin 10",
    ]
    plot = [f"{_gp_string(data)} using 1:3:5:xtic(2) with boxes lc rgb variable notitle"]
    if len(labels) <= 8:  # the value of each bar above it
        plot.append("'' using 1:3:4 with labels offset 0,0.7 notitle")
    else:  # narrow bars: the value turned, inside a tall bar, above a short one
        low = 0.22 * top
        plot.append(f"'' using 1:($3 >= {low:.1f} ? $3 : 1/0):4:6 with labels rotate by 90 right "
                    "offset 0,-0.4 tc rgb variable font 'sans,11' notitle")
        plot.append(f"'' using 1:($3 < {low:.1f} ? $3 : 1/0):4 with labels rotate by 90 left "
                    "offset 0,0.4 tc rgb '#333333' font 'sans,11' notitle")
    for name, value, colour, dash in lines:
        plot.append(f"{value:.3f} with lines lw 2 dt {dash} lc rgb '{colour}' "
                    f"title {_gp_string(name)}")
    script.append("plot " + ", \\\n     ".join(plot))
    _run_gnuplot(gnuplot, work, script, path)


def _hbar_frame(path, height, title, xlabel, xmax, yrange, margin):
    """The start of a horizontal bar plot's gnuplot script: the SVG terminal 860 px wide, the
    title, the x axis from 0 to `xmax`, the y range ("lo:hi"), the bars' fill, the grid, the left
    margin (characters) for the bars' labels."""
    return [
        f"set terminal svg size 860,{height} dynamic noenhanced font 'sans,12' "
        "background '#ffffff'",
        f"set output {_gp_string(path)}",
        f"set title {_gp_string(title)}",
        f"set xlabel {_gp_string(xlabel)}",
        f"set xrange [0:{xmax}]",
        f"set yrange [{yrange}]",
        "set style fill solid 0.85 border -1",
        "set grid xtics lc rgb '#dddddd'",
        "set border 3", "set ytics nomirror scale 0",
        f"set lmargin {margin:.0f}",
    ]


def hbar_plot(gnuplot, path, title, labels, values, lines, xlabel="effective bandwidth (GB/s)"):
    """Horizontal bars, fastest at the top, each labelled on the left and its value at its end:
    a sweep of many variants stays readable. Reference lines [(name, value, colour, dash)] are
    vertical."""
    work = os.path.splitext(path)[0]
    data = work + ".dat"
    order = sorted(range(len(labels)), key=lambda i: values[i])  # slowest at the bottom (y = 0)
    count = len(order)
    with open(data, "w", encoding="utf-8") as f:
        for y, i in enumerate(order):
            f.write(f"{y} {_gp_string(labels[i])} {values[i]:.3f} "
                    f"{_gp_string(fmt_gbps(values[i]))}\n")
        for _, value, _, _ in lines:  # each reference line: a block of two points
            f.write(f"\n\n{value:.3f} -0.6\n{value:.3f} {count - 0.4:.1f}\n")
    top = max(values + [v for _, v, _, _ in lines] + [1.0]) * 1.12
    margin = min(64, 4 + max(len(x) for x in labels) * 0.86)
    script = _hbar_frame(path, 110 + 22 * count + 18 * ((len(lines) + 1) // 2), title, xlabel,
                         f"{top:.1f}", f"-0.6:{count - 0.4:.1f}", margin) + [
        "set xtics nomirror",
        "set key below center horizontal maxcols 2 samplen 3 width -12",
    ]
    plot = [f"{_gp_string(data)} index 0 using ($3/2):1:($3/2):(0.35):ytic(2) with boxxyerror "
            f"lc rgb '{PALETTE['bar']}' notitle",
            "'' index 0 using 3:1:4 with labels left offset 0.4,0 font 'sans,10' notitle"]
    for k, (name, _, colour, dash) in enumerate(lines):
        plot.append(f"'' index {k + 1} using 1:2 with lines lw 2 dt {dash} lc rgb '{colour}' "
                    f"title {_gp_string(name)}")
    script.append("plot " + ", \\\n     ".join(plot))
    _run_gnuplot(gnuplot, work, script, path)


def reference_lines(results, rows):
    lines = []
    if rows and all(is_rate(r) for r in rows):  # numbers per second: only the peer applies
        for i, p in enumerate(sorted({r["peer"] for r in rows
                                      if r["peer"] and r["peer_gbps"] > 0})):
            v = _median([r["peer_gbps"] for r in rows if r["peer"] == p])
            colour, dash = PEER_STYLES[i % len(PEER_STYLES)]
            lines.append((f"{p} (peer) {fmt_gbps(v)} G numbers/s", v, colour, dash))
        return lines
    copy = _median([r["copy_gbps"] for r in rows])
    read = _median([r["read_gbps"] for r in rows])
    if copy:
        lines.append((f"copy yardstick (cudaMemcpy) {fmt_gbps(copy)} GB/s", copy,
                      PALETTE["copy"], 2))
    if read:
        lines.append((f"read yardstick {fmt_gbps(read)} GB/s", read, PALETTE["read"], 4))
    peers = sorted({r["peer"] for r in rows if r["peer"] and r["peer_gbps"] > 0})
    for i, p in enumerate(peers):
        v = _median([r["peer_gbps"] for r in rows if r["peer"] == p])
        colour, dash = PEER_STYLES[i % len(PEER_STYLES)]
        lines.append((f"{p} (peer) {fmt_gbps(v)} GB/s", v, colour, dash))
    theo = float(results.meta.get("theoretical_gbps", 0) or 0)
    if theo:
        lines.append((f"theoretical {fmt_gbps(theo)} GB/s", theo, PALETTE["theory"], 3))
    return lines


def _ylabel(rows):
    if rows and all(is_rate(r) for r in rows):
        return "rate (10^9 numbers per second)"
    return "effective bandwidth (GB/s)"


def _not_measured(results, step):
    """What a placeholder plot says of a step without rows."""
    if results is not None and step.name in results.not_available():
        return f"{step.name}: not available on this GPU"
    return f"{step.name}: not measured yet"


def part_plot(results, part, title, gnuplot, path, highlight=None):
    """GB/s of each step's fastest variant at the part's reference size. With `highlight` (a
    step), that step's bar stands out, the steps before it are muted and those after it faint.
    Returns True when it drew a plot, False when it wrote a "not measured" placeholder."""
    if results is None:
        _placeholder_svg(path, "No measurements committed yet")
        return False
    ref = reference_size(results, part)
    labels, values, colours, used = [], [], [], []
    seen_highlight = False
    for s in part.steps:
        rows = [r for r in results.step_rows(s.name) if size_key(r) == ref]
        if highlight is not None and s.name == highlight.name:
            seen_highlight = bool(rows)
        if rows:
            labels.append(s.name)
            values.append(best_row(rows)["gbps"])
            used += rows
            if highlight is None:
                colours.append(PALETTE["bar"])
            elif s.name == highlight.name:
                colours.append(PALETTE["here"])
            else:
                colours.append(PALETTE["before"] if s.index < highlight.index else PALETTE["after"])
    if not labels or (highlight is not None and not seen_highlight):
        _placeholder_svg(path, _not_measured(results, highlight) if highlight
                         else f"{title}: not measured yet")
        return False
    size = size_label(used[0], html_out=False)
    what = (f"{highlight.name} among the steps of {title}" if highlight
            else f"{title}: fastest variant of each step")
    bar_plot(gnuplot, path, f"{what} at {size} ({results.gpu()})", labels, values,
             reference_lines(results, used), colours, ylabel=_ylabel(used))
    return True


def step_plot(results, part, step, gnuplot, path):
    """GB/s of each variant of the step at the part's reference size. Returns the number of bars
    (0: a "not measured" placeholder)."""
    if results is None:
        _placeholder_svg(path, "No measurements committed yet")
        return 0
    ref = reference_size(results, part)
    rows = [r for r in results.step_rows(step.name) if size_key(r) == ref and r["bytes"] > 0]
    if not rows:
        _placeholder_svg(path, _not_measured(results, step))
        return 0
    types = {r["type"] for r in rows}
    labels = [(r["variant"] or step.name) + (f" ({r['type']})" if len(types) > 1 else "")
              for r in rows]
    title = (f"{step.name}: each variant at {size_label(rows[0], html_out=False)} "
             f"({results.gpu()})")
    if len(rows) > 8:  # a sweep: horizontal bars, fastest first, labels never overlap
        hbar_plot(gnuplot, path, title + ", fastest first", labels, [r["gbps"] for r in rows],
                  reference_lines(results, rows), xlabel=_ylabel(rows))
    else:
        bar_plot(gnuplot, path, title, labels, [r["gbps"] for r in rows],
                 reference_lines(results, rows), ylabel=_ylabel(rows))
    return len(rows)


def step_plots(results, part, title, step, gnuplot, out_dir, page_text=""):
    """<step>_progress.svg (the part's steps, this one highlighted) and <step>_variants.svg.
    Returns [(file, caption)] of the plots worth showing under the step's table: the progress plot
    when two or more steps of the part are measured, the variants plot when the step sweeps
    variants; neither when the page already shows it with \\image."""
    shown = []
    ref = reference_size(results, part) if results else None
    measured = [s for s in part.steps
                if results and any(size_key(r) == ref for r in results.step_rows(s.name))]
    progress = f"{step.name}_progress.svg"
    if part_plot(results, part, title, gnuplot, os.path.join(out_dir, progress), highlight=step) \
            and len(measured) > 1 and progress not in page_text:
        shown.append((progress, f"{step.name} (the highlighted bar) among the steps of {title}: "
                      "the fastest variant of each, with the yardsticks and the peer as lines"))
    variants = f"{step.name}_variants.svg"
    step_plot(results, part, step, gnuplot, os.path.join(out_dir, variants))
    names = {r["variant"] for r in results.step_rows(step.name)
             if size_key(r) == ref and r["bytes"] > 0} if results else set()
    if len(names) > 1 and variants not in page_text:  # a sweep (block sizes, tile shapes)
        shown.append((variants, f"Each variant of {step.name} at the part's reference size"))
    return shown


# The steps' lines: colours and point shapes in turn (past 13 steps, other points and dashes).
STEP_COLOURS = ["#4e79a7", "#59a14f", "#e15759", "#edc948", "#af7aa1", "#ff9da7", "#9c755f",
                "#17becf", "#7f7f7f", "#bcbd22", "#1f3a93", "#2ca02c", "#d62728"]
STEP_POINTS = [7, 5, 9, 11, 13, 15, 4, 6, 8, 10, 12, 14, 1]


def _elements(r):
    """A row's n on the size plots: its elements (rows x cols for a matrix)."""
    n, rows, cols = size_key(r)
    return rows * cols if rows and cols else n


def plot_type(results, part):
    """The one type a part's size plot shows: that of the final measured step's default row."""
    for s in reversed(part.steps):
        rows = [r for r in results.step_rows(s.name) if r["bytes"] > 0]
        if rows:
            return rows[0]["type"]
    return ""


def size_series(results, part):
    """The size plot's data: ([(step, [(n, y)])], [(name, [(n, y)], colour, dash)], how), y the
    effective bandwidth in GB/s, or for a part that measures time (the sieve) the median time in
    ms. A step's line is its default variant (its first row's) in the part's plot type, at each n
    it was measured at (the median where several shapes have the same element count). The
    reference lines: the copy yardstick (memcpy of each size, measured in the same run beside each
    row) and each peer. `how` is "time" or "bandwidth"."""
    want = plot_type(results, part)
    rate = want == RATE_TYPE
    steps, every = [], []
    for s in part.steps:
        rows = [r for r in results.step_rows(s.name) if r["bytes"] > 0 and r["type"] == want]
        rows = [r for r in rows if r["variant"] == default_variant(rows)]
        if not rows:
            continue
        every += [r for r in results.step_rows(s.name) if r["bytes"] > 0 and r["type"] == want]
        by_n = {}
        for r in rows:
            by_n.setdefault(_elements(r), []).append(r["median_ms"] if rate else r["gbps"])
        steps.append((s.name, sorted((n, statistics.median(v)) for n, v in by_n.items())))
    lines = []

    def collect(value):
        by_n = {}
        for r in every:
            v = value(r)
            if v and v > 0:
                by_n.setdefault(_elements(r), []).append(v)
        return sorted((n, statistics.median(v)) for n, v in by_n.items())

    if not rate:
        copy = collect(lambda r: r["copy_gbps"])
        if copy:
            lines.append(("copy yardstick (cudaMemcpy, same run)", copy, PALETTE["copy"], 2))
    peers = sorted({r["peer"] for r in every if r["peer"] and r["peer_gbps"] > 0})
    for i, peer in enumerate(peers):
        colour, dash = PEER_STYLES[i % len(PEER_STYLES)]
        if rate:
            pts = collect(lambda r: r["bytes"] / r["peer_gbps"] * 1e-6
                          if r["peer"] == peer and r["peer_gbps"] > 0 else 0)
        else:
            pts = collect(lambda r: r["peer_gbps"] if r["peer"] == peer else 0)
        lines.append((f"{peer} (peer)", pts, colour, dash))
    return steps, lines, ("time" if rate else "bandwidth")


def size_plot(results, part, title, gnuplot, path):
    """<part>_sizes.svg: each step's effective bandwidth (time, for the sieve) against n on a log
    axis, one line per step, with the copy yardstick and each peer as lines (a reference measured
    at one size only is a horizontal line, and its key says so). Returns the number of steps drawn
    (0: it wrote a "not measured" placeholder instead). Raises RuntimeError when the plot drew no
    step's line (an empty plot)."""
    if results is None:
        _placeholder_svg(path, f"{title}: not measured yet on this GPU")
        return 0
    steps, lines, how = size_series(results, part)
    if not steps:
        _placeholder_svg(path, f"{title}: not measured yet")
        return 0
    work = os.path.splitext(path)[0]
    data = work + ".dat"
    series = [(name, pts) for name, pts in steps] + [(name, pts) for name, pts, _, _ in lines]
    with open(data, "w", encoding="utf-8") as f:
        for _, pts in series:
            for n, y in pts:
                f.write(f"{n} {y:.6g}\n")
            f.write("\n\n")
    xs = [n for _, pts in series for n, _ in pts]
    ys = [y for _, pts in series for _, y in pts if y > 0]
    lo, hi = min(xs), max(xs)
    if lo == hi:
        lo, hi = lo / 4, hi * 4
    decimal = any(n & (n - 1) for n in xs if n > 0) and how == "time"
    base = 10 if decimal else 2
    log_y = how == "time" or (ys and max(ys) / max(min(ys), 1e-9) > 20)
    key_rows = (len(series) + 2) // 3
    plot_title = (f"{title}: each step against n"
                  + ("" if how == "time" else f", {plot_type(results, part)}")
                  + f" ({results.gpu()})")
    xlabel = ("n (the range [0, n] sieved)" if how == "time"
              else "n (elements: rows x cols for a matrix)")
    ylabel = ("median time (ms, log scale)" if how == "time" else
              "effective bandwidth (GB/s" + (", log scale)" if log_y else ")"))
    script = [
        f"set terminal svg size 860,{470 + 18 * key_rows} dynamic noenhanced font 'sans,13' "
        "background '#ffffff'",
        f"set output {_gp_string(path)}",
        f"set title {_gp_string(plot_title)}",
        f"set xlabel {_gp_string(xlabel)}",
        f"set ylabel {_gp_string(ylabel)}",
        f"set logscale x {base}",
        f"set format x '{base}^%L'",
        f"set xrange [{lo / 1.5:.6g}:{hi * 1.5:.6g}]",
        "set logscale y" if log_y else "set yrange [0:*]",
        "set grid xtics ytics lc rgb '#dddddd'",
        "set border 3", "set xtics nomirror", "set ytics nomirror",
        "set key below center horizontal maxcols 3 samplen 3 width -6",
        "set lmargin 13",
    ]
    plot = []
    for i, (name, _) in enumerate(steps):
        # past the 13th step the colours come round again, with other points and dashes
        lap = i // len(STEP_COLOURS)
        plot.append(f"{_gp_string(data)} index {i} using 1:2 with linespoints lw 2 dt {1 + lap} "
                    f"pt {STEP_POINTS[(i + 5 * lap) % len(STEP_POINTS)]} ps 0.8 "
                    f"lc rgb '{STEP_COLOURS[i % len(STEP_COLOURS)]}' title {_gp_string(name)}")
    for j, (name, pts, colour, dash) in enumerate(lines):
        index = len(steps) + j
        style = "lines" if len(pts) > 1 else "points pt 2 ps 1.2"
        if len(pts) == 1:  # measured at one size only: a horizontal line at that value
            plot.append(f"{pts[0][1]:.6g} with lines lw 2 dt {dash} lc rgb '{colour}' "
                        f"title {_gp_string(name + ' (one size only)')}")
            continue
        plot.append(f"{_gp_string(data)} index {index} using 1:2 with {style} lw 2 dt {dash} "
                    f"lc rgb '{colour}' title {_gp_string(name)}")
    script.append("plot " + ", \\\n     ".join(plot))
    gp = _run_gnuplot(gnuplot, work, script, path)
    if not any(y > 0 for _, pts in steps for _, y in pts) or drawn_series(path, len(steps)) == 0:
        raise RuntimeError(f"{os.path.basename(path)}: an empty plot: none of the "
                           f"{len(steps)} steps' lines has a positive point in range ({gp})")
    return len(steps)


def drawn_series(svg_path, count):
    """How many of the first `count` series of a gnuplot SVG (the steps' lines) draw a data point:
    each series is a <g id="gnuplot_plot_N"> group whose first point symbol is its key's sample."""
    with open(svg_path, encoding="utf-8") as f:
        groups = re.split(r'<g id="gnuplot_plot_\d+"', f.read())[1:count + 1]
    return sum(1 for g in groups if g.count("<use xlink:href='#gpPt") > 1)


# The devices of a "then and now" plot: the sources' GPUs in muted colours, ours in the bar blue
# (a second "now" series, ours at another size, in a lighter blue).
THEN_COLOURS = ["#9c755f", "#bab0ac", "#76b7b2", "#edc948"]
NOW_COLOURS = [PALETTE["bar"], "#a0cbe8", "#2b5c93"]


def grouped_hbar_plot(gnuplot, path, title, groups, series, xlabel, value_text=None):
    """Horizontal grouped bars: one group per label of `groups` (the first at the top), one bar in
    each group per series [(name, colour, [value or None, one per group])]; a None is not drawn
    (no bar, no zero). Each series is its own colour and key entry, and each bar's value is
    written at its end (value_text(v), default fmt_gbps). Raises RuntimeError when no bar is drawn
    (an empty plot). Returns the number of bars drawn."""
    value_text = value_text or fmt_gbps
    series = [(name, colour, values) for name, colour, values in series
              if any(v is not None and v > 0 for v in values)]
    drawn = sum(1 for _, _, values in series for v in values if v is not None and v > 0)
    if not drawn:
        raise RuntimeError(f"an empty plot: no series of {title!r} has a value")
    work = os.path.splitext(path)[0]
    data = work + ".dat"
    per_group = len(series)
    stride = per_group + 0.8  # a gap of 0.8 bar between groups
    # the first group at the top: group g's first bar at y = top - g * stride
    top = (len(groups) - 1) * stride + per_group - 1
    with open(data, "w", encoding="utf-8") as f:
        for k, (_, _, values) in enumerate(series):
            for g, v in enumerate(values):
                if v is not None and v > 0:
                    f.write(f"{top - g * stride - k:.2f} {v:.6g} {_gp_string(value_text(v))}\n")
            f.write("\n\n")
    tics = ", ".join(f"{_gp_string(label)} {top - g * stride - (per_group - 1) / 2:.2f}"
                     for g, label in enumerate(groups))
    highest = max(v for _, _, values in series for v in values if v is not None)
    margin = min(40, 3 + max(len(x) for x in groups) * 0.8)
    script = _hbar_frame(path, 120 + int(15 * (top + 1)) + 18 * len(series), title, xlabel,
                         f"{highest * 1.16:.6g}", f"-0.7:{top + 0.7:.2f}", margin) + [
        f"set ytics ({tics})",
        "set xtics nomirror out",
        "set key below left vertical reverse Left samplen 2 height 1",
    ]
    plot = []
    for k, (name, colour, _) in enumerate(series):
        plot.append(f"{_gp_string(data) if not plot else chr(39) * 2} index {k} using "
                    f"($2/2):1:($2/2):(0.42) with boxxyerror lc rgb '{colour}' "
                    f"title {_gp_string(name)}")
    for k in range(len(series)):
        plot.append(f"'' index {k} using 2:1:3 with labels left offset 0.4,0 font 'sans,10' "
                    "notitle")
    script.append("plot " + ", \\\n     ".join(plot))
    _run_gnuplot(gnuplot, work, script, path)
    return drawn


def svg_text(draw):
    """The SVG that draw(path) writes, as text, drawn in a temporary directory: for a part's
    generator, whose standard output becomes its output file (book/README.md)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "plot.svg")
        draw(path)
        with open(path, encoding="utf-8") as f:
            return f.read()


def generator_args(argv, options=()):
    """A part generator's command line, `<script>.py RESULTS_FILE [option ...]` (the results file
    may be an empty string: none committed): (the results or None, the set of options given). A
    missing results argument or an unknown option exits 2 with the usage."""
    given = argv[2:]
    unknown = [a for a in given if a not in options]
    if len(argv) < 2 or argv[1].startswith("--") or unknown:
        listed = "".join(f" [{o}]" for o in options)
        print(f"usage: {os.path.basename(argv[0])} RESULTS_FILE{listed} > <output>"
              + (f" (unknown: {' '.join(unknown)})" if unknown else ""), file=sys.stderr)
        sys.exit(2)
    return (load(argv[1]) if argv[1] else None), set(given)


def gnuplot_command():
    """The gnuplot a part's generator runs: the renderer's (BOOK_GNUPLOT), else gnuplot on PATH."""
    return os.environ.get("BOOK_GNUPLOT") or "gnuplot"


SIZE_PLOT_LINE = re.compile(r"^\s*[\\@]image\s+html\s+(\w+)_sizes\.svg\b", re.M)


def size_plots(parts, gpu_results, titles, gnuplot, out_dir, source_dir=""):
    """Every part's <part>_sizes.svg, and the problems a render must fail on: a part page without
    its size plot (`\\image html <part>_sizes.svg "<caption>"`), and a size plot that draws no
    line. Returns the error messages."""
    errors = []
    for p in parts:
        results = gpu_results.part(p.name) if gpu_results else None
        name = f"{p.name}_sizes.svg"
        try:
            size_plot(results, p, titles.get(p.name, p.name), gnuplot, os.path.join(out_dir, name))
        except RuntimeError as e:
            errors.append(f"{p.name}: error: {e}")
        page = p.page
        text = open(page, encoding="utf-8").read() if os.path.exists(page) else ""
        if p.name not in SIZE_PLOT_LINE.findall(text):
            errors.append(f"{os.path.relpath(page, source_dir) if source_dir else page}: error: "
                          f"the part page does not show its size plot: add "
                          f"`\\image html {name} \"<caption>\"`")
    return errors


# ---------------------------------------------------------------------------------------------
# The appendix table of every row


def _rows_table(rows, ref=None):
    """Every row of one part's run; a long one keeps in sight the yardsticks and each step's
    default row(s) at the part's reference size `ref`."""
    head = ["step", "variant", "type", "size", "median", "min", "max", "GB/s", "% copy", "% read",
            "peer", "% peer"]
    body, shown, defaults = [], [], {}
    for r in rows:
        default = defaults.setdefault(r["step"], r["variant"])
        if r["part"] == "yardstick" or (r["variant"] == default and size_key(r) == ref):
            shown.append(len(body))
        body.append([html.escape(r["step"]), html.escape(r["variant"]) or EMPTY_CELL,
                     html.escape(r["type"]), size_label(r),
                     fmt_time(r["median_ms"]), fmt_time(r["min_ms"]), fmt_time(r["max_ms"]),
                     fmt_gbps(r["gbps"]) if r["bytes"] else EMPTY_CELL,
                     fmt_pct(r["pct_copy"]) if r["bytes"] and not is_rate(r) else EMPTY_CELL,
                     fmt_pct(r["pct_read"]) if r["bytes"] and not is_rate(r) else EMPTY_CELL,
                     html.escape(r["peer"]) or EMPTY_CELL,
                     fmt_pct(r["pct_peer"]) if r["peer"] else EMPTY_CELL])
    return [table_html(head, body, shown=shown,
                       what="rows of this run (the yardsticks and each step's default at the "
                            "reference size above)")]


HIDDEN_META = ("run_seconds",)  # kept for the bench's time estimate, not for readers


def measurements_html(gpu_results, parts, all_gpus, source_dir, titles=None):
    """The appendix: for each part in reading order, its run's metadata and every row (its own
    yardsticks first). titles: part name -> its page's title."""
    titles = titles or {}
    if gpu_results is None or not gpu_results.parts:
        where = (f"<code>{html.escape(os.path.relpath(gpu_results.path, source_dir))}/</code>"
                 if gpu_results else "<code>book/results/</code>")
        return (f'<div class="book-results book-missing"><p>No results file in {where} '
                'yet.</p></div>\n')
    out = ['<div class="book-results">',
           f"<p>The book shows the measurements of the <b>{html.escape(gpu_results.gpu())}</b> in "
           f"<code>{html.escape(os.path.relpath(gpu_results.path, source_dir))}/</code>: one file "
           "per part, each from one bench run of that part, which measured its own yardsticks."
           "</p>"]
    order = [p.name for p in parts]
    for pname in order + sorted(set(gpu_results.parts) - set(order)):
        results = gpu_results.part(pname)
        title = titles.get(pname, pname)
        link = (f'<a href="part_{html.escape(pname)}.html">{html.escape(title)}</a>'
                if pname in titles else html.escape(title))
        out.append(f"<h3>{link}</h3>")
        if results is None:
            out.append(f'<p class="book-missing">Not measured yet on this GPU (no '
                       f"<code>{html.escape(pname)}.csv</code>).</p>")
            continue
        out.append(f'<p class="book-meta">{meta_line(results, source_dir)}</p>')
        if results.not_available():
            out.append("<p>Not available on this GPU (the bench measured no rows of them): " +
                       ", ".join(f"<code>{html.escape(x)}</code>"
                                 for x in sorted(results.not_available())) + ".</p>")
        meta = [[f"<code>{html.escape(k)}</code>", html.escape(v)]
                for k, v in results.meta.items() if k not in HIDDEN_META]
        out.append("<details><summary>metadata of this run</summary>"
                   + table_html(["metadata", "value"], meta) + "</details>")
        part = next((p for p in parts if p.name == pname), None)
        out += _rows_table([r for r in results.rows if r["part"] == "yardstick"] +
                           [r for r in results.rows if r["part"] != "yardstick"],
                           reference_size(results, part) if part else None)
    others = [d for d in all_gpus if os.path.abspath(d) != os.path.abspath(gpu_results.path)]
    if others:
        out.append("<p>Other GPUs with results in <code>book/results/</code> (render the book "
                   "from one with <code>cmake --preset default -DBOOK_GPU=&lt;name&gt;</code>): " +
                   ", ".join(f"<code>{html.escape(os.path.basename(d))}</code>" for d in others)
                   + ".</p>")
    out.append("</div>")
    return "\n".join(out) + "\n"


def final_step_row(results, part, key=None):
    """(step name, row) of the part's last step that `results` measured: at `key` ((size, type))
    its default variant's row there (else its fastest); without a key, its fastest variant at the
    part's reference size on that GPU. (None, None) if none."""
    if results is None:
        return None, None
    ref = reference_size(results, part)
    for s in reversed(part.steps):
        rows = results.step_rows(s.name)
        if not rows:
            continue
        if key is None:
            at = [r for r in rows if size_key(r) == ref]
            return (s.name, best_row(at)) if at else (s.name, None)
        at = [r for r in rows if (size_key(r), r["type"]) == key]
        default = [r for r in at if r["variant"] == default_variant(
            [x for x in rows if x["type"] == key[1]])]
        return (s.name, (default or [best_row(at)])[0]) if at else (s.name, None)
    return None, None


def comparison_key(gpus, part, reference_slug):
    """The (size, type) at which Appendix A compares a part on every GPU: one that every GPU's
    final step measured, in the type of the book's GPU's default row. The part's reference size
    where all measured it, except for a part that measures time (the sieve: its reference size is
    a launch-bound n): there, and where the reference size is not common, the largest common size.
    None when no GPU measured the part."""
    measured = []
    for g in gpus:
        results = g.part(part.name)
        step, _ = final_step_row(results, part)
        if step is not None:
            measured.append((g, results, {(size_key(r), r["type"])
                                          for r in results.step_rows(step) if r["bytes"] > 0}))
    if not measured:
        return None
    book = next((m for m in measured if m[0].slug == reference_slug), measured[0])
    step, _ = final_step_row(book[1], part)
    want_type = next((r["type"] for r in book[1].step_rows(step) if r["bytes"] > 0), "")
    common = set.intersection(*[keys for _, _, keys in measured]) or book[2]
    typed = [k for k in common if k[1] == want_type] or sorted(common)
    ref = reference_size(book[1], part)
    rate = all(is_rate(r) for r in book[1].step_rows(step))
    if not rate and (ref, want_type) in typed:
        return ref, want_type
    return max(typed, key=lambda k: (k[0][0] or k[0][1] * k[0][2], k))


def gpu_comparison_html(gpus, parts, reference_slug, source_dir, titles=None):
    """Appendix A's comparison: for every part, its final step and its peer on every GPU that has
    results, all at one size and type per part (comparison_key): time, GB/s (or the rate), % of
    that GPU's memcpy in the same run and of its theoretical bandwidth, the ratio to the peer.
    gpus: [GpuResults]; the book's GPU first."""
    titles = titles or {}
    gpus = sorted(gpus, key=lambda g: (g.slug != reference_slug, g.slug))
    if not gpus:
        return '<div class="book-results book-missing"><p>No GPU has results yet.</p></div>\n'
    head = ["part", "GPU", "final step", "size", "type", "median time", "GB/s", "% of memcpy",
            "% of theoretical", "peer", "vs peer", "commit"]
    body = []
    for p in parts:
        key = comparison_key(gpus, p, reference_slug)
        for g in gpus:
            results = g.part(p.name)
            step, r = final_step_row(results, p, key) if key else (None, None)
            theo = float(results.meta.get("theoretical_gbps", 0) or 0) if results else 0.0
            gpu_cell = (f'<span title="theoretical {fmt_gbps(theo)} GB/s">' if theo else "<span>") \
                + html.escape(g.gpu()) + (" (the book's)" if g.slug == reference_slug else "") \
                + "</span>"
            part_cell = html.escape(titles.get(p.name, p.name))
            # the steps after the one shown that this GPU cannot run (the part's final step, say)
            later = p.steps[[s.name for s in p.steps].index(step) + 1:] if step else p.steps
            cannot = results.not_available() if results is not None else set()
            skipped = [s.name for s in later if s.name in cannot]
            if r is None:
                verdict = (f"not available on this GPU: {html.escape(', '.join(skipped))}"
                           if skipped else "not measured yet" if step is None
                           else f"{html.escape(step)}: not measured at this size and type")
                body.append([part_cell, gpu_cell, verdict] + [EMPTY_CELL] * (len(head) - 3))
                continue
            copy = r["copy_gbps"] if r["copy_gbps"] > 0 else None
            moves = r["bytes"] > 0 and not is_rate(r)
            step_cell = html.escape(step) + (f'<br/><span class="book-variant">'
                                             f'({html.escape(r["variant"])})</span>'
                                             if r["variant"] else "")
            if skipped:
                step_cell += f" ({html.escape(', '.join(skipped))}: not available on this GPU)"
            peer = r["peer"] and r["peer_gbps"] > 0
            body.append([
                part_cell, gpu_cell, step_cell, _size_short(r), html.escape(r["type"]),
                fmt_time(r["median_ms"]),
                fmt_gbps(r["gbps"]) if moves else
                (f'<span title="10^9 numbers per second">{fmt_gbps(r["gbps"])}</span>'
                 if is_rate(r) else EMPTY_CELL),
                (f'<span title="memcpy {fmt_gbps(copy)} GB/s at this size">'
                 f"{fmt_pct(100.0 * r['gbps'] / copy)}</span>") if moves and copy else EMPTY_CELL,
                fmt_pct(100.0 * r["gbps"] / theo) if moves and theo else EMPTY_CELL,
                html.escape(r["peer"]) if peer else EMPTY_CELL,
                (f'<span title="{html.escape(r["peer"])} {fmt_gbps(r["peer_gbps"])} '
                 f'{"G numbers/s" if is_rate(r) else "GB/s"}">'
                 f'{fmt_speedup(r["pct_peer"] / 100.0)}</span>') if peer else EMPTY_CELL,
                html.escape(short_commit(results.meta.get("git_commit", "")))])
    caption = ("The final step of each part and its peer on every GPU with results, at one size "
               "and type per part")
    note = ("Each part is compared at a size and type that every GPU measured: the part's "
            "reference size, or for the sieve (whose reference size is launch-bound) the largest "
            "n, in the step's default variant (named in brackets). % of memcpy divides by the "
            "memcpy of the same bytes in the same run; the sieve's GB/s column holds 10^9 numbers "
            "sieved per second; the commit is the code that GPU's run "
            "measured. The table scrolls sideways; the part and the GPU stay in view.")
    return captioned_table_sticky(caption, head, body, note)


def _size_short(r):
    """A size as short as it reads: 10<sup>12</sup> for a power of ten, else size_label's."""
    n, rows, cols = size_key(r)
    digits = str(n)
    if not (rows and cols) and n >= 1000 and digits == "1" + "0" * (len(digits) - 1):
        return f"10<sup>{len(digits) - 1}</sup>"
    return size_label(r)


def captioned_table_sticky(caption, head, body, note=""):
    """captioned_table for rows given as cell lists, its first two columns kept in view while the
    table scrolls sideways, and a note under it."""
    return (f'<div class="book-results book-sticky2"><p><b>{html.escape(caption)}</b></p>\n'
            f"{table_html(head, body)}\n"
            + (f'<p class="book-meta">{html.escape(note)}</p>' if note else "") + "</div>\n")


# ---------------------------------------------------------------------------------------------
# Facts for \fact{name}

STEP_METRICS = ("gbps", "time", "pct_copy", "pct_read", "pct_peer", "peer_gbps", "speedup",
                "cumulative", "variant")
NOT_MEASURED = "(not measured)"


def _row_facts(prefix, r):
    if r["bytes"] <= 0:  # a timing-only row: only its time is a fact
        return {f"{prefix}_time": fmt_time(r["median_ms"])}
    if is_rate(r):  # numbers per second, the peer's rate and the speedup over the peer
        peer = bool(r["peer"]) and r["peer_gbps"] > 0
        return {f"{prefix}_gbps": f"{fmt_gbps(r['gbps'])} billion numbers/s",
                f"{prefix}_time": fmt_time(r["median_ms"]),
                f"{prefix}_pct_peer": fmt_pct(r["pct_peer"]) if peer else NOT_MEASURED,
                f"{prefix}_peer_gbps": (f"{fmt_gbps(r['peer_gbps'])} billion numbers/s" if peer
                                        else NOT_MEASURED),
                f"{prefix}_peer_time": (fmt_time(r["bytes"] / r["peer_gbps"] * 1e-6) if peer
                                        else NOT_MEASURED),
                f"{prefix}_vs_peer": fmt_speedup(r["pct_peer"] / 100.0) if peer else NOT_MEASURED}
    return {f"{prefix}_gbps": f"{fmt_gbps(r['gbps'])} GB/s",
            f"{prefix}_time": fmt_time(r["median_ms"]),
            f"{prefix}_pct_copy": fmt_pct(r["pct_copy"]),
            f"{prefix}_pct_read": fmt_pct(r["pct_read"]),
            f"{prefix}_pct_peer": fmt_pct(r["pct_peer"]) if r["peer"] else NOT_MEASURED,
            f"{prefix}_peer_gbps": (f"{fmt_gbps(r['peer_gbps'])} GB/s" if r["peer"]
                                    else NOT_MEASURED)}


GLOBAL_FACTS = ("gpu", "gpu_sms", "gpu_l2", "theoretical_gbps", "yardstick_copy_gbps",
                "yardstick_read_gbps", "yardstick_copy_pct_theoretical",
                "yardstick_read_pct_theoretical", "launch_floor_time", "results_dir", "reps",
                "results_first_part")
# Each part's own run: its yardsticks, its launch floor, its file, date, commit and duration.
PART_FACTS = ("yardstick_copy_gbps", "yardstick_read_gbps", "yardstick_copy_pct_theoretical",
              "yardstick_read_pct_theoretical", "launch_floor_time", "results_file",
              "results_date", "results_commit", "bench_time")


class FactCollision(Exception):
    pass


class _Facts(dict):
    """A dict that remembers who defined each name and refuses a second owner: a step called
    "copy" and a step "copy_col", or a variant "col" of "copy", must not share a name silently."""

    def __init__(self):
        super().__init__()
        self.owner = {}

    def define(self, owner, name, value):
        if self.owner.setdefault(name, owner) != owner:
            raise FactCollision(f"\\fact{{{name}}} is defined by {self.owner[name]} and by "
                                f"{owner}: rename the step or the variant")
        self[name] = value


def _run_facts(define, prefix, results, source_dir):
    """The facts of one part's run (yardsticks, launch floor, file, date, commit, duration)."""
    m = results.meta
    theo = float(m.get("theoretical_gbps", 0) or 0)
    for name, key in (("memcpy_d2d", "copy"), ("read_only", "read")):
        y = results.yardstick(name)
        if y:
            define(f"{prefix}yardstick_{key}_gbps", f"{fmt_gbps(y['gbps'])} GB/s")
            if theo:
                define(f"{prefix}yardstick_{key}_pct_theoretical", fmt_pct(100.0 * y["gbps"] / theo))
    floor = results.yardstick("launch_floor")
    if floor:
        define(f"{prefix}launch_floor_time", fmt_time(floor["median_ms"]))
    if prefix:
        define(f"{prefix}results_file", os.path.relpath(results.path, source_dir)
               if source_dir else os.path.basename(results.path))
        define(f"{prefix}results_date", m.get("date", "")[:10] or NOT_MEASURED)
        define(f"{prefix}results_commit", short_commit(m.get("git_commit", "")))
        if m.get("bench_seconds"):
            secs = int(float(m["bench_seconds"]))
            define(f"{prefix}bench_time", f"{secs // 60} min {secs % 60:02d} s" if secs >= 60
                   else f"{secs} s")


def facts(gpu_results, parts, source_dir="", other_gpus=()):
    """{name: value}. Every registered step has its standard facts (NOT_MEASURED until the bench
    measures it), so that a page builds before its step is measured; so has every name that another
    GPU's results define (a variant's facts, say), so that a book rendered from a GPU that lacks a
    part still builds. Global facts describe the GPU (and, for the yardsticks and the launch floor,
    the run of the first part in reading order); `<part>_...` facts describe each part's own run.
    Raises FactCollision when two things would define the same name."""
    f = _measured_facts(gpu_results, parts, source_dir)
    for other in other_gpus:
        if gpu_results is not None and os.path.abspath(other.path) == \
                os.path.abspath(gpu_results.path):
            continue
        for name in _measured_facts(other, parts, source_dir):
            f.setdefault(name, NOT_MEASURED)
    return f


def _measured_facts(gpu_results, parts, source_dir):
    f = _Facts()
    for key in GLOBAL_FACTS:
        f.define("the results", key, NOT_MEASURED)
    for p in parts:
        f.define(f"part {p.name}", f"{p.name}_size", NOT_MEASURED)
        for key in PART_FACTS:
            f.define(f"part {p.name}", f"{p.name}_{key}", NOT_MEASURED)
        for s in p.steps:
            for metric in STEP_METRICS:
                f.define(f"step {s.name}", f"{s.name}_{metric}", NOT_MEASURED)
    if gpu_results is None:
        return dict(f)
    first = gpu_results.first([p.name for p in parts])
    if first is None:
        return dict(f)
    glob_ = lambda k, v: f.define("the results", k, v)  # noqa: E731
    m = first.meta
    glob_("gpu", first.gpu())
    glob_("gpu_sms", m.get("sm_count", NOT_MEASURED))
    if m.get("l2_bytes"):
        glob_("gpu_l2", f"{int(m['l2_bytes']) / 2**20:.0f} MiB")
    theo = float(m.get("theoretical_gbps", 0) or 0)
    if theo:
        glob_("theoretical_gbps", f"{fmt_gbps(theo)} GB/s")
    glob_("results_dir", (os.path.relpath(gpu_results.path, source_dir) if source_dir
                          else os.path.basename(gpu_results.path)) + "/")
    glob_("results_first_part", first.meta.get("part") or
          os.path.splitext(os.path.basename(first.path))[0])
    reps = sorted({int(r["reps"]) for res in gpu_results.parts.values() for r in res.rows
                   if r["reps"]})
    if reps:
        glob_("reps", "/".join(str(x) for x in reps))
    _run_facts(glob_, "", first, source_dir)
    for p in parts:
        results = gpu_results.part(p.name)
        if results is None:
            continue
        _run_facts(lambda k, v, p=p: f.define(f"part {p.name}", k, v), f"{p.name}_", results,
                   source_dir)
        ref = reference_size(results, p)
        if ref is None:
            continue
        for s in p.steps:
            rows = results.step_rows(s.name)
            ref_rows = [r for r in rows if size_key(r) == ref]
            if not ref_rows:
                continue
            f.define(f"part {p.name}", f"{p.name}_size", size_label(ref_rows[0], html_out=False))
            step = lambda k, v: f.define(f"step {s.name}", k, v)  # noqa: E731
            b = best_row(ref_rows)
            for k, v in _row_facts(s.name, b).items():
                step(k, v)
            step(f"{s.name}_variant", b["variant"] or s.name)
            for other, key in ((p.steps[s.index - 1] if s.index else None, "speedup"),
                               (p.steps[0] if s.index else None, "cumulative")):
                if other is None:
                    step(f"{s.name}_{key}", fmt_speedup(1.0))
                    continue
                mr = matching_row(results, other.name, b)
                if mr is not None and b["median_ms"] > 0:
                    step(f"{s.name}_{key}", fmt_speedup(mr["median_ms"] / b["median_ms"]))
            # Control rows that move no bytes (an empty kernel's time) do not make a step
            # "several types": only the measured types decide whether names carry the type.
            # Rows at the step's other sizes: `<step>_at_<size>_...` (its fastest variant there),
            # `<step>_default_at_<size>_...` (the default's row, the one without a variant name)
            # and `<step>_<variant>_at_<size>_...`.
            for key in sorted({size_key(r) for r in rows} - {ref}):
                at_rows = [r for r in rows if size_key(r) == key]
                at = "at_" + size_slug(at_rows[0])
                for k, v in _row_facts(f"{s.name}_{at}", best_row(at_rows)).items():
                    step(k, v)
                at_types = {r["type"] for r in at_rows}
                for r in at_rows:
                    name = slug(r["variant"]) if r["variant"] else "default"
                    prefix = f"{s.name}_{name}" + \
                        (f"_{slug(r['type'])}" if len(at_types) > 1 else "") + f"_{at}"
                    for k, v in _row_facts(prefix, r).items():
                        f.define(f"step {s.name} variant {r['variant'] or '(default)'} "
                                 f"({r['type']})", k, v)
            types = {r["type"] for r in ref_rows if float(r["bytes"] or 0) > 0}
            for r in ref_rows:
                if not r["variant"]:
                    continue
                prefix = f"{s.name}_{slug(r['variant'])}"
                if len(types) > 1:
                    prefix += "_" + slug(r["type"])
                for k, v in _row_facts(prefix, r).items():
                    f.define(f"step {s.name} variant {r['variant']} ({r['type']})", k, v)
    return dict(f)
