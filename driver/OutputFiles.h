// Writing one run's output files as a single commit, so that a reader — or a
// build interrupted by SIGKILL at any moment — never sees a half-written
// file, and a failed run leaves no new output behind.
//
// 1. Under an exclusive lock on the directory (flock), so that concurrent
//    runs into one directory commit one after the other: interrupted
//    commits are finished first, and every target is checked to be
//    replaceable (a directory is not) before anything is written.
// 2. Every file is written completely to a temporary beside its target
//    (support/TemporaryFiles.h), and each existing target gets a second
//    name (a hard link), for a rollback.
// 3. A journal listing the renames still to do, with a SHA-256 of each
//    temporary's bytes, signed with the user's key (driver/CommitJournal.h),
//    is written and renamed into place as `.fuserc-journal-FIRST` (FIRST:
//    the first file's name). That rename is the commit point: before it,
//    the previous outputs are intact.
// 4. The temporaries are renamed over their targets; the journal goes last.
//    A rename that fails (an immutable target) rolls the renames before it
//    back: the previous set stays whole.
//
// A run killed during step 4 (a few renames, microseconds) leaves the
// journal. Every run that writes into the directory first finishes the
// renames of any journal it finds there and removes the temporaries of dead
// writers (`recoverInterruptedCommits`), so the next fuserc run — what a
// build system does after a failed command — completes the interrupted
// commit before anything else. A journal is obeyed only when its signature
// verifies, it names temporaries of its own run holding the bytes it records
// and its targets are files of the set that run committed; any other is
// reported and removed, never obeyed (an output directory is no place to
// take instructions from). Without a key, journals are written unsigned and
// none is obeyed. Strict atomicity across several paths would need symbolic
// links into versioned directories, which `install(FILES)` and version
// control would copy as dangling links.
#pragma once

#include "driver/CommitJournal.h"
#include "driver/JournalKey.h"

#include <map>
#include <string>
#include <vector>

namespace fuserc {

// Writes every `files` entry (name -> bytes, each a file of `set`) into
// `dir` (created if missing) as one commit, its journal signed with `key`;
// all or nothing. On failure `error` says why. Journals it ignored, and a
// key it could not use, are reported in `warnings`.
bool writeFilesAtomically(const std::string &dir, const OutputSet &set,
                          const std::map<std::string, std::string> &files, JournalKey &key,
                          std::string &error, std::vector<std::string> *warnings = nullptr);

// Finishes the commits that killed runs left in `dir`, as far as their
// journals verify with `key`, and removes their temporaries. Returns the
// names of the files whose commit it finished; journals it ignored are
// reported in `warnings`.
std::vector<std::string> recoverInterruptedCommits(const std::string &dir, JournalKey &key,
                                                   std::vector<std::string> &warnings);

} // namespace fuserc
