// Unit tests of the header writer (packaging/HeaderWriter.h) on the fixture
// fusions (PackagingFixtures.h): the shape of the C interface docs/header.md
// promises, the validation code it generates, the host code contract of
// schedulers/KernelPlan.h, and refusals. Compiling and running the header is
// tested in tests/header/.
#include "packaging/HeaderWriter.h"
#include "PackagingFixtures.h"
#include "packaging/HeaderParts.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

bool contains(const std::string &text, const std::string &piece) {
  return text.find(piece) != std::string::npos;
}

struct Generated {
  std::unique_ptr<test::Compiled> compiled;
  HeaderResult header;
};

// The single-header form by default: one text to search for every part.
Generated generate(const std::string &name = "kernels",
                   const std::string &fatbin = "\x50\xed\x55\xba",
                   HeaderForm form = HeaderForm::Single) {
  Generated g;
  g.compiled = test::compile(test::kScaleAndViews);
  EXPECT_TRUE(g.compiled->ok) << g.compiled->diagnostics;
  g.header =
      writeHeader(name, g.compiled->module, {test::scaleCode(), test::viewsCode()}, fatbin, form);
  EXPECT_TRUE(g.header.ok) << g.header.error;
  return g;
}

TEST(HeaderWriter, DeclaresTheDocumentedInterfacePerFusion) {
  std::string h = generate().header.text;
  EXPECT_TRUE(contains(h, "#ifndef kernels_H_INCLUDED")) << h;
  EXPECT_TRUE(contains(h, "#include <cuda.h>\n#include <dlpack/dlpack.h>\n"));
  EXPECT_TRUE(contains(h, "extern \"C\" {"));
  EXPECT_TRUE(contains(h, "} kernels_status;"));
  EXPECT_TRUE(contains(h, "const char *kernels_last_error(void);"));
  EXPECT_TRUE(contains(h, "void kernels_unload(void);"));
  EXPECT_TRUE(contains(h, "#define kernels__scale_NUM_INPUTS 2\n"));
  EXPECT_TRUE(contains(h, "#define kernels__views_NUM_OUTPUTS 3\n"));
  EXPECT_TRUE(contains(h, "#define kernels__views_OUTPUT_0_RANK 4 /* a */\n"));
  EXPECT_TRUE(contains(h, "kernels_status kernels__scale_describe_outputs(const DLTensor *in_x, "
                          "DLTensor *out_y);"));
  EXPECT_TRUE(contains(h, "kernels_status kernels__scale_workspace_size(const DLTensor *in_x, "
                          "size_t *bytes);"));
  // Scalars by value in declaration order, then outputs, workspace, stream.
  EXPECT_TRUE(contains(h, "kernels_status kernels__scale_launch(const DLTensor *in_x, float in_s, "
                          "DLTensor *out_y,\n"
                          "                                     void *workspace, size_t "
                          "workspace_bytes, CUstream stream);"));
}

TEST(HeaderWriter, ImplementationHasItsOwnGuardOutsideTheIncludeGuard) {
  std::string h = generate().header.text;
  size_t includeGuardEnd = h.find("#endif /* kernels_H_INCLUDED */");
  size_t implementation =
      h.find("#if defined(kernels_IMPLEMENTATION) && !defined(kernels_IMPLEMENTATION_DONE)");
  ASSERT_NE(includeGuardEnd, std::string::npos);
  ASSERT_NE(implementation, std::string::npos);
  EXPECT_LT(includeGuardEnd, implementation);
  EXPECT_TRUE(contains(h, "#include <pthread.h>"));
}

