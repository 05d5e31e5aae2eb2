// The ZIP container, as far as .npz files need it (PKWARE APPNOTE 6.3): reading
// members that are stored or deflated, with ZIP64 sizes and offsets (numpy.savez
// always writes a ZIP64 extra field), and writing stored members.
//
// Archives are untrusted input: every offset and size is checked against the bytes
// actually present, CRC-32s are verified, and anything malformed is a RuntimeError
// naming the archive and the problem.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace relay::rt {

struct ZipMember {
  std::string name;
  std::string data;  // uncompressed
};

// All members in central-directory order. `archive_name` is used in error messages.
std::vector<ZipMember> read_zip(std::string_view archive, const std::string& archive_name);

struct ZipWriteOptions {
  // Give every member ZIP64 sizes even when 32 bits suffice (as numpy.savez does).
  // Members or offsets past 4 GiB and more than 65535 members use ZIP64 regardless.
  bool force_zip64 = false;
};

// An archive of stored (uncompressed) members with fixed timestamps, so the same input
// always gives the same bytes.
std::string write_zip(const std::vector<ZipMember>& members, const ZipWriteOptions& options = {});

}  // namespace relay::rt
