#!/usr/bin/env python3
"""Builds one replay archive (spec/conventions.md) from the recorded cases of every site endpoint
(tests/sites/<site>/data/<name>/cases.json), and the list of requests the benchmark sends.

Usage: archive.py REPO OUT_DIR
Writes OUT_DIR/index.json (fixtures and test documents linked under OUT_DIR, never copied) and
OUT_DIR/requests.json: [{"endpoint" (/scrape/x/y), "case", "path" (GET path with query),
"pages" [site URLs the case serves]}], one per case.
"""
import glob
import json
import os
import re
import sys
from urllib.parse import urlencode

repo, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
for name, target in (("fixtures", os.path.join(repo, "..", "shared", "fixtures")),
                     ("sites", os.path.join(repo, "tests", "sites"))):
    link = os.path.join(out, name)
    if not os.path.exists(link):
        os.symlink(os.path.realpath(target), link)

entries, requests = [], []
for cases_path in sorted(glob.glob(os.path.join(repo, "tests/sites/*/data/*/cases.json"))):
    data_dir = os.path.dirname(cases_path)
    site = os.path.basename(os.path.dirname(os.path.dirname(data_dir)))
    name = os.path.basename(data_dir)
    with open(cases_path) as f:
        cases = json.load(f)["cases"]
    # The route, as the endpoint's doc names it (the contract test checks that it does).
    with open(os.path.join(repo, "docs", "endpoints", site, name + ".md")) as f:
        route = re.search(r"/scrape/[a-z]+/[a-z]+", f.read()).group(0)
    for case in cases:
        pages = []
        for page in case["pages"]:
            if "fixture" in page:
                file = os.path.join("fixtures", page["fixture"])
            else:
                file = os.path.join("sites", site, "data", name, page["file"])
            entry = {"match": page.get("match", "exact"), "url": page["url"], "file": file}
            for key in ("status", "headers"):
                if key in page:
                    entry[key] = page[key]
            entries.append(entry)
            pages.append(page["url"])
        query = []
        for k, v in case["query"].items():
            for item in (v if isinstance(v, list) else [v]):
                query.append((k, item))
        requests.append({"endpoint": route, "case": case.get("name", ""),
                         "path": route + "?" + urlencode(query), "pages": pages})

with open(os.path.join(out, "index.json"), "w") as f:
    json.dump({"entries": entries, "unmatched": 404}, f, indent=1)
with open(os.path.join(out, "requests.json"), "w") as f:
    json.dump(requests, f, indent=1)
