#pragma once
// SASLprep (RFC 4013) of user names and passwords for SCRAM-SHA-256 (RFC 7677 requires it),
// by libidn's stringprep with its "SASLprep" profile: this project does not implement Unicode
// normalisation itself. Unassigned code points are allowed (a "query" string, RFC 3454 7),
// as drivers prepare them. Pure function: callable from any thread.
#include <string>

#include "mongo/base/status.h"

namespace mongo::auth {

// The prepared form of s (UTF-8), or BadValue for a string SASLprep prohibits (control
// characters, unpaired bidirectional text, invalid UTF-8, ...).
StatusWith<std::string> saslPrep(const std::string& s);

}  // namespace mongo::auth
