// Row-reduction kernels, the cached streaming variants (m512, m1024, c512
// over a thread-block cluster, g512 over a cooperative grid's blocks; the
// split variant s512's streaming too): rows longer than the persistent variants hold
// in registers are streamed by a block per row, kRowCachedUnroll vectors per
// thread per step, one pass per phase and one for the outputs. First the
// cached streams (inputs whose rows differ, read by a reduction) are copied
// into dynamic shared memory, up to `a.cache` row positions (the host's
// choice at launch), whole vectors asynchronously (cp.async: the whole cached
// row in flight at once, no registers held; a vector under 4 bytes, which
// cp.async does not move, through a register), so every pass reads those
// positions from there rather than from global memory. A thread touches the
// same positions in the copy and in every pass of a row, and of the next row:
// the cache needs no barrier.
//
// With vectors of W > 1, positions count from the vector boundary at or
// before the row's start (`head` elements before it; the host checked that
// every streamed tensor's rows start equally far past one), so every vector
// is aligned in global and shared memory whatever the row's start and length.
// A step whose vectors all lie inside the row, and inside the cache for the
// cached streams it reads, runs them without any check; in other steps
// vectors wholly inside the row run without checks, those at its ends check
// each element, and those past its end do nothing. Positions count in 32 bits
// (rows of at most kRowCachedMaxLength).
//
// Unchecked steps (no per-vector branch in nearly every step) and bf16
// elements converted from their words (InputRead::lane) keep the
// instruction count down: these kernels run out of issue slots before
// bandwidth on GPUs with more bandwidth per SM (bench/README.md,
// "Measurements behind the code's constants").
#include "codegen/core/BlockReduce.h"
#include "codegen/core/CudaTypes.h"
#include "codegen/rows/RowReductionEmitter.h"

#include <algorithm>

namespace fuserc {
// The helpers every cached variant uses (RowReductionEmitter.h).
const std::string &rowCacheHelpersCuda() {
  static const std::string text = R"CUDA(#ifndef FUSERC_ROW_CACHE_HELPERS
#define FUSERC_ROW_CACHE_HELPERS
// Copies N bytes (4, 8 or 16, aligned) from global to shared memory without
// passing them through registers (sm_80 and newer); fuserc_async_wait waits
// for the calling thread's copies.
template <int N> __device__ __forceinline__ void fuserc_async_copy(void *to, const void *from) {
  const unsigned at = (unsigned)__cvta_generic_to_shared(to);
  if (N == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(at), "l"(from) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(at), "l"(from), "n"(N)
                 : "memory");
}
__device__ __forceinline__ void fuserc_async_wait() {
  asm volatile("cp.async.wait_all;\n" ::: "memory");
}
// Stores the N bytes (4, 8 or 16) of a register array to global memory as
// one vector store. Copied as a struct (*(uint4 *)to = *(const uint4 *)from),
// they may reach the assembler as N / 4 word stores once the array is split
// into registers: partial sectors for L2 (softmax over rows of 131072 ran
// at 45% of copy that way, at 71% with this).
template <int N> __device__ __forceinline__ void fuserc_store_vector(void *to, const void *from) {
  const unsigned *w = (const unsigned *)from;
  if (N == 16)
    asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"l"(to), "r"(w[0]), "r"(w[1]),
                 "r"(w[2]), "r"(w[3])
                 : "memory");
  else if (N == 8)
    asm volatile("st.global.v2.b32 [%0], {%1, %2};\n" ::"l"(to), "r"(w[0]), "r"(w[1]) : "memory");
  else
    asm volatile("st.global.b32 [%0], %1;\n" ::"l"(to), "r"(w[0]) : "memory");
}
// As fuserc_store_vector, under an L2 cache policy (createpolicy).
template <int N>
__device__ __forceinline__ void fuserc_store_hinted(void *to, const void *from,
                                                    unsigned long long policy) {
  const unsigned *w = (const unsigned *)from;
  if (N == 16)
    asm volatile("st.global.L2::cache_hint.v4.b32 [%0], {%1, %2, %3, %4}, %5;\n" ::"l"(to),
                 "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]), "l"(policy)
                 : "memory");
  else if (N == 8)
    asm volatile("st.global.L2::cache_hint.v2.b32 [%0], {%1, %2}, %3;\n" ::"l"(to), "r"(w[0]),
                 "r"(w[1]), "l"(policy)
                 : "memory");
  else
    asm volatile("st.global.L2::cache_hint.b32 [%0], %1, %2;\n" ::"l"(to), "r"(w[0]), "l"(policy)
                 : "memory");
}
// Loads N bytes (4, 8 or 16, aligned) from global memory into a register
// array under an L2 cache policy (createpolicy).
template <int N>
__device__ __forceinline__ void fuserc_load_hinted(void *to, const void *from,
                                                   unsigned long long policy) {
  unsigned *w = (unsigned *)to;
  if (N == 16)
    asm("ld.global.L2::cache_hint.v4.b32 {%0, %1, %2, %3}, [%4], %5;\n"
        : "=r"(w[0]), "=r"(w[1]), "=r"(w[2]), "=r"(w[3])
        : "l"(from), "l"(policy));
  else if (N == 8)
    asm("ld.global.L2::cache_hint.v2.b32 {%0, %1}, [%2], %3;\n"
        : "=r"(w[0]), "=r"(w[1])
        : "l"(from), "l"(policy));
  else
    asm("ld.global.L2::cache_hint.b32 %0, [%1], %2;\n" : "=r"(w[0]) : "l"(from), "l"(policy));
}
#endif // FUSERC_ROW_CACHE_HELPERS

)CUDA";
  return text;
}

