// The journal of one commit of output files (driver/OutputFiles.h): the
// renames still to do, which a run finishes when the run that wrote it was
// killed. An output directory is no place to take instructions from, so a
// journal is honoured only when
//
// - its HMAC-SHA256 under the user's key (driver/JournalKey.h) verifies: a
//   fuserc run of this user wrote it, and nothing in it changed since;
// - every rename's source is a temporary that the journal's run wrote
//   beside that target (its name carries the run id, support/TemporaryFiles.h);
// - every target is one of the files of the set that run was committing:
//   the outputs of its base name, or its dumps;
// - it lies in the directory its run wrote it for (a journal and its
//   temporaries copied into another directory are not replayed there).
//
// Anything else makes the whole journal ignored.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace fuserc {

// What one commit writes, and so all that its journal may rename onto.
struct OutputSet {
  enum class Kind { Outputs, Dumps };
  Kind kind = Kind::Outputs;
  std::string name; // Outputs: the base name, a C identifier

  // The outputs NAME.h, NAME.c, NAME.fatbin, NAME.manifest.json, NAME.cu
  // and libNAME.so (docs/command-line.md), or the dumps NN-STAGE.txt/.dot.
  bool contains(llvm::StringRef fileName) const;
  // "the outputs of 'NAME'" or "the dumps", for messages.
  std::string describe() const;
};

struct Rename {
  std::string temp;   // file name of the temporary, in the same directory
  std::string target; // file name of the output
  std::string sha256; // of the temporary's bytes
};

struct Journal {
  std::string run; // the id of the run that wrote it (runId())
  OutputSet set;
  std::vector<Rename> renames;
  std::string directory; // the output directory's real path (journalDirectory)
};

// The identity of output directory `dir` that a journal records: its real
// path (links resolved), or its absolute path where that cannot be had.
std::string journalDirectory(const std::string &dir);

// The journal's text, signed with `secret`; unsigned when `secret` is null
// (no run will honour it: it only tells the next run what was interrupted).
std::string encodeJournal(const Journal &journal, const std::string *secret);

// The journal `text` holds when it is to be honoured (see above) in the
// directory `directory` (journalDirectory), else nullopt with `problem`
// saying why, naming the entry at fault.
std::optional<Journal> decodeJournal(llvm::StringRef text, const std::string &secret,
                                     const std::string &directory, std::string &problem);

} // namespace fuserc
