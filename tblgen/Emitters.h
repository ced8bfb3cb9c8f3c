// The fuserc-tblgen backends: each turns the records of ops.td into one
// generated file.
#pragma once

#include "llvm/Support/raw_ostream.h"
#include "llvm/TableGen/Record.h"

namespace fuserc::tblgen {

// OpTables.inc: X-macro sections for op kinds, rule enums, the op info
// table and the reference interpreter's per-op code.
void emitOpTables(const llvm::RecordKeeper &records, llvm::raw_ostream &os);

// docs/ops.md: the op reference.
void emitOpDocs(const llvm::RecordKeeper &records, llvm::raw_ostream &os);

} // namespace fuserc::tblgen