namespace {

// `text` (statements, a line each) indented one level (two spaces) deeper.
std::string deeper(const std::string &text) {
  std::string out;
  for (size_t from = 0; from < text.size();) {
    const size_t newline = text.find('\n', from);
    const size_t to = newline == std::string::npos ? text.size() : newline + 1;
    if (to - from > 1)
      out += "  ";
    out += text.substr(from, to - from);
    from = to;
  }
  return out;
}

} // namespace

std::string RowReductionEmitter::cachedOk(int j, int e, int vector) {
  return "ok" + std::to_string(j) + (vector > 1 ? "_" + std::to_string(e) : "");
}

std::string RowReductionEmitter::clusterScratch() const {
  std::vector<DType> accs;
  for (const Op *op : k_.rows.reductions) {
    DType acc = reductionAccumulator(op->result()->dtype());
    if (std::find(accs.begin(), accs.end(), acc) == accs.end())
      accs.push_back(acc);
  }
  // At most two combines per reduction (var: the mean, the squares).
  const std::string slots = std::to_string(2 * k_.rows.reductions.size());
  std::string s;
  for (DType acc : accs)
    s += "  __shared__ " + cudaComputeType(acc) + " cl_" + std::string(dtypeName(acc)) + "[2 * " +
         slots + "];\n";
  return s + "  int cl_at = 0;  // this row's slots: 0 or " + slots + "\n";
}

