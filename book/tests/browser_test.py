#!/usr/bin/env python3
"""browser_test.py: load every page of the rendered book in headless Chromium, as a reader at
1280 px would see it, and fail on what a reader would trip over:

  too wide      the page scrolls sideways (the document is wider than the window), or the content
                column (div.contents) is wider than its box; the elements that stick out are
                named. An element that scrolls on its own (overflow-x auto, a code box or a table
                in a scroll box) may hold wide content. Collapsed <details> are opened first, as
                a reader would open them.
  broken link   a local href or src (links, images, objects, scripts, styles) naming a file that
                does not exist, or a resource that fails to load
  broken image  an <img> that did not decode (naturalWidth 0), or an <object>/<embed> SVG that
                is not a readable SVG file
  console error an error on the page's console, an uncaught exception, an error in its log
  empty plot    an SVG in the content column that draws no data: a gnuplot plot none of whose
                data series draws a bar, a line or a point (a legend's sample line alone is not
                data), or an SVG that draws nothing and says nothing. The renderer's "not
                measured yet" placeholder (text only, no axes) is not a plot and passes.
  missing plot  a part page (part_<part>.html) that does not show <part>_sizes.svg, the part's
                plot against n

Every offending page is reported with its reasons; the exit status is 1 when any page fails.

  browser_test.py [--html-dir build/book/html] [--width 1280] [PAGE.html ...]
  browser_test.py --self-test        the fixture pages in book/tests/browser/: each one's
                                     <meta name="expect" content="reason; reason"> must be exactly
                                     what the check reports for it

Chromium is driven through its DevTools protocol over a pipe (--remote-debugging-pipe), with
Python's standard library only; one browser session loads every page. Exit status: 0 all pages
pass, 1 some page fails (or, with --self-test, a fixture's reasons differ; or Chromium failed),
2 usage error (no rendered site, no Chromium, a page that does not exist).
"""
import argparse
import fcntl
import glob
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe"]
PAGE_TIMEOUT_S = 30
# 1 px of slack: sub-pixel layout rounds a box that fits exactly either way.
SLACK_PX = 1


def fail_usage(message):
    print(f"browser_test: {message}", file=sys.stderr)
    sys.exit(2)


class Chromium:
    """A headless Chromium and one tab, spoken to through the DevTools protocol on fds 3 and 4
    (JSON messages separated by NUL bytes)."""

    def __init__(self, browser, width, height):
        self.profile = tempfile.mkdtemp(prefix="browser_test_profile_")
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()
        # Move the child's ends out of the way of 3 and 4 so dup2 below cannot clobber them.
        high_r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)
        high_w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
        os.close(to_chrome_r)
        os.close(from_chrome_w)

        def child_fds():
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.log_path = os.path.join(self.profile, "chromium.log")
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen(
            [browser, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}",
             f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
            preexec_fn=child_fds, pass_fds=(3, 4))
        os.close(high_r)
        os.close(high_w)
        self.writer = os.fdopen(to_chrome_w, "wb", buffering=0)
        self.reader = os.fdopen(from_chrome_r, "rb", buffering=0)
        self.messages = queue.Queue()
        self.events = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                  session=True)

    def _read(self):
        buffer = b""
        while True:
            chunk = self.reader.read(65536)
            if not chunk:
                self.messages.put(None)
                return
            buffer += chunk
            *complete, buffer = buffer.split(b"\0")
            for raw in complete:
                self.messages.put(json.loads(raw))

    def _next(self, deadline):
        try:
            message = self.messages.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            return "timeout"
        if message is None:
            raise RuntimeError(f"Chromium closed its pipe (its log: {self.log_path})")
        return message

    def call(self, method, params=None, session=False, timeout=PAGE_TIMEOUT_S):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        self.writer.write(json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._next(deadline)
            if reply == "timeout":
                raise TimeoutError(f"{method}: no answer in {timeout} s")
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def wait_for_event(self, method, timeout=PAGE_TIMEOUT_S):
        deadline = time.monotonic() + timeout
        if any(event["method"] == method for event in self.events):
            return True
        while True:
            event = self._next(deadline)
            if event == "timeout":
                return False
            if "method" in event:
                self.events.append(event)
                if event["method"] == method:
                    return True

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)


