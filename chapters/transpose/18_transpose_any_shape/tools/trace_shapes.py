#!/usr/bin/env python3
"""Writes trace_shapes.txt: the shapes whose launch traces the step's trace test compares (one
"rows cols" per line): every shape its GPU tests name, its bench shapes, each side of every
launch rule's edges, and the plan test's edge shapes. Run it again when a test or a rule edge is added; the goldens
(launch_traces.txt) are then recorded again from the code before the change."""
import itertools
import pathlib
import re

STEP = pathlib.Path(__file__).resolve().parent.parent
NUM = r"-?\d+"


def ints(text):
    return [int(x) for x in re.findall(NUM, text)]


def test_shapes(source):
    shapes = set()
    # every_pair({a, b, ...}, {c, d, ...}), also with named vectors (few, longs, sides)
    named = {}
    for name, body in re.findall(r"std::vector<std::int64_t> (\w+) =\s*\{([^}]*)\}", source):
        named[name] = ints(body)
    for a, b in re.findall(r"every_pair\(\s*(\{[^}]*\}|\w+)\s*,\s*(\{[^}]*\}|\w+)\s*\)", source):
        xs = ints(a) if a.startswith("{") else named[a]
        ys = ints(b) if b.startswith("{") else named[b]
        shapes.update(itertools.product(xs, ys))
    for a, b in re.findall(r"shape\{(" + NUM + r"), (" + NUM + r")\}", source):
        shapes.add((int(a), int(b)))
    for a, b in re.findall(r"\{\{?(" + NUM + r"), (" + NUM + r")\}", source):
        shapes.add((int(a), int(b)))
    # loops of the tall-and-skinny and stretch cases
    for side in range(2, 18):
        shapes.update({(100003, side), (side, 100003)})
    for s in (19, 20, 41, 64):
        for l in (33792, 33793, 50001, 67584, 67585):
            shapes.update({(s, l), (l, s)})
    for s in (65, 96, 97, 128, 129):
        for l in (25344, 25345, 30003, 33792, 33793):
            shapes.update({(s, l), (l, s)})
    for rows in (193, 196, 199, 250, 255):
        shapes.add((rows, 131))
    return shapes


def bench_shapes(cmake):
    """The BENCH shapes, and those of the step's CMake tests (sanitizers, past 2^31 elements)."""
    shapes = {(int(r), int(c)) for r, c in re.findall(r"--rows (\d+) --cols (\d+)", cmake)}
    shapes |= {(int(r), int(c)) for r, c in re.findall(r"\b(\d+)x(\d+)\b", cmake)}
    shapes |= {(int(r), int(c)) for r, c in re.findall(r":(\d+):(\d+)\b", cmake)}
    return shapes


def edge_shapes():
    """Each side of the launch rules' lines (tuning constants), against long and square sides."""
    shapes = set()
    sides = set()
    for edge in (16, 17, 20, 32, 40, 41, 61, 64, 65, 67, 68, 80, 96, 97, 112, 113, 114, 115, 116,
                 127, 128, 129, 131, 132, 256, 4096):
        sides.update({edge - 1, edge, edge + 1})
    longs = (1000, 1001, 1003, 1004, 4099, 4100, 16385, 20001, 30003, 33792, 33793, 67457, 100003,
             200004, 422372, 1000001)
    for s in sorted(sides):
        for l in longs:
            shapes.update({(s, l), (l, s)})
    # the order rules: widths around ALONG_WIDE (4 x), 15/16, 24/16, 700 tiles, very tall (48, 8, 9)
    for rows in (4104, 6008, 12008, 16392, 4112, 4128, 4080, 8016, 12000, 20000, 20004, 30004,
                 11264, 24000, 28000, 28004):
        for num, den in ((15, 16), (24, 16), (4, 1), (1, 1), (1, 8), (1, 9), (1, 48)):
            cols = rows * num // den
            for c in (cols - 4, cols, cols + 4, cols + 1):
                if c > 0:
                    shapes.add((rows, c))
    for cols in (44740, 44804, 44868):
        shapes.update({(11264, cols), (11200, cols)})
    return shapes


def plan_edge_shapes(source):
    """The plan test's shapes on both sides of every rule's edges (plan_test.cpp's edge_shapes)."""
    body = source[source.index("std::vector<shape> edge_shapes()"):]
    body = body[: body.index("std::vector<shape> all;")]
    return {(int(a), int(b)) for a, b in re.findall(r"\{(\d+), (\d+)\}", body)}


def main():
    source = (STEP / "transpose_any_shape_test.cu").read_text()
    plan_source = (STEP / "plan_test.cpp").read_text()
    cmake = (STEP / "CMakeLists.txt").read_text()
    common = {(0, 0), (0, 7), (7, 0), (1, 1), (1, 1000), (1000, 1), (2, 2), (31, 33), (33, 31),
              (32, 32), (8, 300), (300, 8), (96, 64), (257, 131), (2048, 2048), (4097, 1023),
              (1023, 4097), (16384, 16384)}
    shapes = (test_shapes(source) | bench_shapes(cmake) | edge_shapes() | common |
              plan_edge_shapes(plan_source))
    shapes = sorted(s for s in shapes if s[0] >= 0 and s[1] >= 0)
    out = pathlib.Path(__file__).resolve().parent / "trace_shapes.txt"
    out.write_text("".join(f"{r} {c}\n" for r, c in shapes))
    print(f"{len(shapes)} shapes -> {out}")


if __name__ == "__main__":
    main()
