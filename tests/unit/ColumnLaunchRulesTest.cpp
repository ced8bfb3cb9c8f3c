// The column-reduction launch rules (ColumnReductionHostHelpers.cpp), which
// are C text pasted into every header: compiled here with the system C
// compiler and run over a grid of extents. They pick the lanes across a
// tile's columns and the split count from the extents alone; each launch
// must cover every row once, keep the last block's merge short and never
// use more split partials than the workspace holds
// (ColumnKernel::scratchBytes).
#include "CodegenTestSupport.h"

#include "codegen/columns/ColumnReductionKernel.h"
#include "codegen/columns/ColumnReductionPlan.h"

#include <gtest/gtest.h>

#include <string>

namespace fuserc {
namespace {

std::string constants() {
  return "#define MAX_SPLITS " + std::to_string(kColumnMaxSplits) + "LL\n" +
         "#define MERGE_SLOTS " + std::to_string(kColumnMaxMergeDepth * kColumnBlock) + "LL\n" +
         "#define TARGET " + std::to_string(kColumnTargetBlocks) + "LL\n" +
         "#define ROOM_PER_VECTOR " + std::to_string(columnMaxSplitColumns(1)) + "LL\n" +
         "#define MIN_ROWS " + std::to_string(kColumnMinRowsPerSplit) + "LL\n" +
         "#define ROUND_ROWS " + std::to_string(kColumnUnroll * kColumnBlock) + "LL\n" +
         "#define MIN_ROUNDS " + std::to_string(kColumnMinRoundsToSplit) + "LL\n";
}

// One launch's choice, as the generated launch block makes it: lanes,
// tiles, then splits (host code of ColumnReductionPlan.cpp).
const char *kPlanLaunch = R"C(
typedef struct { long long kl, w, tiles, splits, chunk; } Launch;
static Launch plan(long long cols, long long len, int v, long long lane_bytes) {
  Launch l;
  l.kl = fuserc_col_lanes(cols, v);
  l.w = l.kl * v;
  l.tiles = (cols + l.w - 1) / l.w;
  fuserc_col_splits(l.tiles, len, l.kl, l.w, v * lane_bytes, &l.splits, &l.chunk);
  return l;
}
static int bad;
#define EXPECT(cond, cols, len, v)                                                                 \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      printf("cols %lld len %lld v %d: %s\n", (long long)(cols), (long long)(len), (int)(v),       \
             #cond);                                                                               \
      ++bad;                                                                                       \
    }                                                                                              \
  } while (0)
)C";

TEST(ColumnLaunchRules, FewColumnsTakeFewLanesAndManySplits) {
  // Points worked by hand from the rules (docs/schedulers.md).
  const std::string source = "#include <stdint.h>\n#include <stdio.h>\n" + constants() +
                             columnReductionHostHelpers() + kPlanLaunch + R"C(
static void point(long long cols, long long len, int v, long long lane_bytes, long long kl,
                  long long tiles, long long splits, long long chunk) {
  const Launch l = plan(cols, len, v, lane_bytes);
  if (l.kl != kl || l.tiles != tiles || l.splits != splits || l.chunk != chunk) {
    printf("cols %lld len %lld v %d: kl %lld tiles %lld splits %lld chunk %lld, expected "
           "%lld %lld %lld %lld\n", cols, len, v, l.kl, l.tiles, l.splits, l.chunk, kl, tiles,
           splits, chunk);
    ++bad;
  }
}
int main(void) {
  /* One f32 column over 2^26 rows: one lane per column, the warp on 32
     rows, 4-byte lanes aim at 1056 blocks: the most splits. */
  point(1, 1LL << 26, 1, 4, 1, 1, 1024, 65536);
  /* A short column: 4096 rows are 2 rounds of 8 steps of 256 rows, fewer
     than 4: one block. At 4 rounds, splits of a round each. */
  point(1, 4096, 1, 4, 1, 1, 1, 4096);
  point(1, 8192, 1, 4, 1, 1, 4, 2048);
  /* 3 or 4 columns: 4 lanes; bf16 at vectors of 1 (2-byte lanes, counted as 4). */
  point(3, 1000000, 1, 4, 4, 1, 1024, 977);
  point(4, 1LL << 22, 1, 4, 4, 1, 1024, 4096);
  /* 64 f32 columns at vectors of 4: tiles of 16 columns (16^2 <= 8 * 64),
     16-byte lanes aim at 264 blocks. */
  point(64, 262144, 4, 4, 4, 4, 128, 2048);
  /* 256 bf16 columns at vectors of 8: tiles of 32 columns. */
  point(256, 262144, 8, 4, 4, 8, 64, 4096);
  /* Many columns: full warps across them, few splits. */
  point(4096, 4096, 4, 4, 32, 32, 16, 256);
  point(1 << 20, 1 << 20, 4, 4, 32, 8192, 1, 1 << 20);
  /* 7 columns: 8 lanes would cover them, but 8^2 > 8 * 7; no rows: one
     empty split. */
  point(7, 0, 1, 4, 4, 2, 1, 0);
  return bad != 0;
}
)C";
  EXPECT_EQ(test::compileAndRunC("column_launch_points", source), 0);
}

