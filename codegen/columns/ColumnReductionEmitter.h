// Internal to the column reduction generator (ColumnReductionKernel.h): the
// emitter every variant is written by. Finding the columns, tensors and
// accumulators, the values and the tile kernels' row loops are in
// ColumnReductionEmitter.cpp; how a block combines its threads' partials,
// and the last split block merges the splits', in ColumnReductionCombine.cpp.
#pragma once

#include "codegen/columns/ColumnReductionPlan.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/core/KernelContext.h"
#include "codegen/core/ValueEmitter.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace fuserc {

class ColumnReductionEmitter : public InputReader {
public:
  ColumnReductionEmitter(const KernelContext &cx, const ReductionSchedule &schedule)
      : cx_(cx), schedule_(schedule) {
    k_.fusion = &cx.fusion;
    k_.segment = &cx.segment;
    k_.base = cx.base;
    k_.scratchOffset = cx.scratchOffset;
  }
  EmittedKernel run();
  InputRead read(const Value &input, const Coords &coords) override;

private:
  // ---- the columns, tensors and accumulators ----
  void findColumns();
  void collectTensors();
  void findPartials();

  // The tile variants need an elementwise prologue; emitting it once in
  // lane mode marks the tensors it reads, whose widths bound the vector.
  void findLanes();
  size_t tensorIndex(const Value &v) const;
  bool isReductionResult(const Value &v) const;
  ValueEmitter newEmitter(bool lanes);

  // ---- coordinates ----
  bool isReducedDim(size_t d) const;

  // Domain coordinates: c<d> for every dim but static 1s (0).
  Coords domainCoords() const;

  // Coordinates of a reduced-shape value: its non-1 dims take the kept
  // non-1 domain dims in order; its 1 dims take 0.
  Coords reducedCoords(const std::vector<Extent> &shape) const;
  static std::string decompose(const std::string &index, const std::vector<size_t> &dims,
                               const std::string &rem, const std::string &pad);

  // ---- values ----
  std::string accType(size_t j) const { return cudaComputeType(k_.partials[j].acc); }
  const Op &reductionOf(size_t j) const { return *k_.rows.reductions[k_.partials[j].reduction]; }
  bool isVarMean(size_t j) const;

  // The statements folding the values `x` (one per reduction, accumulator
  // typed) into the per-thread accumulators q<j>[v].
  std::string accumulate(const std::vector<std::string> &x, const std::string &pad) const;
  // The same into the accumulators acc(j), a var's pushes taking inverse(j)
  // as 1 / (its count with the value).
  std::string accumulate(const std::vector<std::string> &x, const std::string &pad,
                         const std::function<std::string(size_t)> &acc,
                         const std::function<std::string(size_t)> &inverse) const;
  // The reductions' inputs at the domain coordinates c<d> (general
  // addressing): the statements computing them and their accumulator-typed
  // values, one per reduction.
  struct AddressedRow {
    std::string body;
    std::vector<std::string> x;
  };
  AddressedRow addressedRow(int indent);

  // Per row of a thread (var only): the count and its inverses.
  std::string countRow(const std::string &pad) const;
  std::string storedValue(ValueEmitter &emitter, size_t t, const Coords &coords);
  std::string storeStatement(size_t t, const Coords &coords, const std::string &value) const;

  // Column `col`'s results from its combined accumulators g<j> (of `rows`
  // rows): the reduced values, the epilogue, every store.
  std::string finishColumn(const std::string &col, const std::string &pad,
                           const std::string &rows = "L");

  // ---- kernels ----
  int maxAccBytes() const;
  std::string tileKernel(const ColumnVariant &v);

  // The general variant's row loop: coordinates per row, one column.
  std::string generalRows();

  // The tile variants' row loop: per lane tensor a pointer moving down the
  // rows; kColumnUnroll rows loaded before any is used, then one at a time.
  std::string tileRows(const ColumnVariant &v);
  std::string advance(const std::string &rows) const;
  std::string loadRows(const ColumnVariant &v, int rows) const;
  std::string computeRows(const ColumnVariant &v, int rows, const ValueEmitter &emitter,
                          const std::vector<std::string> &x) const;
  bool hasVar() const;

  // Accumulator slots of `smem` per array: a thread's values (a warp's
  // first lanes write V each) or one per thread; a var's squared deviations
  // go to a second array after its means.
  static int sharedSlots(const ColumnVariant &v);

  // How one stage of a combine goes through shared memory.
  struct SharedJoin {
    std::string writes;   // the threads writing a slot
    std::string eachSlot; // a loop over the slots a writer writes, or ""
    std::string at;       // the slot written
    // Partial j's value for the written slot, and a var's count there (j
    // its mean partial) unless countOf gives the joined slots' counts.
    std::function<std::string(size_t j)> value, count;
    std::string joined; // how many slots each column joins
    // The count of joined slot i, when computed rather than written.
    std::string (*countOf)(const std::string &i) = nullptr;
    std::string combines = "combines"; // the joining threads
    std::string next = "i * w + tid";  // the i-th slot a joining thread joins
  };

  // Every partial combined over a stage: writers fill their slots, then
  // each combining thread joins the `joined` slots i * w + tid of column tid
  // into g<j>, in order. A var's means and squared deviations (partials
  // j - 1 and j) travel together, merged with their counts.
  std::string joinThroughShared(const ColumnVariant &v, const SharedJoin &stage,
                                const std::string &pad) const;

  // The block's partials of each column: first the kl < 32 lanes of a warp
  // sharing a column join down the warp (lane i takes lane i + off, a fixed
  // tree), then thread `tid` < w joins column tid's 8 warp partials in row
  // order through shared memory; stored finished when there is one split,
  // as partials otherwise.
  std::string combineRowPartials(const ColumnVariant &v);

  // With S > 1 splits, the tile's last block to finish merges the S
  // partials of each of its columns in split order (so the result does not
  // depend on which block is last) and finishes them. Blocks count
  // themselves in a.count[tile], which the host zeroes before the launch:
  // each block's partials are made visible (fence) before it counts, and
  // the last one fences again before reading the others'. The whole block
  // merges: G = 256 / w groups of threads per column, group mg taking
  // splits mg, mg + G, ... in order, then thread tid < w joins the G groups
  // in order.
  std::string lastSplitMerges(const ColumnVariant &v);

  // A packed variant's end of a tile: the block's packed columns in shared
  // memory, then thread tid < w whose packed column is place k < K of its
  // vector joins places k, k + K, ... in order, adds the rows past the
  // last whole vector (R mod P, read through the general addressing) and
  // finishes column (outer index, k).
  std::string foldPackedColumns(const ColumnVariant &v, const std::string &pad);
  std::string packedTailRows(const std::string &pad);

  // Group mg's merge of column `col`'s split partials s = mg, mg + G, ...
  // in order into h<j>, read from L2 (__ldcg: past the L1 cache, which may
  // hold stale lines); a var's with their counts (hn).
  std::string mergeSplits(const std::string &col, const std::string &pad) const;
  const KernelContext &cx_;
  const ReductionSchedule &schedule_;
  ColumnKernel k_;
  std::vector<const Value *> throughOps_; // computed from tensors outside the segment
  std::vector<size_t> kept_;              // kept dims in memory order: outer, then inner
  bool lanes_ = false;                    // reads come from per-lane registers (tile variants)
  std::map<const Value *, std::string> registers_; // reduction result -> its register
};

} // namespace fuserc
