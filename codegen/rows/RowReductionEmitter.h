// Internal to the row reduction generator (RowReductionKernel.h): the
// emitter every variant is written by. Its shared machinery (the rows, the
// tensors, coordinates, reduction phases, stores) is in
// RowReductionEmitter.cpp; the general variants, which address every
// element through its strides, in RowGeneralVariants.cpp; the contiguous
// variants, which keep rows in registers, in RowContiguousVariants.cpp; the
// variant streaming longer rows through a shared-memory cache in
// RowCachedVariant.cpp.
#pragma once

#include "codegen/core/KernelContext.h"
#include "codegen/core/ValueEmitter.h"
#include "codegen/rows/RowReductionPlan.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fuserc {

class RowReductionEmitter : public InputReader {
public:
  RowReductionEmitter(const KernelContext &cx, const ReductionSchedule &schedule);

  EmittedKernel run();

  InputRead read(const Value &input, const Coords &coords) override;

private:
  // ---- the rows and tensors (RowReductionEmitter.cpp) ----
  void findRows();
  void collectTensors();
  // Which tensors the contiguous variants stream, and their vector width.
  void findStreams();
  // The row lengths the host may see (RowKernel::minLength, maxLength).
  void findLengths();
  size_t tensorIndex(const Value &v) const;
  bool isReductionResult(const Value &v) const;
  // Whether `accept` holds for every leaf `v` is computed from in the
  // segment: the kernel's reduction results and the values it does not
  // compute (inputs, scalars, literals).
  bool everyLeaf(const Value &v, const std::function<bool(const Value &)> &accept) const;
  // Whether `v` is computed from the kernel's reduction results, scalars and
  // literals alone (no tensor read).
  bool computedFromReductions(const Value &v) const;
  bool isReducedDim(size_t d) const;

  // ---- shared emission helpers (RowReductionEmitter.cpp) ----
  // Coordinates of the rows' domain: kept dims c<d>, reduced dims c<d><tag>.
  Coords domainCoords(const std::string &tag) const;
  // Coordinates for a value of `shape` (the domain or a reduced shape):
  // its non-1 dims take the non-1 domain dims (kept ones only for a
  // per-row value) in order; its 1 dims take 0.
  Coords valueCoords(const std::vector<Extent> &shape, const Coords &domainAt, bool perRow) const;
  // Which domain dim each coordinate of a read at `coords` of the item
  // `domainAt` is (-1: a static 1 dim read at 0), or nothing when the read
  // is not a direct one (permuted, shifted, ...).
  std::optional<std::vector<int>> directMap(const Value &input, const Coords &coords,
                                            const Coords &domainAt) const;
  static std::string decompose(const std::string &index, const std::vector<size_t> &dims,
                               const std::string &tag, const std::string &rem,
                               const std::string &pad);
  // Statements declaring the coordinates c<d><tag> of row position
  // `index` (the reduced dims, innermost fastest), for the contiguous and
  // cached variants, whose positions are below 2^30: they divide in 32 bits,
  // by constants where the extents are static.
  std::string positionCoords(const std::string &index, const std::string &tag,
                             const std::string &pad) const;
  // Whether the kernel being emitted derives each lane's coordinates from
  // its vector's first: the outer ones equal, the innermost counting up.
  bool lanesShareCoords(int vector) const { return shareLanes_ && vector > 1; }
  // Statements declaring the coordinates of vector j's lanes from its
  // first lane's position `first` (emitted with lanesShareCoords).
  std::string sharedLaneCoords(const std::string &J, const std::string &first, int vector,
                               const std::string &pad) const;
  // `emit()`, a kernel at vectors of `vector`, with lanes sharing
  // coordinates where the kernel reads some (a per-element weight, an iota,
  // a pad) and the extents allow it: for each dim whose coordinates it
  // reads, the extents inner to it must come in whole vectors (statically,
  // or checked at launch: RowKernel::laneChecks); else, and over rows of
  // one dim (where a coordinate is the position), each lane computes its own.
  // Never where `mayShare` is false.
  template <typename Emit>
  std::string emitSharingLanes(int vector, bool cached, Emit emit, bool mayShare = true);
  // The reduced dims whose element coordinates `kernel` reads besides
  // declaring them.
  std::set<size_t> positionDimsRead(const std::string &kernel) const;
  // What a vector must not straddle for lanes to share dim d's coordinate:
  // the product of the reduced extents inner to d (the innermost: its own).
  Extent laneBoundary(size_t d) const;
  std::string storedValue(ValueEmitter &emitter, size_t t, const Coords &coords);
  std::string storeStatement(size_t t, const Coords &coords, const std::string &value) const;
  ValueEmitter newEmitter();
  static std::string take(const ValueEmitter &emitter, size_t &taken, int indent);
  // Statements storing each per-row output by the thread for which
  // `condition` holds, its values emitted into `emitter` (from line `taken`).
  std::string perRowStores(ValueEmitter &emitter, size_t &taken, const std::string &condition,
                           const std::string &pad);
  // The fuserc_bytes<N> type moving `vector` elements of `storage` at once.
  static std::string bytesType(int vector, DType storage);
  static std::string toAccumulator(const Op &op, const std::string &var);
  // Combines `partial` over the `threads` threads of a row.
  static std::string combineAcross(int threads, const std::string &partial, DType acc,
                                   const std::string &combiner);
  std::string finish(const Op &op, size_t i, const std::string &value);
  // Phase i's partial p<i> with `x` joined, and (var) x's deviation from
  // the mean m<i>. A var rounds x on its own in both passes: nothing fuses
  // the multiplication making x into the add or the subtraction (an FMA
  // would use x unrounded in one pass and rounded in the other, and a row
  // of one element would get a nonzero sum of squares).
  static std::string accumulated(const Op &op, size_t i, const std::string &x);
  static std::string deviation(const Op &op, size_t i, const std::string &x);
  std::string sharedScratch(int threads) const;
  static std::string varianceOf(const Op &op, const std::string &squares, const std::string &A);
  // Statements ending phase i: combine its partial p<i> across the row's
  // `threads` and set its row register. For var, `squares` are statements
  // accumulating the squared deviations from m<i> (the mean) into q<i>.
  std::string endPhase(const Op &op, size_t i, int threads, const std::string &squares,
                       const std::string &pad);
  // combineAcross over the row's threads, and in the cluster and grid
  // variants over the row's CTAs as well (each combine of a row in its own
  // slots).
  std::string combineRow(int threads, const std::string &partial, DType acc,
                         const std::string &combiner);

