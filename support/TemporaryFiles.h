// Temporary files written beside their final path and renamed over it, the
// building block of every all-or-nothing write (outputs, dumps, the compile
// cache). A temporary is hidden and carries the writing run's id, its
// process id and a random part — `.NAME.fuserc-tmp-PID-RANDOM-XXXXXX` — so
// the temporaries a killed run left behind can be told apart from those of
// a run still writing, and removed, and a commit journal can name the
// temporaries of its own run and no others.
#pragma once

#include <string>

namespace fuserc {

// Creates a new temporary beside `target` holding `bytes`; its path goes to
// `temp`. On failure nothing is left behind and `error` says why.
bool writeTemporaryBeside(const std::string &target, const std::string &bytes, std::string &temp,
                          std::string &error);

// Writes `bytes` to `target` through a temporary renamed over it: a reader
// sees the old file or the whole new one.
bool writeFileAtomically(const std::string &target, const std::string &bytes, std::string &error);

// This process's run id, `PID-RANDOM` (RANDOM: 8 hexadecimal digits, few
// enough to keep long output names within NAME_MAX), as it appears in the
// names of its temporaries.
const std::string &runId();

// True for a temporary's file name (not a path).
bool isTemporaryName(const std::string &fileName);
// True for the name of a temporary that run `run` wrote beside `target`
// (file names).
bool isTemporaryOf(const std::string &fileName, const std::string &target, const std::string &run);
// The name (in `target`'s directory) under which this process keeps the
// previous `target` while it replaces it: a temporary, so a killed run's
// copy is removed like its other temporaries.
std::string keptCopyName(const std::string &target);

// Removes the temporaries in `dir` whose writing process no longer runs.
// Best effort: files that cannot be removed stay.
void removeOrphanedTemporaries(const std::string &dir);

} // namespace fuserc
