#!/usr/bin/env python3
"""Fails when the modules of a crate import each other in a cycle.

Usage: scripts/check-module-cycles.py [--at-most N] [crate source dir ...]
       (default: every crates/*/src)

Each file module (`lib.rs`, `a.rs`, `a/mod.rs`, `a/b.rs`) is a node; a
module's inline `mod x { … }` blocks (tests) belong to it. A module depends
on another when its code names it by path: `use crate::a::b::…`,
`crate::a::f()`, `super::…`, `self::…`, a child module by its name, or a
name it imported as a module. The path resolves to the longest module
prefix, so `use crate::a::b::Item` depends on `a::b` (or on `a` when `b` is
not a module file). A re-export is not followed: `crate::Item` depends on
the crate's root even when the root only re-exports `Item` from `a`, so a
module that reaches its parent's re-exports for what a sibling defines is a
cycle like any other. Declaring a child module (`mod b;`) is containment,
not a dependency; a parent that calls into its child, and a child that uses
its parent, are a cycle.

Prints every strongly connected component of more than one module with one
cycle through it, and exits 1 if there is any; `--at-most N` lets a crate
keep at most N elementary cycles (a ratchet for a crate not yet untangled:
it fails as soon as one more appears); `--count` prints only the number of
components and of elementary cycles (capped at 10,000); `--graph` prints
every module's dependencies; `--self-test` checks the checker on small
made-up crates.
"""

import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip(text):
    """The code without comments, string and char literals (kept as spaces)."""
    out = []
    i, n = 0, len(text)
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
        elif c == "r" and re.match(r'r#*"', text[i:]) and (i == 0 or not re.match(r"[A-Za-z0-9_]", text[i - 1])):
            m = re.match(r'r(#*)"', text[i:])
            end = '"' + m.group(1)
            j = text.find(end, i + len(m.group(0)))
            i = n if j < 0 else j + len(end)
            out.append(' "" ')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            out.append(' "" ')
        elif c == "'":
            # a char literal ('a', '\n', '\u{1F600}'), not a lifetime ('a)
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            if m:
                i += len(m.group(0))
                out.append(" ' ' ")
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def module_files(src):
    """{module path tuple: file path} for every file module under src."""
    mods = {}
    for root, _dirs, files in os.walk(src):
        rel = os.path.relpath(root, src)
        parts = () if rel == "." else tuple(rel.split(os.sep))
        if parts and parts[0] == "bin":
            continue
        for f in files:
            if not f.endswith(".rs"):
                continue
            name = f[:-3]
            if not parts and name in ("lib", "main"):
                mods[()] = os.path.join(root, f)
            elif name == "mod":
                mods[parts] = os.path.join(root, f)
            else:
                mods[parts + (name,)] = os.path.join(root, f)
    return mods


def expand_use(tree):
    """`a::{b, c::{d, e as f}, self}` into [[a,b], [a,c,d], [a,c,e], [a]]."""
    tree = re.sub(r"\s+", "", tree)
    tree = re.sub(r"\bas" + IDENT, "", tree)

    def split_top(s):
        parts, depth, cur = [], 0, ""
        for ch in s:
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            if ch == "," and depth == 0:
                parts.append(cur)
                cur = ""
            else:
                cur += ch
        if cur:
            parts.append(cur)
        return parts

    def walk(prefix, s):
        i = s.find("{")
        if i < 0:
            segs = [x for x in s.split("::") if x]
            if segs and segs[-1] == "self":
                segs = segs[:-1]
            return [prefix + segs]
        head = [x for x in s[:i].split("::") if x]
        inner = s[i + 1 : s.rfind("}")]
        out = []
        for part in split_top(inner):
            out += walk(prefix + head, part)
        return out

    return walk([], tree)