// One function on purpose: it prints one kernel's text top to bottom, in
// the order the generated CUDA reads.
std::string RowReductionEmitter::cachedKernel(const RowCachedVariant &v, int vector) {
  registers_.clear();
  cluster_ = &v == &kRowClusterVariant;
  split_ = &v == &kRowSplitVariant;
  grid_ = &v == &kRowGridVariant;
  // The shared cached kernel (RowKernel::sharesCachedKernel): T threads and
  // the L2 policies set at launch, for every cached variant.
  const bool shared = k_.sharesCachedKernel(vector) && !sliced();
  launchedThreads_ = shared;
  const int threads = shared ? std::end(kRowCachedVariants)[-1].threads : v.threads;
  const std::string T = std::to_string(threads), W = std::to_string(vector), pad = "    ";
  const int n = kRowCachedUnroll;
  std::string s =
      "// segment " + std::to_string(cx_.segment.id) + " (" +
      std::string(cx_.segment.scheduler->name()) + "), " +
      (split_  ? "split variant "
       : grid_ ? "grid variant "
               : "cached streaming variant ") +
      (shared ? std::string(kRowSharedCachedKernel) + " (threads set at launch)" : v.suffix) +
      ", vectors of " + W + "\n";
  const int minBlocks = std::max(1, kRowMinThreadsPerSM / threads);
  s += "extern \"C\" __global__ void __launch_bounds__(" + T + ", " + std::to_string(minBlocks) +
       ") " + rowKernelName(k_, v, vector) + "(const " + k_.base + "_args a) {\n";
  // The sm_80 build of the cluster variant is empty: the host takes it only
  // on devices with clusters.
  if (cluster_)
    s += "#if __CUDA_ARCH__ >= 900\n";
  s += "  typedef long long I;\n";
  s += "  typedef int R;  // row positions (rows of at most kRowCachedMaxLength)\n";
  s += "  const R L = (R)a.len;\n";
  s += sharedScratch(threads);
  if (cluster_)
    s += clusterScratch();
  if (split_)
    s += "  __shared__ int last_split;  // this block is the row's last to finish\n";
  std::string region = "0";
  for (size_t t = 0; t < k_.tensors.size(); ++t) {
    if (!caching(t))
      continue;
    if (region == "0") {
      s += "  const R P = (R)a.cache;  // row positions cached in shared memory\n";
      s += "  extern __shared__ __align__(16) unsigned char fuserc_row_cache[];\n";
    }
    const std::string Ts = cudaStorageType(k_.tensors[t].storage);
    s += "  " + Ts + " *const t" + std::to_string(t) + "_c = (" + Ts + " *)(fuserc_row_cache + " +
         region + ");  // " + k_.tensors[t].what + "\n";
    region += " + (P * " + std::to_string(dtypeBytes(k_.tensors[t].storage)) + " + 15) / 16 * 16";
  }
  s += "  const int tid = (int)threadIdx.x;\n";
  if (shared) {
    s += "  const int T = (int)blockDim.x;  // threads per row: a block per row\n";
    s += "  const R S = (R)T * " + W + ";  // positions one vector per thread covers\n";
  }
  // The last variant runs the rows its cache holds only in part: positions
  // re-read from global memory stay in L2 (evict_last) until the outputs'
  // pass reads them for the last time (evict_first), and the outputs,
  // written once, leave first. Only there: the hints made the variants
  // that cache whole rows slower (bench/README.md). The shared kernel takes
  // them when a.hints says so, else L2's default policy (evict_normal).
  hints_ = (shared || &v == &std::end(kRowCachedVariants)[-1]) && region != "0";
  if (hints_) {
    s += "  unsigned long long keep, drop;  // L2 policies of the re-read row positions\n";
    if (shared) {
      s += "  if (a.hints) {\n  ";
    }
    s += "  asm(\"createpolicy.fractional.L2::evict_last.b64 %0, 1.0;\" : \"=l\"(keep));\n";
    s += std::string(shared ? "  " : "") +
         "  asm(\"createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\" : \"=l\"(drop));\n";
    if (shared) {
      s += "  } else {\n";
      s += "    asm(\"createpolicy.fractional.L2::evict_normal.b64 %0, 1.0;\" : \"=l\"(keep));\n";
      s += "    drop = keep;\n  }\n";
    }
  }
  if (cluster_) {
    // The CTAs of a cluster run the same rows, so they meet at every
    // cluster barrier.
    s += "  const unsigned cta = fuserc_cluster_rank(), ctas = fuserc_cluster_size();\n";
    s +=
        "  for (I row = (I)(blockIdx.x / ctas); row < (I)a.rows; row += (I)(gridDim.x / ctas)) {\n";
  } else {
    if (split_ || grid_)
      s += "  const unsigned cta = blockIdx.y, ctas = gridDim.y;  // this block's split, the "
           "splits\n";
    s += "  for (I row = (I)blockIdx.x; row < (I)a.rows; row += (I)gridDim.x) {\n";
  }
  s += decompose("row", k_.keptDims, "", "row_rest", pad);
  s += rowStarts(pad);
  if (vector > 1) {
    size_t first = 0;
    while (!k_.streams[first] || !k_.streams[first]->alongRow)
      ++first;
    const std::string o = "o" + std::to_string(first);
    s += pad + "const R head = (R)(" + o + " % " + W + " + " + W + ") % " + W +
         ";  // the row start's distance past a vector boundary\n";
    s += pad + "const R span = L + head;  // the row's positions, from that boundary\n";
  } else {
    s += pad + "const R span = L;\n";
  }
  if (sliced()) {
    s += pad + "// this CTA's slice of the row, whole vectors, and the part of it cached\n";
    s += pad + "const R slice = ((span + (R)ctas - 1) / (R)ctas + " + W + " - 1) / " + W + " * " +
         W + ";\n";
    s += pad + "const R lo = (R)cta * slice, hi = span < lo + slice ? span : lo + slice;\n";
    if (region != "0")
      s += pad + "const R PE = lo + P;\n";
    combines_ = 0;
  }
  s += cachedFill(threads, vector);
  // A pass accumulating or staging `value` of every element as `use`
  // says; the statements indented for the pass's steps.
  auto pass = [&](auto value, auto use) {
    return cachedPass(
        threads, vector,
        [&](bool checked, int j) {
          ValueEmitter emitter = newEmitter();
          size_t taken = 0;
          return forEachElement(
              emitter, taken, {j, j + 1, n}, vector, value,
              [&](int jj, int e, const std::string &x) { return use(jj, e, x, checked); }, 8);
        },
        [](bool, int) { return std::string(); });
  };
  auto when = [&](int j, int e, bool checked) {
    return checked ? "if (" + cachedOk(j, e, vector) + ") " : std::string();
  };
  if (split_) {
    // No reduction reads another's result: one pass accumulates them all
    // (values they share computed once), then each combines over the block.
    s += splitAccumulators(pad);
    s += cachedPass(
        v.threads, vector,
        [&](bool checked, int j) {
          ValueEmitter emitter = newEmitter();
          size_t taken = 0;
          std::string body;
          for (size_t i = 0; i < k_.rows.reductions.size(); ++i) {
            const Op &op = *k_.rows.reductions[i];
            std::vector<std::string> xs; // a var's values, joined per vector
            body += forEachElement(
                emitter, taken, {j, j + 1, n}, vector,
                [&](ValueEmitter &e, const Coords &at) {
                  return toAccumulator(op, e.emit(*op.operand(0), at));
                },
                [&](int jj, int e, const std::string &x) {
                  if (op.kind() == OpKind::Var) {
                    xs.push_back(x);
                    return std::string();
                  }
                  return pad + "    " + when(jj, e, checked) + "p" + std::to_string(i) + " = " +
                         accumulated(op, i, x) + ";\n";
                },
                8);
            if (op.kind() == OpKind::Var)
              body += splitVarVector(op, i, xs, checked ? j : -1, pad + "    ");
          }
          return body;
        },
        [](bool, int) { return std::string(); });
    s += splitCombine(v.threads, pad);
    s += splitMerge(v.threads, vector, pad) + "  }\n}\n\n";
    split_ = false;
    return s;
  }
  for (size_t i = 0; i < k_.rows.reductions.size(); ++i) {
    const Op &op = *k_.rows.reductions[i];
    const std::string I = std::to_string(i), p = "p" + I;
    const DType acc = reductionAccumulator(op.result()->dtype());
    const std::string A = cudaComputeType(acc);
    auto input = [&](ValueEmitter &e, const Coords &at) {
      return toAccumulator(op, e.emit(*op.operand(0), at));
    };
    s += pad + "// phase " + I + ": " + cx_.analysis.describe(op) + "\n";
    s += pad + A + " " + p + " = " + reductionIdentity(op.kind(), acc) + ";\n";
    s += pass(input, [&](int j, int e, const std::string &x, bool checked) {
      return pad + "    " + when(j, e, checked) + p + " = " + accumulated(op, i, x) + ";\n";
    });
    std::string squares;
    if (op.kind() == OpKind::Var)
      squares = pass(input, [&](int j, int e, const std::string &x, bool checked) {
        return pad + "    " + when(j, e, checked) + "{ const " + A + " d = " + deviation(op, i, x) +
               "; q" + I + " += d * d; }\n";
      });
    s += endPhase(op, i, threads, squares, pad);
  }
  s += pad + "// outputs\n";
  std::string staging;
  for (size_t t = 0; t < k_.tensors.size(); ++t)
    if (k_.tensors[t].perElement())
      staging += pad + "  __align__(16) " + cudaStorageType(k_.tensors[t].storage) + " t" +
                 std::to_string(t) + "_l[" + std::to_string(n) + "][" + W + "];  // " +
                 k_.tensors[t].what + "\n";
  if (!staging.empty()) {
    auto outputs = [&](bool, int j) {
      // One emitter for every output, so values they share are computed once.
      ValueEmitter emitter = newEmitter();
      size_t taken = 0;
      std::string body;
      for (size_t t = 0; t < k_.tensors.size(); ++t) {
        if (!k_.tensors[t].perElement())
          continue;
        const std::string ts = std::to_string(t);
        body += forEachElement(
            emitter, taken, {j, j + 1, n}, vector,
            [&](ValueEmitter &e, const Coords &at) {
              return storedValue(e, t, valueCoords(k_.tensors[t].value->shape(), at, false));
            },
            [&](int jj, int e, const std::string &x) {
              return pad + "    t" + ts + "_l[" + std::to_string(jj) + "][" + std::to_string(e) +
                     "] = " + x + ";\n";
            },
            8);
      }
      return body;
    };
    lastPass_ = true;
    s += cachedPass(
        threads, vector, outputs,
        [&](bool checked, int j) { return cachedStores(j, vector, checked, pad + "    "); },
        staging);
    lastPass_ = false;
  }
  ValueEmitter rowEmitter = newEmitter();
  size_t taken = 0;
  s += perRowStores(rowEmitter, taken, cachesSlice() ? "tid == 0 && cta == 0" : "tid == 0", pad);
  if (cluster_) {
    s += pad + "cl_at = " + std::to_string(2 * k_.rows.reductions.size()) + " - cl_at;\n";
    s += "  }\n  fuserc_cluster_exit_sync();\n#endif\n}\n\n";
  } else {
    s += "  }\n}\n\n";
  }
  cluster_ = false;
  grid_ = false;
  launchedThreads_ = false;
  return s;
}

