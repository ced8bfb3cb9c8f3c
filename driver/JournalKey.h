// The per-user secret that signs commit journals (driver/CommitJournal.h),
// so that a run honours only journals that a fuserc run of the same user
// wrote, never one planted in an output directory.
//
// It is 32 random bytes in `journal.key` of the user's fuserc cache
// directory ($XDG_CACHE_HOME/fuserc, else $HOME/.cache/fuserc), created on
// first need with mode 0600. Not in `--cache-dir`, which several users may
// share, nor in an output directory. A key that is not a regular file of
// this user, readable by nobody else, of exactly 32 bytes, is not used:
// without a key no journal is honoured.
#pragma once

#include <string>

namespace fuserc {

class JournalKey {
public:
  // The key at `path`; with an empty path there is none (`problem` says why).
  explicit JournalKey(std::string path, std::string problem = "");
  // The user's key, where the header comment says.
  static JournalKey forUser();

  // Whether a place for the key is known; without one journals go unsigned.
  bool configured() const { return !path_.empty(); }
  // The secret, read, or created when missing, on first use; null when
  // there is none, and problem() then says why.
  const std::string *secret();
  const std::string &problem() const { return problem_; }
  // True the first time it is asked while a key's place is known but the
  // key cannot be used, so that a run warns once that it commits unsigned.
  bool firstUnusable();

private:
  bool read();
  bool create();

  std::string path_;
  std::string secret_;
  std::string problem_;
  bool tried_ = false;
  bool reported_ = false;
};

} // namespace fuserc
