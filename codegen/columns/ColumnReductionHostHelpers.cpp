// The C helpers every column-reduction host launch block calls (see
// ColumnReductionKernel.h): whether a tensor's dims collapse, the tile
// variant the strides and pointers allow, the split count. They are C99
// text pasted once into every generated header, guarded so that every
// kernel's launch block may use them.
#include "codegen/columns/ColumnReductionKernel.h"
#include "codegen/columns/ColumnReductionPlan.h"

namespace fuserc {

const std::string &columnReductionHostHelpers() {
  static const std::string text = R"C(#ifndef FUSERC_COL_HELPERS
#define FUSERC_COL_HELPERS
/* Column-reduction launch planning, shared by every column-reduction kernel
   of every fuserc header in this translation unit. */

/* Whether the n domain dims `dims` (memory order, outermost first) collapse
   into one dim for a tensor with domain strides `st`: each dim's stride is
   the next one's times that one's extent (extent-1 dims aside). Sets
   *stride to the collapsed dim's stride (0 when every extent is 1). */
static inline int fuserc_col_collapse(int n, const int *dims, const long long *size,
                                      const long long *st, long long *stride) {
  long long inner = 0, span = 0;
  int k;
  for (k = n - 1; k >= 0; --k) {
    const long long e = size[dims[k]], s = st[dims[k]];
    if (e == 1)
      continue;
    if (span == 0) {
      inner = s;
      span = e;
      continue;
    }
    if (s != inner * span)
      return 0;
    span *= e;
  }
  *stride = inner;
  return 1;
}

/* The tile variant the lane tensors allow: 0 when one does not collapse
   along the reduced dims, or along the inner kept dims with stride 0 or 1
   (the general variant runs); else vmax when K, every pointer and every
   row and outer stride are multiples of vmax columns, else 1. */
static inline int fuserc_col_plan(int nt, const int *lanes, const int *esize, void *const *ptr,
                                  long long (*dst)[8], const long long *size, int na,
                                  const int *adims, int nr, const int *rdims, int nk,
                                  const int *kdims, long long kcols, int vmax, long long *rs,
                                  long long *ks) {
  int t, k, v = vmax;
  for (t = 0; t < nt; ++t) {
    if (!lanes[t])
      continue;
    if (!fuserc_col_collapse(nr, rdims, size, dst[t], &rs[t]))
      return 0;
    if (!fuserc_col_collapse(nk, kdims, size, dst[t], &ks[t]) || (ks[t] != 0 && ks[t] != 1))
      return 0;
  }
  if (kcols % v != 0)
    v = 1;
  for (t = 0; v > 1 && t < nt; ++t) {
    if (!lanes[t] || ks[t] == 0)
      continue;
    if ((unsigned long long)(uintptr_t)ptr[t] % (unsigned long long)(v * esize[t]) != 0 ||
        rs[t] % v != 0)
      v = 1;
    for (k = 0; v > 1 && k < na; ++k)
      if (dst[t][adims[k]] % v != 0)
        v = 1;
  }
  return v;
}

/* Rows per vector of vmax for tile_pack: vmax / K when K < vmax divides
   vmax and every lane tensor either is one value per outer index (row and
   column strides 0) or has whole rows adjacent (column stride 1, or any
   for K = 1, and row stride K) with its pointer and outer strides
   multiples of vmax elements, 16 bytes at most, and the len rows fill
   one vector at least; else 1. Called once fuserc_col_plan has
   collapsed the strides. */
static inline long long fuserc_col_pack(int nt, const int *lanes, const int *esize,
                                        void *const *ptr, long long (*dst)[8], int na,
                                        const int *adims, long long kcols, long long len,
                                        int vmax, const long long *rs, const long long *ks) {
  int t, k;
  if (kcols < 1 || kcols >= vmax || vmax % kcols != 0 || len < vmax / kcols)
    return 1;
  for (t = 0; t < nt; ++t) {
    if (!lanes[t])
      continue;
    if (ks[t] == 0 && rs[t] == 0)
      continue;
    if ((ks[t] != 1 && kcols != 1) || vmax * esize[t] > 16)
      return 1;
    if (rs[t] != kcols ||
        (unsigned long long)(uintptr_t)ptr[t] % (unsigned long long)(vmax * esize[t]) != 0)
      return 1;
    for (k = 0; k < na; ++k)
      if (dst[t][adims[k]] % vmax != 0)
        return 1;
  }
  return vmax / kcols;
}

#endif /* FUSERC_COL_HELPERS */
)C";
  static const std::string splits =
      "#ifndef FUSERC_COL_SPLITS\n#define FUSERC_COL_SPLITS\n"
      "/* The split count (a power of two up to " +
      std::to_string(kColumnMaxSplits) +
      ") and the rows per split for tiles of\n"
      "   kl lanes (w columns each) loading `bytes` per lane and row: more splits\n"
      "   while the grid has fewer than " +
      std::to_string(kColumnTargetBlocks) +
      " blocks (twice that for 8 bytes, four times\n"
      "   for 4 or fewer: more warps keep as many bytes in flight), each split\n"
      "   keeps at least " +
      std::to_string(kColumnUnroll) +
      " steps of 256 / kl rows and the last block's threads\n"
      "   merge at most " +
      std::to_string(kColumnMaxMergeDepth) +
      " splits each; none where one block takes fewer than " +
      std::to_string(kColumnMinRoundsToSplit) + " rounds of\n   " + std::to_string(kColumnUnroll) +
      " steps. */\n"
      "static inline void fuserc_col_splits(long long tiles, long long len, long long kl,\n"
      "                                     long long w, long long bytes, long long *splits,\n"
      "                                     long long *chunk) {\n"
      "  const long long target = " +
      std::to_string(kColumnTargetBlocks) +
      "LL * (bytes >= 16 ? 1 : bytes >= 8 ? 2 : 4);\n"
      "  const long long round = " +
      std::to_string(kColumnUnroll) + " * (" + std::to_string(kColumnBlock) +
      " / kl);\n"
      "  long long s = 1;\n"
      "  while (len >= " +
      std::to_string(kColumnMinRoundsToSplit) + " * round && s < " +
      std::to_string(kColumnMaxSplits) + " && tiles * s < target && 2 * s * w <= " +
      std::to_string(kColumnMaxMergeDepth * kColumnBlock) +
      " &&\n"
      "         (len + 2 * s - 1) / (2 * s) >= round)\n"
      "    s *= 2;\n"
      "  *chunk = (len + s - 1) / s;\n"
      "  *splits = *chunk > 0 ? (len + *chunk - 1) / *chunk : 1;\n"
      "}\n"
      "/* The most splits (the testing hook's choice): as many as the scratch holds,\n"
      "   room partials per accumulator and at most " +
      std::to_string(kColumnMaxSplits) + ", each split at least " +
      std::to_string(kColumnMinRowsPerSplit) +
      " rows as the\n"
      "   default rule's (fewer than two splits need: one). */\n"
      "static inline void fuserc_col_most_splits(long long cols, long long len, long long room,\n"
      "                                          long long *splits, long long *chunk) {\n"
      "  long long most = cols * " +
      std::to_string(kColumnMaxSplits) + "LL <= room ? " + std::to_string(kColumnMaxSplits) +
      "LL : room / cols;\n"
      "  if (most > (len - 1) / " +
      std::to_string(kColumnMinRowsPerSplit - 1) + ")\n    most = (len - 1) / " +
      std::to_string(kColumnMinRowsPerSplit - 1) +
      ";\n"
      "  if (most < 1)\n"
      "    most = 1;\n"
      "  *chunk = (len + most - 1) / most;\n"
      "  *splits = *chunk > 0 ? (len + *chunk - 1) / *chunk : 1;\n"
      "}\n"
      "/* Lanes of a warp across a tile's columns (a power of two, at most " +
      std::to_string(kColumnThreadsX) +
      "; the\n"
      "   warp's other lanes take other rows): the fewest whose vectors of v cover\n"
      "   the cols columns, and fewer while a tile's w = kl * v columns exceed\n"
      "   sqrt(8 cols): narrower tiles, more of them, so a launch reaches its\n"
      "   blocks with fewer splits per tile, each of which its last block merges\n"
      "   (at most about 8 per thread of it). */\n"
      "static inline long long fuserc_col_lanes(long long cols, int v) {\n"
      "  long long kl = " +
      std::to_string(kColumnThreadsX) +
      ";\n"
      "  while (kl > 1 && (kl / 2 * v >= cols || kl * v * kl * v > 8 * cols))\n"
      "    kl /= 2;\n"
      "  return kl;\n"
      "}\n"
      "/* Whether tile_pack (pack rows per vector) pays over the unpacked launch\n"
      "   (one column per lane), measured on H200 (bench/README.md): every thread\n"
      "   of a block gets a vector, and the unpacked lanes load under 4 bytes a\n"
      "   row (a warp under 128 bytes: packing widens every load) or the\n"
      "   unpacked launch is at its most splits (more blocks no longer hide its\n"
      "   per-row cost). Otherwise the unpacked kernel's shorter end wins. */\n"
      "static inline int fuserc_col_pack_pays(long long cols, long long len, long long pack,\n"
      "                                       int lane_bytes) {\n"
      "  const long long kl = fuserc_col_lanes(cols, 1);\n"
      "  long long splits, chunk;\n"
      "  if (len / pack < " +
      std::to_string(kColumnBlock) +
      ")\n"
      "    return 0;\n"
      "  if (lane_bytes < 4)\n"
      "    return 1;\n"
      "  fuserc_col_splits((cols + kl - 1) / kl, len, kl, kl, 4, &splits, &chunk);\n"
      "  return splits >= " +
      std::to_string(kColumnMaxSplits) + " || 2 * splits * kl > " +
      std::to_string(kColumnMaxMergeDepth * kColumnBlock) +
      ";\n"
      "}\n#endif /* FUSERC_COL_SPLITS */\n";
  static const std::string both = text + splits;
  return both;
}

} // namespace fuserc
