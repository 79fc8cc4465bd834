#!/usr/bin/env python3
"""Copies real pages from ../shared/fixtures/pages (where new pages arrive) into the project, beside
the site's tests: tests/sites/<site>/pages/<category>/<file>, byte for byte, and writes the page's
provenance into tests/sites/<site>/pages/provenance.json (source repository, path, commit as the
fixtures' README gives them, and the file's git blob hash, which tests/sites/pages_test.cpp
checks against the copy).

Usage: scripts/copy-page.py <site> <category>/<file> [...]
   e.g. scripts/copy-page.py booking stays-search/booking-searchresults-ruidera-en-dom-2025-04.html
"""
import hashlib
import json
import os
import re
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "fixtures")


def blob_hash(path):
    with open(path, "rb") as f:
        data = f.read()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def readme_rows():
    """file (relative to pages/) -> its README row: stands in for, source, captured."""
    rows = {}
    with open(os.path.join(SHARED, "README.md"), encoding="utf-8") as f:
        for line in f:
            if not line.startswith("| ") or line.startswith("| file") or line.startswith("|---"):
                continue
            # Cells are split on " | " (a cell may hold an escaped "\|").
            cells = [c.strip() for c in re.split(r"(?<!\\) \| ", line.strip().strip("|"))]
            if len(cells) < 4:
                continue
            source = [p.strip() for p in cells[2].split(",")]
            rows[cells[0].strip()] = {
                "standsInFor": cells[1].strip("`") if cells[1] not in ("—", "") else None,
                "repository": source[0],
                # A path may itself hold commas: everything between the repository and the commit.
                "path": ", ".join(source[1:-1]),
                "commit": source[-1],
                "captured": cells[3],
            }
    return rows


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    site, files = argv[1], argv[2:]
    rows = readme_rows()
    pages = os.path.join(ROOT, "tests", "sites", site, "pages")
    manifest_path = os.path.join(pages, "provenance.json")
    manifest = {"pages": []}
    if os.path.exists(manifest_path):
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
    by_file = {p["file"]: p for p in manifest["pages"]}
    for rel in files:
        if rel not in rows:
            sys.exit(f"{rel}: no row in {SHARED}/README.md; add its provenance there first")
        target = os.path.join(pages, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(SHARED, "pages", rel), target)
        by_file[rel] = {"file": rel, **rows[rel], "blob": blob_hash(target)}
    manifest["pages"] = [by_file[k] for k in sorted(by_file)]
    with open(manifest_path, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv)
