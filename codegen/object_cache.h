// The on-disk cache of compiled code.
//
// Note [On-disk compiled-code cache]
// Compiling a small function (lowering, LLVM's O2 pipeline, instruction
// selection) costs a few milliseconds; a script run again compiles the same
// functions again. So the object code of every compiled function is kept in
// a file, keyed by everything the code depends on:
//   - the printed IR text of the function (Note [Compiled-code caches]),
//   - the host: target triple, CPU name and feature string (the code is
//     specialized for them, and the vector math width follows the CPU),
//   - tfs itself: its version and the GNU build ID of the running
//     executable (a hash of the linked code: any change to the lowering
//     gives a new ID), and LLVM's version.
// An entry is one file named by a 128-bit hash of that key, holding the key
// itself, the object code and a checksum; a load checks all three, so a
// truncated, corrupted or colliding entry is ignored (and rewritten by the
// compile that follows), never run. Entries are written to a temporary file
// and renamed into place, so concurrent processes see whole entries only.
// The directory: $TFS_COMPILE_CACHE_DIR, else $XDG_CACHE_HOME/tfs, else
// ~/.cache/tfs; TFS_NO_COMPILE_CACHE=1 turns the cache off. Entries live in
// one subdirectory per tfs build; when the cache grows past 256 MiB, the
// least recently written other builds' subdirectories are removed (checked
// at most once an hour: the file last-trim records when). An
// executable without a build ID uses no disk cache (versions could not be
// told apart). Every file-system error just means "no entry".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tfs::codegen {

// The cache directory the environment asks for (see the Note), or none
// when the cache is disabled or no directory can be named.
std::optional<std::string> defaultObjectCacheDirectory();

// The GNU build ID of the running executable, in hex ("" when it has none).
const std::string &executableBuildId();

class ObjectCache {
public:
  // Given the root directory (none: disabled) and the host/build part of
  // every key (the part that names this build's subdirectory).
  ObjectCache(std::optional<std::string> root, std::string hostKey);

  bool enabled() const { return dir_.has_value(); }
  // Result: the object code stored for `key` (the IR text), or none when
  // there is no valid entry; `rejected` is set when an entry existed but
  // was truncated, corrupt or for another key.
  std::optional<std::string> load(std::string_view key, bool &rejected) const;
  // Execute: stores `object` for `key` (atomically; errors ignored).
  // Result: whether the entry was written.
  bool store(std::string_view key, std::string_view object);
  // The file an entry for `key` lives in (tests).
  std::string entryPath(std::string_view key) const;

private:
  std::string fullKey(std::string_view key) const;
  void trimOnce();
  std::optional<std::string> root_, dir_;
  std::string hostKey_;
  bool trimmed_ = false;
};

}  // namespace tfs::codegen