def resolve(segs, here, mods, depth=0):
    """The module a path names from module `here`, or None if outside the crate.

    `depth` counts the inline `mod x { … }` blocks around the path: their
    first `super`s stay in the file."""
    if not segs:
        return None
    if segs[0] == "crate":
        base, rest = (), segs[1:]
    elif segs[0] == "super":
        base, rest = here, segs
        while rest and rest[0] == "super":
            if depth:
                depth -= 1
            else:
                base = base[:-1]
            rest = rest[1:]
    elif segs[0] == "self":
        base, rest = here, segs[1:]
    elif here + (segs[0],) in mods:
        base, rest = here, segs
    else:
        return None
    best, k = base, 0
    while k < len(rest) and best + (rest[k],) in mods:
        best, k = best + (rest[k],), k + 1
    return best


def inline_mod_spans(code):
    """(start, end) of every inline `mod x { … }` block."""
    spans = []
    for m in re.finditer(r"\bmod\s+" + IDENT + r"\s*\{", code):
        depth, i = 0, m.end() - 1
        while i < len(code):
            if code[i] == "{":
                depth += 1
            elif code[i] == "}":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        spans.append((m.start(), i))
    return spans


def edges_of(here, path, mods):
    code = strip(open(path, encoding="utf-8").read())
    spans = inline_mod_spans(code)

    def depth(pos):
        return sum(1 for a, b in spans if a < pos < b)

    deps = set()
    aliases = {}
    for m in re.finditer(r"\buse\s+([^;]+);", code):
        for segs in expand_use(m.group(1)):
            target = resolve(segs, here, mods, depth(m.start()))
            if target is not None:
                deps.add(target)
                # an imported module name, used later as `name::item`
                if segs and tuple(target) != here and target[-1:] == tuple(segs[-1:]):
                    aliases[segs[-1]] = target
    # the paths outside `use` items (those were read whole above)
    code = re.sub(r"\buse\s+[^;]+;", lambda m: " " * len(m.group(0)), code)
    path_re = re.compile(r"(?<![A-Za-z0-9_:])((?:" + IDENT + r")(?:\s*::\s*" + IDENT + r")+)")
    for m in path_re.finditer(code):
        segs = [s.strip() for s in m.group(1).split("::")]
        if segs[0] in aliases:
            segs = list(aliases[segs[0]]) + segs[1:]
            segs = ["crate"] + segs
        target = resolve(segs, here, mods, depth(m.start()))
        if target is not None:
            deps.add(target)
    deps.discard(here)
    return deps


def sccs(graph):
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [c for c in out if len(c) > 1]


def one_cycle(graph, comp):
    """A shortest cycle through the component's first module."""
    members = set(comp)
    start = comp[0]
    prev, frontier = {start: None}, [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v]):
                if w == start:
                    path = [v]
                    while prev[path[-1]] is not None:
                        path.append(prev[path[-1]])
                    return list(reversed(path)) + [start]
                if w in members and w not in prev:
                    prev[w] = v
                    nxt.append(w)
        frontier = nxt
    return comp


def count_cycles(graph, cap=10000):
    """Elementary cycles (each counted once, from its least module), capped."""
    order = sorted(graph)
    rank = {v: i for i, v in enumerate(order)}
    count = 0
    for s in order:
        stack = [(s, iter(sorted(graph[s])))]
        onpath = {s}
        while stack:
            v, it = stack[-1]
            w = next(it, None)
            if w is None:
                stack.pop()
                onpath.discard(v)
            elif w == s:
                count += 1
                if count >= cap:
                    return count
            elif rank[w] > rank[s] and w not in onpath:
                onpath.add(w)
                stack.append((w, iter(sorted(graph[w]))))
    return count


def name(mod):
    return "crate" if not mod else "::".join(mod)


