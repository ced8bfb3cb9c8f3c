// An op without a summary is rejected at its def.
// RUN: %expect-exit 1 %fuserc-tblgen -gen-op-tables -I %root %s -o /dev/null 2> %t.err
// RUN: FileCheck %s < %t.err
include "ops.td"

// CHECK: missing-summary.td:[[# @LINE + 1]]:1: error: op 'mystery' has no summary
def MysteryOp : Op<"mystery", SameShape, SameAsFirst, "Shape"> {
  let operands = [Arg<"x", AnyTensor>];
}