# Runs in the page once it has loaded: waits for MathJax and the fonts, opens every <details>,
# then measures. Returns plain data; the verdicts are made in Python.
MEASURE_JS = r"""
(async () => {
  const settle = new Promise(resolve => {
    if (window.MathJax && MathJax.Hub && MathJax.Hub.Register)
      MathJax.Hub.Register.StartupHook("End", resolve);
    else resolve();
  });
  await Promise.race([settle, new Promise(r => setTimeout(r, 10000))]);
  if (document.fonts) await document.fonts.ready;
  for (const d of document.querySelectorAll("details")) d.open = true;
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));

  const describe = el => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    if (el.classList.length) s += "." + Array.from(el.classList).slice(0, 2).join(".");
    let heading = null;
    for (let e = el; e && !heading; e = e.parentElement) {
      for (let p = e.previousElementSibling; p; p = p.previousElementSibling) {
        if (/^H[1-4]$/.test(p.tagName)) { heading = p.textContent.trim(); break; }
      }
    }
    if (heading) s += ` under "${heading.slice(0, 60)}"`;
    if (el.tagName === "TABLE" && el.rows.length) {
      const head = Array.from(el.rows[0].cells).slice(0, 3).map(c => c.textContent.trim());
      s += ` [${head.join(" | ").slice(0, 60)}${el.rows[0].cells.length > 3 ? " | ..." : ""}]`;
    }
    return s;
  };
  const scrollsItself = el => getComputedStyle(el).overflowX !== "visible";
  // Outermost elements inside `box` that stick out of its padding box, not counting what is
  // inside an element that scrolls or clips on its own.
  const sticksOut = box => {
    const b = box.getBoundingClientRect();
    const left = b.left + box.clientLeft, right = left + box.clientWidth;
    const found = [];
    const visit = el => {
      for (const child of el.children) {
        const r = child.getBoundingClientRect();
        if (r.width > 0 && r.height > 0 &&
            (r.right > right + %(slack)d || r.left < left - %(slack)d)) {
          found.push({what: describe(child), width: Math.round(r.width),
                      over: Math.round(Math.max(r.right - right, left - r.left))});
          continue;
        }
        if (!scrollsItself(child)) visit(child);
      }
    };
    visit(box);
    return found;
  };

  const doc = document.documentElement;
  const result = {
    width: doc.clientWidth, doc_scroll_width: doc.scrollWidth, columns: [], doc_culprits: [],
    urls: [], broken_images: [], objects: [], plots: [], inline_svgs: []};
  const columns = document.querySelectorAll("div.contents");
  for (const c of columns) {
    const col = {what: describe(c), client: c.clientWidth, scroll: c.scrollWidth, culprits: []};
    col.culprits = sticksOut(c);  // also what sticks out on the left, which scrollWidth misses
    result.columns.push(col);
  }
  if (doc.scrollWidth > doc.clientWidth + %(slack)d) result.doc_culprits = sticksOut(document.body);

  const attrs = [["a", "href"], ["link", "href"], ["img", "src"], ["script", "src"],
                 ["iframe", "src"], ["object", "data"], ["embed", "src"], ["source", "src"]];
  for (const [tag, attr] of attrs)
    for (const el of document.querySelectorAll(`${tag}[${attr}]`))
      result.urls.push({tag, url: el[attr] || el.getAttribute(attr)});
  for (const img of document.images)
    if (!img.complete || img.naturalWidth === 0) result.broken_images.push(img.src);
  const inContent = el => el.closest("div.contents") !== null;
  for (const o of document.querySelectorAll("object[data], embed[src]")) {
    const url = o.data || o.src;
    const r = o.getBoundingClientRect();
    result.objects.push({url, width: r.width, height: r.height});
    if (inContent(o)) result.plots.push(url);
  }
  for (const img of document.querySelectorAll("img[src]"))
    if (inContent(img) && /\.svg$/i.test(new URL(img.src).pathname)) result.plots.push(img.src);
  // An inline SVG is a plot when it is drawn at plot size: not a formula (MathJax), not an icon.
  for (const svg of document.querySelectorAll("div.contents svg")) {
    const r = svg.getBoundingClientRect();
    if (!svg.closest('[class^="MathJax"], [id^="MathJax"], button') &&
        !svg.parentElement.closest("svg") && r.width >= 100 && r.height >= 60)
      result.inline_svgs.push(svg.outerHTML);
  }
  return result;
})()
""".replace("%(slack)d", str(SLACK_PX))

