#!/usr/bin/env bash
# Fails when two modules of the workspace import each other (directly or in a circle), or when
# a crate depends on a crate of its own layer or above (emu-core < arch-* < traces < acctemu).
#
# A module is one source file (`src/cli/scenario.rs` is `acctemu::cli::scenario`); an edge
# A -> B is a path in A's non-test code that names B: `use super::X`, `super::X::f`,
# `use crate::x::y`, `crate::x::y::f` (resolved to the longest module prefix that is a file;
# an item of a parent module is an edge to that parent). Test code (`#[cfg(test)]` modules and
# `tests.rs` / `tests/` files) is left out: a test module may use its parent freely. A module
# and its own submodules are one unit (a child is part of its parent): edges between them are
# not cycles; -v lists the pairs that name each other.
#
# A path through a `use` (a parent's `pub use child::X`, a sibling's re-export) is followed to the
# module that defines the name, so a re-export neither hides an edge nor adds one to its parent.
#
# `tests/module_cycles.rs` runs this script: any cycle fails `cargo test`.
#
# Usage: scripts/module-cycles.sh [-v]   (-v: also print every edge and the figures)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec python3 - "$@" <<'PY'
import os, re, sys

verbose = "-v" in sys.argv[1:]
CRATES = {"acctemu": ".", "emu_core": "emu-core", "arch_ia64": "arch-ia64",
          "arch_x86": "arch-x86", "arch_s390": "arch-s390", "traces": "traces"}
LAYER = {"emu_core": 0, "arch_ia64": 1, "arch_x86": 1, "arch_s390": 1, "traces": 2, "acctemu": 3}

def modules(crate, root):
    """module path (tuple) -> file, for every file reachable under root/src."""
    src = os.path.join(root, "src")
    out = {}
    for dirpath, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d != "bin"]
        for f in files:
            if not f.endswith(".rs"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), src)[:-3].split(os.sep)
            if rel[-1] in ("lib", "main") and len(rel) == 1:
                path = ()
            elif rel[-1] == "mod":
                path = tuple(rel[:-1])
            else:
                path = tuple(rel)
            if "tests" in path:
                continue
            out[path] = os.path.join(dirpath, f)
    return out