std::string RowReductionEmitter::cachedFill(int threads, int vector) const {
  const std::string pad = "      ", W = std::to_string(vector), in = vector > 1 ? pad + "  " : pad;
  std::string whole, partial;
  for (size_t t = 0; t < k_.tensors.size(); ++t) {
    if (!caching(t))
      continue;
    const std::string ts = std::to_string(t), Ts = cudaStorageType(k_.tensors[t].storage);
    const std::string from = "((const " + Ts + " *)a.ptr[" + ts + "] + o" + ts + " + k)";
    // The position in the cache: the cluster and grid variants' holds its slice.
    const std::string at = cachesSlice() ? "pb - lo" : "pb",
                      to = "t" + ts + "_c + " + (cachesSlice() ? "(" + at + ")" : at);
    const int bytes = vector * static_cast<int>(dtypeBytes(k_.tensors[t].storage));
    // cp.async moves 4 bytes or more; a smaller vector (2 bytes of 1-byte
    // elements) is copied whole through a register, all of its elements.
    const std::string B = bytesType(vector, k_.tensors[t].storage);
    if (bytes >= 4)
      whole += in + "fuserc_async_copy<" + std::to_string(bytes) + ">(" + to + ", " + from + ");\n";
    else if (vector > 1)
      whole += in + "*(" + B + " *)(" + to + ") = *(const " + B + " *)" + from + ";\n";
    else
      whole += in + "t" + ts + "_c[" + at + "] = " + from + "[0];\n";
    // A partial vector's lanes past the row's ends hold 0, as the uncached
    // loads' do: later passes read the vector whole (an index check of a
    // lane that no element occupies must see a valid index).
    if (vector > 1)
      partial += pad + "  *(" + B + " *)(" + to + ") = " + B + "{};\n";
    for (int e = 0; e < vector; ++e) {
      const std::string E = std::to_string(e);
      partial += pad + "  if (k + " + E + " >= 0 && k + " + E + " < L) t" + ts + "_c[" + at +
                 " + " + E + "] = " + from + "[" + E + "];\n";
    }
  }
  if (whole.empty())
    return "";
  std::string s = "    // the cached rows into shared memory";
  s += vector > 1 ? ": whole vectors asynchronously, the partial ones element by element\n" : "\n";
  s += cachesSlice() ? "    for (R pb = lo + (R)tid * " + W + "; pb < (hi < PE ? hi : PE); pb += "
                     : "    for (R pb = (R)tid * " + W + "; pb < P; pb += ";
  s += (launchedThreads_ ? std::string("S") : "(R)" + std::to_string(threads * vector)) + ") {\n";
  s += pad + "const R k = pb" + (vector > 1 ? " - head" : "") + ";\n";
  if (vector > 1) {
    s += pad + "if (k >= 0 && k + " + W + " <= L) {\n" + whole + pad + "} else {\n" + partial +
         pad + "}\n";
  } else {
    s += whole;
  }
  s += "    }\n";
  s += "    fuserc_async_wait();\n";
  return s;
}