SVG_NS = "{http://www.w3.org/2000/svg}"
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def _local(tag):
    return tag.split("}")[-1]


def _path_draws_data(d):
    """True when a path's data holds a stroke that is not a legend sample: gnuplot draws a
    series' legend sample as one horizontal segment, so a subpath counts when it has more than
    one segment or a segment that is not horizontal."""
    for sub in re.split(r"(?=[Mm])", d):
        commands = re.findall(r"[A-Za-z][^A-Za-z]*", sub.strip())
        if len(commands) < 2:
            continue
        if len(commands) > 2 or commands[-1][0] in "Zz":
            return True
        op, args = commands[1][0], [float(x) for x in NUMBER.findall(commands[1][1:])]
        start = [float(x) for x in NUMBER.findall(commands[0][1:])]
        if op in "hH":
            continue
        if op == "L" and len(args) == 2 and len(start) == 2 and args[1] == start[1]:
            continue
        if op == "l" and len(args) == 2 and args[1] == 0:
            continue
        return True
    return False


def _points(text):
    values = [float(x) for x in NUMBER.findall(text or "")]
    return list(zip(values[0::2], values[1::2]))


def _draws(el):
    """True when an SVG element draws data: a bar, a line, a point."""
    tag = _local(el.tag)
    if tag == "path":
        return _path_draws_data(el.get("d", ""))
    if tag in ("polygon", "polyline"):
        points = _points(el.get("points"))
        return len(set(points)) >= 2
    if tag == "line":
        return (el.get("x1"), el.get("y1")) != (el.get("x2"), el.get("y2"))
    if tag == "rect":
        return float(el.get("width", "0") or 0) > 0 and float(el.get("height", "0") or 0) > 0
    if tag in ("circle", "ellipse"):
        return float(el.get("r", el.get("rx", "0")) or 0) > 0
    return tag == "use"


def plot_problem(svg_text):
    """Why an SVG is an empty plot (or not a readable SVG), or None."""
    try:
        root = ET.fromstring(svg_text)
    except ET.ParseError as e:
        return f"not a readable SVG ({e})"
    if _local(root.tag) != "svg":
        return f"not an SVG (its root is <{_local(root.tag)}>)"
    series = [g for g in root.iter() if re.fullmatch(r"gnuplot_plot_\d+", g.get("id", ""))]
    is_gnuplot = series or any("gnuplot" in (e.text or "").lower()
                               for e in root.iter() if _local(e.tag) in ("desc", "title"))
    if is_gnuplot:
        if not series:
            return "empty plot: gnuplot drew no data series"
        if not any(_draws(e) for g in series for e in g.iter()):
            return f"empty plot: none of its {len(series)} data series draws a bar, line or point"
        return None
    # Another SVG: something drawn besides a background covering the whole picture, or a text
    # (the renderer's "not measured yet" placeholder).
    view = root.get("viewBox", "").split()
    full = {(view[2], view[3])} if len(view) == 4 else set()
    full.add((root.get("width"), root.get("height")))
    drawn = [e for e in root.iter() if e is not root and _draws(e) and
             not (_local(e.tag) == "rect" and (e.get("width"), e.get("height")) in full)]
    says = any((e.text or "").strip() for e in root.iter() if _local(e.tag) == "text")
    if not drawn and not says:
        return "empty plot: the SVG draws nothing"
    return None


