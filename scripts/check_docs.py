#!/usr/bin/env python3
"""The static half of scripts/check-docs.sh: the docs against the tree.

Each check_* function reads the tracked files and returns its problems as
"where: what" lines; main() prints them all and fails if there is any. Run
from the repository's root.
"""
import json
import os
import re
import subprocess
import sys


def tracked(*patterns):
    out = subprocess.run(["git", "ls-files", *patterns], capture_output=True, text=True, check=True).stdout
    return [p for p in out.splitlines() if os.path.isfile(p)]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


DOCS = [p for p in tracked("*.md") if not p.startswith(("web/node_modules/", "fuzz/"))]
RUST = {p: read(p) for p in tracked("crates/*.rs") if "/src/" in p}
# Declares an item `{}` (a fn, type, const, module…).
ITEM = r"(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:const\s+)?(?:unsafe\s+)?(?:fn|struct|enum|trait|type|const|static|mod)\s+{}\b"
# Roots of paths that are not ours: `serde_json::Value` is not checked.
EXTERNAL = {"std", "core", "serde", "serde_json", "tokio", "axum", "sqlx", "rusqlite", "hex", "sha2",
            "hmac", "getrandom", "rand", "wasm_bindgen", "anyhow", "clap", "cpufeatures", "subtle",
            "rust_embed", "include_dir", "Value", "Ordering", "ExitCode", "Method", "StatusCode"}


def spans(text):
    """Inline code spans and the lines of fenced blocks, with line numbers."""
    out, fenced = [], False
    for no, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif fenced:
            out.append((no, line))
        else:
            out.extend((no, s) for s in re.findall(r"`([^`]+)`", line))
    return out


def doc_spans(skip=()):
    for doc in DOCS:
        if doc not in skip:
            for no, span in spans(read(doc)):
                yield f"{doc}:{no}", doc, span


def check_paths():
    """Every repository path a doc names exists (from the root, from the doc's
    folder, or — for docs/web.md, which speaks of web/'s own files — from web/)."""
    problems = []
    for where, doc, span in doc_spans():
        bases = ["", os.path.dirname(doc)] + (["web"] if doc == "docs/web.md" else [])
        for token in re.findall(r"(?<![\w/.-])((?:\.ci|crates|web|scripts|tests|benches|docs|examples|fuzz)/[\w./{},*-]*)", span):
            path = token.rstrip(".,:;)")
            if any(c in path for c in "*{}<…") or "..." in path:
                continue
            if not any(os.path.exists(os.path.join(b, path)) for b in bases):
                problems.append(f"{where}: names {path}, which does not exist")
    for doc in DOCS:
        for no, line in enumerate(read(doc).splitlines(), 1):
            for link in re.findall(r"\]\(([^)#:]+)\)", line):
                if not os.path.exists(os.path.join(os.path.dirname(doc), link)):
                    problems.append(f"{doc}:{no}: links to {link}, which does not exist")
    return problems


def check_routes():
    """Every `/v1/…` route a doc names is a path of the OpenAPI document
    (which a server test holds equal to the router's own routes)."""
    norm = lambda p: re.sub(r"\{[^}]*\}", "{}", p.split("?")[0]).rstrip("/")
    paths = json.loads(read("crates/server/src/openapi.json")).get("paths", {})
    routes = {norm(p) for p in paths}
    if not routes:
        return ["crates/server/src/openapi.json: no paths found"]
    problems = []
    for where, _, span in doc_spans():
        for path in re.findall(r"(/v1/[\w/{}.:-]*|/healthz)", span):
            if "…" in path or "..." in path or path.endswith("/v1/"):
                continue
            if norm(path) not in routes:
                problems.append(f"{where}: names the route {path}, which the server does not have")
    return problems


def files_of(owner):
    """The files that make up module `owner`, or define or implement type `owner`."""
    if owner[0].islower():
        return [p for p in RUST if p.endswith(f"/{owner}.rs") or f"/{owner}/" in p]
    decl = re.compile(ITEM.format(re.escape(owner)))
    impl = re.compile(r"impl(?:<[^>]*>)?\s+(?:[\w:<>, ]+\s+for\s+)?" + re.escape(owner) + r"\b")
    return [p for p, s in RUST.items() if decl.search(s) or impl.search(s)]


