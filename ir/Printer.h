// The deterministic IR printer used by every dump.
//
// Output is text-form source (types follow as `//` comments) that reads
// back to the same IR: attributes are printed in a form the parser accepts
// (SourceAttributes.h), so an extent that inference derived, such as `M*N`
// from a reshape's -1, is printed as the -1 it normalizes from. Anonymous
// values are numbered `_0, _1, ...` in definition order, skipping names the
// fusion already uses. No addresses, no paths, no timestamps.
//
// Passes annotate the listing with what they decided (a layout, a segment)
// through PrintNotes: each note is appended to the line's `//` comment.
#pragma once

#include "ir/Fusion.h"

#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>
#include <string>

namespace fuserc {

// The names the printer gives values: user names, `_N` for anonymous
// results, the literal text for literals. Dumps that list values outside
// the IR listing use the same names.
class ValueNames {
public:
  explicit ValueNames(const Fusion &fusion);
  std::string operator()(const Value *value) const;

private:
  std::map<const Value *, std::string> names_;
};

struct PrintNotes {
  // Notes for input and op-result lines, and for output lines; an empty
  // string adds nothing.
  std::function<std::string(const Value &)> value;
  std::function<std::string(const FusionOutput &)> output;
  // Printed after the closing brace of each fusion (e.g. a summary table).
  std::function<void(const Fusion &, const ValueNames &, llvm::raw_ostream &)> trailer;
};

void printFusion(const Fusion &fusion, llvm::raw_ostream &os, const PrintNotes &notes = {});
// Fusions separated by a blank line.
void printModule(const Module &module, llvm::raw_ostream &os, const PrintNotes &notes = {});

// "f16[N, C]" for tensors, "f32" for scalar inputs.
std::string typeString(const Value &value);

} // namespace fuserc
