// The example plugin's kernel generator (schedulers/KernelGenerator.h): one
// kernel for an f32_elementwise segment, built on codegen's shared core
// (codegen/core/: the segment's tensors, value emission, host argument
// code). Each thread computes one element of the iteration space from its
// coordinates (a grid-stride loop over the row-major index), reading every
// tensor through its strides: any layout, strided inputs and right-aligned
// broadcasts work, at the price of uncoalesced accesses where a layout is
// not row-major. It shows the contract, not a fast kernel.
#include "F32Elementwise.h"

#include "codegen/core/KernelContext.h"
#include "codegen/core/KernelTensors.h"
#include "codegen/core/ValueEmitter.h"
#include "schedulers/BuiltinSchedules.h"

#include <algorithm>

namespace example {
namespace {

using namespace fuserc;

constexpr int kBlock = 256;

class Emitter final : public InputReader {
public:
  Emitter(const KernelRequest &request, const IterationSchedule &schedule)
      : cx_(request), reference_(*schedule.reference) {
    KernelOperands operands =
        collectKernelOperands(cx_.fusion, cx_.segment, cx_.workspace, "f32 elementwise");
    tensors_ = std::move(operands.tensors);
    scalars_ = std::move(operands.scalars);
  }

  EmittedKernel run() {
    EmittedKernel out;
    out.source = argsStruct("") + "\n" + kernel();
    KernelPlan &plan = out.plan;
    plan.name = cx_.base;
    plan.scheduler = std::string(cx_.segment.scheduler->name());
    plan.segment = static_cast<int>(cx_.segment.id);
    for (const Op *op : cx_.segment.segment.ops())
      plan.ops.push_back(cx_.analysis.name(*op->result()));
    plan.parameters = cx_.segment.schedule->fields();
    plan.parameters.push_back({"block", int64_t{kBlock}});
    plan.variants.push_back({cx_.base + "_all", "one element per thread, by coordinates"});
    plan.selection = "always " + cx_.base + "_all";
    plan.launchGeometry = "block " + std::to_string(kBlock) + "; grid ceil(elements / " +
                          std::to_string(kBlock) +
                          ") blocks, at most 65535, each looping over the rest";
    plan.bytesMoved = kernelBytesMoved(tensors_);
    plan.argsStruct = argsStruct("FUSERC_NAME_");
    plan.hostLaunch = hostLaunch();
    return out;
  }

  InputRead read(const Value &input, const Coords &coords) override {
    if (input.isScalarInput())
      return "a.s" + std::to_string(indexOf(scalars_, &input));
    const size_t t = tensorIndex(input, false);
    return "((const float *)a.ptr[" + std::to_string(t) + "])[" + offset(t, coords) + "]";
  }

private:
  size_t rank() const { return reference_.rank(); }

  static size_t indexOf(const std::vector<const Value *> &values, const Value *v) {
    return static_cast<size_t>(std::find(values.begin(), values.end(), v) - values.begin());
  }

  size_t tensorIndex(const Value &v, bool written) const {
    return kernelTensorIndex(tensors_, v, written, cx_.analysis);
  }

  std::string offset(size_t t, const Coords &coords) const {
    std::string s = "0";
    for (size_t d = 0; d < coords.size(); ++d)
      s += " + " + coords[d] + " * a.st[" + std::to_string(t) + "][" + std::to_string(d) + "]";
    return s;
  }

  std::string argsStruct(const std::string &prefix) const {
    const std::string nt = std::to_string(std::max<size_t>(tensors_.size(), 1));
    const std::string dims = std::to_string(std::max<size_t>(rank(), 1));
    const size_t symbols = cx_.fusion.fusion->symbols().size();
    std::string s = "typedef struct {\n";
    s += "  void *ptr[" + nt + "];\n";
    s += "  long long st[" + nt + "][" + dims + "];\n";
    s += "  long long size[" + dims + "];\n";
    s += "  long long numel;\n";
    s += "  long long sym[" + std::to_string(std::max<size_t>(symbols, 1)) + "];\n";
    for (size_t k = 0; k < scalars_.size(); ++k)
      s += "  float s" + std::to_string(k) + ";\n";
    return s + "} " + prefix + cx_.base + "_args;\n";
  }

