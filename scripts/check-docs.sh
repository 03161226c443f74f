#!/usr/bin/env bash
# Checks that the docs describe the code as it is. Run by scripts/test.sh.
#
#  1. Every repository path a doc names exists.
#  2. Every `/v1/…` route a doc names is a route of the server (the OpenAPI
#     document, which a server test holds equal to the router's routes).
#  3. Every `module::item` / `Type::item` a doc names is defined there, and
#     every `name(args) -> Type` it claims is a fn returning that type.
#  4. Every error code of docs/api.md's table is produced somewhere.
#  5. Every `docs/spec.md §n` reference (in any tracked file) is a section.
#  6. The lines the vector generators mark as copied are in tests/vectors/reference/.
#  7. Nothing tracked points outside the repository or carries dates, machine
#     names or session notes.
#  8. `fairseed verify` gives each file of examples/ the exit status its README
#     says, and verifies the records of docs/spec.md §14.
#
# The Rust examples of docs/core-api.md are compiled and run as doc tests of
# fairseed-core (`cargo test -p fairseed-core --doc`), not here.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v python3 >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq python3 >/dev/null
fi

echo "== docs: paths, routes, API names, error codes, spec references, copied code, hygiene"
python3 - <<'PY'
import os, re, subprocess, sys

def tracked(*patterns):
    out = subprocess.run(["git", "ls-files", *patterns], capture_output=True, text=True, check=True).stdout
    return [p for p in out.splitlines() if os.path.isfile(p)]

def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()

DOCS = [p for p in tracked("*.md") if not p.startswith(("web/node_modules/", "fuzz/"))]
failures = []

def fail(where, what):
    failures.append(f"{where}: {what}")

def spans(text):
    """Inline code spans and fenced block lines, with their line numbers."""
    out, fenced = [], False
    for no, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            out.append((no, line))
        else:
            out.extend((no, s) for s in re.findall(r"`([^`]+)`", line))
    return out

# 1. Paths.
TOP = ("crates/", "web/", "scripts/", "tests/", "benches/", "docs/", "examples/", "fuzz/", ".ci/")
for doc in DOCS:
    for no, span in spans(read(doc)):
        for token in re.findall(r"(?<![\w/.-])((?:\.ci|crates|web|scripts|tests|benches|docs|examples|fuzz)/[\w./{},*-]*)", span):
            path = token.rstrip(".,:;)")
            if any(c in path for c in "*{}<…") or "..." in path:
                continue
            if not os.path.exists(path):
                fail(f"{doc}:{no}", f"names {path}, which does not exist")
    for no, line in enumerate(read(doc).splitlines(), 1):
        for link in re.findall(r"\]\(([^)#:]+)\)", line):
            if not os.path.exists(os.path.join(os.path.dirname(doc), link)):
                fail(f"{doc}:{no}", f"links to {link}, which does not exist")

# 2. Routes.
import json
norm = lambda p: re.sub(r"\{[^}]*\}", "{}", p.split("?")[0]).rstrip("/")
routes = {norm(p) for p in json.loads(read("crates/server/src/openapi.json"))["paths"]}
if not routes:
    fail("crates/server/src/openapi.json", "no paths found")
for doc in DOCS:
    for no, span in spans(read(doc)):
        for path in re.findall(r"(/v1/[\w/{}.:-]*|/healthz)", span):
            if "…" in path or "..." in path or path.endswith("/v1/"):
                continue
            if norm(path) not in routes:
                fail(f"{doc}:{no}", f"names the route {path}, which the server does not have")

# 3. `module::item` and `Type::item`.
RUST = [p for p in tracked("crates/*.rs") if "/src/" in p]
SOURCES = {p: read(p) for p in RUST}
EXTERNAL = {"std", "core", "serde", "serde_json", "tokio", "axum", "sqlx", "rusqlite", "hex", "sha2",
            "hmac", "getrandom", "rand", "wasm_bindgen", "anyhow", "clap", "cpufeatures", "subtle",
            "rust_embed", "include_dir", "Value", "Ordering", "ExitCode", "Method", "StatusCode"}
ITEM = r"(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?(?:const\s+)?(?:unsafe\s+)?(?:fn|struct|enum|trait|type|const|static|mod)\s+{}\b"

def module_files(name):
    return [p for p in RUST if p.endswith(f"/{name}.rs") or f"/{name}/" in p]