  // ---- general variants (RowGeneralVariants.cpp) ----
  std::string generalKernel(const RowVariant &v);
  std::string generalPersistentBody(const RowVariant &v);
  std::string generalLoopedBody(const RowVariant &v);
  template <typename Body> std::string generalRowLoop(const RowVariant &v, Body body);
  std::string generalOutputs(const RowVariant &v);

  // ---- contiguous variants (RowContiguousVariants.cpp) ----
  std::string contiguousKernel(const RowFastVariant &v, int vector, bool headed = false);
  // Whether variant v at vectors of `vector` stores its outputs after every
  // vector's values rather than each vector's after its own: where the rows
  // the reductions read (`rowReads`) and the outputs' values, in their
  // storage types (at vectors of 1 with each element's position), fit half
  // the registers its launch bounds leave a thread (beyond, holding the
  // values spilled: bench/README.md).
  bool storesAfterValues(const RowFastVariant &v, int vector,
                         const std::set<size_t> &rowReads) const;
  // The row starts o<t> of the streamed tensors, and per-row inputs t<t>_r.
  std::string rowStarts(const std::string &pad) const;
  // A contiguous variant's row at `rowAt`: row_at, row_ok, row (clamped),
  // its coordinates and rowStarts.
  std::string rowHead(const std::string &rowAt, const std::string &pad) const;
  // Registers t<t><name>[count][vector] for tensor t; vector j's load
  // into them (where ok<j>).
  std::string vectorBuffer(size_t t, const std::string &name, int count, int vector,
                           const std::string &what, const std::string &pad) const;
  std::string vectorLoad(size_t t, const std::string &name, int j, int vector,
                         const std::string &pad) const;
  std::string contiguousPersistentBody(const RowFastVariant &v, int vector);
  // Headed variants: lo<t> and hi<t>, the range of streamed input t's
  // elements from its pointer (a partial vector inside it loads whole);
  // the row's `head`; whether item (j, e) is one of the row's elements.
  std::string tensorRanges(const std::string &pad) const;
  std::string rowHeadPositions(int vector, const std::string &pad) const;
  static std::string inRow(int j, int e);
  // Statements declaring k<j> and ok<j> for `count` vectors `step` apart
  // from `first`, and the coordinates of their elements (item j, v).
  std::string vectorItems(int count, int vector, const std::string &first, const std::string &step,
                          const std::string &pad) const;
  // Vectors first..last-1 of a thread's `total`.
  struct Vectors {
    int first, last, total;
  };
  // Emits `value(emitter, item)` for every element of `vectors`, as the
  // accumulation or staging statements `use(j, v, expr)` return; the
  // emitter's statements indented by `indent`.
  template <typename Value, typename Use>
  std::string forEachElement(ValueEmitter &emitter, size_t &taken, Vectors vectors, int vector,
                             Value value, Use use, int indent = 4);
  // Vector loads of the streamed inputs in `used_` (but `skip`), declaring
  // their registers with the first vector, and vector stores of the staged
  // outputs.
  std::string loadVectors(Vectors vectors, int vector, const std::string &pad,
                          const std::set<size_t> &skip = {}) const;
  // Column-partial kernels loop over their rows in one wave of blocks:
  // those holding few rows' worth of registers (kRowPrefetchMaxHeld) load
  // each next row's streamed inputs whose rows differ (those of
  // `used_`: `prefetched`) into t<t>_n while this one reduces. The
  // buffers, the first row's loads (before the loop), and this row's:
  // t<t>_l taken from t<t>_n (the other inputs loaded), the next row's
  // issued.
  bool prefetchesRows() const {
    return k_.columnPartials() && k_.heldRows() <= kRowPrefetchMaxHeld;
  }
  std::set<size_t> prefetched() const;
  std::string prefetchBuffers(int count, int vector, const std::string &pad) const;
  std::string prefetchRow(const std::string &rowAt, int count, int vector,
                          const std::string &itemsStep, const std::string &pad) const;
  std::string takePrefetched(int count, int vector, const std::string &pad) const;
  std::string storeVectors(Vectors vectors, int vector, const std::string &pad) const;

