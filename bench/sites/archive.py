#!/usr/bin/env python3
"""Builds one replay archive (spec/conventions.md) from the recorded cases of every site endpoint
(tests/sites/<site>/data/<name>/cases.json), and the list of requests the benchmark sends.

Usage: archive.py REPO OUT_DIR
Writes OUT_DIR/index.json (the pages and test documents of tests/sites linked under OUT_DIR, never
copied) and
OUT_DIR/requests.json: [{"endpoint" (/scrape/x/y), "case", "path" (GET path with query),
"pages" [site URLs the case serves]}], one per case.
"""
import base64
import glob
import hashlib
import hmac
import json
import os
import re
import sys
import time
from urllib.parse import urlencode

repo, out = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
link = os.path.join(out, "sites")
if not os.path.exists(link):
    os.symlink(os.path.realpath(os.path.join(repo, "tests", "sites")), link)

# A case's page token (extract/page_token.h) is signed with a sample secret; the service refuses
# it. With BENCH_PAGE_TOKEN_SECRET (the secret run.sh gives gleaner) it is signed anew for the
# benchmark's account (the first one, id 1), its claims kept, redeemable for a day.
token_secret = os.environ.get("BENCH_PAGE_TOKEN_SECRET", "")


def b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def resigned(value):
    match = re.fullmatch(r"([A-Za-z0-9_-]+)\.[0-9a-f]{64}", value) if token_secret else None
    if not match:
        return value
    try:
        record = json.loads(base64.urlsafe_b64decode(match.group(1) + "=" * (-len(match.group(1)) % 4)))
    except ValueError:
        return value
    if not isinstance(record, dict) or "c" not in record or "k" not in record:
        return value
    record = {"a": 1, "c": record["c"], "k": record["k"], "x": int(time.time()) + 86400}
    encoded = b64url(json.dumps(record, separators=(",", ":")).encode())
    key = hmac.new(token_secret.encode(), b"gleaner page tokens v1", hashlib.sha256).hexdigest()
    return encoded + "." + hmac.new(key.encode(), encoded.encode(), hashlib.sha256).hexdigest()


entries, requests = [], []
for cases_path in sorted(glob.glob(os.path.join(repo, "tests/sites/*/data/*/cases.json"))):
    data_dir = os.path.dirname(cases_path)
    site = os.path.basename(os.path.dirname(os.path.dirname(data_dir)))
    name = os.path.basename(data_dir)
    with open(cases_path) as f:
        cases = json.load(f)["cases"]
    # The path the endpoint's doc is titled with (the contract test checks that the doc names
    # it): the hosted client's path where it differs from the route (/scrape/google-maps/search).
    with open(os.path.join(repo, "docs", "endpoints", site, name + ".md")) as f:
        route = re.search(r"/scrape/[a-z-]+/[a-z_-]+", f.read()).group(0)
    for case in cases:
        # A page the tests rewrite (another language of the same layout) is not served as it
        # is on disk: the benchmark leaves such a case out.
        if any("replace" in page for page in case["pages"]):
            continue
        pages = []
        for page in case["pages"]:
            if "fixture" in page:
                # A real page, beside the site's tests (tests/sites/<site>/pages/...).
                file = os.path.join("sites", site, page["fixture"])
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
                query.append((k, resigned(item) if isinstance(item, str) else item))
        requests.append({"endpoint": route, "case": case.get("name", ""),
                         "path": route + "?" + urlencode(query), "pages": pages})

with open(os.path.join(out, "index.json"), "w") as f:
    json.dump({"entries": entries, "unmatched": 404}, f, indent=1)
with open(os.path.join(out, "requests.json"), "w") as f:
    json.dump(requests, f, indent=1)