TEST(HeaderWriter, SplitFormDeclaresInTheHeaderAndImplementsInTheSource) {
  HeaderResult split = generate("kernels", "\x50\xed\x55\xba", HeaderForm::Split).header;
  HeaderResult single = generate().header;
  EXPECT_FALSE(contains(split.text, "kernels_IMPLEMENTATION"));
  EXPECT_FALSE(contains(split.text, "kernels_fatbin"));
  EXPECT_TRUE(contains(split.text, "The implementation is kernels.c (C99)"));
  EXPECT_TRUE(contains(split.source, "#include \"kernels.h\"\n"));
  // NAME.h of the split form is the single header's declaration part, and
  // NAME.c holds its implementation part.
  const std::string guardEnd = "#endif /* kernels_H_INCLUDED */\n";
  EXPECT_EQ(split.text.substr(split.text.find("#ifndef")),
            single.text.substr(single.text.find("#ifndef"), single.text.find(guardEnd) +
                                                                guardEnd.size() -
                                                                single.text.find("#ifndef")));
  const std::string body = "#include <pthread.h>";
  const std::string singleBody = single.text.substr(single.text.find(body));
  EXPECT_EQ(split.source.substr(split.source.find(body)),
            singleBody.substr(0, singleBody.find("\n#endif /* kernels_IMPLEMENTATION */")));
}

TEST(HeaderWriter, EmbedsTheFatbinAsAnAlignedStringLiteral) {
  // Printable bytes as themselves; '"', '\\' and '?' (trigraphs) escaped;
  // an escape before an octal digit takes all three digits.
  std::string fatbin("A\0B\"\\?\x01"
                     "7\x7f\0",
                     10);
  std::string h = generate("kernels", fatbin).header.text;
  EXPECT_TRUE(contains(h, "static const union {\n  char bytes[11];\n  uint64_t align;\n"
                          "} kernels_fatbin = {\n"
                          "  \"A\\0B\\42\\134\\77\\0017\\177\\0\"\n};\n"))
      << h;
}

TEST(HeaderWriter, WrapsTheFatbinLiteralInLinesOfAbout96Characters) {
  std::string fatbin(1000, '\xff');
  std::string h = generate("kernels", fatbin).header.text;
  size_t start = h.find("} kernels_fatbin = {\n") + std::string("} kernels_fatbin = {\n").size();
  size_t end = h.find("\n};\n", start);
  size_t lines = 0;
  for (size_t pos = start; pos < end; ++lines) {
    size_t next = h.find('\n', pos);
    std::string line = h.substr(pos, std::min(next, end) - pos);
    EXPECT_LE(line.size(), 100u);
    EXPECT_EQ(line.substr(0, 3), "  \"");
    EXPECT_EQ(line.back(), '"');
    pos = std::min(next, end) + 1;
  }
  EXPECT_EQ(lines, 44u); // 1000 escapes "\377", 23 per line
}

TEST(HeaderWriter, ListsEveryKernelVariantForTheLoader) {
  std::string h = generate().header.text;
  EXPECT_TRUE(contains(h, "#define kernels_NUM_KERNELS 3\n"
                          "static const char *const kernels_kernel_names[] = {\n"
                          "  \"scale_k0\",\n  \"scale_k0_vec4\",\n  \"views_k0\",\n  NULL};"))
      << h;
  // Without images, one fatbinary holds every kernel.
  EXPECT_TRUE(contains(h, "#define kernels_NUM_IMAGES 1\n"
                          "static const size_t kernels_image_offsets[kernels_NUM_IMAGES] = {0};"))
      << h;
  EXPECT_TRUE(contains(h, "static const unsigned kernels_kernel_images[] = {0, 0, 0, 0};")) << h;
  EXPECT_TRUE(contains(h, "cuLibraryLoadData(&kernels_libraries[image],\n"
                          "          kernels_fatbin.bytes + kernels_image_offsets[image]"));
  EXPECT_TRUE(
      contains(h, "cuLibraryGetKernel(&kernels_kernels[slot], kernels_libraries[image], kernel)"));
  EXPECT_TRUE(contains(h, "cuLaunchKernel((CUfunction)handle"));
}