  // ---- column partials (RowColumnPartials.cpp) ----
  DType columnAccumulator(size_t c) const;
  // Coordinates of a value over the columns (the domain's reduced dims).
  Coords columnCoords(const std::vector<Extent> &shape) const;
  // A register variant's accumulators cp<c>[count][vector], at the identity.
  std::string columnAccumulators(int count, int vector, const std::string &pad) const;
  // Each column reduction's input at every element of `vectors`, joined
  // into its accumulator where `condition(j)` holds for vector j.
  std::string accumulateColumns(ValueEmitter &emitter, size_t &taken, Vectors vectors, int vector,
                                const std::function<std::string(int)> &condition,
                                const std::string &pad);
  // After the rows: the block's partial row of each column reduction, its
  // row slots joined in slot order.
  std::string flushColumns(int threads, int rowsPerBlock, int count, int vector,
                           const std::string &pad) const;
  // The looped variant's partial rows set to the identity before its rows.
  std::string loopedColumnStart(const RowVariant &v) const;
  // The kernel merging the blocks' partials (rowColumnMergeName).
  std::string columnMergeKernel();

  // ---- the cached streaming variant (RowCachedVariant.cpp) ----
  std::string cachedKernel(const RowCachedVariant &v, int vector);
  // Whether the split variant applies to the segment (RowReductionPlan.h).
  bool splitApplies() const;
  // The split variant's accumulators: p<i> per reduction, and a var's
  // Welford state (p<i> its mean, q<i> its squared deviations, n<i> its
  // count) with the shared slots that join it over the block.
  std::string splitAccumulators(const std::string &pad) const;
  // A var's join of one vector's values `xs` (checked per element unless
  // checkedJ < 0, else vector checkedJ's checks).
  std::string splitVarVector(const Op &op, size_t i, const std::vector<std::string> &xs,
                             int checkedJ, const std::string &pad) const;
  // Each accumulator combined over the block of `threads`.
  std::string splitCombine(int threads, const std::string &pad) const;
  // The split variant's end of a row: this block's partials to scratch,
  // and in the row's last block the merge, the row registers and the
  // per-row outputs.
  std::string splitMerge(int threads, int vector, const std::string &pad);
  // Whether the kernel being emitted runs a slice [lo, hi) of each row
  // (the cluster, grid and split variants), whether its cache holds its
  // slice (cluster, grid: [lo, PE)), and whether stream t is cached in it.
  bool sliced() const { return cluster_ || grid_ || split_; }
  bool cachesSlice() const { return cluster_ || grid_; }
  bool caching(size_t t) const { return !split_ && k_.cached(t); }
  // Statements copying the cached streams' rows into shared memory.
  std::string cachedFill(int threads, int vector) const;
  // One pass over the row, kRowCachedUnroll vectors per thread per step:
  // the vectors' positions, the loads of the streams the statements read
  // (cached positions from shared memory), `staging` (declarations), then
  // per vector j `body(checked, j)` and `tail(checked, j)` (stores). A
  // step whose vectors all lie inside the row (and the cache) runs them
  // without checks; another runs each vector inside the row unchecked and
  // checks each element of the others (the row's ends).
  template <typename Body, typename Tail>
  std::string cachedPass(int threads, int vector, Body body, Tail tail,
                         const std::string &staging = "");
  // The load of stream t's vector j; in a whole step (every vector inside
  // the row and the cache) without checks.
  std::string cachedLoad(size_t t, int j, int vector, const std::string &pad, bool wholeStep) const;
  std::string cachedStores(int j, int vector, bool checked, const std::string &pad) const;
  // Whether item (j, e) of a cached-variant pass is one of the row's elements.
  static std::string cachedOk(int j, int e, int vector);
  // The cluster variant's slots for its CTAs' partials: two sets (rows
  // alternate) of one per combine of a row.
  std::string clusterScratch() const;

