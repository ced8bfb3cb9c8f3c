// Acceptance checks the built-in schedulers share. Each returns the reason
// a segment fails the check (a sentence without the scheduler's name), or
// nothing when it passes.
//
// Ops that are not reductions — elementwise ops, casts, broadcasts, resizes
// (slice, pad, cat), indexing reads (gather, index_select), searched
// scatters and creation ops — are all "pointwise-like" for the schedulers:
// each read of a producer is indexed consumer-first, for that use alone
// (docs/schedulers.md, "Consumer-first indexing"), so they fit in any
// kernel whose loops cover the consumer. Two-pass scatters run only in
// pointwise kernels (TwoPassScatter.h).
#pragma once

#include "schedulers/Segment.h"

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace fuserc {

// Composite ops are decomposed by canonicalization; no kernel runs them.
std::optional<std::string> findComposite(const Segment &segment);

// "'t3' (cumsum) is a scan": only the scan scheduler's kernels carry a
// prefix along a lane.
std::optional<std::string> findScan(const Segment &segment);
// Tensors one kernel may read and write. A kernel's argument struct holds a
// pointer and strides per tensor (about 150 bytes): 128 stay well inside
// CUDA's 32 KiB of kernel parameters. More split into several kernels.
inline constexpr size_t kMaxKernelTensors = 128;
std::optional<std::string> checkKernelTensors(const Segment &segment);
// "'t19' (sum) is a reduction"
std::optional<std::string> findReduction(const Segment &segment);
// "'t3' (sum over 4 elements) is a small reduction ...": only pointwise
// kernels compute small reductions (isSmallReduction).
std::optional<std::string> findSmallReduction(const Segment &segment);
// The checks the reduction, normalization and transpose schedulers make
// first, in this order: a composite, a scan, a small reduction, too many
// tensors, a two-pass scatter (each run by another kernel, or none). The
// first reason found.
std::optional<std::string> findOpsOfOtherKernels(const Segment &segment);
// Every written output must have the same shape: a pointwise-like kernel's
// loops cover one iteration space. `kernel` names the kernel in the reason.
std::optional<std::string> checkOneIterationSpace(const Segment &segment, std::string_view kernel);
// How `value`'s dims name `reference`'s when the segment computes both from
// one value through permutes and elementwise ops (value dim d is reference
// dim result[d]); nullopt when they are not so related.
std::optional<std::vector<size_t>> permutedDims(const Segment &segment, const Value &value,
                                                const Value &reference);
// As checkOneIterationSpace, but an output may also be the first one's
// values permuted (permutedDims): a transpose kernel stores each output in
// its own order from one iteration space.
std::optional<std::string> checkOneSpaceUpToPermutes(const Segment &segment,
                                                     std::string_view kernel);

// The reductions of a segment when they all reduce the same axes of tensors
// of one shape (the same rows).
struct ReductionRows {
  std::vector<const Op *> reductions; // in fusion order
  std::vector<Extent> domain;         // the shape every reduction reads
  std::vector<int64_t> axes;          // the axes every reduction reduces
  std::vector<Extent> reduced;        // domain without the axes, static 1s removed
  std::vector<Extent> squeezedDomain; // domain, static 1s removed

  // Column reductions a normalization kernel computes beside its rows
  // (findNormalizationRows): reductions of values over the domain along
  // exactly the kept axes (an RMSNorm backward's weight gradient), in
  // fusion order. Their results, and every op reading them, are over the
  // columns: the domain without its kept axes. Empty for reduction kernels.
  std::vector<const Op *> columns;
  std::vector<Extent> columnShape; // static 1s removed
  // The values computed from column results (the columns' results among
  // them): only the column merge computes them.
  std::vector<const Value *> overColumns;

  // Whether `shape` holds one element per row (ignoring static 1s).
  bool isReducedShape(const std::vector<Extent> &shape) const;
  // Whether `shape` is the rows' domain (ignoring static 1s).
  bool isDomainShape(const std::vector<Extent> &shape) const;
  // Whether `v` is computed from a column reduction's result.
  bool isOverColumns(const Value &v) const;
};
// The rows, or why there are none: no reduction, or two that disagree.
// `oneKernel` ends the disagreement reason ("a reduction kernel reduces
// one set of axes").
std::variant<ReductionRows, std::string> findReductionRows(const Segment &segment,
                                                           std::string_view oneKernel);

// The rows of a normalization segment, whose reductions may reduce two
// complementary sets of axes of one domain: the rows' (whose results the
// segment reads again over the domain) and columns' (whose results only
// ops over the columns and outputs read). Without column reductions, what
// findReductionRows finds; else why the reductions are neither.
std::variant<ReductionRows, std::string> findNormalizationRows(const Segment &segment);

// The scans of a segment when they all scan the same dim of tensors of one
// shape (the same lanes).
struct ScanLanes {
  std::vector<const Op *> scans; // in fusion order
  std::vector<Extent> domain;    // the shape every scan reads and writes
  size_t dim = 0;                // the dim every scan runs along
};
// The lanes, or why there are none: no scan, or two that disagree.
std::variant<ScanLanes, std::string> findScanLanes(const Segment &segment);
// For each op of the segment (in segment order): whether it is a reduction
// or reads, through ops of the segment, a reduction's result.
std::vector<bool> dependsOnReduction(const Segment &segment);

// The longest chain of reductions in the segment where each reads, through
// ops of the segment, the one before: 2 for softmax (max, then sum).
size_t reductionStages(const Segment &segment);
// The same for the ops `counts` accepts: 2 for cumsum(cumsum(x)) and isScan.
size_t chainedStages(const Segment &segment, bool (*counts)(const Op &));

} // namespace fuserc
