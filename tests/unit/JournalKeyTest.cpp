// The key that signs commit journals (driver/JournalKey.h): made once, 32
// random bytes of mode 0600, read back by later runs; a key that others
// could read or change, or that is not this user's own file, is not used.
#include "driver/JournalKey.h"

#include "ScratchDir.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

namespace fuserc {
namespace {

using test::ScratchDir;

TEST(JournalKey, IsCreatedOnFirstUseWithMode0600AndReadBackLater) {
  ScratchDir dir("fuserc-journal-key");
  const std::string path = dir.file("state/fuserc/journal.key");
  JournalKey first(path);
  const std::string *secret = first.secret();
  ASSERT_NE(secret, nullptr) << first.problem();
  EXPECT_EQ(secret->size(), 32u);
  struct stat st;
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  JournalKey later(path);
  ASSERT_NE(later.secret(), nullptr) << later.problem();
  EXPECT_EQ(*later.secret(), *secret);
}

TEST(JournalKey, TwoKeysAreNotAlike) {
  ScratchDir dir("fuserc-journal-key");
  JournalKey a(dir.file("a.key")), b(dir.file("b.key"));
  ASSERT_NE(a.secret(), nullptr);
  ASSERT_NE(b.secret(), nullptr);
  EXPECT_NE(*a.secret(), *b.secret());
}

TEST(JournalKey, AKeyOthersMayReadIsNotUsed) {
  ScratchDir dir("fuserc-journal-key");
  const std::string path = dir.file("journal.key");
  ASSERT_NE(JournalKey(path).secret(), nullptr);
  ASSERT_EQ(::chmod(path.c_str(), 0644), 0);
  JournalKey key(path);
  EXPECT_EQ(key.secret(), nullptr);
  EXPECT_EQ(key.problem(), "cannot use the journal key '" + path +
                               "': other users may read or change it (it must have mode 0600)");
}

TEST(JournalKey, ALinkOrAFileOfAnotherSizeIsNotUsed) {
  ScratchDir dir("fuserc-journal-key");
  const std::string real = dir.file("real.key"), link = dir.file("link.key");
  ASSERT_NE(JournalKey(real).secret(), nullptr);
  ASSERT_EQ(::symlink(real.c_str(), link.c_str()), 0);
  JournalKey linked(link);
  EXPECT_EQ(linked.secret(), nullptr);
  EXPECT_NE(linked.problem().find("Too many levels of symbolic links"), std::string::npos)
      << linked.problem();
  ASSERT_EQ(::truncate(real.c_str(), 16), 0);
  JournalKey truncated(real);
  EXPECT_EQ(truncated.secret(), nullptr);
  EXPECT_EQ(truncated.problem(),
            "cannot use the journal key '" + real + "': not a key of 32 bytes");
}

TEST(JournalKey, WithoutAPlaceThereIsNoKey) {
  JournalKey none("", "no journal key: neither XDG_CACHE_HOME nor HOME is set");
  EXPECT_FALSE(none.configured());
  EXPECT_EQ(none.secret(), nullptr);
  EXPECT_EQ(none.problem(), "no journal key: neither XDG_CACHE_HOME nor HOME is set");
}

} // namespace
} // namespace fuserc
