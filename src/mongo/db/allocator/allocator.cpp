#include "mongo/db/allocator/allocator.h"

#ifdef MONGO_HAVE_TCMALLOC
#include <gperftools/malloc_extension.h>
#endif

namespace mongo::allocator {

#ifdef MONGO_HAVE_TCMALLOC

bool isTcmalloc() { return true; }

const char* name() { return "tcmalloc"; }

std::optional<size_t> numericProperty(const char* property) {
    size_t value = 0;
    if (!MallocExtension::instance()->GetNumericProperty(property, &value)) return std::nullopt;
    return value;
}

bool setNumericProperty(const char* property, size_t value) {
    return MallocExtension::instance()->SetNumericProperty(property, value);
}

double releaseRate() { return MallocExtension::instance()->GetMemoryReleaseRate(); }

void setReleaseRate(double rate) { MallocExtension::instance()->SetMemoryReleaseRate(rate); }

void releaseToSystem(size_t bytes) { MallocExtension::instance()->ReleaseToSystem(bytes); }

std::string statsText() {
    // GetStats writes a NUL-terminated summary of about 1.2 KB at level 1.
    char buf[8192];
    buf[0] = '\0';
    MallocExtension::instance()->GetStats(buf, sizeof buf);
    return buf;
}

#else

bool isTcmalloc() { return false; }
const char* name() { return "system"; }
std::optional<size_t> numericProperty(const char*) { return std::nullopt; }
bool setNumericProperty(const char*, size_t) { return false; }
double releaseRate() { return -1; }
void setReleaseRate(double) {}
void releaseToSystem(size_t) {}
std::string statsText() { return {}; }

#endif

}  // namespace mongo::allocator
