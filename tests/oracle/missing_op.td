// A fixture of the ctest oracle_table_rejects_a_missing_op: an op that
// gpu/torch_ops.py has no entry for, defined through a derived class as in
// ops.td, beside a def that is not an op.
class Op<string mnemonic> {
  string name = mnemonic;
}
class Unary<string n> : Op<n>;
class DTypeRule<string ruleName> {
  string name = ruleName;
}
def FrobnicateOp : Unary<"frobnicate">;
def NegRule : DTypeRule<"neg">;