  std::string kernel() {
    Coords coords;
    std::string decompose = "    long long rest = i;\n";
    for (size_t d = rank(); d-- > 0;) {
      const std::string c = "c" + std::to_string(d);
      decompose += "    const long long " + c + " = rest % a.size[" + std::to_string(d) + "];\n";
      decompose += "    rest /= a.size[" + std::to_string(d) + "];\n";
    }
    for (size_t d = 0; d < rank(); ++d)
      coords.push_back("c" + std::to_string(d));
    ValueEmitter emitter([&](const Value &v) { return !cx_.segment.segment.defines(v); }, *this,
                         cx_.fusion.fusion->symbols(), "long long", /*coordinateFree=*/false);
    std::string stores;
    for (size_t t = 0; t < tensors_.size(); ++t)
      if (tensors_[t].written)
        stores += "    ((float *)a.ptr[" + std::to_string(t) + "])[" + offset(t, coords) +
                  "] = " + emitter.emit(*tensors_[t].value, coords) + ";\n";
    std::string s =
        "// segment " + std::to_string(cx_.segment.id) + " (f32_elementwise, the example plugin)\n";
    s += "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(kBlock) + ") " +
         cx_.base + "_all(" + cx_.base + "_args a) {\n";
    s += "  typedef long long I;\n";
    s += "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < a.numel;\n";
    s += "       i += (long long)gridDim.x * blockDim.x) {\n";
    s += decompose + emitter.body(4) + stores;
    return s + "  }\n}\n\n";
  }

  std::string hostLaunch() const {
    auto sym = [](const std::string &s) { return "sym_" + s; };
    std::string s = "{\n  FUSERC_NAME_" + cx_.base + "_args a;\n  unsigned long long blocks;\n";
    s += "  memset(&a, 0, sizeof a);\n";
    s += hostSymbolAndScalarArguments(cx_.fusion.fusion->symbols(), scalars_);
    s += "  a.numel = 1;\n";
    for (size_t d = 0; d < rank(); ++d) {
      const std::string D = std::to_string(d);
      s += "  a.size[" + D + "] = " + extentToCode(reference_.shape()[d], sym) + ";\n";
      s += "  a.numel *= a.size[" + D + "];\n";
    }
    for (size_t t = 0; t < tensors_.size(); ++t)
      s += hostTensorArguments(t, tensors_[t]);
    s += "  blocks = ((unsigned long long)a.numel + " + std::to_string(kBlock - 1) + ") / " +
         std::to_string(kBlock) + ";\n";
    s += "  if (blocks > 65535)\n    blocks = 65535;\n";
    s += "  if (blocks > 0) {\n";
    s += "    st = FUSERC_NAME_launch_kernel(\"" + cx_.base + "_all\", (unsigned)blocks, 1, 1, " +
         std::to_string(kBlock) + ", 0, &a, stream);\n";
    s += "    if (st != FUSERC_NAME_OK)\n      return st;\n  }\n}\n";
    return s;
  }

  const KernelContext cx_; // the request, the fusion's analysis, the kernel's base name
  const Value &reference_;
  std::vector<KernelTensor> tensors_;
  std::vector<const Value *> scalars_;
};

class F32ElementwiseGenerator final : public KernelGenerator {
public:
  EmittedKernel generate(const KernelRequest &request) const override {
    const auto *schedule = dynamic_cast<const IterationSchedule *>(request.segment.schedule.get());
    if (!schedule || !schedule->reference)
      throw CodegenError("the f32_elementwise generator needs a segment that writes a tensor");
    return Emitter(request, *schedule).run();
  }
};

} // namespace

const fuserc::KernelGenerator &f32ElementwiseGenerator() {
  static const F32ElementwiseGenerator generator;
  return generator;
}

} // namespace example
