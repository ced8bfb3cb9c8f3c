// A `$name` in a CUDA expression must be an attribute of the op.
// RUN: %expect-exit 1 %fuserc-tblgen -gen-op-tables -I %root %s -o /dev/null 2> %t.err
// RUN: FileCheck %s < %t.err
include "ops.td"

// CHECK: unknown-attr-in-cuda.td:[[# @LINE + 1]]:1: error: CUDA expression of 'scaled' uses '$factor', which is neither an operand number nor an attribute
def ScaledOp : FloatUnary<"scaled", "x * factor.", "($0 * $factor)", "a">;
