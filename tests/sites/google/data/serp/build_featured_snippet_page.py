#!/usr/bin/env python3
"""Writes featured-snippet-built-from-google.html: the real results page for "google" of the
fixtures (tests/sites/google/pages/serp/serp-parser_desktop_google.html) with a featured snippet at
the top of its results. The snippet is the page's own markup: the answer Google keeps for its
first "People also ask" question (deferred in `window.jsl.dh(...)`: the text component
`div.wDYxhc > div[data-attrid="wa:/description"]` and its source result `div.g`, in the two
slots of their `div.t0bRye` container), resolved and put where a featured snippet stands, first
in `#rso`, inside a `div.MjjYud` as every block of the list is. Nothing else of the page changes.
It is NOT a page Google served (no real page with a featured snippet is among the fixtures).
Usage: build_featured_snippet_page.py"""
import os
import re

here = os.path.dirname(os.path.abspath(__file__))
page = open(os.path.join(here, "..", "..", "pages", "serp", "serp-parser_desktop_google.html"),
            encoding="utf-8").read()


def deferred(slot):
    """The HTML window.jsl.dh('<slot>', '...') writes, its JavaScript escapes resolved."""
    m = re.search(r"window\.jsl\.dh\('" + re.escape(slot) + r"','(.*?)'\);\}\)\(\);", page, re.S)
    return re.sub(r"\\x([0-9a-f]{2})", lambda x: chr(int(x.group(1), 16)),
                  m.group(1)).replace("\\u203a", "\u203a")


container = deferred("_Z99CZN-rLM_T-Qbhm5nYDA_34")
for slot in ("Z99CZN-rLM_T-Qbhm5nYDA__36", "Z99CZN-rLM_T-Qbhm5nYDA__37"):
    container = container.replace('<div id="%s"></div>' % slot,
                                  '<div id="%s">%s</div>' % (slot, deferred(slot)))
# The container's "Search for: <question>" line belongs to the question, not to a snippet.
container = re.sub(r'<div jsname="MgN2vf".*?</div>$', "", container, flags=re.S)
rso = '<div class="v7W49e" eid="Z99CZN-rLM_T-Qbhm5nYDA" data-async-context="query:google" id="rso">'
assert page.count(rso) == 1 and "wa:/description" in container and 'class="g"' in container
out = page.replace(rso, rso + '<div class="MjjYud">' + container + "</div>")
with open(os.path.join(here, "featured-snippet-built-from-google.html"), "w", encoding="utf-8") as f:
    f.write("<!-- Built for gleaner's tests by build_featured_snippet_page.py from the real results "
            "page of the fixtures; not a page Google served. -->\n" + out)
