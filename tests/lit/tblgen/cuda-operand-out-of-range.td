// A CUDA expression naming an operand the op does not have is rejected.
// RUN: %expect-exit 1 %fuserc-tblgen -gen-op-tables -I %root %s -o /dev/null 2> %t.err
// RUN: FileCheck %s < %t.err
include "ops.td"

// CHECK: cuda-operand-out-of-range.td:[[# @LINE + 1]]:1: error: CUDA expression of 'twice' uses $1 but the op has 1 operand(s)
def TwiceOp : FloatUnary<"twice", "Doubles x.", "($0 + $1)", "a + a">;