TEST(HeaderWriter, MapsEachKernelToTheImageDefiningIt) {
  std::unique_ptr<test::Compiled> compiled = test::compile(test::kScaleAndViews);
  ASSERT_TRUE(compiled->ok) << compiled->diagnostics;
  const std::vector<UnitImage> images = {
      {"views_k0", 0, 4, {"views_k0"}, "sm_90"},
      {"scale_k0", 16, 4, {"scale_k0", "scale_k0_vec4"}, "sm_90"}};
  HeaderResult header =
      writeHeader("kernels", compiled->module, {test::scaleCode(), test::viewsCode()},
                  std::string(20, '\0'), HeaderForm::Single, images);
  ASSERT_TRUE(header.ok) << header.error;
  EXPECT_TRUE(contains(header.text, "#define kernels_NUM_IMAGES 2\n"
                                    "static const size_t kernels_image_offsets[kernels_NUM_IMAGES] "
                                    "= {0, 16};"))
      << header.text;
  // scale_k0, scale_k0_vec4 (image 1), views_k0 (image 0), then the end.
  EXPECT_TRUE(contains(header.text, "kernels_kernel_images[] = {1, 1, 0, 0};")) << header.text;
  // A kernel no image holds is an internal error, not a header that fails at run time.
  header = writeHeader("kernels", compiled->module, {test::scaleCode(), test::viewsCode()},
                       std::string(20, '\0'), HeaderForm::Single, {images[0]});
  EXPECT_FALSE(header.ok);
  EXPECT_EQ(header.error, "internal: no image holds kernel scale_k0_vec4");
}

TEST(HeaderWriter, BindsSymbolsAtTheirFirstOccurrenceInArgumentOrder) {
  std::string h = generate().header.text;
  // views: M and K come from z, the first input that has them; u is checked.
  EXPECT_TRUE(contains(h, "  b->sym_M = in_z->shape[0];\n  b->sym_K = in_z->shape[1];\n")) << h;
  EXPECT_TRUE(contains(h, "kernels_TRY(kernels_check_extent(\"u\", in_u, 0, b->sym_M, "
                          "\"symbol M\", \" (from z)\"));"));
}

TEST(HeaderWriter, ChecksDenseInputsAgainstTheirLayoutAndAcceptsAnyStridesOfStridedOnes) {
  std::string h = generate().header.text;
  EXPECT_TRUE(contains(h, "static const int layout_x[4] = {0, 2, 3, 1};")) << h;
  EXPECT_TRUE(contains(h, "kernels_TRY(kernels_check_dense(\"x\", in_x, b->stride_x, layout_x, "
                          "\"(0, 2, 3, 1)\"));"));
  EXPECT_TRUE(contains(h, "kernels_strides(in_z, b->stride_z);\n"
                          "  kernels_TRY(kernels_check_span(\"z\", in_z, b->stride_z, 4)); "
                          "/* strided: any strides */\n"));
  EXPECT_FALSE(contains(h, "kernels_check_dense(\"z\""));
}

TEST(HeaderWriter, DescribesNewBuffersDenseInTheirLayoutAndViewsThroughTheirBase) {
  std::string h = generate().header.text;
  // scale's y is N x C in layout (1, 0): dim 0 is innermost.
  EXPECT_TRUE(contains(h, "  e->strides_y[0] = 1;\n  e->strides_y[1] = e->strides_y[0] * "
                          "e->shape_y[0];\n"))
      << h;
  // views' b = slice(z, dim=1, start=1): z's strides, offset one z.stride1.
  EXPECT_TRUE(contains(h, "  e->strides_b[0] = ((b->stride_z[0]));\n"));
  EXPECT_TRUE(contains(h, "  kernels_TRY(kernels_check_view(\"b\", e->strides_b, 2, "
                          "in_z->byte_offset, ((b->stride_z[1])), 4, &e->byte_offset_b));\n"));
  // c updates u in place: u's memory, u's strides.
  EXPECT_TRUE(contains(h, "  e->data_c = in_u->data;\n"));
  EXPECT_TRUE(contains(h, "  e->strides_c[1] = b->stride_u[1];\n"));
}

