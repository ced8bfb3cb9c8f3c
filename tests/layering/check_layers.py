#!/usr/bin/env python3
"""Checks the layer map of docs/architecture.md against the #include lines.

The map is the fenced block after the line "<!-- layer map -->" in that
file: one line per top-level folder, `folder: allowed folders...` (a folder
may always include its own headers; `-` means nothing of fuserc). Every
#include "x/..." in a .h, .cpp, .c or .cuh file of a mapped folder must name
a folder its line allows. Every folder with C++ sources must be mapped, and
the map must be acyclic, so that layers point one way.

  check_layers.py SOURCE_ROOT
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/[^"]+"')
SOURCE_SUFFIXES = (".h", ".cpp", ".c", ".cuh")
# Folders that are not part of the compiler's layers.
UNMAPPED = {"build", "build-sanitize", "docs", "bench", "scripts", "cmake", ".git", ".ci"}


def read_map(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    try:
        start = lines.index("<!-- layer map -->")
    except ValueError:
        sys.exit("%s: no '<!-- layer map -->' marker" % path)
    block, inside = [], False
    for line in lines[start + 1:]:
        if line.startswith("```"):
            if inside:
                break
            inside = True
            continue
        if inside and line.strip():
            block.append(line)
    layers = {}
    for line in block:
        folder, _, deps = line.partition(":")
        if not _:
            sys.exit("%s: layer map line without ':': %r" % (path, line))
        allowed = [] if deps.strip() == "-" else deps.replace(",", " ").split()
        layers[folder.strip()] = set(allowed)
    return layers


def find_cycle(layers):
    state = {}

    def visit(node, stack):
        state[node] = "open"
        for dep in sorted(layers.get(node, ())):
            if state.get(dep) == "open":
                return stack + [node, dep]
            if dep not in state:
                cycle = visit(dep, stack + [node])
                if cycle:
                    return cycle
        state[node] = "done"
        return None

    for node in sorted(layers):
        if node not in state:
            cycle = visit(node, [])
            if cycle:
                return cycle
    return None


def main():
    root = sys.argv[1]
    layers = read_map(os.path.join(root, "docs", "architecture.md"))
    problems = []
    for folder, deps in sorted(layers.items()):
        for dep in sorted(deps - set(layers)):
            problems.append("layer map: %s lists '%s', which is not a mapped folder" % (folder, dep))
    cycle = find_cycle(layers)
    if cycle:
        problems.append("layer map: cycle " + " -> ".join(cycle))
    for top in sorted(os.listdir(root)):
        path = os.path.join(root, top)
        if not os.path.isdir(path) or top in UNMAPPED or top.startswith(("build", ".")):
            continue
        for dirpath, dirnames, filenames in os.walk(path):
            dirnames.sort()
            for name in sorted(filenames):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, name), root)
                if top not in layers:
                    problems.append("%s: folder '%s' is not in the layer map" % (rel, top))
                    break
                with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        target = m.group(1)
                        if target == top or target not in layers or target in layers[top]:
                            continue
                        problems.append("%s:%d: %s may not include %s/ (allowed: %s)" %
                                        (rel, number, top, target,
                                         ", ".join(sorted(layers[top])) or "nothing"))
    for p in problems:
        print(p)
    if problems:
        print("%d layering problem(s); the map is docs/architecture.md" % len(problems))
        return 1
    print("layering: %d folders, every #include follows docs/architecture.md" % len(layers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