TEST(ColumnLaunchRules, EveryLaunchCoversItsRowsMergesFewSplitsAndFitsItsScratch) {
  const std::string source = "#include <stdint.h>\n#include <stdio.h>\n" + constants() +
                             columnReductionHostHelpers() + kPlanLaunch + R"C(
int main(void) {
  static const long long columns[] = {1, 2, 3, 4, 5, 7, 8, 13, 31, 32, 33, 64, 100, 128, 255,
                                      256, 1000, 2048, 4096, 65536, 1000003};
  static const long long lengths[] = {0, 1, 7, 63, 64, 1000, 4096, 65537, 1LL << 20,
                                      1LL << 26, 3LL << 30};
  /* Element sizes of the lane tensors: the kernel's widest vector is
     min(8, 16 / size) and a launch takes it or 1; the split rule counts a
     lane's bytes per row as the vector times max(4, size). */
  static const int sizes[] = {1, 2, 4, 8};
  unsigned c, r, e, which;
  for (e = 0; e < sizeof sizes / sizeof *sizes; ++e) {
    const int vmax = 16 / sizes[e] < 8 ? 16 / sizes[e] : 8;
    const long long lane_bytes = sizes[e] > 4 ? sizes[e] : 4;
    for (which = 0; which < 2; ++which) {
      const int v = which ? vmax : 1;
      for (c = 0; c < sizeof columns / sizeof *columns; ++c) {
        for (r = 0; r < sizeof lengths / sizeof *lengths; ++r) {
          const long long cols = columns[c], len = lengths[r];
          const Launch l = plan(cols, len, v, lane_bytes);
          EXPECT(l.kl >= 1 && l.kl <= 32 && (l.kl & (l.kl - 1)) == 0, cols, len, v);
          EXPECT(l.tiles * l.w >= cols && (l.tiles - 1) * l.w < cols, cols, len, v);
          /* Every row in exactly one split, none empty (unless there are none). */
          EXPECT(l.splits >= 1 && l.splits <= MAX_SPLITS, cols, len, v);
          EXPECT(l.splits * l.chunk >= len, cols, len, v);
          EXPECT(len == 0 || (l.splits - 1) * l.chunk < len, cols, len, v);
          /* The last block's threads merge at most 16 splits each. */
          EXPECT(l.splits == 1 || l.splits * l.w <= MERGE_SLOTS, cols, len, v);
          /* The partials fit the workspace (ColumnKernel::scratchBytes):
             min(cols * most, room) with most = min(MAX_SPLITS, (len - 1) /
             (MIN_ROWS - 1)), none unless most >= 2; the testing hook's most
             splits as well. */
          {
            long long most = len > 0 ? (len - 1) / (MIN_ROWS - 1) : 0, forced, chunk;
            if (most > MAX_SPLITS)
              most = MAX_SPLITS;
            EXPECT(l.splits == 1 || (most >= 2 && l.splits <= most &&
                                     l.splits * cols <= ROOM_PER_VECTOR * vmax),
                   cols, len, v);
            fuserc_col_most_splits(cols, len, ROOM_PER_VECTOR * vmax, &forced, &chunk);
            EXPECT(forced * chunk >= len && (len == 0 || (forced - 1) * chunk < len), cols, len,
                   v);
            EXPECT(forced == 1 || (most >= 2 && forced <= most &&
                                   forced * cols <= ROOM_PER_VECTOR * vmax),
                   cols, len, v);
          }
          /* A block that takes fewer than MIN_ROUNDS rounds does not split. */
          EXPECT(len >= MIN_ROUNDS * (ROUND_ROWS / l.kl) || l.splits == 1, cols, len, v);
          /* Few tiles split; as many as the largest target do not. */
          EXPECT(l.tiles < 4 * TARGET || l.splits == 1, cols, len, v);
        }
      }
    }
  }
  return bad != 0;
}
)C";
  EXPECT_EQ(test::compileAndRunC("column_launch_grid", source), 0);
}

