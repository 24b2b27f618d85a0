"""navtree_fix: puts each page's sections back under that page in Doxygen 1.9.4's navigation tree.

Doxygen 1.9.4 misplaces the Markdown sections of a page that has subpages: they end up as
children of the page's first subpage, and that subpage's own sections under the page's last
section (a part page's sections under its first step; a step page's under its runs page), and
its index of tree paths (navtreeindex*.js, which opens the tree at the page shown) points at them
there. Pages (entries without '#') are always placed right; only sections move. repair(html_dir) rebuilds the tree from that fact (each section under its own page, or
under the section of the same page that holds it; a page's sections first, then its subpages, each
group in Doxygen's order) and writes the index again, sorted, for every entry.
"""
import glob
import json
import os
import re

INDEX_CHUNK = 250  # entries per navtreeindex file, as Doxygen writes them


def _read_var(path, name):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"var\s+" + re.escape(name) + r"\s*=\s*(\[.*?\]|\{.*?\})\s*;", text, re.S)
    if not m:
        raise ValueError(f"{path}: no `var {name} = ...;`")
    return json.loads(m.group(1)), text, m


def _dump_nodes(nodes, indent):
    pad = "  " * indent
    lines = []
    for k, (title, url, children) in enumerate(nodes):
        head = f"{pad}[ {json.dumps(title, ensure_ascii=False)}, {json.dumps(url)}, "
        if isinstance(children, list):
            body = head + "[\n" + _dump_nodes(children, indent + 1) + "\n" + pad + "] ]"
        else:
            body = head + json.dumps(children) + " ]"
        lines.append(body + ("," if k + 1 < len(nodes) else ""))
    return "\n".join(lines)


def _is_page(node):
    return "#" not in node[1]


def _file(node):
    return node[1].split("#", 1)[0]


def repair(html_dir):
    """Rewrites navtreedata.js, the tree's per-page .js files and navtreeindex*.js in html_dir.
    Returns the number of sections moved. No tree (GENERATE_TREEVIEW off): does nothing."""
    data_path = os.path.join(html_dir, "navtreedata.js")
    if not os.path.exists(data_path):
        return 0
    tree, data_text, tree_match = _read_var(data_path, "NAVTREE")
    refs = {}  # id(node) -> the name of the .js file that holds its children

    def resolve(node):
        if isinstance(node[2], str):
            refs[id(node)] = node[2]
            node[2] = _read_var(os.path.join(html_dir, node[2] + ".js"), node[2])[0]
        for child in node[2] or []:
            resolve(child)
    for top in tree:
        resolve(top)
    root = tree[0]

    # Every node below the root, in Doxygen's order, with its ancestors.
    order = []

    def walk(node, ancestors):
        for child in node[2] or []:
            order.append((child, ancestors))
            walk(child, ancestors + [child])
    walk(root, [root])

    page_of_file = {_file(root): root}  # the front page's sections under the root
    for node, _ in order:
        if _is_page(node):
            page_of_file.setdefault(_file(node), node)
    parent = {}
    moved = 0
    for node, ancestors in order:
        old_parent = ancestors[-1]
        if _is_page(node):
            new_parent = next(a for a in reversed(ancestors) if _is_page(a))
        elif _file(node) in page_of_file:
            new_parent = next((a for a in reversed(ancestors)
                               if not _is_page(a) and _file(a) == _file(node)),
                              page_of_file[_file(node)])
        else:
            new_parent = old_parent  # a section of no page in the tree: left where it is
        moved += new_parent is not old_parent and not _is_page(node)
        parent[id(node)] = new_parent
    if not moved:
        return 0

    children = {id(root): []}
    for node, _ in order:
        children[id(node)] = []
    for node, _ in order:
        children[id(parent[id(node)])].append(node)
    for node in [root] + [n for n, _ in order]:
        kids = children[id(node)]
        kids = [k for k in kids if not _is_page(k)] + [k for k in kids if _is_page(k)]
        node[2] = kids or None

    # Write the tree back: each node that had a file of its own keeps it.
    def write_refs(node):
        for child in node[2] or []:
            write_refs(child)
        name = refs.get(id(node))
        if name and node[2]:
            with open(os.path.join(html_dir, name + ".js"), "w", encoding="utf-8") as f:
                f.write(f"var {name} =\n[\n{_dump_nodes(_strip(node[2]), 1)}\n];\n")

    def _strip(nodes):
        """The nodes as Doxygen writes them: children in a file of their own named, not inlined."""
        out = []
        for node in nodes:
            title, url, kids = node
            if kids and id(node) in refs:
                out.append([title, url, refs[id(node)]])
            else:
                out.append([title, url, _strip(kids) if kids else None])
        return out
    write_refs(root)
    tree_text = "[\n" + _dump_nodes(_strip(tree), 1) + "\n]"

    # The index: every entry's path below the root, sorted by key, in chunks.
    entries = [(root[1], [])]

    def index(node, path):
        for k, child in enumerate(node[2] or []):
            entries.append((child[1], path + [k]))
            index(child, path + [k])
    index(root, [])
    old_files = sorted(glob.glob(os.path.join(html_dir, "navtreeindex*.js")))
    seen = {key for key, _ in entries}
    for path in old_files:  # keep entries the tree does not hold (pages.html)
        name = os.path.splitext(os.path.basename(path))[0].upper()
        for key, value in _read_var(path, name)[0].items():
            if key not in seen:
                entries.append((key, value))
                seen.add(key)
    entries.sort(key=lambda e: e[0])
    chunks = [entries[i:i + INDEX_CHUNK] for i in range(0, len(entries), INDEX_CHUNK)]
    for path in old_files:
        os.remove(path)
    for k, chunk in enumerate(chunks):
        body = ",\n".join(f"{json.dumps(key)}:{json.dumps(value, separators=(',', ':'))}"
                          for key, value in chunk)
        with open(os.path.join(html_dir, f"navtreeindex{k}.js"), "w", encoding="utf-8") as f:
            f.write(f"var NAVTREEINDEX{k} =\n{{\n{body}\n}};\n")
    first_keys = "[\n" + ",\n".join(json.dumps(chunk[0][0]) for chunk in chunks) + "\n]"
    text = data_text[:tree_match.start(1)] + tree_text + data_text[tree_match.end(1):]
    index_match = re.search(r"var\s+NAVTREEINDEX\s*=\s*(\[.*?\])\s*;", text, re.S)
    text = text[:index_match.start(1)] + first_keys + text[index_match.end(1):]
    with open(data_path, "w", encoding="utf-8") as f:
        f.write(text)
    return moved

