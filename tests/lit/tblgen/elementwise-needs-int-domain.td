// An elementwise op whose dtype rule allows integers must say how to
// compute on them (cpuInt and cudaInt).
// RUN: %expect-exit 1 %fuserc-tblgen -gen-op-tables -I %root %s -o /dev/null 2> %t.err
// RUN: FileCheck %s < %t.err
include "ops.td"

// CHECK: elementwise-needs-int-domain.td:[[# @LINE + 1]]:1: error: elementwise op 'halve' with dtype rule Promote can compute on integers and needs 'cpuInt' and 'cudaInt'
def HalveOp : Unary<"halve", "x / 2.", Promote, "($0 / 2)", "a / 2">;
