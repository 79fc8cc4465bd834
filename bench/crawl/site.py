#!/usr/bin/env python3
"""Writes a generated site for the crawl bench: N pages with a known link graph, deterministic
for a given seed, of a realistic weight (a few KB of text, a nav bar, ~10 links in the body).

    site.py DIR --pages N [--seed 25]

Page 0 is /index.html (linked as "/"); page i > 0 is /<section>/<slug>-<i>.html. Every page has
the same nav (home and the five section pages, which are pages 1-5) and a body of paragraphs with
~10 links: its children in a tree of branching 3 (pages 3i+1..3i+3, so every page is reachable
from "/") and seeded random pages. Some links carry a fragment, one is relative, and the footer
links to an outside host: a crawler of this host follows exactly the N pages.

Writes DIR/expected.txt: the N page paths ("/" for the home page), sorted. Any crawler that
starts at "/" and follows links on this host reaches exactly these pages.
"""
import argparse
import os
import random

SECTIONS = ["news", "guides", "reviews", "products", "blog"]
WORDS = ("the of and to in is that for it as with was on be by this are from at or an have not "
         "which one all were when there can been has more if will would about their what so up "
         "out into some time could them other than then now only its over also new after used "
         "two how our work first well way even because any these give day most us crawler page "
         "link market city river garden winter summer north station library window number "
         "system question report service result change program water history example").split()


def path_of(i):
    return "/" if i == 0 else f"/{SECTIONS[i % len(SECTIONS)]}/item-{i}.html"


def file_of(i):
    return "index.html" if i == 0 else path_of(i).lstrip("/")


def sentence(rng):
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
    return " ".join(words).capitalize() + "."


def links_of(i, n, rng):
    """The body's links of page i: its tree children, then random pages, ~10 in all."""
    out = [c for c in range(3 * i + 1, 3 * i + 4) if c < n]
    while len(out) < 10 and n > 1:
        out.append(rng.randrange(n))
    return out


def page(i, n, rng):
    nav = "".join(f'<li><a href="{path_of(s)}">{SECTIONS[s % 5] if s else "Home"}</a></li>'
                  for s in range(min(n, 6)))
    body = []
    links = links_of(i, n, rng)
    for k in range(rng.randint(6, 9)):
        text = " ".join(sentence(rng) for _ in range(rng.randint(3, 5)))
        if k < len(links):
            target = links[k]
            href = path_of(target)
            if k == 1 and target != 0:
                href += "#comments"  # the same page with a fragment
            if k == 2 and target != 0 and path_of(target).startswith(f"/{SECTIONS[i % 5]}/") and i:
                href = path_of(target).rsplit("/", 1)[1]  # relative, same folder
            text += f' See <a href="{href}">item {target}</a>.'
        body.append(f"<p>{text}</p>")
    for target in links[len(body):]:
        body.append(f'<p>Related: <a href="{path_of(target)}">item {target}</a></p>')
    title = f"Item {i}: " + sentence(rng)[:-1]
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<meta name="description" content="{sentence(rng)}">
<link rel="stylesheet" href="/style.css"></head>
<body><header><nav><ul>{nav}</ul></nav></header>
<main><article><h1>{title}</h1>
<p class="meta">Section {SECTIONS[i % 5]}, page {i} of {n}.</p>
{chr(10).join(body)}
<h2>Summary</h2><ul>{"".join(f"<li>{sentence(rng)}</li>" for _ in range(4))}</ul>
</article></main>
<footer><p>Generated site. <a href="https://example.org/about">About the generator</a></p></footer>
</body></html>
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--pages", type=int, required=True)
    ap.add_argument("--seed", type=int, default=25)
    args = ap.parse_args()
    n = args.pages
    for s in SECTIONS:
        os.makedirs(os.path.join(args.dir, s), exist_ok=True)
    for i in range(n):
        rng = random.Random(args.seed * 1_000_003 + i)
        with open(os.path.join(args.dir, file_of(i)), "w") as f:
            f.write(page(i, n, rng))
    with open(os.path.join(args.dir, "style.css"), "w") as f:
        f.write("body{font-family:sans-serif;max-width:60em;margin:auto}nav li{display:inline}\n")
    with open(os.path.join(args.dir, "expected.txt"), "w") as f:
        f.write("\n".join(sorted(path_of(i) for i in range(n))) + "\n")


if __name__ == "__main__":
    main()
