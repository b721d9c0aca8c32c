#!/usr/bin/env python3
"""Checks every internal link of the built book (mdbook build docs).

Reads each rendered page and fails, listing them all, on:
- a link or image to a page or file of the book that was not built;
- a link to an anchor (`page.html#id`, `#id`) that the target page does not define;
- a link into this repository's own files (`https://github.com/skillgraph/skillgraph/blob|edit|tree/main/PATH`)
  whose PATH does not exist in the checkout.

Other absolute URLs are the outside world's and are not fetched.

Usage: check_book_links.py BOOK_DIR REPO_ROOT
"""

import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

REPOSITORY = "https://github.com/skillgraph/skillgraph/"
# mdBook's own pages that only gather or redirect the chapters.
SKIPPED_PAGES = {"print.html", "toc.html", "404.html"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids = set()
        self.links = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("name"):
            self.ids.add(attrs["name"])
        target = attrs.get("href") if tag in ("a", "link") else attrs.get("src") if tag in ("img", "script") else None
        if target is not None:
            self.links.append(target)


def parse(path, cache):
    if path not in cache:
        page = Page()
        page.feed(path.read_text(encoding="utf-8", errors="replace"))
        cache[path] = page
    return cache[path]


def repository_path(url):
    """The path a link into this repository names, or None for any other URL."""
    if not url.startswith(REPOSITORY):
        return None
    rest = url[len(REPOSITORY):]
    for kind in ("blob/main/", "edit/main/", "tree/main/"):
        if rest.startswith(kind):
            return unquote(urlsplit(rest[len(kind):]).path)
    return ""


def main():
    book, repo = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    pages = sorted(p for p in book.rglob("*.html") if p.name not in SKIPPED_PAGES)
    if not pages:
        sys.exit(f"no pages under {book}: build the book first (mdbook build docs)")
    cache, broken, checked = {}, [], 0
    for page_path in pages:
        page = parse(page_path, cache)
        for link in page.links:
            where = f"{page_path.relative_to(book)}: {link}"
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//"):
                path = repository_path(link)
                if path is None:
                    continue
                checked += 1
                if path == "" or not (repo / path).exists():
                    broken.append(f"{where} (no such file in the repository)")
                continue
            checked += 1
            target = page_path if not parts.path else (page_path.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{where} (no such page or file in the book)")
                continue
            if parts.fragment and target.suffix == ".html":
                if unquote(parts.fragment) not in parse(target, cache).ids:
                    broken.append(f"{where} (no anchor #{parts.fragment} there)")
    for line in broken:
        print("broken link:", line)
    print(f"{checked} internal links in {len(pages)} pages, {len(broken)} broken")
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
