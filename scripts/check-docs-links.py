#!/usr/bin/env python3
"""Checks the documentation's links: exits 1, naming each file, line and link, when one does not resolve.

- Every relative link of a Markdown file tracked by git (`[text](path)`, `[text](path#anchor)`, `[text](#anchor)`)
  must name a file or directory that exists and, with an anchor, a heading of that Markdown file (GitHub's slugs).
- Every quoted section in the sources, scripts, deploy/, config/, Tests/, Benchmarks/ and docs/
  (`README, "Section"`, `README.md, "Section"`, `docs/FILE.md, "Section"`) must name a file that exists and a
  heading of it that starts with the quoted text (case and backticks aside).

    scripts/check-docs-links.py        # from anywhere in the repository
"""
import os
import re
import subprocess
import sys

ROOT = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                      cwd=os.path.dirname(os.path.abspath(__file__)), check=True).stdout.strip()
LINK = re.compile(r"(?<!!)\[(?:[^\]`]|`[^`]*`)*\]\(([^)\s]+)\)")
QUOTED = re.compile(r"\b(README(?:\.md)?|docs/[\w-]+\.md)(?:'s)?,?\s+\\?\"([^\"\\]+)\\?\"")
JOIN = re.compile(r"\n\s*(?://+|#+|\*)?\s*")
FENCE = re.compile(r"^\s*(```|~~~)")


def tracked(*patterns):
    out = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", *patterns], capture_output=True, text=True, cwd=ROOT,
                         check=True).stdout
    return [path for path in out.splitlines() if os.path.exists(os.path.join(ROOT, path))]


def lines_outside_code(path):
    """The lines of a Markdown file with their numbers, fenced code blocks and inline code left out."""
    fenced = False
    with open(os.path.join(ROOT, path), encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield number, line


def headings(path, cache={}):
    """The headings of a Markdown file: their texts and their GitHub anchors."""
    if path not in cache:
        texts, slugs, seen = [], set(), {}
        for _, line in lines_outside_code(path):
            match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if not match:
                continue
            text = match.group(1)
            texts.append(text.replace("`", "").lower())
            slug = re.sub(r"[^\w\- ]", "", text.replace("`", "").lower()).replace(" ", "-")
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            slugs.add(slug if count == 0 else f"{slug}-{count}")
        cache[path] = (texts, slugs)
    return cache[path]


def check_links(problems):
    for source in tracked("*.md"):
        for number, line in lines_outside_code(source):
            for target in LINK.findall(re.sub(r"`[^`]*`", "``", line)):
                if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                    continue  # https:, mailto: ...
                path, _, anchor = target.partition("#")
                resolved = os.path.normpath(os.path.join(os.path.dirname(source), path)) if path else source
                if not os.path.exists(os.path.join(ROOT, resolved)):
                    problems.append(f"{source}:{number}: {target}: no file {resolved}")
                elif anchor and (not resolved.endswith(".md") or anchor not in headings(resolved)[1]):
                    problems.append(f"{source}:{number}: {target}: no heading #{anchor} in {resolved}")


def check_quoted(problems):
    files = tracked("Sources", "scripts", "deploy", "config", "Tests", "Benchmarks", "docs", "README.md")
    for source in files:
        if source.startswith("Tests/Fixtures/") or source == "scripts/check-docs-links.py":
            continue
        try:
            with open(os.path.join(ROOT, source), encoding="utf-8") as file:
                text = file.read()
        except UnicodeDecodeError:
            continue
        # A quote may run over a comment's line break: join the lines, keeping their numbers.
        joined = JOIN.sub(" ", text)
        for match in QUOTED.finditer(joined):
            name, section = match.group(1), " ".join(match.group(2).split())
            path = "README.md" if name.startswith("README") else name
            number = line_number(text, joined, match.start())
            if not os.path.exists(os.path.join(ROOT, path)):
                problems.append(f'{source}:{number}: {name}, "{section}": no file {path}')
                continue
            wanted = section.replace("`", "").lower()
            if not any(heading.startswith(wanted) for heading in headings(path)[0]):
                problems.append(f'{source}:{number}: {name}, "{section}": no heading of {path} starts so')


def line_number(text, joined, offset):
    """The line of `text` where the character at `offset` of `joined` (its lines joined) stands."""
    return _line(text, joined[:offset])


def _line(text, prefix):
    """Walks `text` and `prefix` (its lines joined by JOIN) together; the line `prefix` ends on."""
    i = j = 0
    line = 1
    while j < len(prefix) and i < len(text):
        match = JOIN.match(text, i) if text[i] == "\n" else None
        if match:
            line += match.group(0).count("\n")
            i = match.end()
        else:
            i += 1
        j += 1
    return line


def main():
    problems = []
    check_links(problems)
    check_quoted(problems)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"{len(problems)} broken documentation link(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
