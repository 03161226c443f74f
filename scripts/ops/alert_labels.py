#!/usr/bin/env python3
"""Checks the alert rules and their promtool tests against what the service
exports, so neither can drift from it:
  - every `fairseed_*` series a rule selects is exported (in one of the
    scrapes: a real /metrics on each backend), and each label value a
    selector asks for (`route="POST /v1/dice/bets"`) is one it exports;
  - every input series of the tests names an exported series with labels
    the service gives it (beyond `job` and `instance`, which Prometheus adds);
  - every alert has a case in the tests.

    alert_labels.py RULES.yml TESTS.yml SCRAPE.txt...
"""
import re
import sys

import yaml

SELECTOR = re.compile(r'\b(fairseed_[a-z0-9_]+)(?:\{([^}]*)\})?')
MATCHER = re.compile(r'([a-z_]+)\s*(=~|!=|!~|=)\s*"((?:[^"\\]|\\.)*)"')
ADDED = {"job", "instance"}


def exported(paths):
    """{name: [labels dict]} of every sample in the scrapes."""
    series = {}
    for path in paths:
        for line in open(path, encoding="utf-8"):
            if not line.strip() or line.startswith("#"):
                continue
            m = re.match(r'([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? ', line)
            if m:
                labels = dict((k, v) for k, _, v in MATCHER.findall(m.group(3) or ""))
                series.setdefault(m.group(1), []).append(labels)
    return series


def check_selector(where, name, matchers, series, problems):
    if name not in series:
        problems.append(f"{where}: {name} is not exported")
        return
    for label, op, value in MATCHER.findall(matchers or ""):
        if label in ADDED or op != "=":
            continue
        if not any(s.get(label) == value for s in series[name]):
            seen = sorted({s.get(label, "") for s in series[name]})
            problems.append(f'{where}: {name}{{{label}="{value}"}} matches nothing exported; {label} is one of {seen}')


def main(rules_path, tests_path, *scrapes):
    series = exported(scrapes)
    problems = []
    rules = yaml.safe_load(open(rules_path, encoding="utf-8"))
    alerts = []
    for group in rules["groups"]:
        for rule in group["rules"]:
            alerts.append(rule["alert"])
            for name, matchers in SELECTOR.findall(rule["expr"]):
                check_selector(f"rule {rule['alert']}", name, matchers, series, problems)
    tests = yaml.safe_load(open(tests_path, encoding="utf-8"))
    tested = set()
    for case in tests["tests"]:
        for item in case.get("input_series", []):
            m = SELECTOR.match(item["series"])
            if not m:
                continue
            name, matchers = m.group(1), m.group(2) or ""
            check_selector(f"test series {item['series']}", name, matchers, series, problems)
            given = {k for k, _, _ in MATCHER.findall(matchers)} - ADDED - {"le"}
            known = {k for s in series.get(name, []) for k in s} - {"le"}
            if name in series and given != known:
                problems.append(f"test series {item['series']}: labels {sorted(given)}, exported {sorted(known)}")
        tested.update(t["alertname"] for t in case.get("alert_rule_test", []))
    problems += [f"alert {a} has no test case" for a in alerts if a not in tested]
    for p in problems:
        print("DRIFT:", p)
    print(f"{len(alerts)} alerts, {sum(len(v) for v in series.values())} exported samples of {len(series)} series checked")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