TEST(ColumnLaunchRules, PackedLaunchesFitTheScratchOfTheirPackedColumns) {
  // tile_pack runs over A * V packed columns of floor(R K / V) rows; its
  // splits fit ColumnKernel::scratchBytes' packed term, max(A K * most(R),
  // A V * most(floor(R K / V))), within the room.
  const std::string source = "#include <stdint.h>\n#include <stdio.h>\n" + constants() +
                             columnReductionHostHelpers() + kPlanLaunch + R"C(
static long long most(long long len) {
  long long m = len > 0 ? (len - 1) / (MIN_ROWS - 1) : 0;
  return m > MAX_SPLITS ? MAX_SPLITS : m;
}
int main(void) {
  static const long long outers[] = {1, 2, 3, 8, 64, 1000, 100003};
  static const long long lengths[] = {1, 7, 64, 1000, 4096, 65537, 1LL << 20, 1LL << 26,
                                      3LL << 30};
  static const int sizes[] = {1, 2, 4, 8};
  unsigned o, r, e;
  long long k;
  for (e = 0; e < sizeof sizes / sizeof *sizes; ++e) {
    const int vmax = 16 / sizes[e] < 8 ? 16 / sizes[e] : 8;
    const long long lane_bytes = sizes[e] > 4 ? sizes[e] : 4;
    for (k = 1; k < vmax; k *= 2)
      for (o = 0; o < sizeof outers / sizeof *outers; ++o)
        for (r = 0; r < sizeof lengths / sizeof *lengths; ++r) {
          const long long A = outers[o], R = lengths[r], cols = A * vmax, len = R * k / vmax;
          const Launch l = plan(cols, len, vmax, lane_bytes);
          const long long bound = A * k * most(R) > A * vmax * most(len) ? A * k * most(R)
                                                                          : A * vmax * most(len);
          long long forced, chunk;
          EXPECT(l.splits * l.chunk >= len && (len == 0 || (l.splits - 1) * l.chunk < len), cols,
                 len, vmax);
          EXPECT(l.splits == 1 ||
                     (most(R) >= 2 && l.splits * cols <= bound &&
                      l.splits * cols <= ROOM_PER_VECTOR * vmax),
                 cols, len, vmax);
          fuserc_col_most_splits(cols, len, ROOM_PER_VECTOR * vmax, &forced, &chunk);
          EXPECT(forced == 1 || (most(R) >= 2 && forced * cols <= bound &&
                                 forced * cols <= ROOM_PER_VECTOR * vmax),
                 cols, len, vmax);
        }
  }
  return bad != 0;
}
)C";
  EXPECT_EQ(test::compileAndRunC("column_launch_packed", source), 0);
}