def self_test():
    """The checker on two small crates: one with a cycle, one without."""
    import tempfile

    def graph_of(files):
        with tempfile.TemporaryDirectory() as src:
            for path, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(src, path)), exist_ok=True)
                with open(os.path.join(src, path), "w", encoding="utf-8") as f:
                    f.write(text)
            mods = module_files(src)
            return {m: edges_of(m, p, mods) for m, p in mods.items()}

    base = {
        "lib.rs": "mod a;\nmod b;\nmod c;\npub use c::Z;\n",
        "a/mod.rs": "mod inner;\nuse crate::b::{self, X};\n// crate::c::nothing\n",
        "a/inner.rs": "pub fn g() { let _ = \"crate::c::nothing\"; }\n",
        "c.rs": "pub struct Z;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
    }
    acyclic = dict(base, **{"b.rs": "pub struct X;\npub fn f() -> crate::Z { crate::Z }\n"})
    graph = graph_of(acyclic)
    assert graph[("a",)] == {("b",)}, graph
    assert graph[("a", "inner")] == set(), graph
    assert graph[("b",)] == {()}, graph  # crate::Z is the root's re-export, not followed to c
    assert graph[()] == {("c",)}, graph
    assert graph[("c",)] == set(), graph
    assert not sccs(graph), graph
    cyclic = dict(base, **{"b.rs": "pub struct X;\npub fn f() { crate::a::inner::g() }\n",
                           "a/inner.rs": "use super::super::b::X;\n"})
    comps = sccs(graph_of(cyclic))
    assert comps == [[("a", "inner"), ("b",)]], comps
    # A child reaching its parent's re-export of a sibling's item depends on
    # the parent, which uses the child: a cycle until it names the sibling.
    knot = {
        "lib.rs": "mod m;\n",
        "m/mod.rs": "mod x;\nmod y;\npub use y::Y;\npub fn f() { x::g() }\n",
        "m/x.rs": "use super::Y;\npub fn g() {}\n",
        "m/y.rs": "pub struct Y;\n",
    }
    assert sccs(graph_of(knot)) == [[("m",), ("m", "x")]], sccs(graph_of(knot))
    untied = dict(knot, **{"m/x.rs": "use super::y::Y;\npub fn g() {}\n"})
    assert not sccs(graph_of(untied)), sccs(graph_of(untied))
    print("self-test: a cycle is found, through a re-export too; an acyclic graph passes")


def check(src, at_most):
    """Reports one crate; true when it passes."""
    mods = module_files(src)
    graph = {m: edges_of(m, p, mods) for m, p in mods.items()}
    comps = sccs(graph)
    where = os.path.normpath(src)
    if "--graph" in sys.argv:
        for m in sorted(graph):
            print(f"{name(m)} -> {', '.join(name(d) for d in sorted(graph[m]))}")
        return True
    cycles = count_cycles(graph) if comps else 0
    if "--count" in sys.argv:
        print(f"{where}: {len(comps)} cyclic component(s), {cycles} elementary cycle(s), {len(mods)} modules")
        return True
    if at_most is not None and cycles <= at_most:
        print(f"{where}: {cycles} elementary cycle(s) in {len(comps)} component(s), at most {at_most} allowed")
        return True
    for comp in comps:
        cycle = one_cycle(graph, comp)
        print(f"{where}: module cycle ({len(comp)} modules: {', '.join(name(m) for m in comp)}):")
        print("  " + " -> ".join(name(m) for m in cycle))
    if comps:
        if at_most is not None:
            print(f"{where}: {cycles} elementary cycles, more than the {at_most} allowed")
        return False
    print(f"no module cycle among the {len(mods)} modules of {where}")
    return True


def main():
    if "--self-test" in sys.argv:
        self_test()
        return 0
    args, at_most, i = [], None, 1
    while i < len(sys.argv):
        if sys.argv[i] == "--at-most":
            at_most = int(sys.argv[i + 1])
            i += 2
            continue
        if not sys.argv[i].startswith("--"):
            args.append(sys.argv[i])
        i += 1
    if not args:
        crates = os.path.join(os.path.dirname(__file__), "..", "crates")
        args = sorted(os.path.join(crates, c, "src") for c in os.listdir(crates))
    ok = [check(src, at_most) for src in args]
    return 0 if all(ok) else 1


if __name__ == "__main__":
    sys.exit(main())