  const KernelContext &cx_;
  const ReductionSchedule &schedule_;
  RowKernel k_;
  std::vector<const Value *> throughOps_;          // computed from tensors outside the segment
  std::map<const Value *, std::string> registers_; // reduction result -> row register

  // Contiguous variants: while emitting item (j, v), reads of streamed
  // tensors at the item's coordinates come from registers.
  struct Item {
    int j = 0, v = 0;
    Coords domain;
    int width = 1; // elements per vector
  };
  std::optional<Item> item_;
  bool discovering_ = false; // recording which reads are direct
  std::set<size_t> used_;    // streamed tensors read since it was cleared
  bool hints_ = false;       // cached variants: L2 policies on re-read positions
  bool lastPass_ = false;    // cached variants: emitting the outputs' pass
  // Emitting the cluster variant: the CTA's slice of a row is positions
  // [lo, hi), its cache holds [lo, PE); `combines_` counts a row's combines.
  bool cluster_ = false;
  int combines_ = 0;
  bool split_ = false;      // emitting the split variant
  bool grid_ = false;       // emitting the grid variant (combines_ counts its combines too)
  bool shareLanes_ = false; // emitSharingLanes: lanes share coordinates
  // Emitting a kernel whose threads per row (T) are set at launch.
  bool launchedThreads_ = false;
  // Emitting a headed kernel (RowKernel::generatesHeaded): vector j's
  // first element is k<j> (negative in the head), whole in the row where
  // ok<j>, partly where any<j>.
  bool headed_ = false;
};

// The cached variants' device helpers (asynchronous copies, hinted loads
// and stores), guarded so that every unit holding such a variant may include
// them.
const std::string &rowCacheHelpersCuda();

template <typename Emit>
std::string RowReductionEmitter::emitSharingLanes(int vector, bool cached, Emit emit,
                                                  bool mayShare) {
  // Over one dim a lane's coordinate is its position: nothing to share.
  const auto multi = std::count_if(k_.reducedDims.begin(), k_.reducedDims.end(),
                                   [&](size_t d) { return !k_.rows.domain[d].isConstant(1); });
  shareLanes_ = mayShare && vector > 1 && multi > 1;
  std::string kernel = emit();
  if (!shareLanes_)
    return kernel;
  const std::set<size_t> dims = positionDimsRead(kernel);
  std::set<size_t> checks;
  for (size_t d : dims) {
    const std::optional<int64_t> boundary = laneBoundary(d).constant();
    if (!boundary)
      checks.insert(d);
    else if (*boundary % vector != 0)
      shareLanes_ = false;
  }
  if (!shareLanes_) {
    kernel = emit();
  } else if (!dims.empty()) {
    k_.laneChecks.insert(checks.begin(), checks.end());
    k_.cachedLanesShared = k_.cachedLanesShared || cached;
  }
  shareLanes_ = false;
  return kernel;
}

template <typename Value, typename Use>
std::string RowReductionEmitter::forEachElement(ValueEmitter &emitter, size_t &taken,
                                                Vectors vectors, int vector, Value value, Use use,
                                                int indent) {
  std::string uses;
  for (int j = vectors.first; j < vectors.last; ++j)
    for (int e = 0; e < vector; ++e) {
      item_ = Item{j, e, domainCoords("_" + std::to_string(j) + "_" + std::to_string(e)), vector};
      uses += use(j, e, value(emitter, item_->domain));
    }
  item_.reset();
  return take(emitter, taken, indent) + uses;
}

} // namespace fuserc