template <typename Body, typename Tail>
std::string RowReductionEmitter::cachedPass(int threads, int vector, Body body, Tail tail,
                                            const std::string &staging) {
  const std::string pad = "      ", in = pad + "  ", W = std::to_string(vector);
  const int n = kRowCachedUnroll, step = threads * vector;
  // Positions `m` threads' vectors cover: a number, or in a kernel whose
  // threads are set at launch a multiple of S (= T * W).
  auto stride = [&](int m) {
    return launchedThreads_ ? (m == 1 ? "S" : std::to_string(m) + " * S")
                            : "(R)" + std::to_string(m * step);
  };
  // The cluster variant's CTA runs its slice of the row.
  const std::string end = sliced() ? "hi" : "span";
  std::string s = "    for (R pb = " + std::string(sliced() ? "lo + " : "") + "(R)tid * " + W +
                  "; pb < " + end + "; pb += " + stride(n) + ") {\n";
  for (int j = 0; j < n; ++j) {
    const std::string J = std::to_string(j);
    s += pad + "const R at" + J + " = pb + " + (j == 0 ? "(R)0" : stride(j)) + ";\n";
    s += pad + "const R k" + J + " = at" + J + (vector > 1 ? " - head" : "") +
         ";  // the row element at its first lane\n";
  }
  // Each vector's statements twice: in a step of whole cached vectors, and
  // checking each element in the other steps (the row's ends, and the
  // positions the cache does not hold).
  used_.clear();
  auto section = [&](int j, bool checked) {
    const std::string J = std::to_string(j);
    std::string coords;
    for (int e = 0; e < vector; ++e) {
      const std::string tag = "_" + J + "_" + std::to_string(e),
                        k = "k" + J + " + " + std::to_string(e);
      if (checked && vector > 1)
        coords +=
            in + "const bool " + cachedOk(j, e, vector) + " = " + k + " >= 0 && " + k + " < L;\n";
      if (!lanesShareCoords(vector))
        coords += positionCoords(checked ? "(" + cachedOk(j, e, vector) + " ? " + k + " : L - 1)"
                                         : "(" + k + ")",
                                 tag, in);
    }
    // Shared lanes: rows start on a vector boundary and L is a multiple of
    // the vector (checked at launch), so a vector is in the row or past it.
    if (lanesShareCoords(vector))
      coords += sharedLaneCoords(
          J, checked ? "(k" + J + " < L ? k" + J + " : L - " + W + ")" : "(k" + J + ")", vector,
          in);
    return coords + body(checked, j) + tail(checked, j);
  };
  std::string whole, fulls, other;
  for (int j = 0; j < n; ++j) {
    const std::string J = std::to_string(j);
    whole += pad + "{\n" + section(j, false) + pad + "}\n";
    fulls +=
        pad + "const bool full" + J + " = " + (sliced() ? "at" + J + " < hi && " : "") +
        (vector > 1 ? "k" + J + " >= 0 && k" + J + " + " + W + " <= L;\n" : "k" + J + " < L;\n");
    // Vectors past the row's end (the last step's) do nothing; with W = 1
    // every other one is whole. A whole vector of such a step takes the
    // checked statements too (each check holds), its loads and stores
    // whole.
    other += vector > 1
                 ? pad + "if (at" + J + " < " + end + ") {\n" + section(j, true) + pad + "}\n"
                 : pad + "if (full" + J + ") {\n" + section(j, false) + pad + "}\n";
  }
  // A step is whole when its first vector starts at or past the row's
  // start and its last ends at or before the row's end (the slice's, in a
  // cluster) and, for the cached streams it reads, inside the cache.
  const std::string last = "at" + std::to_string(n - 1), lastK = "k" + std::to_string(n - 1);
  std::string wholeStep = vector > 1 ? "k0 >= 0 && " + lastK + " + " + W + " <= L" : lastK + " < L";
  if (sliced())
    wholeStep += " && " + last + " < hi";
  std::string wholeLoads, otherLoads;
  bool cachedRead = false;
  for (size_t t : used_) {
    if (!k_.streams[t]->alongRow || k_.tensors[t].written)
      continue;
    cachedRead = cachedRead || caching(t);
    const std::string decl = pad + "  __align__(16) " + cudaStorageType(k_.tensors[t].storage) +
                             " t" + std::to_string(t) + "_l[" + std::to_string(n) + "][" + W +
                             "];  // " + k_.tensors[t].what + "\n";
    wholeLoads += decl;
    otherLoads += decl;
    for (int j = 0; j < n; ++j) {
      wholeLoads += cachedLoad(t, j, vector, pad + "  ", true);
      otherLoads += cachedLoad(t, j, vector, pad + "  ", false);
    }
  }
  if (cachedRead)
    wholeStep += " && " + last + (cachesSlice() ? " < PE" : " < P");
  s += pad + "if (" + wholeStep + ") {\n" + wholeLoads + deeper(staging + whole) + pad +
       "} else {\n" + deeper(fulls) + otherLoads + deeper(staging + other) + pad + "}\n";
  return s + "    }\n";
}