def strip(text):
    """The text with comments removed and string/char literals emptied, by a small lexer (a
    regex pass would let `"http://x"` start a comment or a raw string end early)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
            out.append(" ")
        elif (m := re.match(r'b?r(#*)"', text[i:i + 300])) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = '"' + m.group(1)
            j = text.find(end, i + m.end())
            i = n if j < 0 else j + len(end)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append('""')
        elif c == "'" and (m := re.match(r"'(\\[^']*|[^\\'])'", text[i:i + 12])):
            i += m.end()
            out.append("' '")
        else:
            out.append(c)
            i += 1
    return "".join(out)

def code(file):
    """The file's text without comments, literals and test code: every item under
    `#[cfg(test)]` (a `mod tests { .. }`, a test-only helper) is cut out to its closing brace or
    semicolon, so code after a test module still counts."""
    text = strip(open(file, encoding="utf-8").read())
    out, pos = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]", text):
        if m.start() < pos:
            continue
        out.append(text[pos:m.start()])
        # The item ends at its block's closing brace, or at `;`/`,` outside brackets (a use, a
        # field); a closer that was never opened ends the enclosing list (a last field).
        i, depth = m.end(), 0
        while i < len(text):
            ch = text[i]
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
                if depth < 0:
                    break
                if depth == 0 and ch == "}":
                    i += 1
                    break
            elif ch in ";," and depth == 0:
                i += 1
                break
            i += 1
        pos = i
    out.append(text[pos:])
    return "".join(out)

edges = {}

def use_leaves(tree):
    """The leaves of a use tree `a::{b, c::{d as e, *}}` as (segments, name bound or None)."""
    tree = re.sub(r"\s+", " ", tree).strip()
    pos = [0]
    def parse(prefix):
        out = []
        segs = list(prefix)
        while True:
            m = re.match(r"\s*(::)?\s*(\w+|\*|\{)", tree[pos[0]:])
            if not m:
                return out
            pos[0] += m.end()
            tok = m.group(2)
            if tok == "{":
                while True:
                    out += parse(segs)
                    m = re.match(r"\s*([,}])", tree[pos[0]:])
                    if not m:
                        return out
                    pos[0] += m.end()
                    if m.group(1) == "}":
                        return out
                    if re.match(r"\s*}", tree[pos[0]:]):
                        pos[0] += re.match(r"\s*}", tree[pos[0]:]).end()
                        return out
            if tok == "*":
                out.append((segs, None))
                return out
            segs = segs + [tok]
            if re.match(r"\s*::", tree[pos[0]:]):
                continue
            m = re.match(r"\s*as\s+(\w+)", tree[pos[0]:])
            alias = None
            if m:
                pos[0] += m.end()
                alias = m.group(1)
            bound = segs[-2] if segs[-1] == "self" and len(segs) > 1 else segs[-1]
            out.append(([s for s in segs if s != "self" or s is segs[0]], alias or bound))
            return out
    return parse([])

def split_head(path, segs):
    """(base module, rest) for a path written in module `path`: `crate::`, `self::`, `super::`s."""
    if segs and segs[0] == "crate":
        return (), segs[1:]
    if segs and segs[0] == "self":
        return path, segs[1:]
    n = 0
    while n < len(segs) and segs[n] == "super":
        n += 1
    return path[: max(0, len(path) - n)], segs[n:]

def resolve(mods, imports, base, segs, depth=0):
    """The module that base + segs names: the deepest module file, then through the `use`
    declarations of that module (a name a parent imports or re-exports from a sibling is an edge
    to the sibling, not to the parent)."""
    target, k = base, 0
    while k < len(segs) and target + (segs[k],) in mods:
        target, k = target + (segs[k],), k + 1
    if k < len(segs) and depth < 8:
        via = imports.get(target, {}).get(segs[k])
        if via is not None and via != (target, segs[k:k + 1]):
            return resolve(mods, imports, via[0], via[1] + segs[k + 1:], depth + 1)
    return target

def nested(a, b):
    """Whether one of the two modules contains the other (a module and its own submodules)."""
    n = min(len(a), len(b))
    return a[:n] == b[:n]

USE = re.compile(r"\b(?:pub(?:\s*\([^)]*\))?\s+)?use\s+([^;]*);")
PATH = re.compile(r"\b((?:super::)+|crate::|self::)((?:\w+::)*\w+)")

parent_child = set()
for crate, root in CRATES.items():
    mods = modules(crate, root)
    bodies = {path: code(file) for path, file in mods.items()}
    # Pass 1: what each module's `use` declarations bind, as (base, segments) in this crate.
    imports, uses = {}, {}
    for path, body in bodies.items():
        bound, leaves = {}, []
        for m in USE.finditer(body):
            for segs, name_ in use_leaves(m.group(1)):
                if not segs:
                    continue
                if segs[0] in ("crate", "self", "super") or path + (segs[0],) in mods:
                    base, rest = split_head(path, segs)
                    leaves.append((base, rest))
                    if name_ is not None:
                        bound[name_] = (base, rest)
        imports[path], uses[path] = bound, leaves
    # Pass 2: every path naming another module, in a `use` or in the code.
    for path, body in bodies.items():
        refs = [resolve(mods, imports, base, rest) for base, rest in uses[path]]
        for m in PATH.finditer(USE.sub(" ", body)):
            base, rest = split_head(path, (m.group(1) + m.group(2)).split("::"))
            refs.append(resolve(mods, imports, base, [s for s in rest if s]))
        for target in refs:
            if target == path:
                continue
            if nested(path, target):
                parent_child.add(((crate,) + path, (crate,) + target))
                continue
            edges.setdefault((crate,) + path, set()).add((crate,) + target)

def name(m):
    return "::".join(m)

# Cycles: strongly connected components of more than one module (Tarjan).
index, low, stack, on, sccs = {}, {}, [], set(), []
counter = [0]
def strong(v):
    index[v] = low[v] = counter[0]; counter[0] += 1
    stack.append(v); on.add(v)
    for w in sorted(edges.get(v, ())):
        if w not in index:
            strong(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(sorted(comp))
sys.setrecursionlimit(10000)
for v in sorted(edges):
    if v not in index:
        strong(v)

# Crate layering from the manifests' [dependencies] (dev-dependencies may go anywhere).
bad_deps = []
for crate, root in CRATES.items():
    text = open(os.path.join(root, "Cargo.toml"), encoding="utf-8").read()
    deps = re.search(r"^\[dependencies\]\n(.*?)(^\[|\Z)", text, re.S | re.M)
    for line in (deps.group(1) if deps else "").splitlines():
        dep = line.split("=")[0].strip().replace("-", "_")
        if dep in LAYER and crate != "acctemu" or dep in LAYER and crate == "acctemu" and dep != crate:
            if LAYER[dep] >= LAYER[crate] and dep != crate:
                bad_deps.append(f"{crate} (layer {LAYER[crate]}) depends on {dep} (layer {LAYER[dep]})")

n_edges = sum(len(v) for v in edges.values())
if verbose:
    for v in sorted(edges):
        for w in sorted(edges[v]):
            print(f"edge {name(v)} -> {name(w)}")
mutual = sorted({tuple(sorted((a, b))) for (a, b) in parent_child if (b, a) in parent_child})
print(f"modules with imports: {len(edges)}, edges between unnested modules: {n_edges}, cycles: {len(sccs)}, "
      f"layering violations: {len(bad_deps)}; parent/child modules naming each other (not counted): {len(mutual)}")
if verbose:
    for a, b in mutual:
        print(f"parent/child: {name(a)} <-> {name(b)}")
for c in sccs:
    print("cycle: " + " <-> ".join(name(m) for m in c))
    for v in c:
        for w in sorted(edges.get(v, ())):
            if w in c:
                print(f"  {name(v)} -> {name(w)}")
for b in bad_deps:
    print("layering: " + b)

sys.exit(1 if sccs or bad_deps else 0)
PY
