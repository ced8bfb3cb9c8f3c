// Writing output files so that a reader never sees a half-written file and
// a failed run leaves no new output behind: each file goes to a unique
// temporary name beside its target first, and only when every one is
// complete are they renamed into place.
#pragma once

#include <map>
#include <string>

namespace fuserc {

// Writes every `files` entry (name -> bytes) into `dir` (created if
// missing); all or nothing. On failure `error` says why.
bool writeFilesAtomically(const std::string &dir, const std::map<std::string, std::string> &files,
                          std::string &error);

} // namespace fuserc
