#!/usr/bin/env bash
# Checks that the docs describe the code as it is. Run by scripts/test.sh;
# checks 1–7 are scripts/check_docs.py.
#
#  1. Every repository path a doc names exists.
#  2. Every `/v1/…` route a doc names is a route of the server (the OpenAPI
#     document, which a server test holds equal to the router's routes).
#  3. Every `module::item` / `Type::item` a doc names is defined there,
#     every `name(args) -> Type` it claims is a fn returning that type, and
#     every `cargo … -p CRATE --bench/--test/--example/--bin NAME` is a target.
#  4. Every error code of docs/api.md's table is produced somewhere.
#  5. Every `docs/spec.md §n` reference (in any tracked file) is a section.
#  6. The lines the vector generators mark as copied are in tests/vectors/reference/.
#  7. Nothing tracked points outside the repository or carries dates, machine
#     names or session notes.
#  8. `fairseed verify` gives each file of examples/ the exit status its README
#     says, and verifies the records of docs/spec.md §14.
#  9. docs/service.md's option table lists exactly `fairseed serve`'s options.
#
# The Rust examples of docs/core-api.md are compiled and run as doc tests of
# fairseed-core (`cargo test -p fairseed-core --doc`), not here.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v python3 >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq python3 >/dev/null
fi

status=0
echo "== docs: paths, routes, API names, error codes, spec references, copied code, hygiene"
python3 scripts/check_docs.py || status=1

echo "== docs: fairseed verify on examples/ and on docs/spec.md §14"
cargo build --quiet -p fairseed-cli --bin fairseed
fairseed="${CARGO_TARGET_DIR:-target}/debug/fairseed"
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
echo "$rows example files checked against examples/README.md; the spec's worked examples verified"

echo "== docs: the options of fairseed serve against docs/service.md"
documented=$(grep -o '^| `--[a-z-]*`' docs/service.md | tr -d '|` ' | sort)
actual=$("$fairseed" serve --help | grep -oE '^ +--[a-z-]+' | tr -d ' ' | grep -vx -e '--help' -e '--version' | sort)
if [ "$documented" != "$actual" ]; then
  echo "check-docs: docs/service.md's options differ from fairseed serve --help:" >&2
  diff <(echo "$documented") <(echo "$actual") | grep '^[<>]' | sed 's/^</  only in the doc:/; s/^>/  only in the binary:/' >&2
  status=1
fi
exit "$status"