TEST(HeaderWriter, LaunchDefinesTheHostCodeContractThenPastesEachHostLaunch) {
  std::string h = generate().header.text;
  size_t launch = h.find("kernels_status kernels__scale_launch(const DLTensor *in_x, float in_s, "
                         "DLTensor *out_y,\n                                     void *workspace, "
                         "size_t workspace_bytes, CUstream stream) {");
  ASSERT_NE(launch, std::string::npos) << h;
  std::string body = h.substr(launch, h.find("\n}\n", launch) - launch);
  EXPECT_TRUE(
      contains(body, "    int64_t sym_C = bound.sym_C;\n    int64_t sym_N = bound.sym_N;\n"))
      << body;
  EXPECT_TRUE(contains(body, "    int64_t stride_x_1 = bound.stride_x[1];\n"));
  EXPECT_TRUE(contains(body, "    int64_t ostride_y_0 = expected.strides_y[0];\n"));
  EXPECT_TRUE(contains(body, "    char *ws = workspace_needed > 0 ? (char *)workspace : NULL;\n"));
  EXPECT_TRUE(contains(body, "    kernels_status st = kernels_OK;\n"));
  // FUSERC_NAME becomes the header's name; the block is indented in its scope.
  EXPECT_TRUE(contains(body, "    /* kernel scale_k0: segment 0, pointwise */\n    {\n"
                             "      kernels_scale_k0_args args;\n"));
  EXPECT_TRUE(contains(body, "      st = kernels_launch_kernel(vec4 ? \"scale_k0_vec4\""));
  EXPECT_FALSE(contains(body, "FUSERC_NAME"));
  // Validation comes first.
  EXPECT_LT(body.find("kernels_check_workspace"), body.find("kernels_launch_kernel"));
  // The argument struct is defined once, before the functions.
  EXPECT_LT(h.find("} kernels_scale_k0_args;"), launch);
}

TEST(HeaderWriter, ViewOutputsMayBeLeftOutOfLaunch) {
  std::string h = generate().header.text;
  EXPECT_TRUE(contains(h, "  if (out_a) { /* a view: NULL is fine, nothing writes it */\n")) << h;
  EXPECT_TRUE(contains(h, "kernels_check_address(\"c\", out_c, expected.data_c, "
                          "expected.byte_offset_c, \"u\")"));
}

TEST(HeaderWriter, AFusionWithOnlyViewsNeedsNoCode) {
  auto compiled = test::compile(R"(
fusion transposed {
  input x: f32[N, C]
  y = permute(x, dims=[1, 0])
  output y
}
)");
  ASSERT_TRUE(compiled->ok) << compiled->diagnostics;
  HeaderResult header = writeHeader("views_only", compiled->module, {}, "", HeaderForm::Single);
  ASSERT_TRUE(header.ok) << header.error;
  EXPECT_TRUE(contains(header.text, "#define views_only_NUM_KERNELS 0\n"));
  EXPECT_TRUE(contains(header.text, "(void)ws; (void)st; (void)stream;"));
}

TEST(HeaderWriter, RefusesNamesThatAreNotCIdentifiers) {
  auto compiled = test::compile(test::kScaleAndViews);
  HeaderResult header =
      writeHeader("my-kernels", compiled->module, {test::scaleCode(), test::viewsCode()}, "");
  EXPECT_FALSE(header.ok);
  EXPECT_EQ(header.error,
            "the output name 'my-kernels' is not a C identifier (choose another with --name)");
  EXPECT_FALSE(writeHeader("9lives", compiled->module, {}, "").ok);
  EXPECT_TRUE(isCIdentifier("_k9"));
  EXPECT_FALSE(isCIdentifier(""));
}

// `--name a` with fusion `b_c` and `--name a_b` with fusion `c` would both
// define a_b_c_launch; with '__' between the two parts, and '__' and edge
// underscores refused in both, every (name, fusion) pair has its own prefix.
TEST(HeaderWriter, FusionPrefixesOfDifferentNamesNeverCoincide) {
  EXPECT_EQ(fusionSymbolPrefix("a", "b_c"), "a__b_c");
  EXPECT_EQ(fusionSymbolPrefix("a_b", "c"), "a_b__c");
  EXPECT_EQ(cNameProblem("fusion name", "b_c"), "");
  EXPECT_EQ(cNameProblem("the output name", "a__b"),
            "the output name 'a__b' contains '__', which generated C names keep to separate the "
            "output name from a fusion's");
  EXPECT_EQ(cNameProblem("fusion name", "_c"),
            "fusion name '_c' begins with '_', which would touch the '__' separating the output "
            "name from a fusion's in generated C names");
  EXPECT_NE(cNameProblem("fusion name", "c_"), "");

  auto compiled = test::compile(test::kScaleAndViews);
  HeaderResult header =
      writeHeader("kernels_", compiled->module, {test::scaleCode(), test::viewsCode()}, "");
  EXPECT_FALSE(header.ok);
  EXPECT_EQ(header.error, "the output name 'kernels_' ends with '_', which would touch the '__' "
                          "separating the output name from a fusion's in generated C names "
                          "(choose another with --name)");
}

