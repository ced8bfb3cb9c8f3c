// Pointwise kernels, host side: the argument struct, the launch block that
// collapses dims, picks a variant and launches it, and the plan (see
// PointwiseEmitter.h; the C helpers the launch block calls are in
// PointwiseHostHelpers.cpp).
#include "codegen/pointwise/PointwiseEmitter.h"

#include "codegen/core/CudaTypes.h"
#include "codegen/core/IndexChecks.h"
#include "codegen/core/VariantHook.h"
#include "ir/DType.h"

#include <algorithm>

namespace fuserc::pointwise {

// The argument struct; `prefix` names it in host code (FUSERC_NAME_...).
std::string PointwiseEmitter::argsStruct(const std::string &prefix) const {
  const size_t nt = std::max<size_t>(tensors_.size(), 1);
  const size_t ns = std::max<size_t>(symbols().size(), 1);
  std::string s = "typedef struct {\n";
  s += "  void *ptr[" + std::to_string(nt) + "];\n";
  s += "  long long st[" + std::to_string(nt) + "][" + std::to_string(kMaxRank) + "];\n";
  s += "  long long size[" + std::to_string(kMaxRank) + "];\n";
  s += "  long long numel;\n";
  s += "  long long sym[" + std::to_string(ns) + "];\n";
  s += "  long long f_ext[" + std::to_string(kMaxRank) + "];\n";
  s += "  long long f_st[" + std::to_string(nt) + "][" + std::to_string(kMaxRank) + "];\n";
  s += "  long long f_inner_st[" + std::to_string(nt) + "];\n";
  s += "  long long f_inner, f_chunks;\n";
  s += "  int f_nouter, pad_;\n";
  // Magic numbers for 32-bit division by the extents (i32 variants).
  s += "  unsigned f_cpr_mul, f_cpr_shift;\n";
  s += "  unsigned f_mul[" + std::to_string(kMaxRank) + "], f_shift[" + std::to_string(kMaxRank) +
       "];\n";
  s += "  unsigned g_mul[" + std::to_string(kMaxRank) + "], g_shift[" + std::to_string(kMaxRank) +
       "];\n";
  return s + argsStructEnd(scalars_,
                           (rvec() ? resize_->argsMembers() : "") +
                               (scatter_ ? scatterArgsMembers() : ""),
                           cx_.segment.segment, prefix + cx_.base);
}

// The grid's work items: vectors of the resize variant, chunks of the
// vector variants, else elements.
std::string PointwiseEmitter::workStatement() const {
  const std::string svec = straddle() ? "svec ? (unsigned long long)((a.numel + " +
                                            std::to_string(vmax_ - 1) + ") / " +
                                            std::to_string(vmax_) + ") : "
                                      : "";
  return rvec() ? "work = " + svec + "(unsigned long long)(rvec ? a.numel / " +
                      std::to_string(resize_->lanes()) + " : a.numel);\n"
                : "work = " + svec + "(unsigned long long)(vec ? a.f_chunks : a.numel);\n";
}

// The testing hook's alternatives (codegen/core/VariantHook.h): gen,
// 64-bit indices, vec in place of flat, one element per thread in place
// of wider vectors (each recomputes the work the grid covers); a two-pass
// scatter's claims in place of its scan mode.
std::string PointwiseEmitter::forcedVariants() const {
  const std::string work = workStatement();
  const std::string noFlat = flat() ? "flat = 0;\n" : "";
  std::vector<ForcedVariant> forced{{"", "vec = 0;\n" + std::string(rvec() ? "rvec = 0;\n" : "") +
                                             (straddle() ? "svec = 0;\n" : "") + noFlat + work},
                                    {"", "wide = 1;\n"}};
  if (straddle())
    forced.push_back({"svec_ok", "svec = 1;\n" + work});
  if (flat())
    forced.push_back({"flat", noFlat});
  if (fast_ && vmax_ > 1)
    forced.push_back({"vec > 1 && a.f_inner >= vec",
                      "a.f_chunks = a.f_chunks / (a.f_inner / vec) * a.f_inner;\nvec = 1;\n"
                      "fuserc_pw_magic(a.f_inner, &a.f_cpr_mul, &a.f_cpr_shift);\n" +
                          noFlat + work});
  if (scatter_)
    forced.push_back(scatterClaimsAlternative());
  return variantHookPick(cx_.base, forced.size(), "  ") + variantHookForce(0, forced, "  ");
}

// The host block: fill the arguments, pick a variant, launch.
std::string PointwiseEmitter::hostLaunch() const {
  if (fillIsIdentity_)
    return scatterOnlyHostLaunch();
  auto sym = [](const std::string &s) { return "sym_" + s; };
  const std::string nt = std::to_string(tensors_.size());
  std::string s = "{\n";
  s += "  FUSERC_NAME_" + cx_.base + "_args a;\n";
  const std::string slots = std::to_string(std::max<size_t>(tensors_.size(), 1));
  if (fast_) {
    s += "  long long it_st[" + slots + "][" + std::to_string(kMaxRank) + "];\n";
    s += "  long long it_ext[" + std::to_string(kMaxRank) + "];\n";
    s += "  int esize[" + slots + "];\n";
    s += "  int written[" + slots + "];\n";
  }
  s += "  const char *kernel;\n";
  s += "  unsigned long long work;\n";
  s += rvec() ? "  int vec = 0, rvec = 0, wide = 0;\n" : "  int vec = 0, wide = 0;\n";
  if (flat())
    s += "  int flat = 0;\n";
  if (straddle())
    s += "  int svec = 0, svec_ok = 0;\n";
  if (scatter_)
    s += "  int claims_only = 0;\n";
  s += "  memset(&a, 0, sizeof a);\n";
  if (segmentChecksIndices(cx_.segment.segment))
    s += indexFlagHostCode();
  if (fast_)
    s += "  memset(it_st, 0, sizeof it_st);\n";
  s += hostSymbolAndScalarArguments(symbols(), scalars_);
  const Value &ref = *reference_;
  s += "  a.numel = 1;\n";
  for (size_t d = 0; d < rank_; ++d) {
    s += "  a.size[" + std::to_string(d) + "] = " + extentToCode(ref.shape()[d], sym) + ";\n";
    s += "  a.numel *= a.size[" + std::to_string(d) + "];\n";
  }
  for (size_t t = 0; t < tensors_.size(); ++t) {
    const KernelTensor &kt = tensors_[t];
    const std::string ts = std::to_string(t);
    s += hostTensorArguments(t, kt);
    if (!fast_)
      continue;
    s += "  esize[" + ts + "] = " + std::to_string(dtypeBytes(kt.storage)) + ";\n";
    s += "  written[" + ts + "] = " + (kt.written ? "1" : "0") + ";\n";
    // Tensors only a scatter's update pass reads stay at stride 0 here.
    if (!kt.written && !fillReads(t))
      continue;
    // Strides over the iteration dims in memory order, right-aligned
    // broadcasting (fast variants only read tensors that way).
    const size_t r = kt.value->rank();
    for (size_t k = 0; k < rank_; ++k) {
      const size_t j = static_cast<size_t>(order_[k]);
      if (j + r < rank_)
        continue;
      const size_t i = j + r - rank_;
      if (kt.value->shape()[i].isConstant(1))
        continue;
      s += "  it_st[" + ts + "][" + std::to_string(k) + "] = " + kt.strides[i] + ";\n";
    }
  }
  for (size_t k = 0; fast_ && k < rank_; ++k)
    s += "  it_ext[" + std::to_string(k) + "] = a.size[" + std::to_string(order_[k]) + "];\n";
  s += "  if (a.numel > 0) {\n";
  if (fast_)
    s += "  vec = fuserc_pw_plan(" + nt + ", " + std::to_string(rank_) +
         ", it_ext, it_st, a.ptr, esize, written, " + std::to_string(vmax_) +
         ", a.f_ext, a.f_st, a.f_inner_st, &a.f_inner, &a.f_nouter, &a.f_chunks);\n";
  s += "  if (vec) {\n";
  s += "    int d;\n";
  s += "    fuserc_pw_magic(a.f_inner / vec, &a.f_cpr_mul, &a.f_cpr_shift);\n";
  s += "    for (d = 0; d < a.f_nouter; ++d)\n";
  s += "      fuserc_pw_magic(a.f_ext[d], &a.f_mul[d], &a.f_shift[d]);\n";
  s += "  }\n";
  if (rvec())
    s += resize_->hostSelect();
  if (straddle()) {
    // svec in place of vec1 and gen.
    s += straddleHostSelect();
    s +=
        "  svec = svec_ok && vec != " + std::to_string(vmax_) + (rvec() ? " && !rvec" : "") + ";\n";
  }
  for (size_t d = 0; d < rank_; ++d)
    s += "  fuserc_pw_magic(a.size[" + std::to_string(d) + "], &a.g_mul[" + std::to_string(d) +
         "], &a.g_shift[" + std::to_string(d) + "]);\n";
  s += "  wide = !fuserc_pw_fits32(" + nt + ", " + std::to_string(rank_) +
       ", a.size, a.st, a.numel);\n";
  s += "  " + workStatement();
  std::string choose;
  if (straddle())
    choose += "svec ? (wide ? \"" + kernelName("svec" + std::to_string(vmax_), true) + "\" : \"" +
              kernelName("svec" + std::to_string(vmax_), false) + "\") : ";
  if (flat()) {
    s += "  if (vec == " + std::to_string(vmax_) + " && a.f_nouter == 0) {\n";
    if (!scatter_)
      s += "    int t;\n";
    s += "    flat = 1;\n";
    if (scatter_) {
      // Tensors only the update pass reads have no stride here.
      for (size_t t = 0; t < tensors_.size(); ++t)
        if (tensors_[t].written || fillReads(t))
          s += "    if (a.f_inner_st[" + std::to_string(t) + "] != 1)\n      flat = 0;\n";
    } else {
      s += "    for (t = 0; t < " + nt + "; ++t)\n";
      s += "      if (a.f_inner_st[t] != 1)\n        flat = 0;\n";
    }
    s += "  }\n";
    choose += "flat ? (wide ? \"" + kernelName("flat" + std::to_string(vmax_), true) + "\" : \"" +
              kernelName("flat" + std::to_string(vmax_), false) + "\") : ";
  }
  if (fast_) {
    for (int v : vectorWidths())
      choose += "vec == " + std::to_string(v) + " ? (wide ? \"" +
                kernelName("vec" + std::to_string(v), true) + "\" : \"" +
                kernelName("vec" + std::to_string(v), false) + "\") : ";
  }
  if (rvec())
    choose += "rvec ? (wide ? \"" + resize_->kernelName(true) + "\" : \"" +
              resize_->kernelName(false) + "\") : ";
  choose += "(wide ? \"" + kernelName("gen", true) + "\" : \"" + kernelName("gen", false) + "\")";
  s += forcedVariants();
  s += "  kernel = " + choose + ";\n";
  s += variantHookLaunched("kernel", "  ");
  s += "  st = FUSERC_NAME_launch_kernel(kernel, fuserc_pw_blocks(work, vec ? " +
       std::to_string(kBlock * kUnroll) + " : " + std::to_string(kBlock) + "), 1, 1, " +
       std::to_string(kBlock) + ", 0, &a, stream);\n";
  s += "  if (st != FUSERC_NAME_OK)\n    return st;\n";
  s += "  }\n";
  if (scatter_)
    s += scatterHostLaunch();
  s += "}\n";
  return s;
}

void PointwiseEmitter::fillPlan(KernelPlan &plan) const {
  plan.name = cx_.base;
  plan.scheduler = cx_.segment.scheduler ? std::string(cx_.segment.scheduler->name()) : "pointwise";
  plan.segment = static_cast<int>(cx_.segment.id);
  for (const Op *op : cx_.segment.segment.ops())
    plan.ops.push_back(cx_.analysis.name(*op->result()));
  plan.parameters = schedule_.fields();
  if (fillIsIdentity_) {
    plan.selection = "no fill: the scatter writes into its background's buffer in place.";
    plan.launchGeometry = "no fill";
    // The index and the source read, the written elements stored.
    const Value &index = *scatter_->scatter->operand(1);
    for (const KernelTensor &t : tensors_)
      plan.bytesMoved = plan.bytesMoved + (t.written ? numElements(index.shape())
                                           : t.value == scatter_->scatter->operand(0)
                                               ? Extent(0)
                                               : numElements(t.value->shape())) *
                                              static_cast<int64_t>(dtypeBytes(t.storage));
    addScatterToPlan(plan);
    plan.argsStruct = argsStruct("FUSERC_NAME_");
    plan.hostLaunch = hostLaunch();
    return;
  }
  plan.parameters.insert(plan.parameters.end(),
                         {{"block", int64_t{kBlock}},
                          {"vectors_per_thread", int64_t{fast_ ? kUnroll : 1}},
                          {"max_vector", int64_t{fast_ || rvec() || straddle() ? vmax_ : 1}}});
  if (fast_)
    for (int v : vectorWidths())
      for (bool wide : {false, true})
        plan.variants.push_back({kernelName("vec" + std::to_string(v), wide),
                                 std::to_string(v) + " contiguous element" + (v > 1 ? "s" : "") +
                                     " per thread along the collapsed "
                                     "innermost dim, " +
                                     (wide ? "64" : "32") + "-bit indices"});
  if (flat())
    for (bool wide : {false, true})
      plan.variants.push_back({kernelName("flat" + std::to_string(vmax_), wide),
                               std::to_string(vmax_) +
                                   " contiguous elements per thread, every tensor dense in "
                                   "the same layout (offsets are the element's own), " +
                                   (wide ? "64" : "32") + "-bit indices"});
  if (rvec())
    for (bool wide : {false, true})
      plan.variants.push_back({resize_->kernelName(wide), resize_->description(wide)});
  if (straddle())
    for (bool wide : {false, true})
      plan.variants.push_back(
          {kernelName("svec" + std::to_string(vmax_), wide),
           std::to_string(vmax_) +
               " consecutive elements of the iteration per thread, across rows: tensors dense "
               "in its order by vector, the others per lane, " +
               (wide ? "64" : "32") + "-bit indices"});
  for (bool wide : {false, true})
    plan.variants.push_back(
        {kernelName("gen", wide), std::string("one element per thread, coordinates from the "
                                              "linear index, ") +
                                      (wide ? "64" : "32") + "-bit indices"});
  std::string svecRule;
  if (straddle()) {
    svecRule = std::string("; svec") + std::to_string(vmax_) + " instead of " +
               (fast_ ? "vec1 and gen" : "gen") + " when every tensor it moves by vector (";
    for (size_t t : straddleVectors_)
      svecRule += (t == *straddleVectors_.begin() ? "" : ", ") + tensors_[t].what;
    svecRule += ") is dense in the iteration order and aligned to its vector";
  }
  plan.selection =
      fast_ ? "dims contiguous in every tensor are collapsed; when every tensor then has "
              "stride 0 or 1 on the innermost dim, a vec variant runs, with " +
                  std::to_string(vmax_) +
                  " elements per thread when the innermost extent, every outer stride and "
                  "every pointer allow it (else 1)" +
                  (flat() ? "; flat" + std::to_string(vmax_) +
                                " instead when that leaves one dim and every tensor has "
                                "stride 1 on it"
                          : std::string()) +
                  svecRule +
                  "; otherwise gen. i32 when every index and offset is below 2^31, else i64."
      : rvec() ? resize_->selection() + svecRule +
                     "; otherwise gen. i32 when every index and offset is below 2^31, else i64."
               : std::string(straddle() ? "gen" : "gen always") +
                     (resize_ ? " (no rvec variant: " + resize_->refusal() + ")" : std::string()) +
                     svecRule + "; i32 when every index and offset is below 2^31, else i64.";
  plan.launchGeometry = "block " + std::to_string(kBlock) + "; grid min(ceil(vectors / " +
                        std::to_string(kBlock * kUnroll) + "), 1048576) (" +
                        (rvec() ? "rvec" : "vec") + (straddle() ? ", svec" : "") +
                        ") or min(ceil("
                        "elements / " +
                        std::to_string(kBlock) + "), 1048576) (gen), with a grid-stride loop";
  plan.bytesMoved = kernelBytesMoved(tensors_);
  if (scatter_)
    addScatterToPlan(plan);
  plan.argsStruct = argsStruct("FUSERC_NAME_");
  plan.hostLaunch = hostLaunch();
}

} // namespace fuserc::pointwise
