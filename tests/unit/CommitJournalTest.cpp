// Commit journals (driver/CommitJournal.h): a journal is honoured only when
// its signature verifies under the key, its temporaries are its run's and
// its targets are files of its set; anything else is refused, saying why.
#include "driver/CommitJournal.h"

#include "support/TemporaryFiles.h"

#include <gtest/gtest.h>

namespace fuserc {
namespace {

const std::string kKey(32, 'K');
const std::string kSha(64, 'a');
const std::string kDir = "/work/out";

Journal journalOf(const std::string &temp, const std::string &target) {
  return Journal{"4242-01234567", {OutputSet::Kind::Outputs, "k"}, {{temp, target, kSha}}, kDir};
}

std::string refusal(const std::string &text, const std::string &key = kKey,
                    const std::string &dir = kDir) {
  std::string problem;
  EXPECT_EQ(decodeJournal(text, key, dir, problem), std::nullopt);
  return problem;
}

TEST(CommitJournal, ASignedJournalOfItsRunsTemporariesIsHonoured) {
  Journal written = journalOf(".k.h.fuserc-tmp-4242-01234567-x1y2z3", "k.h");
  std::string problem;
  std::optional<Journal> read = decodeJournal(encodeJournal(written, &kKey), kKey, kDir, problem);
  ASSERT_TRUE(read) << problem;
  EXPECT_EQ(read->run, written.run);
  EXPECT_EQ(read->set.name, "k");
  ASSERT_EQ(read->renames.size(), 1u);
  EXPECT_EQ(read->renames[0].temp, written.renames[0].temp);
  EXPECT_EQ(read->renames[0].target, "k.h");
  EXPECT_EQ(read->renames[0].sha256, kSha);
}

TEST(CommitJournal, AnyChangedByteOrAnotherKeyBreaksTheSignature) {
  std::string text = encodeJournal(journalOf(".k.h.fuserc-tmp-4242-01234567-x1y2z3", "k.h"), &kKey);
  EXPECT_EQ(refusal(text, std::string(32, 'L')),
            "its signature does not verify with this user's key");
  std::string changed = text;
  changed[changed.find("k.h ")] = 'j'; // the target, k.h -> j.h
  EXPECT_EQ(refusal(changed), "its signature does not verify with this user's key");
}

TEST(CommitJournal, AnUnsignedJournalIsNeverHonoured) {
  std::string text =
      encodeJournal(journalOf(".k.h.fuserc-tmp-4242-01234567-x1y2z3", "k.h"), nullptr);
  EXPECT_EQ(refusal(text), "it is unsigned (its run had no key to sign it with)");
}

TEST(CommitJournal, ASignedJournalOntoAFileOutsideItsSetIsRefused) {
  std::string text =
      encodeJournal(journalOf(".Makefile.fuserc-tmp-4242-01234567-x1y2z3", "Makefile"), &kKey);
  EXPECT_EQ(refusal(text), "'Makefile' is not one of the outputs of 'k'");
}

TEST(CommitJournal, ASignedJournalFromAnotherRunsTemporaryIsRefused) {
  std::string text = encodeJournal(journalOf(".k.h.fuserc-tmp-4242-fedcba98-x1y2z3", "k.h"), &kKey);
  EXPECT_EQ(refusal(text), "'.k.h.fuserc-tmp-4242-fedcba98-x1y2z3' is not a temporary of "
                           "'k.h' written by run 4242-01234567");
  text = encodeJournal(journalOf("notes.txt", "k.h"), &kKey);
  EXPECT_EQ(refusal(text), "'notes.txt' is not a temporary of 'k.h' written by run "
                           "4242-01234567");
}

TEST(CommitJournal, ASignedJournalCopiedIntoAnotherDirectoryIsRefusedThere) {
  std::string text = encodeJournal(journalOf(".k.h.fuserc-tmp-4242-01234567-x1y2z3", "k.h"), &kKey);
  EXPECT_EQ(refusal(text, kKey, "/work/elsewhere"),
            "it was written for the directory '/work/out', not this one");
}

TEST(CommitJournal, TextThatIsNoJournalIsRefusedBeforeItIsRead) {
  EXPECT_EQ(refusal(""), "not a whole fuserc journal");
  EXPECT_EQ(refusal("fuserc-journal-2\n1:a1:b " + kSha + "\nsha256=" + kSha + "\n"),
            "not a whole fuserc journal");
}

TEST(CommitJournal, OutputSetsHoldTheFilesARunWrites) {
  OutputSet outputs{OutputSet::Kind::Outputs, "k"};
  for (const char *name : {"k.h", "k.c", "k.fatbin", "k.manifest.json", "k.cu", "libk.so"})
    EXPECT_TRUE(outputs.contains(name)) << name;
  for (const char *name : {"Makefile", "k", "k.h.bak", "kk.h", "libk.h", ".k.h", "01-parsed.txt"})
    EXPECT_FALSE(outputs.contains(name)) << name;
  OutputSet dumps{OutputSet::Kind::Dumps, ""};
  EXPECT_TRUE(dumps.contains("01-parsed.txt"));
  EXPECT_FALSE(dumps.contains("01-parsed.sh"));
  EXPECT_FALSE(dumps.contains("k.h"));
}

TEST(CommitJournal, TemporariesCarryTheirRunsId) {
  EXPECT_TRUE(isTemporaryOf(".k.h.fuserc-tmp-" + runId() + "-abcdef", "k.h", runId()));
  EXPECT_FALSE(isTemporaryOf(".k.h.fuserc-tmp-" + runId() + "-", "k.h", runId()));
  EXPECT_FALSE(isTemporaryOf(".k.h.fuserc-tmp-" + runId() + "-abcdef", "k.c", runId()));
  EXPECT_FALSE(isTemporaryOf(".k.h.fuserc-tmp-1-00000000-abcdef", "k.h", runId()));
}

} // namespace
} // namespace fuserc