def local_path(url):
    """The file a file:// URL names (without query and fragment), or None for other schemes."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme != "file":
        return None
    return urllib.parse.unquote(parts.path)


def check_page(chromium, path, plot_cache):
    """Loads one page and returns the list of reasons it fails (empty: it passes)."""
    url = "file://" + urllib.parse.quote(os.path.abspath(path))
    chromium.events = []
    reasons = []
    chromium.call("Page.navigate", {"url": url}, session=True)
    if not chromium.wait_for_event("Page.loadEventFired"):
        return [f"did not finish loading in {PAGE_TIMEOUT_S} s"]
    answer = chromium.call("Runtime.evaluate", {"expression": MEASURE_JS, "awaitPromise": True,
                                                "returnByValue": True}, session=True)
    if "exceptionDetails" in answer:
        return [f"the measuring script failed: {answer['exceptionDetails'].get('text')}"]
    m = answer["result"]["value"]

    # too wide
    if m["doc_scroll_width"] > m["width"] + SLACK_PX:
        what = "; ".join(f"{c['what']} {c['width']} px wide, {c['over']} px out"
                         for c in m["doc_culprits"][:5]) or "no single element found"
        reasons.append(f"too wide: the page is {m['doc_scroll_width']} px wide in a "
                       f"{m['width']} px window ({what})")
    for col in m["columns"]:
        if col["scroll"] > col["client"] + SLACK_PX or col["culprits"]:
            what = "; ".join(f"{c['what']} {c['width']} px wide, {c['over']} px out"
                             for c in col["culprits"][:5]) or "no single element found"
            more = len(col["culprits"]) - 5
            if more > 0:
                what += f"; and {more} more"
            reasons.append(f"too wide: the content column is {col['client']} px wide and its "
                           f"content {col['scroll']} px ({what})")

    # broken links and images
    missing = []
    for item in m["urls"]:
        target = local_path(item["url"])
        if target is not None and not os.path.exists(target) and target not in missing:
            missing.append(target)
            kind = "broken image" if item["tag"] in ("img", "object", "embed") else "broken link"
            reasons.append(f"{kind}: <{item['tag']}> names "
                           f"{os.path.relpath(target, os.path.dirname(os.path.abspath(path)))}, "
                           "which does not exist")
    for src in m["broken_images"]:
        if local_path(src) not in missing:
            reasons.append(f"broken image: {os.path.basename(local_path(src) or src)} "
                           "did not decode (naturalWidth 0)")
    for obj in m["objects"]:
        target = local_path(obj["url"])
        if target and os.path.exists(target) and target.lower().endswith(".svg"):
            with open(target, encoding="utf-8", errors="replace") as f:
                problem = plot_problem(f.read())
            if problem and problem.startswith("not "):
                reasons.append(f"broken image: the SVG object {os.path.basename(target)} is "
                               f"{problem}")

    # empty plots (images, objects and inline SVGs in the content column)
    for plot_url in dict.fromkeys(m["plots"]):
        target = local_path(plot_url)
        if not target or not os.path.exists(target):
            continue
        if target not in plot_cache:
            with open(target, encoding="utf-8", errors="replace") as f:
                plot_cache[target] = plot_problem(f.read())
        problem = plot_cache[target]
        if problem and problem.startswith("empty plot"):
            reasons.append(f"{problem} ({os.path.basename(target)})")
    for i, svg in enumerate(m["inline_svgs"]):
        problem = plot_problem(svg)
        if problem:
            reasons.append(f"{problem} (inline SVG {i + 1} of the page)")
    # a part page shows its plot against n
    part = re.fullmatch(r"part_(\w+)\.html", os.path.basename(path))
    if part:
        wanted = f"{part.group(1)}_sizes.svg"
        if not any(os.path.basename(local_path(u) or "") == wanted for u in m["plots"]):
            reasons.append(f"missing plot: a part page shows its plot against n, {wanted}, in "
                           "its content column")

    # console errors and resources that failed to load
    for event in chromium.events:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            text = " ".join(str(a.get("value", a.get("description", "")))
                            for a in params.get("args", []))
            reasons.append(f"console error: {text[:200]}")
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text", "")
            reasons.append(f"console error: uncaught {text.splitlines()[0][:200] if text else ''}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            if local_path(entry.get("url", "")) in missing:
                continue  # already reported as a broken link
            reasons.append(f"console error: {entry.get('text', '')[:200]}"
                           + (f" ({entry['url']})" if entry.get("url") else ""))
    return reasons


def find_browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def run(pages, width, height):
    """Checks `pages`; returns {page: [reasons]} for every page."""
    browser = find_browser()
    if not browser:
        fail_usage("chromium not found: install it with bash common/tools/ensure_deps.sh "
                   "(Debian package chromium)")
    chromium = None
    results, plot_cache = {}, {}
    try:
        chromium = Chromium(browser, width, height)
        for page in pages:
            try:
                results[page] = check_page(chromium, page, plot_cache)
            except TimeoutError as e:
                results[page] = [f"timed out: {e}"]
    except (RuntimeError, TimeoutError, OSError) as e:
        print(f"browser_test: Chromium failed: {e}", file=sys.stderr)
        if chromium:
            with open(chromium.log_path, errors="replace") as f:
                sys.stderr.write("".join(f.readlines()[-20:]))
        sys.exit(1)
    finally:
        if chromium:
            chromium.close()
    return results


def self_test(width, height):
    """Each fixture page says what the check must report for it (<meta name="expect">); the
    reports must match exactly, reason by reason (the text before the first colon)."""
    fixture_dir = os.path.join(HERE, "browser")
    pages = sorted(glob.glob(os.path.join(fixture_dir, "*.html")))
    if not pages:
        fail_usage(f"no fixture pages in {fixture_dir}")
    expected = {}
    for page in pages:
        with open(page, encoding="utf-8") as f:
            found = re.search(r'<meta name="expect" content="([^"]*)"', f.read())
        if not found:
            fail_usage(f"{page} has no <meta name=\"expect\" content=\"...\">")
        expected[page] = sorted(r.strip() for r in found.group(1).split(";") if r.strip())
    results = run(pages, width, height)
    bad = 0
    for page in pages:
        got = sorted(r.split(":")[0] for r in results[page])
        name = os.path.basename(page)
        if got != expected[page]:
            bad += 1
            print(f"FIXTURE {name}: expected {expected[page] or 'no failure'}, got "
                  f"{got or 'no failure'}")
            for r in results[page]:
                print(f"    {r}")
        else:
            print(f"ok {name}: {', '.join(results[page]) or 'passes'}")
    print(f"browser_test --self-test: {len(pages) - bad} of {len(pages)} fixture pages as expected")
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--html-dir", default="build/book/html", help="the rendered site")
    ap.add_argument("--width", type=int, default=1280, help="window width in px (1280)")
    ap.add_argument("--height", type=int, default=900, help="window height in px (900)")
    ap.add_argument("--self-test", action="store_true",
                    help="check the fixture pages in book/tests/browser/ instead")
    ap.add_argument("pages", nargs="*", help="pages of --html-dir to check (default: every *.html)")
    args = ap.parse_args()
    if args.self_test:
        return self_test(args.width, args.height)
    if not os.path.isfile(os.path.join(args.html_dir, "index.html")):
        fail_usage(f"{args.html_dir}/index.html not found: render the book first "
                   "(cmake --build --preset default --target book)")
    if args.pages:
        pages = [os.path.join(args.html_dir, p) for p in args.pages]
        for p in pages:
            if not os.path.isfile(p):
                fail_usage(f"{p} does not exist")
    else:
        pages = sorted(glob.glob(os.path.join(args.html_dir, "*.html")))
    start = time.monotonic()
    results = run(pages, args.width, args.height)
    failing = {p: r for p, r in results.items() if r}
    for page, reasons in failing.items():
        print(f"FAIL {os.path.basename(page)}")
        for r in reasons:
            print(f"    {r}")
    print(f"browser_test: {len(pages) - len(failing)} of {len(pages)} pages pass at "
          f"{args.width} px ({time.monotonic() - start:.0f} s)")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
