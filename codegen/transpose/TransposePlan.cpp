// Transpose kernels, host side: the argument struct, the launch block that
// picks the vector or scalar variant, and the plan (see TransposeEmitter.h;
// the device side is in TransposeEmitter.cpp).
#include "codegen/transpose/TransposeEmitter.h"

#include "codegen/core/CudaTypes.h"
#include "codegen/core/IndexChecks.h"
#include "codegen/core/VariantHook.h"

#include <algorithm>

namespace fuserc::transpose {

std::string TransposeEmitter::argsStruct(const std::string &prefix) const {
  const size_t nt = std::max<size_t>(tensors_.size(), 1);
  const size_t ns = std::max<size_t>(cx_.fusion.fusion->symbols().size(), 1);
  const std::string R = std::to_string(kMaxRank);
  std::string s = "typedef struct {\n";
  s += "  void *ptr[" + std::to_string(nt) + "];\n";
  s += "  long long st[" + std::to_string(nt) + "][" + R + "];\n";
  s += "  long long size[" + R + "];\n";
  s += "  long long numel, batch;\n";
  s += "  long long sym[" + std::to_string(ns) + "];\n";
  // Magic numbers for 32-bit division by the tile counts and batch
  // extents (i32 variants), so a block finds its tile in a few multiplies.
  s += "  unsigned ta_mul, ta_shift, tb_mul, tb_shift;\n";
  s += "  unsigned d_mul[" + R + "], d_shift[" + R + "];\n";
  return s + argsStructEnd(scalars_, "", cx_.segment.segment, prefix + cx_.base);
}

std::string TransposeEmitter::hostLaunch() const {
  auto sym = [](const std::string &s) { return "sym_" + s; };
  const std::string A = std::to_string(*dimA_), B = std::to_string(dimB_);
  std::string s = "{\n";
  s += "  FUSERC_NAME_" + cx_.base + "_args a;\n";
  s += "  long long tiles, tile_a, tile_b;\n";
  s += "  int wide, vec = 0;\n";
  s += "  memset(&a, 0, sizeof a);\n";
  if (segmentChecksIndices(cx_.segment.segment))
    s += indexFlagHostCode();
  s += hostSymbolAndScalarArguments(cx_.fusion.fusion->symbols(), scalars_);
  s += "  a.numel = 1;\n  a.batch = 1;\n";
  for (size_t d = 0; d < rank_; ++d) {
    const std::string ds = std::to_string(d);
    s += "  a.size[" + ds + "] = " + extentToCode(reference_->shape()[d], sym) + ";\n";
    s += "  a.numel *= a.size[" + ds + "];\n";
    if (d != *dimA_ && d != dimB_)
      s += "  a.batch *= a.size[" + ds + "];\n";
  }
  for (size_t t = 0; t < tensors_.size(); ++t)
    s += hostTensorArguments(t, tensors_[t]);
  s += "  if (a.numel > 0) {\n";
  if (vector_)
    s += "    vec = " + vectorCondition() + ";\n";
  // The testing hook's alternatives (codegen/core/VariantHook.h): the
  // scalar tiles, 64-bit indices.
  s += variantHookPick(cx_.base, 2, "    ");
  s += variantHookForce(0, {{"", "vec = 0;"}}, "    ");
  s += "    tile_a = vec ? " + std::to_string(vectorTileA_) + " : " + std::to_string(kScalarTile) +
       ";\n";
  s += "    tile_b = vec ? " + std::to_string(vectorTileB_) + " : " + std::to_string(kScalarTile) +
       ";\n";
  s += "    tiles = ((a.size[" + A + "] + tile_a - 1) / tile_a) * ((a.size[" + B +
       "] + tile_b - 1) / tile_b) * a.batch;\n";
  s += "    wide = !fuserc_pw_fits32(" + std::to_string(tensors_.size()) + ", " +
       std::to_string(rank_) + ", a.size, a.st, a.numel);\n";
  s += variantHookForce(1, {{"", "wide = 1;"}}, "    ");
  s += "    fuserc_pw_magic((a.size[" + A + "] + tile_a - 1) / tile_a, &a.ta_mul, &a.ta_shift);\n";
  s += "    fuserc_pw_magic((a.size[" + B + "] + tile_b - 1) / tile_b, &a.tb_mul, &a.tb_shift);\n";
  for (size_t d = 0; d < rank_; ++d)
    if (d != *dimA_ && d != dimB_)
      s += "    fuserc_pw_magic(a.size[" + std::to_string(d) + "], &a.d_mul[" + std::to_string(d) +
           "], &a.d_shift[" + std::to_string(d) + "]);\n";
  const std::string scalar =
      "(wide ? \"" + scalarName(true) + "\" : \"" + scalarName(false) + "\")";
  const std::string kernel = vector_ ? "vec ? (wide ? \"" + vectorName(true) + "\" : \"" +
                                           vectorName(false) + "\") : " + scalar
                                     : scalar;
  s += variantHookLaunched(kernel, "    ");
  s += "    st = FUSERC_NAME_launch_kernel(" + kernel +
       ", tiles < 1048576 ? (unsigned)tiles : 1048576u, 1, 1, " + std::to_string(kBlock) +
       ", 0, &a, stream);\n";
  s += "    if (st != FUSERC_NAME_OK)\n      return st;\n";
  s += "  }\n}\n";
  return s;
}

void TransposeEmitter::fillPlan(KernelPlan &plan) const {
  plan.name = cx_.base;
  plan.scheduler = "transpose";
  plan.segment = static_cast<int>(cx_.segment.id);
  for (const Op *op : cx_.segment.segment.ops())
    plan.ops.push_back(cx_.analysis.name(*op->result()));
  std::string staged, vectors;
  for (const Access &tile : tiles_)
    staged += (staged.empty() ? "" : ", ") + tensors_[tile.tensor].what;
  for (const Access &r : vectorReads_)
    vectors += (vectors.empty() ? "" : ", ") + tensors_[r.tensor].what;
  const std::string V = std::to_string(vector_);
  plan.parameters = schedule_.fields();
  plan.parameters.insert(plan.parameters.end(),
                         {{"block", int64_t{kBlock}},
                          {"tile_dim_a", static_cast<int64_t>(*dimA_)},
                          {"tile_dim_b", static_cast<int64_t>(dimB_)},
                          {"through_shared_memory", staged.empty() ? "none" : staged},
                          {"vector", int64_t{vector_}},
                          {"vector_reads_along_b", vectors.empty() ? "none" : vectors}});
  const std::string S = std::to_string(kScalarTile), TA = std::to_string(vectorTileA_),
                    TB = std::to_string(vectorTileB_);
  for (bool wide : {false, true})
    plan.variants.push_back({scalarName(wide), "tiles of " + S + " x " + S +
                                                   ", one element per access, " +
                                                   (wide ? "64" : "32") + "-bit indices"});
  for (bool wide : {false, true})
    if (vector_)
      plan.variants.push_back({vectorName(wide), "tiles of " + TA + " (A) x " + TB +
                                                     " (B), vectors of " + V +
                                                     " elements along A and B, " +
                                                     (wide ? "64" : "32") + "-bit indices"});
  plan.selection =
      (vector_ ? vectorTileName() + " when A and B are multiples of " + V +
                     ", every tiled or vector tensor has stride 1 along its contiguous dim, "
                     "other strides multiples of " +
                     V + " and an aligned pointer; else tile" + S + ". "
               : "tile" + S + " always. ") +
      "i32 when every index and offset is below 2^31, else i64.";
  plan.launchGeometry = "block " + std::to_string(kBlock) +
                        "; grid min(tiles, 1048576), tiles = ceil(A / T) x ceil(B / T) x the "
                        "other dims, with a grid-stride loop";
  plan.bytesMoved = kernelBytesMoved(tensors_);
  plan.argsStruct = argsStruct("FUSERC_NAME_");
  plan.hostLaunch = hostLaunch();
}

} // namespace fuserc::transpose
