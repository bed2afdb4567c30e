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

def code(file):
    """The file's text without test modules, comments and strings (roughly)."""
    text = open(file, encoding="utf-8").read()
    m = re.search(r"#\[cfg\(test\)\]\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{", text)
    if m:
        text = text[: m.start()]
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(\\.|[^"\\])*"', '""', text)
    return text

edges = {}

def resolve(mods, base, segs):
    """The deepest module of `mods` that base + segs names (base itself if none)."""
    target = base
    for seg in segs:
        if seg == "super":
            target = target[:-1]
        elif target + (seg,) in mods:
            target = target + (seg,)
        else:
            break
    return target

def nested(a, b):
    """Whether one of the two modules contains the other (a module and its own submodules)."""
    n = min(len(a), len(b))
    return a[:n] == b[:n]

parent_child = set()
for crate, root in CRATES.items():
    mods = modules(crate, root)
    for path, file in mods.items():
        body = code(file)
        refs = []
        for m in re.finditer(r"\b((?:super::)+|crate::|self::)(\{[^}]*\}|(?:\w+::)*\w+)", body):
            head, rest = m.group(1), m.group(2)
            if head == "crate::":
                base = ()
            elif head == "self::":
                base = path
            else:
                base = path[: max(0, len(path) - head.count("super::"))]
            items = rest.strip("{}").split(",") if rest.startswith("{") else [rest]
            for item in items:
                segs = [s for s in re.split(r"::", item.strip()) if s]
                segs = [re.match(r"\w*", s).group(0) for s in segs]
                refs.append(resolve(mods, base, segs))
        # A parent naming its child relatively: `use child::X`, `pub use child::{..}`.
        for m in re.finditer(r"^\s*(?:pub(?:\([^)]*\))?\s+)?use\s+(\w+)::", body, re.M):
            if path + (m.group(1),) in mods:
                refs.append(resolve(mods, path, [m.group(1)]))
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
