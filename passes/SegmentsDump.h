// The `segments` dump, as text and as a Graphviz picture.
//
// Text: the Fusion IR with every op annotated "segment N (scheduler)", then
// per fusion a `//` trailer (so the dump still reads back as source): why no
// scheduler took the whole fusion, each segment (scheduler, ops, what it
// reads, what it writes, which outputs it describes as views of inputs),
// the tensors passed between segments with their sizes,
// and for every boundary — two segments where one reads what the other
// writes, or both read one tensor — why they could not be merged.
//
// Dot (`--dump-format=dot`): one digraph per fusion, one colour per segment
// (a fixed palette, by segment id), ops as boxes, inputs and outputs as
// ellipses, tensors crossing segments as bold labelled edges.
//
// Sizes are formulas in the symbolic extents; with `--shape` bindings the
// bound symbols are substituted.
#pragma once

#include "ir/Printer.h"
#include "passes/Segmentation.h"

#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace fuserc {

// `segmented` holds one entry per fusion; it must outlive the notes.
PrintNotes segmentsDumpNotes(const std::vector<SegmentedFusion> &segmented,
                             const SymbolBindings &shapes);

void printSegmentsDot(const std::vector<SegmentedFusion> &segmented, const SymbolBindings &shapes,
                      llvm::raw_ostream &os);

} // namespace fuserc