std::string RowReductionEmitter::cachedLoad(size_t t, int j, int vector, const std::string &pad,
                                            bool wholeStep) const {
  const std::string ts = std::to_string(t), J = std::to_string(j),
                    Ts = cudaStorageType(k_.tensors[t].storage),
                    B = bytesType(vector, k_.tensors[t].storage);
  const std::string reg = "t" + ts + "_l[" + J + "]";
  const std::string at = "((const " + Ts + " *)a.ptr[" + ts + "] + o" + ts + " + k" + J + ")";
  const std::string plain = "*(" + B + " *)" + reg + " = *(const " + B + " *)" + at + ";\n";
  // Statements loading the vector from global memory, indented by `in`;
  // `whole` loads it when it lies inside the row.
  auto global = [&](const std::string &in, const std::string &whole) {
    if (vector == 1)
      return in + "*(" + B + " *)" + reg + " = full" + J + " ? *(const " + B + " *)" + at + " : " +
             B + "{};\n";
    std::string g = in + "if (full" + J + ") {\n" + in + "  " + whole + in + "} else {\n" + in +
                    "  *(" + B + " *)" + reg + " = " + B + "{};\n";
    for (int e = 0; e < vector; ++e) {
      const std::string k = "k" + J + " + " + std::to_string(e);
      g += in + "  if (" + k + " >= 0 && " + k + " < L) " + reg + "[" + std::to_string(e) +
           "] = " + at + "[" + std::to_string(e) + "];\n";
    }
    return g + in + "}\n";
  };
  const std::string cachedAt =
      "t" + ts + "_c + " + (cachesSlice() ? "(at" + J + " - lo)" : "at" + J);
  const std::string fromCache =
      "*(" + B + " *)" + reg + " = *(const " + B + " *)(" + cachedAt + ");\n";
  if (wholeStep)
    return pad + (caching(t) ? fromCache : plain);
  if (!caching(t))
    return global(pad, plain);
  const int bytes = vector * static_cast<int>(dtypeBytes(k_.tensors[t].storage));
  const std::string whole = hints_ && bytes >= 4
                                ? "fuserc_load_hinted<" + std::to_string(bytes) + ">(" + reg +
                                      ", " + at + ", " + (lastPass_ ? "drop" : "keep") + ");\n"
                                : plain;
  // Cached positions hold the row's elements (and, past its ends, nothing
  // an element of the row reads).
  return pad + "if (at" + J + (cachesSlice() ? " < PE" : " < P") + ") {\n" + pad + "  " +
         fromCache + pad + "} else {\n" + global(pad + "  ", whole) + pad + "}\n";
}

