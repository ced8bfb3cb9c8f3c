// Reading whole files (support/FileBytes.h): only regular files of bounded
// size are read; devices, FIFOs and directories are refused at once.
#include "support/FileBytes.h"

#include "ScratchDir.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

namespace fuserc {
namespace {

using test::ScratchDir;

TEST(FileBytes, ReadsARegularFileWithinTheLimit) {
  ScratchDir dir;
  ASSERT_TRUE(writeFileBytes(dir.file("a"), std::string("x\0y", 3)));
  EXPECT_EQ(readFileBytes(dir.file("a"), 3), std::string("x\0y", 3));
}

TEST(FileBytes, AFileLargerThanTheLimitIsRefused) {
  ScratchDir dir;
  ASSERT_TRUE(writeFileBytes(dir.file("a"), "1234"));
  std::string error;
  EXPECT_EQ(readFileBytes(dir.file("a"), 3, &error), std::nullopt);
  EXPECT_EQ(error, "larger than 3 bytes");
}

TEST(FileBytes, DevicesThatNeverEndAreRefusedWithoutReading) {
  std::string error;
  EXPECT_EQ(readFileBytes("/dev/zero", 1 << 20, &error), std::nullopt);
  EXPECT_EQ(error, "not a regular file (a character device)");
  EXPECT_EQ(readFileBytes("/dev/urandom", 1 << 20, &error), std::nullopt);
}

TEST(FileBytes, AFifoIsRefusedWithoutWaitingForAWriter) {
  ScratchDir dir;
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
  std::string error;
  EXPECT_EQ(readFileBytes(dir.file("fifo"), 1 << 20, &error), std::nullopt);
  EXPECT_EQ(error, "not a regular file (a FIFO)");
}

TEST(FileBytes, ADirectoryIsRefused) {
  ScratchDir dir;
  std::string error;
  EXPECT_EQ(readFileBytes(std::string(dir.path), 1 << 20, &error), std::nullopt);
  EXPECT_EQ(error, "not a regular file (a directory)");
}

TEST(FileBytes, AMissingFileSaysSo) {
  std::string error;
  EXPECT_EQ(readFileBytes("/nonexistent/fuserc", 1, &error), std::nullopt);
  EXPECT_EQ(error, "No such file or directory");
}

} // namespace
} // namespace fuserc
