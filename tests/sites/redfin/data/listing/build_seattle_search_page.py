#!/usr/bin/env python3
"""Writes seattle-search-gis.html: the real gis search JSON of the fixtures
(tests/sites/redfin/pages/homes-listing/redfin-gis-homes-scrapfly.json, 89 homes[] objects, unchanged)
as the `{}&&`-prefixed body of a `/stingray/api/gis` answer, in the smallest document that carries it
on the site: a page whose `__reactServerState` data cache holds it, as the real Redfin pages of the
fixtures hold their API answers. It is NOT a real Redfin search page (none exists among the fixtures).
Usage: build_seattle_search_page.py"""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
homes = json.load(open(os.path.join(here, "..", "..", "pages", "homes-listing",
                                    "redfin-gis-homes-scrapfly.json")))
body = "{}&&" + json.dumps({"resultCode": 0, "errorMessage": "Success", "payload": {"homes": homes}},
                           separators=(",", ":"), ensure_ascii=False)
context = {"ReactServerAgent.cache": {"dataCache": {
    "/stingray/api/gis": {"url": "/stingray/api/gis", "res": {"text": body}}}}}
state = json.dumps(context, separators=(",", ":"), ensure_ascii=False).replace("</", "<\\/")
with open(os.path.join(here, "seattle-search-gis.html"), "w", encoding="utf-8") as out:
    out.write("<!DOCTYPE html>\n<!-- Built for gleaner's tests by build_seattle_search_page.py from the "
              "real gis JSON of the fixtures in a minimal document; not a real Redfin page. -->\n"
              "<html><head><meta charset=\"utf-8\"></head><body>\n<script>\n(function (root) {\n"
              "root.__reactServerState || (root.__reactServerState = {});\n"
              "root.__reactServerState.InitialContext = " + state + ";\n})(window);\n</script>\n"
              "</body></html>\n")
