"""Checks that every code block of docs/cookbook.md marked with
`<!-- file: PATH -->` is the file PATH, and that every recipe file of
examples/cookbook/ is shown (so the cookbook shows what the tests compile)."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1])
doc = (root / "docs" / "cookbook.md").read_text()
shown = set()
failed = False
for path, body in re.findall(r"<!-- file: (\S+) -->\n```\n(.*?)\n```", doc, re.S):
    shown.add(path)
    if (root / path).read_text().rstrip("\n") != body:
        print("docs/cookbook.md: the block of %s differs from the file" % path)
        failed = True
for f in sorted((root / "examples" / "cookbook").glob("*.fus")):
    rel = f.relative_to(root).as_posix()
    if rel not in shown:
        print("docs/cookbook.md does not show %s" % rel)
        failed = True
print("%d recipe files shown" % len(shown))
sys.exit(1 if failed else 0)
