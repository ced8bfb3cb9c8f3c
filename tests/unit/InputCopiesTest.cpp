// Unit tests for input copies: an input output in a layout it is not a view
// in gets a cast to its own dtype that keeps the output's name and layout;
// views of inputs stay views. (The kernels writing them run in
// gpu/cases/input_copies.fus.)
#include "TestSupport.h"

#include "ir/OpInfo.h"
#include "passes/AliasAnalysis.h"
#include "passes/InputCopies.h"
#include "passes/LayoutInference.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

// "name=op(operand) layout kind" per output, after input copies, and how
// many copies the pass made.
std::string copiedOutputs(std::string_view source, size_t *copies) {
  test::Loaded r = test::load(source);
  EXPECT_TRUE(r.ok) << r.diagnostics;
  if (!r.ok)
    return "";
  Fusion &f = *r.module.fusions[0];
  inferLayouts(f);
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  DiagnosticEngine diag(os);
  analyzeAliases(f, diag);
  EXPECT_EQ(diag.errorCount(), 0u) << os.str();
  *copies = materializeInputCopies(f);
  std::string s;
  for (const FusionOutput &out : f.outputs()) {
    s += out.name + "=";
    if (const Op *op = out.value->definingOp())
      s += std::string(opInfo(op->kind()).name) + "(" + op->operand(0)->name() + ", " +
           std::string(dtypeName(out.value->dtype())) + ")";
    else
      s += out.value->name();
    s += layoutString(out.layout) + " " + std::string(outputKindName(out.kind)) + "; ";
  }
  return s;
}

TEST(InputCopies, InputOutputInAnotherLayoutIsACastKeepingNameAndLayout) {
  size_t copies = 0;
  EXPECT_EQ(copiedOutputs("fusion f {\n input x: bf16[M, N]\n y = mul(x, 2.0)\n output y\n"
                          " output x layout(1, 0)\n}\n",
                          &copies),
            "y=mul(x, bf16)(0, 1) new buffer; x=cast(x, bf16)(1, 0) new buffer; ");
  EXPECT_EQ(copies, 1u);
}

TEST(InputCopies, StridedInputInAPinnedLayoutIsCopied) {
  size_t copies = 0;
  EXPECT_EQ(copiedOutputs("fusion f {\n input x: f32[M, N] strided\n output x layout(1, 0)\n}\n",
                          &copies),
            "x=cast(x, f32)(1, 0) new buffer; ");
  EXPECT_EQ(copies, 1u);
}

TEST(InputCopies, InputOutputsThatAreViewsStayViews) {
  size_t copies = 0;
  EXPECT_EQ(copiedOutputs("fusion f {\n input x: f32[M, N]\n output x\n}\n", &copies),
            "x=x(0, 1) view; ");
  EXPECT_EQ(copies, 0u);
}

} // namespace
} // namespace fuserc
