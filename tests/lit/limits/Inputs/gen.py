#!/usr/bin/env python3
"""Writes big or hostile fusions to stdout for the limits tests, so that the
tests generate megabyte inputs at run time instead of committing them.

Usage: gen.py KIND N   (see KINDS below)
"""
import sys


def nested_calls(n):
    # t = exp(exp(...exp(x)...)), n calls deep.
    return ("fusion f {\n  input x: f32[N]\n  t = " + "exp(" * n + "x" + ")" * n +
            "\n  output t\n}\n")


def nested_lists(n):
    # An attribute value n lists deep.
    return ("fusion f {\n  input x: f32[N]\n  t = sum(x, axes=" + "[" * n + "0" + "]" * n +
            ")\n  output t\n}\n")


def chain(n):
    # t1 = exp(t0); t2 = exp(t1); ...: deep in the op graph, flat in the text.
    lines = ["fusion f {", "  input t0: f32[N]"]
    for i in range(1, n + 1):
        lines.append(f"  t{i} = {'exp' if i % 2 else 'neg'}(t{i - 1})")
    lines += [f"  output t{n}", "}"]
    return "\n".join(lines) + "\n"


def fan(n):
    # One input feeding n ops, folded back into one output by a balanced add tree.
    lines = ["fusion f {", "  input x: f32[N, C]"]
    level = []
    for i in range(n // 2):
        lines.append(f"  a{i} = mul(x, {i + 2})")  # distinct, so CSE keeps them
        level.append(f"a{i}")
    depth = 0
    while len(level) > 1:
        nxt = []
        for j in range(0, len(level) - 1, 2):
            name = f"s{depth}_{j}"
            lines.append(f"  {name} = add({level[j]}, {level[j + 1]})")
            nxt.append(name)
        if len(level) % 2:
            nxt.append(level[-1])
        level, depth = nxt, depth + 1
    lines += [f"  output {level[0]}", "}"]
    return "\n".join(lines) + "\n"


def many_tensors(n):
    # n inputs, each giving an output with its neighbour: n + 1 tensors read
    # and n written, all in one connected iteration space.
    lines = ["fusion f {", "  input s: f32[N, C]"] + [f"  input x{i}: f32[N, C]" for i in range(n)]
    for i in range(n):
        lines.append(f"  y{i} = add(mul(x{i}, s), x{(i + 1) % n})")
    lines += [f"  output y{i}" for i in range(n)] + ["}"]
    return "\n".join(lines) + "\n"


def slice_chain(n):
    # Each value reads the one before at two shifted coordinates: consumer-first
    # code generation needs t0 at n + 1 offsets, reached along 2^n paths.
    lines = ["fusion f {", "  input t0: f32[N]"]
    for i in range(n):
        lines.append(f"  t{i + 1} = add(slice(t{i}, dim=0, start=1), slice(t{i}, dim=0, end=-1))")
    lines += [f"  output t{n}", "}"]
    return "\n".join(lines) + "\n"


def long_names(n):
    # Fusion, input, value and symbol names n characters long.
    f, x, t, s = "f" * n, "x" * n, "t" * n, "S" * n
    return f"fusion {f} {{\n  input {x}: f32[{s}, 4]\n  {t} = exp({x})\n  output {t}\n}}\n"


def yaml_long_names(n):
    # A YAML fusion whose input name is n characters long.
    x = "x" * n
    return (f"name: f\ninputs:\n  - {{name: {x}, dtype: f32, shape: [N]}}\n"
            f"ops:\n  - t = exp({x})\noutputs: [t]\n")


def yaml_flow(n):
    # A YAML document n flow sequences deep.
    return "name: f\ninputs: " + "[" * n + "]" * n + "\n"


def yaml_block(n):
    # A YAML document n block sequences deep, all on one line.
    return "name: f\ninputs:\n  " + "- " * n + "x\n"


def undefined_values(n):
    # n inputs x0.. and n ops that each use a misspelt name (z0 for x0):
    # n errors, each of which could search all n names for a suggestion.
    lines = ["fusion f {"] + [f"  input x{i}: f32[N]" for i in range(n)]
    lines += [f"  y{i} = exp(z{i})" for i in range(n)]
    lines += ["  output y0", "}"]
    return "\n".join(lines) + "\n"


def yaml_undefined_values(n):
    # The YAML form of undefined_values.
    lines = ["name: f", "inputs:"] + [f"  - {{name: x{i}, dtype: f32, shape: [N]}}" for i in range(n)]
    lines += ["ops:"] + [f"  - y{i} = exp(z{i})" for i in range(n)]
    lines += ["outputs: [y0]"]
    return "\n".join(lines) + "\n"


def yaml_escaped_undefined_values(n):
    # yaml_undefined_values with each statement a quoted scalar whose
    # misspelt name is escaped (\x7a is z): text derived from the YAML, whose
    # characters are mapped back to the source one by one.
    lines = ["name: f", "inputs:"] + [f"  - {{name: x{i}, dtype: f32, shape: [N]}}" for i in range(n)]
    lines += ["ops:"] + [f'  - "y{i} = exp(\\x7a{i})"' for i in range(n)]
    lines += ["outputs: [y0]"]
    return "\n".join(lines) + "\n"


def high_rank(n):
    # An input of rank n, every extent the same symbol.
    return "fusion f {\n  input x: f32[" + ", ".join(["N"] * n) + "]\n  y = exp(x)\n  output y\n}\n"


def reshape_rank(n):
    # A reshape to rank n, every extent the same symbol.
    return ("fusion f {\n  input x: f32[N]\n  y = reshape(x, shape=[" + ", ".join(["N"] * n) +
            "])\n  output y\n}\n")


def yaml_laughs(n):
    # "Billion laughs": n levels of anchors, each a list of ten aliases of
    # the one before, so the last expands to 10^n scalars.
    lines = ["name: f", "inputs:", "  - {name: x, dtype: f32, shape: [N]}", "ops:",
             "  - {out: y, op: exp, args: [x]}", "outputs: [y]", "laughs:",
             "  - &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, n + 1):
        lines.append(f"  - &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def yaml_alias_chain(n):
    # n anchors, each a list holding an alias of the one before: flat in
    # the text, n collections deep once expanded.
    lines = ["name: f", "inputs:", "  - {name: x, dtype: f32, shape: [N]}", "ops:",
             "  - {out: y, op: exp, args: [x]}", "outputs: [y]", "chain:", "  - &c0 [x]"]
    lines += [f"  - &c{i} [*c{i - 1}]" for i in range(1, n + 1)]
    return "\n".join(lines) + "\n"


def layer_norm_chain(n):
    # n chained layer norms: each a row reduction the segmenter must split
    # from the next (segmentation once took time superlinear in n).
    lines = ["fusion f {", "  input x0: f32[N, C]", "  input w: f32[C]", "  input b: f32[C]"]
    for i in range(1, n + 1):
        lines.append(f"  x{i} = layer_norm(x{i - 1}, w, b, axes=[1])")
    lines += [f"  output x{n}", "}"]
    return "\n".join(lines) + "\n"


def outputs_of_one_input(n, expression):
    # n outputs y{i} = expression(i) of the one input x.
    lines = ["fusion f {", "  input x: f32[N, C]"]
    lines += [f"  y{i} = {expression(i)}" for i in range(n)]
    lines += [f"  output y{i}" for i in range(n)] + ["}"]
    return "\n".join(lines) + "\n"


def many_outputs(n):
    # n pointwise outputs.
    return outputs_of_one_input(n, lambda i: f"mul(x, {i + 2})")


def many_reductions(n):
    # n row sums that all read x (n^2 pairs of readers once).
    return outputs_of_one_input(n, lambda i: f"sum(mul(x, {i + 2}), axes=[1])")


KINDS = {
    "nested-calls": nested_calls,
    "nested-lists": nested_lists,
    "chain": chain,
    "fan": fan,
    "many-tensors": many_tensors,
    "slice-chain": slice_chain,
    "long-names": long_names,
    "yaml-long-names": yaml_long_names,
    "yaml-flow": yaml_flow,
    "yaml-block": yaml_block,
    "undefined-values": undefined_values,
    "yaml-undefined-values": yaml_undefined_values,
    "yaml-escaped-undefined-values": yaml_escaped_undefined_values,
    "high-rank": high_rank,
    "reshape-rank": reshape_rank,
    "yaml-laughs": yaml_laughs,
    "yaml-alias-chain": yaml_alias_chain,
    "layer-norm-chain": layer_norm_chain,
    "many-outputs": many_outputs,
    "many-reductions": many_reductions,
}

if __name__ == "__main__":
    sys.stdout.write(KINDS[sys.argv[1]](int(sys.argv[2])))