std::string RowReductionEmitter::cachedStores(int j, int vector, bool checked,
                                              const std::string &pad) const {
  std::string s;
  for (size_t t = 0; t < k_.tensors.size(); ++t) {
    if (!k_.tensors[t].perElement())
      continue;
    const std::string ts = std::to_string(t), Ts = cudaStorageType(k_.tensors[t].storage),
                      B = bytesType(vector, k_.tensors[t].storage);
    const std::string J = std::to_string(j), reg = "t" + ts + "_l[" + J + "]";
    const std::string at = "((" + Ts + " *)a.ptr[" + ts + "] + o" + ts + " + k" + J + ")";
    const int bytes = vector * static_cast<int>(dtypeBytes(k_.tensors[t].storage));
    const std::string whole = bytes >= 4
                                  ? (hints_ ? "fuserc_store_hinted<" : "fuserc_store_vector<") +
                                        std::to_string(bytes) + ">(" + at + ", " + reg +
                                        (hints_ ? ", drop" : "") + ");\n"
                                  : "*(" + B + " *)" + at + " = *(const " + B + " *)" + reg + ";\n";
    if (!checked) {
      s += pad + whole;
      continue;
    }
    // A checked step stores its whole vectors whole.
    const std::string in = vector > 1 ? pad + "  " : pad;
    if (vector > 1)
      s += pad + "if (full" + J + ") {\n" + in + whole + pad + "} else {\n";
    for (int e = 0; e < vector; ++e)
      s += in + "if (" + cachedOk(j, e, vector) + ") " + at + "[" + std::to_string(e) +
           "] = " + reg + "[" + std::to_string(e) + "];\n";
    if (vector > 1)
      s += pad + "}\n";
  }
  return s;
}

} // namespace fuserc