def type_files(name):
    decl = re.compile(ITEM.format(re.escape(name)))
    impl = re.compile(r"impl(?:<[^>]*>)?\s+(?:[\w:<>, ]+\s+for\s+)?" + re.escape(name) + r"\b")
    return [p for p, s in SOURCES.items() if decl.search(s) or impl.search(s)]

def defines(files, item):
    pattern = re.compile(ITEM.format(re.escape(item)) + r"|\b" + re.escape(item) + r"\s*[({,]|pub use [^;]*\b" + re.escape(item) + r"\b")
    return any(pattern.search(SOURCES[p]) for p in files if p in SOURCES)

for doc in DOCS:
    if doc == "docs/core-api.md":
        continue  # compiled as doc tests
    for no, span in spans(read(doc)):
        for chain in re.findall(r"\b(?:[A-Za-z_]\w*::)+(?:\{[^}]*\}|[A-Za-z_]\w*)", span):
            parts = chain.split("::")
            if parts[0] in EXTERNAL or parts[0].startswith("fairseed_") and len(parts) == 2:
                if parts[0].startswith("fairseed_"):
                    parts = parts[1:]
                else:
                    continue
            parts = [p for p in parts if not p.startswith("fairseed_")]
            if len(parts) < 2:
                continue
            owner, last = parts[-2], parts[-1]
            items = [i.strip() for i in last.strip("{}").split(",")] if last.startswith("{") else [last]
            files = module_files(owner) if owner[0].islower() else type_files(owner)
            if not files:
                fail(f"{doc}:{no}", f"names {chain}, but there is no {owner} in crates/")
                continue
            for item in items:
                if item and not defines(files, item):
                    fail(f"{doc}:{no}", f"names {owner}::{item}, which {owner} does not define")

# 3b. `name(args) -> Type` claims: some `fn name` returns that type.
def returns(name):
    sigs = re.findall(r"\bfn\s+" + re.escape(name) + r"\b[^{;]*?->\s*([^{;]+?)\s*(?:where\b[^{;]*)?[{;]",
                      "\n".join(SOURCES.values()), re.S)
    return {re.sub(r"\s+|'\w+\s*", "", t) for t in sigs}
for doc in DOCS:
    if doc == "docs/core-api.md":
        continue
    for no, span in spans(read(doc)):
        for name, ty in re.findall(r"\b([a-z_]\w*)\s*\([^()]*\)\s*->\s*([^`;]+?)\s*$", span):
            want = re.sub(r"\s+|'\w+\s*", "", ty)
            have = returns(name)
            if not have:
                fail(f"{doc}:{no}", f"claims {name}(…) -> {ty}, but no fn {name} returns anything")
            elif want not in have:
                fail(f"{doc}:{no}", f"claims {name}(…) -> {ty}; fn {name} returns {' or '.join(sorted(have))}")

# 4. Error codes of docs/api.md.
api = read("docs/api.md")
section = api.split("## Error codes", 1)[1] if "## Error codes" in api else ""
code_text = "\n".join(read(p) for p in tracked("crates/*.rs"))
for line in section.splitlines():
    cells = line.split("|")
    if len(cells) > 3:
        for code in re.findall(r"`([a-z_]+)`", cells[2]):
            if f'"{code}"' not in code_text:
                fail("docs/api.md", f"error code {code} is not produced anywhere in crates/")

# 5. docs/spec.md references.
spec = read("docs/spec.md")
sections = set(re.findall(r"^##+ ((?:\d+)(?:\.\d+)?)\.? ", spec, re.M))
appendices = set(re.findall(r"^## Appendix ([A-Z])\.", spec, re.M))
for path in tracked():
    if path.startswith(("web/pkg/", "web/node_modules/")) or path.endswith((".lock", ".wasm", ".jsonl", ".json")) and "openapi" not in path:
        continue
    try:
        text = read(path)
    except (UnicodeDecodeError, IsADirectoryError):
        continue
    for no, line in enumerate(text.splitlines(), 1):
        for m in re.finditer(r"spec(?:\.md)?`?\)?,? (?:§|section |Appendix )", line):
            tail = line[m.start():]
            for ref in re.findall(r"§\s?(\d+(?:\.\d+)?)", tail):
                if ref not in sections:
                    fail(f"{path}:{no}", f"cites docs/spec.md §{ref}, which does not exist")
            for ref in re.findall(r"Appendix ([A-Z])\b", tail):
                if ref not in appendices:
                    fail(f"{path}:{no}", f"cites docs/spec.md Appendix {ref}, which does not exist")
            for ref in re.findall(r"section (\d+(?:\.\d+)?)", tail):
                if ref not in sections:
                    fail(f"{path}:{no}", f"cites docs/spec.md section {ref}, which does not exist")

