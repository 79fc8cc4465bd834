#!/usr/bin/env python3
"""Writes plumbers-seattle-real-items-in-a-minimal-document.html: the 12 real items of a Yelp search
page's `react_root_props` that the fixtures hold
(tests/sites/yelp/pages/local/scrapfly-yelp-search-react-root-props-items-extract-2026-04.json, taken
by scrapfly's parser out of the page for "plumbers" in "Seattle, WA"), byte for byte, as the
`mainContentComponentsListProps` list of the smallest document that carries them on the site: a
`<script data-id="react-root-props">react_root_props = {...};</script>` with the path Yelp's search
page keeps them under (legacyProps.searchAppProps.searchPageProps). It is NOT a real Yelp page: none
could be found; the page's other components (its pagination, its result count) are not in it.
Usage: build_minimal_document.py"""
import os

here = os.path.dirname(os.path.abspath(__file__))
items_path = os.path.join(here, "..", "..", "pages", "local",
                          "scrapfly-yelp-search-react-root-props-items-extract-2026-04.json")
with open(items_path, "rb") as f:
    items = f.read()  # the bytes as copied: the items are not parsed, so not rewritten
if b"</script" in items.lower():
    raise SystemExit("the items hold </script: they cannot sit in a script element unchanged")
head = (b"<!DOCTYPE html>\n<!-- Built for gleaner's tests by build_minimal_document.py: the real items "
        b"of the fixtures (scrapfly/scrapfly-scrapers, yelp-scraper/results/search.json, 8e4f718b) "
        b"in a minimal document; not a real Yelp page. -->\n"
        b"<html><head><meta charset=\"utf-8\"><title>plumbers, Seattle, WA: the real items of a Yelp "
        b"search page in a minimal document</title></head><body>\n"
        b"<script data-id=\"react-root-props\">react_root_props = "
        b"{\"legacyProps\":{\"searchAppProps\":{\"searchPageProps\":{\"mainContentComponentsListProps\":")
tail = b"}}}};</script>\n</body></html>\n"
with open(os.path.join(here, "plumbers-seattle-real-items-in-a-minimal-document.html"), "wb") as out:
    out.write(head + items + tail)