TEST(HeaderWriter, RefusesAFusionWithWrittenOutputsButNoCode) {
  auto compiled = test::compile(test::kScaleAndViews);
  HeaderResult header = writeHeader("kernels", compiled->module, {test::scaleCode()}, "");
  EXPECT_FALSE(header.ok);
  EXPECT_EQ(header.error, "fusion 'views': no kernels were generated for it");

  FusionCode unsupported = test::viewsCode();
  unsupported.kernels.clear();
  unsupported.unsupported = "segment 0 (transpose) has no code generator yet";
  header = writeHeader("kernels", compiled->module, {test::scaleCode(), unsupported}, "");
  EXPECT_EQ(header.error, "fusion 'views': no code could be generated: segment 0 (transpose) has "
                          "no code generator yet");
}

// Fusion identifiers are NAME_F_<suffix>. Two fusions F and G (or a fusion and
// the runtime support) could only define one identifier if a suffix, or a
// runtime name, ended in "_" + another suffix.
TEST(HeaderWriter, NoSuffixCanMakeTwoFusionsOrTheRuntimeDefineOneIdentifier) {
  auto compiled = test::compile(test::kScaleAndViews);
  header::FusionModelResult built =
      header::buildFusionModel("k", *compiled->module.fusions[0], nullptr);
  std::vector<std::string> suffixes;
  for (const std::string &id : header::fusionIdentifiers(built.model))
    suffixes.push_back(id.substr(std::string("scale_").size()));
  std::vector<std::string> names = suffixes;
  names.insert(names.end(), header::runtimeIdentifiers().begin(),
               header::runtimeIdentifiers().end());
  for (const std::string &name : names)
    for (const std::string &suffix : suffixes)
      EXPECT_FALSE(name.size() > suffix.size() &&
                   name.compare(name.size() - suffix.size() - 1, std::string::npos, "_" + suffix) ==
                       0)
          << name << " ends with _" << suffix;
}

TEST(HeaderWriter, RefusesTwoKernelsWithOneSymbol) {
  auto compiled = test::compile(test::kScaleAndViews);
  FusionCode views = test::viewsCode();
  views.kernels[0].variants[0].symbol = "scale_k0";
  HeaderResult header = writeHeader("k", compiled->module, {test::scaleCode(), views}, "");
  EXPECT_FALSE(header.ok);
  EXPECT_EQ(header.error, "kernels scale_k0 and views_k0 both define the symbol scale_k0");
}

// The runtime files (packaging/runtime/) write the header's name as
// FUSERC_NAME; runtimeIdentifiers is read off them.
TEST(HeaderWriter, SpellsEveryPlaceholderAsTheHeadersName) {
  std::string h = generate().header.text;
  EXPECT_FALSE(contains(h, "FUSERC_NAME"));
  EXPECT_TRUE(contains(h, "const char *caller = kernels_caller ? kernels_caller : \"kernels\";"));
}

TEST(HeaderWriter, RuntimeIdentifiersAreTheNamesTheRuntimeDefines) {
  std::string h = generate().header.text;
  const std::vector<std::string> &ids = header::runtimeIdentifiers();
  EXPECT_GT(ids.size(), 50u);
  for (const std::string &id : ids) {
    // The fixtures launch no clusters and nothing cooperatively: their
    // headers leave launch_ex.c out.
    if (id == "clusters_supported" || id == "launch_cluster_kernel" || id == "cooperative_fits" ||
        id == "launch_cooperative_kernel" || id == "launch_with_attribute")
      continue;
    EXPECT_TRUE(header::mentions(h, "kernels_" + id)) << id;
  }
}

TEST(HeaderWriter, SameInputsGiveIdenticalBytes) {
  EXPECT_EQ(generate().header.text, generate().header.text);
}

} // namespace
} // namespace fuserc