def defines(files, item):
    e = re.escape(item)
    pattern = re.compile(ITEM.format(e) + r"|\b" + e + r"\s*[({,]|pub use [^;]*\b" + e + r"\b")
    return any(pattern.search(RUST[p]) for p in files)


def check_names():
    """Every `module::item` / `Type::item` a doc names is defined there.
    docs/core-api.md is compiled as doc tests instead."""
    problems = []
    for where, _, span in doc_spans(skip={"docs/core-api.md"}):
        for chain in re.findall(r"\b(?:[A-Za-z_]\w*::)+(?:\{[^}]*\}|[A-Za-z_]\w*)", span):
            parts = [p for p in chain.split("::") if not p.startswith("fairseed_")]
            if len(parts) < 2 or parts[0] in EXTERNAL:
                continue
            owner, last = parts[-2], parts[-1]
            files = files_of(owner)
            if not files:
                problems.append(f"{where}: names {chain}, but there is no {owner} in crates/")
                continue
            for item in [i.strip() for i in last.strip("{}").split(",")]:
                if item and not defines(files, item):
                    problems.append(f"{where}: names {owner}::{item}, which {owner} does not define")
    return problems


def return_types(name):
    """The return types of every `fn name`, without spaces or lifetimes."""
    sigs = re.findall(r"\bfn\s+" + re.escape(name) + r"\b[^{;]*?->\s*([^{;]+?)\s*(?:where\b[^{;]*)?[{;]",
                      "\n".join(RUST.values()), re.S)
    return {re.sub(r"\s+|'\w+\s*", "", t) for t in sigs}


def check_signatures():
    """Every `name(args) -> Type` a doc claims matches some `fn name`'s return type."""
    problems = []
    for where, _, span in doc_spans(skip={"docs/core-api.md"}):
        for name, ty in re.findall(r"\b([a-z_]\w*)\s*\([^()]*\)\s*->\s*([^`;]+?)\s*$", span):
            want, have = re.sub(r"\s+|'\w+\s*", "", ty), return_types(name)
            if not have:
                problems.append(f"{where}: claims {name}(…) -> {ty}, but no fn {name} returns anything")
            elif want not in have:
                problems.append(f"{where}: claims {name}(…) -> {ty}; fn {name} returns {' or '.join(sorted(have))}")
    return problems


def check_cargo_targets():
    """`cargo … -p CRATE` names a package, and `--bench/--test/--example/--bin NAME` its target."""
    packages = {}
    for toml in tracked("crates/*/Cargo.toml"):
        m = re.search(r'^\[package\][^\[]*?^name\s*=\s*"([^"]+)"', read(toml), re.M | re.S)
        if m:
            packages[m.group(1)] = os.path.dirname(toml)
    kind_dir = {"bench": "benches", "test": "tests", "example": "examples", "bin": "src/bin"}
    problems = []
    for doc in DOCS:
        for no, line in enumerate(read(doc).splitlines(), 1):
            for cmd in re.findall(r"cargo (?:\+\S+ )?(?:run|test|bench|build|install)\b[^`#\n]*", line):
                pkg = re.search(r"-p (\S+)", cmd)
                if not pkg:
                    continue
                root = packages.get(pkg.group(1))
                if root is None:
                    problems.append(f"{doc}:{no}: runs cargo on package {pkg.group(1)}, which is not in crates/")
                    continue
                manifest = read(os.path.join(root, "Cargo.toml"))
                for kind, name in re.findall(r"--(bench|test|example|bin) (\S+)", cmd):
                    target = os.path.join(root, kind_dir[kind], name)
                    if not (os.path.exists(target + ".rs") or os.path.isdir(target)
                            or re.search(r'name\s*=\s*"' + re.escape(name) + '"', manifest)):
                        problems.append(f"{doc}:{no}: runs --{kind} {name} of {pkg.group(1)}, which has no such target")
    return problems


def check_error_codes():
    """Every error code in docs/api.md's table is a string literal somewhere in crates/."""
    api = read("docs/api.md")
    if "## Error codes" not in api:
        return ["docs/api.md: no Error codes section"]
    code_text = "\n".join(read(p) for p in tracked("crates/*.rs"))
    problems = []
    for line in api.split("## Error codes", 1)[1].splitlines():
        cells = line.split("|")
        if len(cells) > 3:
            for code in re.findall(r"`([a-z_]+)`", cells[2]):
                if f'"{code}"' not in code_text and f'\\"{code}\\"' not in code_text:
                    problems.append(f"docs/api.md: error code {code} is not produced anywhere in crates/")
    return problems


