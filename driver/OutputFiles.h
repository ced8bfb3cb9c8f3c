// Writing one run's output files as a single commit, so that a reader — or a
// build interrupted by SIGKILL at any moment — never sees a half-written
// file, and a failed run leaves no new output behind.
//
// 1. Every file is written completely to a temporary beside its target
//    (support/TemporaryFiles.h).
// 2. A journal listing the renames still to do is written and renamed into
//    place as `.fuserc-journal-FIRST` (FIRST: the first file's name). That
//    rename is the commit point: before it, the previous outputs are intact.
// 3. The temporaries are renamed over their targets; the journal goes last.
//
// A run killed during step 3 (a few renames, microseconds) leaves the
// journal. Every run that writes into the directory first finishes the
// renames of any journal it finds there and removes the temporaries of dead
// writers (`recoverInterruptedCommits`), so the next fuserc run — what a
// build system does after a failed command — completes the interrupted
// commit before anything else. Strict atomicity across several paths would
// need symbolic links into versioned directories, which `install(FILES)` and
// version control would copy as dangling links.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace fuserc {

// Writes every `files` entry (name -> bytes) into `dir` (created if
// missing) as one commit; all or nothing. On failure `error` says why.
bool writeFilesAtomically(const std::string &dir, const std::map<std::string, std::string> &files,
                          std::string &error);

// Finishes the commits that killed runs left in `dir` and removes their
// temporaries. Returns the names of the files whose commit it finished.
std::vector<std::string> recoverInterruptedCommits(const std::string &dir);

} // namespace fuserc
