// An op name defined twice is reported at the second definition, with the
// first one pointed out, in the .td file.
// RUN: %expect-exit 1 %fuserc-tblgen -gen-op-tables -I %root %s -o /dev/null 2> %t.err
// RUN: FileCheck %s < %t.err
include "ops.td"

// CHECK: duplicate-op-name.td:[[# @LINE + 1]]:1: error: op name 'add' is defined twice
def AddAgainOp : Binary<"add", "Again.", Promote, "($0 + $1)", "a + b", "a + b", "($0 + $1)">;
// CHECK: ops.td:{{[0-9]+}}:1: error: previous definition of 'add'
