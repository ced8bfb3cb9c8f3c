// Tests of typed schedules: printing, hashing and comparing (Schedule.h),
// and the decisions the built-in schedulers make once per segment
// (BuiltinSchedules.h), which their generators receive.
#include "TestSupport.h"

#include "codegen/BuiltinGenerators.h"
#include "driver/Pipeline.h"
#include "schedulers/BuiltinSchedules.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

class FixedSchedule final : public Schedule {
public:
  FixedSchedule(std::string family, std::vector<ScheduleField> fields)
      : family_(std::move(family)), fields_(std::move(fields)) {}
  std::string_view family() const override { return family_; }
  std::vector<ScheduleField> fields() const override { return fields_; }

private:
  std::string family_;
  std::vector<ScheduleField> fields_;
};

TEST(Schedule, PrintsEachFieldWithItsType) {
  FixedSchedule s("rows", {{"reduced_axes", std::vector<int64_t>{0, 2}},
                           {"vector", int64_t{8}},
                           {"normalization", true},
                           {"reference", "y"}});
  EXPECT_EQ(s.str(), "rows(reduced_axes=[0, 2], vector=8, normalization=true, reference=y)");
}

TEST(Schedule, EqualAndHashEqualOnlyWithTheSameFamilyAndFields) {
  FixedSchedule a("rows", {{"vector", int64_t{8}}});
  FixedSchedule same("rows", {{"vector", int64_t{8}}});
  FixedSchedule otherValue("rows", {{"vector", int64_t{4}}});
  FixedSchedule otherFamily("columns", {{"vector", int64_t{8}}});
  FixedSchedule otherType("rows", {{"vector", std::string("8")}});
  EXPECT_TRUE(a == same);
  EXPECT_EQ(a.hash(), same.hash());
  EXPECT_FALSE(a == otherValue);
  EXPECT_FALSE(a == otherFamily);
  EXPECT_FALSE(a == otherType); // "8" as text is not the number 8
  EXPECT_NE(a.hash(), otherType.hash());
}

// The schedules the pipeline's schedule stage gives each segment of `text`.
std::vector<std::shared_ptr<const Schedule>> schedulesOf(std::string_view text) {
  test::Loaded loaded = test::load(text);
  EXPECT_TRUE(loaded.ok) << loaded.diagnostics;
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  DiagnosticEngine diag(os);
  CompileOptions options;
  options.dumpStages = {"schedule"};
  PipelineResult result = runPipeline(loaded.module, options, diag);
  EXPECT_EQ(result.status, PipelineResult::Status::Ok) << result.message << os.str();
  std::vector<std::shared_ptr<const Schedule>> schedules;
  for (const SegmentedFusion &s : result.segmentations)
    for (const ScheduledSegment &seg : s.segments)
      schedules.push_back(seg.schedule);
  return schedules;
}

TEST(BuiltinSchedules, AnOuterReductionIsAColumnsSchedule) {
  auto schedules = schedulesOf(R"(fusion f {
  input x: f32[R, C]
  y = sum(x, axes=[0])
  output y
})");
  ASSERT_EQ(schedules.size(), 1u);
  const auto *s = dynamic_cast<const ReductionSchedule *>(schedules[0].get());
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->family(), "columns");
  EXPECT_EQ(s->str(), "columns(reduced_axes=[0], memory_order=[0, 1], outer_kept_dims=[], "
                      "reduced_dims=[0], inner_kept_dims=[1], normalization=false)");
}

TEST(BuiltinSchedules, ANormalizationKeepsItsRowsOnChipAsARowsSchedule) {
  auto schedules = schedulesOf(R"(fusion f {
  input x: f32[R, C]
  y = sub(x, max(x, axes=[1], keepdim=true))
  output y
})");
  ASSERT_EQ(schedules.size(), 1u);
  const auto *s = dynamic_cast<const ReductionSchedule *>(schedules[0].get());
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->family(), "rows");
  EXPECT_TRUE(s->normalization);
  EXPECT_EQ(s->rows.axes, std::vector<int64_t>{1});
}

TEST(BuiltinSchedules, APointwiseScheduleWalksTheFirstWrittenOutputInItsLayout) {
  auto schedules = schedulesOf(R"(fusion f {
  input x: f32[A, B]
  y = exp(x)
  output y layout(1, 0)
})");
  ASSERT_EQ(schedules.size(), 1u);
  ASSERT_NE(schedules[0], nullptr);
  EXPECT_EQ(schedules[0]->str(), "transpose(reference=y, iteration_order=[1, 0])");
}

TEST(BuiltinSchedules, ViewOnlySegmentsHaveNoSchedule) {
  auto schedules = schedulesOf(R"(fusion f {
  input x: f32[A, B]
  y = permute(x, dims=[1, 0])
  output y
})");
  ASSERT_EQ(schedules.size(), 1u);
  EXPECT_EQ(schedules[0], nullptr);
}

} // namespace
} // namespace fuserc
