// Unit tests of the manifest writer (packaging/ManifestWriter.h) and the
// segmentation summary it reports (packaging/SegmentSummary.h), on the
// fixture fusions of PackagingFixtures.h run through the real passes and
// segmentation. Its JSON printer is tested in JsonTest.cpp.
#include "packaging/ManifestWriter.h"
#include "PackagingFixtures.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

namespace fuserc {
namespace {

bool contains(const std::string &text, const std::string &piece) {
  return text.find(piece) != std::string::npos;
}

ToolchainInfo fixedToolchain() { return {"0.1.0", "13.0", "13.0", {"sm_80", "sm_90"}, "sm_90"}; }

struct Written {
  std::unique_ptr<test::Compiled> compiled;
  std::vector<FusionCode> code;
  std::vector<SegmentSummary> segments;
  ResourcesByArch resources;
  std::vector<UnitImage> images;
  std::string json;
};

Written write(const char *source, std::vector<FusionCode> code) {
  Written w;
  w.compiled = test::compile(source);
  EXPECT_TRUE(w.compiled->ok) << w.compiled->diagnostics;
  w.code = std::move(code);
  for (const SegmentedFusion &sf : w.compiled->segmentations)
    w.segments.push_back(summarizeSegments(sf));
  w.resources["sm_80"] = {{"scale_k0", 16, 0, 0, 0, 0}, {"scale_k0_vec4", 20, 0, 0, 0, 0}};
  w.resources["sm_90"] = {{"scale_k0", 18, 0, 8, 4, 4}};
  w.images = {{"views_k0", 0, 1000, {"views_k0"}, "sm_80"},
              {"scale_k0", 1008, 2000, {"scale_k0", "scale_k0_vec4"}, "sm_90"}};
  ManifestContents contents;
  contents.name = "kernels";
  contents.module = &w.compiled->module;
  contents.code = w.code;
  contents.segments = w.segments;
  contents.resources = &w.resources;
  contents.toolchain = fixedToolchain();
  contents.images = w.images;
  w.json = writeManifest(contents);
  return w;
}

Written scaleAndViews() {
  return write(test::kScaleAndViews, {test::scaleCode(), test::viewsCode()});
}

TEST(ManifestWriter, StartsWithFormatVersionToolchainAndArchs) {
  std::string json = scaleAndViews().json;
  EXPECT_EQ(json.substr(0, json.find("  \"fusions\"")), R"j({
  "format": "fuserc-manifest",
  "version": 3,
  "name": "kernels",
  "fuserc_version": "0.1.0",
  "cuda_toolkit_version": "13.0",
  "nvrtc_version": "13.0",
  "archs": ["sm_80", "sm_90"],
  "ptx_arch": "sm_90",
  "variants": "default",
  "images": [
    {"unit": "views_k0", "offset": 0, "bytes": 1000, "ptx_arch": "sm_80"},
    {"unit": "scale_k0", "offset": 1008, "bytes": 2000, "ptx_arch": "sm_90"}
  ],
)j");
}

// Read back with yaml-cpp (JSON is YAML's flow syntax): llvm/Support/JSON.h
// does not compile with Clang in C++20 against libstdc++ 12 (llvm-project
// issue #55780), and the sanitizer build is a Clang build.
TEST(ManifestWriter, IsValidJsonThatReadsBackTheSame) {
  std::string json = scaleAndViews().json;
  YAML::Node doc;
  ASSERT_NO_THROW(doc = YAML::Load(json)) << json;
  ASSERT_TRUE(doc.IsMap());
  EXPECT_EQ(doc["format"].as<std::string>(), "fuserc-manifest");
  YAML::Node fusions = doc["fusions"];
  ASSERT_TRUE(fusions.IsSequence());
  ASSERT_EQ(fusions.size(), 2u);
  EXPECT_EQ(fusions[1]["c_prefix"].as<std::string>(), "kernels__views");
}

TEST(ManifestWriter, DescribesInputsWithSymbolicShapesLayoutsAndStrideFormulas) {
  std::string json = scaleAndViews().json;
  EXPECT_TRUE(contains(json, R"j({
          "name": "x",
          "kind": "tensor",
          "dtype": "f16",
          "shape": ["N", "C", "H", "W"],
          "layout": [0, 2, 3, 1],
          "strided": false,
          "strides": ["C*H*W", "1", "C*W", "C"]
        },)j"))
      << json;
  EXPECT_TRUE(contains(json, R"j("strided": true,
          "strides": ["z.stride0", "z.stride1"])j"));
  EXPECT_TRUE(
      contains(json, R"j({"name": "s", "kind": "scalar", "dtype": "f32", "c_type": "float"})j"));
}

TEST(ManifestWriter, DescribesNewBuffersViewsAndInPlaceOutputs) {
  std::string json = scaleAndViews().json;
  EXPECT_TRUE(contains(json, R"j({
          "name": "y",
          "dtype": "f32",
          "shape": ["N", "C"],
          "layout": [1, 0],
          "layout_origin": "from x through mul",
          "kind": "new_buffer",
          "strides": ["1", "N"],
          "aliases": null,
          "view": null
        })j"))
      << json;
  EXPECT_TRUE(contains(json, R"j("kind": "view",
          "strides": ["z.stride0", "z.stride1"],
          "aliases": null,
          "view": {
            "base": "z",
            "offset": "z.stride1",
            "strides": ["z.stride0", "z.stride1"]
          })j"));
  EXPECT_TRUE(contains(json, R"j("kind": "in_place",
          "strides": ["K", "1"],
          "aliases": "u",
          "view": null)j"));
}

TEST(ManifestWriter, GivesEveryVariantItsResourcesPerArch) {
  std::string json = scaleAndViews().json;
  EXPECT_TRUE(contains(json, R"j({
              "symbol": "scale_k0",
              "condition": "otherwise",
              "resources": {
                "sm_80": {
                  "registers": 16,
                  "shared_bytes": 0,
                  "stack_bytes": 0,
                  "spill_store_bytes": 0,
                  "spill_load_bytes": 0
                },
                "sm_90": {
                  "registers": 18,
                  "shared_bytes": 0,
                  "stack_bytes": 8,
                  "spill_store_bytes": 4,
                  "spill_load_bytes": 4
                }
              },
              "image": 1
            })j"))
      << json;
  // No report for a variant on an arch: null, not a guess.
  EXPECT_TRUE(contains(json, R"j("symbol": "scale_k0_vec4",)j"));
  EXPECT_TRUE(contains(json, R"j("sm_90": null)j"));
}

TEST(ManifestWriter, DescribesKernelsParametersSelectionGeometryAndBytesMoved) {
  std::string json = scaleAndViews().json;
  EXPECT_TRUE(contains(json, R"j("name": "scale_k0",
          "segment": 0,
          "scheduler": "pointwise",
          "family": "pointwise",
          "ops": ["y = mul(x, s)"],
          "parameters": {"block": 256, "vector": "4 or 1"},)j"))
      << json;
  EXPECT_TRUE(contains(json, R"j("selection": "the first variant whose condition holds",
          "launch_geometry": "grid ceildiv(N*C / vector, 256), block 256",
          "variants_left_out": null,
          "bytes_moved": "8*C*N")j"));
  EXPECT_TRUE(contains(json, R"j("workspace_bytes": "4*K*M")j"));
}

TEST(ManifestWriter, ListsSegmentsWithSchedulerOpsAndWhatTheyReadAndWrite) {
  std::string json = scaleAndViews().json;
  EXPECT_TRUE(contains(json, R"j("segments": [
        {
          "id": 0,
          "scheduler": "pointwise",
          "ops": [
            {"value": "a", "op": "permute"},
            {"value": "b", "op": "slice"},
            {"value": "c", "op": "add"}
          ],
          "reads": ["x", "z", "u"],
          "writes": ["c"],
          "views": ["a", "b"]
        }
      ],)j"))
      << json;
  EXPECT_TRUE(contains(json, R"j("segment_boundaries": [],
      "whole_fusion_rejections": [],)j"));
}

TEST(ManifestWriter, GivesEveryBoundaryItsReasons) {
  const char *source = R"j(
fusion centered {
  input x: f32[M, N]
  r = sum(x, axes=[1], keepdim=true)
  c = sum(x, axes=[0], keepdim=true)
  y = add(sub(x, r), c)
  output y
}
)j";
  std::string json = write(source, {}).json;
  EXPECT_TRUE(contains(json, R"j("tensors_between_segments": [
        {
          "name": "c",
          "dtype": "f32",
          "storage": "f32",
          "producer": 0,
          "consumers": [1],
          "kind": "workspace",
          "bytes": "4*N"
        }
      ],)j"))
      << json;
  EXPECT_TRUE(contains(json, R"j("segments": [0, 1],
          "passed": ["c"],
          "shared": ["x"],
          "cycle_through": null,
          "rejections": [
            {"scheduler": "alias", "reason": "'r' (sum) is not a view op"},)j"));
  EXPECT_TRUE(contains(json, R"j("whole_fusion_rejections": [
        {"scheduler": "alias", "reason": "'r' (sum) is not a view op"},)j"));
  // Without code, a fusion has no kernels and no workspace to report.
  EXPECT_TRUE(contains(json, R"j("kernels": [],
      "workspace_bytes": "0")j"));
}

TEST(ManifestWriter, MatchesResourcesFromNvrtcToVariantSymbols) {
  std::vector<FusionCode> code = {test::scaleCode(), test::viewsCode()};
  test::BuiltKernels built = test::buildKernels(code);
  ASSERT_TRUE(built.error.empty()) << built.error;
  auto compiled = test::compile(test::kScaleAndViews);
  ASSERT_TRUE(compiled->ok) << compiled->diagnostics;
  ManifestContents contents;
  contents.name = "kernels";
  contents.module = &compiled->module;
  contents.code = code;
  contents.resources = &built.resources;
  contents.toolchain = fixedToolchain();
  std::string json = writeManifest(contents);
  YAML::Node doc;
  ASSERT_NO_THROW(doc = YAML::Load(json)) << json;
  YAML::Node variants = doc["fusions"][0]["kernels"][0]["variants"];
  ASSERT_TRUE(variants.IsSequence()) << json;
  for (const YAML::Node &variant : variants)
    for (const char *arch : {"sm_80", "sm_90"}) {
      YAML::Node r = variant["resources"][arch];
      ASSERT_TRUE(r.IsMap()) << json;
      EXPECT_GT(r["registers"].as<int>(0), 0) << json;
    }
}

TEST(ManifestWriter, SameInputsGiveIdenticalBytes) {
  EXPECT_EQ(scaleAndViews().json, scaleAndViews().json);
}

TEST(ManifestWriter, CurrentToolchainEmbedsPtxOfTheNewestArch) {
  EXPECT_EQ(currentToolchain({"sm_90", "sm_80"}).ptxArch, "sm_90");
  EXPECT_EQ(currentToolchain({"sm_80", "sm_100"}).ptxArch, "sm_100");
  ToolchainInfo info = currentToolchain({"sm_80"});
  EXPECT_EQ(info.nvrtcVersion, nvrtcVersionString());
  EXPECT_FALSE(info.fusercVersion.empty());
  EXPECT_NE(info.cudaToolkitVersion, "unknown");
}

} // namespace
} // namespace fuserc
