// An attribute default that is not a value of its type is rejected.
// RUN: %expect-exit 1 %fuserc-tblgen -gen-op-tables -I %root %s -o /dev/null 2> %t.err
// RUN: FileCheck %s < %t.err
include "ops.td"

// CHECK: bad-default.td:[[# @LINE + 1]]:1: error: default 'sometimes' of attribute 'flag' is not a valid true or false
def FlagOp : Op<"flagged", SameShape, SameAsFirst, "Shape"> {
  let summary = "Has a bad default.";
  let operands = [Arg<"x", AnyTensor>];
  let attrs = [Opt<"flag", BoolAttr, "sometimes">];
}