def check_spec_refs():
    """Every `docs/spec.md §n` (or appendix letter, or `section n`) in any tracked text
    file, and every `§n` inside the spec, is a section of the spec."""
    spec = read("docs/spec.md")
    sections = set(re.findall(r"^##+ (\d+(?:\.\d+)?)\.? ", spec, re.M))
    appendices = set(re.findall(r"^## Appendix ([A-Z])\.", spec, re.M))
    problems = []
    for no, line in enumerate(spec.splitlines(), 1):
        for ref in re.findall(r"§\s?(\d+(?:\.\d+)?)", line):
            if ref not in sections:
                problems.append(f"docs/spec.md:{no}: refers to §{ref}, which does not exist")
    for path in tracked():
        if path.startswith(("web/pkg/", "web/node_modules/")) or path.endswith((".lock", ".wasm", ".jsonl")):
            continue
        try:
            text = read(path)
        except UnicodeDecodeError:
            continue
        for no, line in enumerate(text.splitlines(), 1):
            for m in re.finditer(r"spec(?:\.md)?`?\)?,? (?:§|section |Appendix )", line):
                tail = line[m.start():]
                bad = [f"§{r}" for r in re.findall(r"§\s?(\d+(?:\.\d+)?)", tail) if r not in sections]
                bad += [f"section {r}" for r in re.findall(r"section (\d+(?:\.\d+)?)", tail) if r not in sections]
                bad += [f"Appendix {r}" for r in re.findall(r"Appendix ([A-Z])\b", tail) if r not in appendices]
                problems += [f"{path}:{no}: cites docs/spec.md {b}, which does not exist" for b in bad]
    return problems


def check_copied():
    """Every line the vector generators mark as copied is in the reference file they name."""
    problems = []
    for gen in ("tests/vectors/generate.js", "tests/vectors/selfpoker.py"):
        source, ref, copied = None, set(), 0
        for no, line in enumerate(read(gen).splitlines(), 1):
            begin = re.search(r"BEGIN copied(?: verbatim)? from (\S+)", line)
            if begin:
                source = os.path.join("tests/vectors", begin.group(1))
                if not os.path.isfile(source):
                    problems.append(f"{gen}:{no}: copies from {source}, which does not exist")
                    source = None
                ref = {l.strip() for l in read(source).splitlines()} if source else set()
            elif "END copied" in line:
                source = None
            elif source and line.strip():
                copied += 1
                if line.strip() not in ref:
                    problems.append(f"{gen}:{no}: marked as copied from {source} but not there: {line.strip()}")
        if copied == 0:
            problems.append(f"{gen}: no line is marked as copied from tests/vectors/reference/")
    return problems


def check_hygiene():
    """Nothing tracked points outside the repository, cites the old spec file, or
    carries dates, machine names, session notes or issue numbers."""
    def grep(*args):
        r = subprocess.run(["git", "grep", "-n", "-I", *args], capture_output=True, text=True)
        return [l.split(":", 2) for l in r.stdout.splitlines() if not l.startswith("scripts/check")]
    outside = "/" + "work/"
    problems = [f"{f}:{n}: refers outside the repository (the spec is docs/spec.md): {t.strip()[:80]}"
                for f, n, t in grep("-E", r"\.\./shared|" + outside + r"|SPEC\.md|SPEC §|SPEC section")]
    problems += [f"{f}:{n}: has a date, machine name, session note or issue number: {t.strip()[:80]}"
                 for f, n, t in grep("-i", "-E", r"zen 3|dev box|session [0-9]|\bissue [0-9]+\b|\b20[0-9][0-9]-[01][0-9]-[0-3][0-9]\b",
                                     "--", ":!*.lock", ":!web/package-lock.json", ":!web/pkg/BUILD-INFO")]
    return problems


CHECKS = [check_paths, check_routes, check_names, check_signatures, check_cargo_targets,
          check_error_codes, check_spec_refs, check_copied, check_hygiene]


def main():
    problems = [p for check in CHECKS for p in check()]
    for p in problems:
        print("check-docs: " + p, file=sys.stderr)
    if problems:
        print(f"check-docs: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"{len(DOCS)} documents checked")
    return 0


if __name__ == "__main__":
    sys.exit(main())