for no, line in enumerate(spec.splitlines(), 1):
    for ref in re.findall(r"§\s?(\d+(?:\.\d+)?)", line):
        if ref not in sections:
            fail(f"docs/spec.md:{no}", f"refers to §{ref}, which does not exist")

# 6. Copied reference code.
for gen in ("tests/vectors/generate.js", "tests/vectors/selfpoker.py"):
    lines, source, copied = read(gen).splitlines(), None, 0
    for no, line in enumerate(lines, 1):
        begin = re.search(r"BEGIN copied(?: verbatim)? from (\S+)", line)
        if begin:
            source = os.path.join("tests/vectors", begin.group(1))
            if not os.path.isfile(source):
                fail(f"{gen}:{no}", f"copies from {source}, which does not exist")
                source = None
            ref = {l.strip() for l in read(source).splitlines()} if source else set()
            continue
        if "END copied" in line:
            source = None
            continue
        if source and line.strip() and line.strip() not in ref:
            fail(f"{gen}:{no}", f"marked as copied from {source} but not found there: {line.strip()}")
        copied += bool(source)
    if copied == 0:
        fail(gen, "no line is marked as copied from tests/vectors/reference/")

# 7. Hygiene of everything tracked.
def grep(*args):
    r = subprocess.run(["git", "grep", "-n", "-I", *args], capture_output=True, text=True)
    return [l for l in r.stdout.splitlines() if not l.startswith("scripts/check-docs.sh:")]
outside = "/" + "work/"
for hit in grep("-E", r"\.\./shared|" + outside + r"|SPEC\.md|SPEC §|SPEC section"):
    fail(hit.split(":", 2)[0] + ":" + hit.split(":", 2)[1], "points outside the repository")
for hit in grep("-i", "-E", r"zen 3|dev box|session [0-9]|\bissue [0-9]+\b|\b20[0-9][0-9]-[01][0-9]-[0-3][0-9]\b",
                "--", ":!*.lock", ":!web/package-lock.json", ":!web/pkg/BUILD-INFO"):
    fail(":".join(hit.split(":", 2)[:2]), "has a date, machine name or session note: " + hit.split(":", 2)[2].strip()[:80])

for f in failures:
    print("check-docs: " + f, file=sys.stderr)
if failures:
    print(f"check-docs: {len(failures)} problem(s)", file=sys.stderr)
    sys.exit(1)
print(f"{len(DOCS)} documents checked")
PY

echo "== docs: fairseed verify on examples/ and on docs/spec.md §14"
cargo build --quiet -p fairseed-cli --bin fairseed
fairseed="${CARGO_TARGET_DIR:-target}/debug/fairseed"
status=0
rows=0
while IFS='|' read -r _ file _ _ want _; do
  file=$(echo "$file" | tr -d ' `')
  want=$(echo "$want" | tr -d ' ')
  [ -f "examples/$file" ] || continue
  rows=$((rows + 1))
  set +e
  "$fairseed" verify "examples/$file" >/dev/null 2>&1
  got=$?
  set -e
  if [ "$got" != "$want" ]; then
    echo "check-docs: fairseed verify examples/$file exits $got, examples/README.md says $want" >&2
    status=1
  fi
done < <(grep '^| `' examples/README.md)
listed=$(ls examples | grep -cv '^README.md$')
if [ "$rows" -ne "$listed" ]; then
  echo "check-docs: examples/README.md lists $rows files, examples/ holds $listed" >&2
  status=1
fi
if ! sed -n '/^## 14\./,/^## Appendix/p' docs/spec.md | grep '^{"scheme"' | "$fairseed" verify - >/dev/null; then
  echo "check-docs: the records of docs/spec.md §14 do not verify" >&2
  status=1
fi
[ "$status" -eq 0 ] && echo "$rows example files and the spec's worked example verify as documented"
exit "$status"
