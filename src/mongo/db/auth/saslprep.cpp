#include "mongo/db/auth/saslprep.h"

#include <stringprep.h>

#include <cstdlib>

namespace mongo::auth {

StatusWith<std::string> saslPrep(const std::string& s) {
    // Plain ASCII without control characters maps to itself: skip the library.
    bool ascii = true;
    for (unsigned char c : s)
        if (c < 0x20 || c >= 0x7f) ascii = false;
    if (ascii) return s;
    char* out = nullptr;
    int rc = stringprep_profile(s.c_str(), &out, "SASLprep", static_cast<Stringprep_profile_flags>(0));
    if (rc != STRINGPREP_OK) {
        if (out) free(out);
        return Status(ErrorCodes::BadValue,
                      std::string("Error SASLPrepping input: ") + stringprep_strerror(static_cast<Stringprep_rc>(rc)));
    }
    std::string prepared(out);
    free(out);
    return prepared;
}

}  // namespace mongo::auth
