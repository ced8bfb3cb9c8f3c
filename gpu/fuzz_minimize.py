"""Smaller versions of a generated fusion, for the differential fuzzer's
delta debugging (gpu/fuzz_diff.py): each candidate drops one output, or one
statement whose uses then read one of its operands instead, or one
`layout`, `aliases` or `strided` clause; then statements nothing reads and
inputs nothing uses are dropped. The harness keeps the first candidate that
still mismatches on the GPU and starts over from it, until none does.

Works on the text form fuserc-fuzzgen writes: one statement per line.
"""
import re

IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class FusionText:
    """One fusion as lines: inputs, statements and outputs, each with the
    name it declares."""

    def __init__(self, text):
        self.name = None
        self.inputs, self.ops, self.outputs = [], [], []  # [(name, line)]
        for raw in text.splitlines():
            line = raw.strip()
            if not line or line.startswith("//") or line.startswith("#") or line == "}":
                continue
            if line.startswith("fusion "):
                self.name = line.split()[1].rstrip("{")
            elif line.startswith("input "):
                self.inputs.append((re.match(r"input\s+(\w+)", line).group(1), line))
            elif line.startswith("output "):
                self.outputs.append((line.split()[1], line))
            else:
                self.ops.append((re.match(r"(\w+)\s*=", line).group(1), line))

    def copy(self):
        other = FusionText("")
        other.name = self.name
        other.inputs, other.ops, other.outputs = list(self.inputs), list(self.ops), list(self.outputs)
        return other

    def text(self):
        body = [l for _, l in self.inputs] + [l for _, l in self.ops] + [l for _, l in self.outputs]
        return "fusion %s {\n%s\n}\n" % (self.name, "\n".join("  " + l for l in body))

    def defined(self):
        return {n for n, _ in self.inputs} | {n for n, _ in self.ops}

    def statements(self):
        return len(self.ops) + len(self.outputs)


def _references(line, names, skip_first=False):
    """The value names a line mentions (after `NAME =` when skip_first)."""
    if skip_first:
        line = line.split("=", 1)[1]
    return {w for w in IDENT.findall(line) if w in names}


def _rename(line, old, new):
    return re.sub(r"\b%s\b" % re.escape(old), new, line)


def cleaned(f):
    """Drops repeated outputs, statements nothing reads and inputs nothing
    uses; None when no output is left."""
    seen, outputs = set(), []
    for name, line in f.outputs:
        if name not in seen:
            seen.add(name)
            outputs.append((name, line))
    f.outputs = outputs
    if not f.outputs:
        return None
    names = f.defined()
    while True:
        read = set()
        for _, line in f.ops:
            read |= _references(line, names, skip_first=True)
        for _, line in f.outputs:
            read |= _references(line, names)
        ops = [(n, l) for n, l in f.ops if n in read]
        if len(ops) == len(f.ops):
            break
        f.ops = ops
    f.inputs = [(n, l) for n, l in f.inputs if n in read]
    return f


def candidates(text):
    """[(what, text)]: every one-step reduction of the fusion, smaller first."""
    base = FusionText(text)
    names = base.defined()
    out = []

    def add(what, f):
        f = cleaned(f)
        if f is not None:
            out.append((what, f.text()))

    for i, (name, line) in enumerate(base.outputs):
        if len(base.outputs) > 2:
            f = base.copy()
            f.outputs = [(name, line)]
            add("keep only output %s" % name, f)
    for i, (name, _) in enumerate(base.outputs):
        if len(base.outputs) > 1:
            f = base.copy()
            del f.outputs[i]
            add("drop output %s" % name, f)
    for i in reversed(range(len(base.ops))):
        name, line = base.ops[i]
        for operand in sorted(_references(line, names, skip_first=True)):
            f = base.copy()
            del f.ops[i]
            f.ops = [(n, _rename(l, name, operand)) for n, l in f.ops]
            f.outputs = [(operand if n == name else n, _rename(l, name, operand))
                         for n, l in f.outputs]
            add("replace %s by %s" % (name, operand), f)
    for i, (name, line) in enumerate(base.outputs):
        for clause in re.findall(r"\s(layout\s*\([^)]*\)|aliases\s+\w+)", line):
            f = base.copy()
            f.outputs[i] = (name, line.replace(" " + clause, ""))
            add("drop '%s' of output %s" % (clause, name), f)
    for i, (name, line) in enumerate(base.inputs):
        for clause in re.findall(r"\s(layout\s*\([^)]*\)|strided)", line):
            f = base.copy()
            f.inputs[i] = (name, line.replace(" " + clause, ""))
            add("drop '%s' of input %s" % (clause, name), f)
    unique, seen = [], {base.text()}
    for what, t in out:
        if t not in seen:
            seen.add(t)
            unique.append((what, t))
    return sorted(unique, key=lambda c: FusionText(c[1]).statements())