TEST(ColumnLaunchRules, RowsPackIntoVectorsOnlyWhereEveryLaneTensorHoldsWholeRows) {
  const std::string source = "#include <stdint.h>\n#include <stdio.h>\n" + constants() +
                             columnReductionHostHelpers() + R"C(
static int bad;
static void point(const char *what, long long kcols, long long rs, long long ks,
                  long long outer_stride, uintptr_t address, long long expected) {
  const long long len = 1000;
  static const int lanes[1] = {1}, esize[1] = {4}, adims[1] = {0};
  void *ptr[1];
  long long dst[1][8] = {{0}};
  const long long rsa[1] = {rs}, ksa[1] = {ks};
  long long got;
  ptr[0] = (void *)address;
  dst[0][0] = outer_stride;
  got = fuserc_col_pack(1, lanes, esize, ptr, dst, 1, adims, kcols, len, 4, rsa, ksa);
  if (got != expected) {
    printf("%s: %lld rows per vector, expected %lld\n", what, got, expected);
    ++bad;
  }
}
int main(void) {
  /* f32, vectors of 4: K = 1 and 2 pack 4 and 2 rows; K = 4 is a whole
     vector (tile_vec4); K = 3 does not divide it. */
  point("K 1", 1, 1, 1, 4096, 256, 4);
  point("K 2", 2, 2, 1, 4096, 256, 2);
  point("K 4", 4, 4, 1, 4096, 256, 1);
  point("K 3", 3, 3, 1, 3000, 256, 1);
  /* Rows apart (a padded row stride), a misaligned pointer, an outer
     stride of odd rows: no packing. */
  point("row stride 2K", 1, 2, 1, 4096, 256, 1);
  point("pointer", 1, 1, 1, 4096, 260, 1);
  point("outer stride", 1, 1, 1, 4097, 256, 1);
  /* One value per outer index packs; one per row (a per-row scale) and a
     column stride of 0 with rows apart do not. */
  point("one value", 2, 0, 0, 1, 258, 2);
  point("per row", 2, 1, 0, 4096, 256, 1);
  /* K = 1: a column stride of 0 (the kept dim's extent is 1) still holds
     adjacent rows. */
  point("K 1, column stride 0", 1, 1, 0, 4096, 256, 4);
  {
    /* Where packing pays (the sweep's points, H200): 2-byte lanes from a
       block's worth of vectors; 4-byte lanes only where the unpacked
       launch is at its most splits (one f32 column of 2^22 rows, or 8
       columns of 2^18 at the merge's depth), not at 2^18 rows of one. */
    static const struct { long long cols, len, pack; int bytes, pays; } pays[] = {
        {1, 64, 8, 2, 0},        {1, 4096, 8, 2, 1},   {4, 4096, 2, 2, 1},
        {1, 4096, 4, 4, 0},      {1, 262144, 4, 4, 0}, {1, 1LL << 22, 4, 4, 1},
        {1, 1LL << 26, 4, 4, 1}, {8, 262144, 4, 4, 1}, {8, 4096, 4, 4, 0}};
    unsigned i;
    for (i = 0; i < sizeof pays / sizeof *pays; ++i)
      if (fuserc_col_pack_pays(pays[i].cols, pays[i].len, pays[i].pack, pays[i].bytes) !=
          pays[i].pays) {
        printf("pays: cols %lld len %lld pack %lld bytes %d\n", pays[i].cols, pays[i].len,
               pays[i].pack, pays[i].bytes);
        ++bad;
      }
  }
  {
    /* Fewer rows than a vector holds: nothing to pack. */
    static const int lanes[1] = {1}, esize[1] = {4}, adims[1] = {0};
    void *ptr[1] = {(void *)256};
    long long dst[1][8] = {{0}};
    const long long rsa[1] = {1}, ksa[1] = {1};
    if (fuserc_col_pack(1, lanes, esize, ptr, dst, 0, adims, 1, 3, 4, rsa, ksa) != 1 ||
        fuserc_col_pack(1, lanes, esize, ptr, dst, 0, adims, 1, 4, 4, rsa, ksa) != 4) {
      printf("rows fewer than a vector\n");
      ++bad;
    }
  }
  return bad != 0;
}
)C";
  EXPECT_EQ(test::compileAndRunC("column_pack_points", source), 0);
}

} // namespace
} // namespace fuserc
