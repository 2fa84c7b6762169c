#!/usr/bin/env python3
"""Every relative link and #anchor in the project's Markdown pages resolves.

Checks README.md, DEVELOPING.md, ARCHITECTURE.md, RELIABILITY.md, docs/*.md and
benchmarks/README.md: each inline link `[text](target)`, reference definition
`[name]: target` and autolink `<target>` that is not a URL (http:, https:,
mailto:) must name a file or folder that exists, relative to the page, and an
`#anchor` must be a heading of the target page as GitHub makes its id
(lower case, punctuation but `-` and `_` dropped, spaces to `-`, `-1`, `-2`
for repeats) or an explicit `id`/`name` in HTML. Code blocks and code spans
are not read.

Usage: check_links.py SOURCE_DIR      prints each broken link, exits 1 if any
       check_links.py --self-test     shows that it catches broken ones
"""
import glob
import os
import re
import sys
import tempfile

PAGES = ["README.md", "DEVELOPING.md", "ARCHITECTURE.md", "RELIABILITY.md", "docs/*.md",
         "benchmarks/README.md"]
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, mailto:, ...
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$")
AUTOLINK = re.compile(r"<([^<>\s]+)>")
HTML_ID = re.compile(r"""<[a-zA-Z][^>]*\s(?:id|name)=["']([^"']+)["']""")


def prose_lines(text):
    """(line number, line) outside fenced code blocks, with code spans blanked."""
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        stripped = line.lstrip()
        m = re.match(r"(`{3,}|~{3,})", stripped)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        yield n, re.sub(r"(`+)(.+?)\1", lambda m: " " * len(m.group(0)), line)


def slug(heading):
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "").strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(text):
    ids, seen = set(), {}
    fence = None
    for line in text.split("\n"):
        m = re.match(r"\s*(`{3,}|~{3,})", line)
        if fence:
            if m and m.group(1)[0] == fence[0]:
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        h = re.match(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
        if h:
            base = slug(h.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            ids.add(base if n == 0 else "%s-%d" % (base, n))
        ids.update(HTML_ID.findall(line))
    return ids


def targets(line):
    for m in INLINE.finditer(line):
        yield m.group(1)
    m = REFDEF.match(line)
    if m:
        yield m.group(1)
    for m in AUTOLINK.finditer(INLINE.sub("", line)):
        t = m.group(1)
        if "/" in t or "." in t or t.startswith("#"):
            yield t


def check_page(root, page, cache, counted):
    problems = []
    path = os.path.join(root, page)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for n, line in prose_lines(text):
        for target in targets(line):
            if not target or EXTERNAL.match(target):
                continue
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            where = "%s:%d: %s" % (page, n, target)
            counted.append(where)
            if not os.path.exists(dest):
                problems.append("%s: no such file or folder" % where)
                continue
            if not anchor:
                continue
            if not dest.endswith(".md") or os.path.isdir(dest):
                problems.append("%s: an anchor into something that is not a Markdown page" % where)
                continue
            if dest not in cache:
                with open(dest, encoding="utf-8") as f:
                    cache[dest] = anchors(f.read())
            if anchor not in cache[dest]:
                problems.append("%s: no heading '#%s' in %s" % (where, anchor, os.path.relpath(dest, root)))
    return problems


def check(root):
    pages = []
    for pattern in PAGES:
        found = sorted(glob.glob(os.path.join(root, pattern)))
        pages += [os.path.relpath(p, root) for p in found]
    cache, problems, counted = {}, [], []
    for page in pages:
        problems += check_page(root, page, cache, counted)
    return pages, problems, counted


def self_test():
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "docs"))
        os.makedirs(os.path.join(root, "benchmarks"))
        files = {
            "README.md": "# Top\n\nSee [good](docs/a.md#systemd-and-rcd), [dup](docs/a.md#notes-1),\n"
                         "[code](docs/a.md#the-diskpulse-run-command), [dir](docs/), <https://x.org/y>,\n"
                         "[self](#top) and [missing file](docs/nope.md).\n"
                         "```\n[in a block](docs/also-nope.md)\n```\n"
                         "`[in a span](docs/nope2.md)` and [bad anchor](docs/a.md#no-such-heading).\n",
            "docs/a.md": "# A\n\n## systemd and rc.d\n\n## Notes\n\n## Notes\n\n"
                         "## The `diskpulse run` command\n\n[back](../README.md#top) [up](../README.md#nope)\n",
            "DEVELOPING.md": "# Dev\n[x][ref]\n\n[ref]: docs/gone.md\n",
            "ARCHITECTURE.md": "# Arch\n", "RELIABILITY.md": "# Rel\n",
            "benchmarks/README.md": "# B\n[arch](../ARCHITECTURE.md#arch)\n",
        }
        for name, text in files.items():
            with open(os.path.join(root, name), "w") as f:
                f.write(text)
        pages, problems, _ = check(root)
        want = ["README.md:5: docs/nope.md", "README.md:9: docs/a.md#no-such-heading",
                "docs/a.md:11: ../README.md#nope", "DEVELOPING.md:4: docs/gone.md"]
        got = [p.split(": ", 2)[0] + ": " + p.split(": ", 2)[1] for p in problems]
        if sorted(got) != sorted(want) or len(pages) != 6:
            print("self-test FAILED: expected %s\n got %s" % (want, problems))
            return 1
        print("self-test: the 4 broken links and anchors found, the good ones passed")
        return 0


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        return self_test()
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    pages, problems, counted = check(os.path.abspath(sys.argv[1]))
    for p in problems:
        print(p)
    if problems:
        print("%d broken links in %d pages" % (len(problems), len(pages)))
        return 1
    print("all %d relative links and anchors of %d pages resolve" % (len(counted), len(pages)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
