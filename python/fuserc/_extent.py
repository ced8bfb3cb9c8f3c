"""Extent formulas of the manifest ("N", "20*C*R", "(C / 32)", "ceildiv(N - 3, 2) + M",
"x.stride0"; docs/manifest.md): parsed once, evaluated with the symbols
bound at a call. Evaluation uses only Python arithmetic, so the values may be
ints or PyTorch SymInts (FakeTensor shapes, torch.compile's dynamic shapes)."""
import re

from ._errors import ManifestError

_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)|(.))")
_FUNCTIONS = ("floordiv", "ceildiv", "mod", "min", "max")


def _tokens(text):
    out = []
    for number, name, other in _TOKEN.findall(text):
        if number:
            out.append(("int", int(number)))
        elif name:
            out.append(("name", name))
        elif other.strip():
            out.append(("op", other))
    return out


class _Parser:
    """sum := ['-'] product (('+'|'-') product)*; product := atom (('*'|'/') atom)*;
    atom := INT | SYMBOL | FUNCTION '(' sum ',' sum ')' | '(' sum ')'."""

    def __init__(self, text):
        self.text = text
        self.tokens = _tokens(text)
        self.pos = 0

    def fail(self, what):
        raise ManifestError("extent formula '%s': %s" % (self.text, what))

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else (None, None)

    def take(self, op):
        if self.peek() != ("op", op):
            self.fail("expected '%s'" % op)
        self.pos += 1

    def parse(self):
        node = self.sum()
        if self.pos != len(self.tokens):
            self.fail("unexpected '%s'" % (self.peek()[1],))
        return node

    def sum(self):
        negate = self.peek() == ("op", "-")
        if negate:
            self.pos += 1
        node = self.product()
        if negate:
            node = ("neg", node)
        while self.peek() in (("op", "+"), ("op", "-")):
            op = self.peek()[1]
            self.pos += 1
            node = ("+" if op == "+" else "-", node, self.product())
        return node

    def product(self):
        node = self.atom()
        while self.peek() in (("op", "*"), ("op", "/")):
            op = self.peek()[1]
            self.pos += 1
            node = (op, node, self.atom())
        return node

    def atom(self):
        kind, value = self.peek()
        self.pos += 1
        if kind == "int":
            return ("int", value)
        if kind == "name" and value in _FUNCTIONS and self.peek() == ("op", "("):
            self.take("(")
            a = self.sum()
            self.take(",")
            b = self.sum()
            self.take(")")
            return (value, a, b)
        if kind == "name":
            return ("sym", value)
        if (kind, value) == ("op", "("):
            node = self.sum()
            self.take(")")
            return node
        self.fail("unexpected %s" % ("end" if kind is None else "'%s'" % value))


def _min(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return min(a, b)
    import torch
    return torch.sym_min(a, b)


def _max(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return max(a, b)
    import torch
    return torch.sym_max(a, b)


def _evaluate(node, env):
    kind = node[0]
    if kind == "int":
        return node[1]
    if kind == "sym":
        return env[node[1]]
    if kind == "neg":
        return -_evaluate(node[1], env)
    a, b = _evaluate(node[1], env), _evaluate(node[2], env)
    if kind == "+":
        return a + b
    if kind == "-":
        return a - b
    if kind == "*":
        return a * b
    if kind == "floordiv" or kind == "/":  # `/` is exact: the wrappers check it at launch
        return a // b
    if kind == "ceildiv":
        return -((-a) // b)
    if kind == "mod":
        return a % b
    return _min(a, b) if kind == "min" else _max(a, b)


def _symbols(node, out):
    if node[0] == "sym":
        out.add(node[1])
    elif node[0] != "int":
        for child in node[1:]:
            _symbols(child, out)
    return out


class Extent:
    """One parsed formula: `evaluate(env)` with env mapping each symbol (and
    "x.stride0" for strided inputs) to its value; `constant` is its value
    when it names no symbol, else None."""

    def __init__(self, text):
        if not isinstance(text, str):
            raise ManifestError("an extent formula must be a string, got %r" % (text,))
        self.text = text
        self._tree = _Parser(text).parse()
        self.symbols = frozenset(_symbols(self._tree, set()))
        self.constant = _evaluate(self._tree, {}) if not self.symbols else None

    def evaluate(self, env):
        if self.constant is not None:
            return self.constant
        missing = self.symbols.difference(env)
        if missing:
            raise KeyError("extent '%s' needs %s" % (self.text, ", ".join(sorted(missing))))
        return _evaluate(self._tree, env)

    def __repr__(self):
        return "Extent(%r)" % self.text
