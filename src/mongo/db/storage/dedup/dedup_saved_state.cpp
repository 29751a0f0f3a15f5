#include "mongo/db/storage/dedup/dedup_saved_state.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mongo/db/dedup/crc32c.h"

namespace mongo {

const char* const kSavedDedupStateFile = "dedup-state.saved";

namespace {

constexpr char kMagic[] = "MDDSTAT1";
constexpr char kEndMagic[] = "MDDEND01";
constexpr uint32_t kVersion = 2;
constexpr uint8_t kRetained = 1;

template <typename T>
void put(std::string* out, T v) {
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));  // little-endian hosts only (x86-64, aarch64)
    out->append(b, sizeof(T));
}

void putString(std::string* out, std::string_view s) {
    put<uint32_t>(out, static_cast<uint32_t>(s.size()));
    out->append(s.data(), s.size());
}

// Bounds-checked reads over the encoding; any overrun marks it bad.
class Reader {
public:
    explicit Reader(std::string_view b) : _b(b) {}
    template <typename T>
    T get() {
        T v{};
        if (_b.size() - _pos < sizeof(T)) {
            _bad = true;
            return v;
        }
        std::memcpy(&v, _b.data() + _pos, sizeof(T));
        _pos += sizeof(T);
        return v;
    }
    std::string getString() {
        const uint32_t n = get<uint32_t>();
        if (_bad || _b.size() - _pos < n) {
            _bad = true;
            return {};
        }
        std::string s(_b.substr(_pos, n));
        _pos += n;
        return s;
    }
    size_t remaining() const { return _b.size() - _pos; }
    bool bad() const { return _bad; }

private:
    std::string_view _b;
    size_t _pos = 0;
    bool _bad = false;
};

std::string pathOf(const std::string& dbpath, const char* name) { return dbpath + "/" + name; }

Status errnoStatus(const std::string& what) {
    return Status(ErrorCodes::InternalError, what + ": " + std::strerror(errno));
}

Status fsyncDirectory(const std::string& dbpath) {
    int fd = ::open(dbpath.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd < 0) return errnoStatus("open " + dbpath);
    const int rc = ::fsync(fd);
    ::close(fd);
    return rc == 0 ? Status::OK() : errnoStatus("fsync " + dbpath);
}

}  // namespace

std::string encodeSavedDedupState(const SavedDedupState& state) {
    std::string out(kMagic, 8);
    put<uint32_t>(&out, kVersion);
    putString(&out, state.featureSignature);
    put<uint32_t>(&out, static_cast<uint32_t>(state.namespaces.size()));
    for (const SavedDedupNamespace& ns : state.namespaces) {
        putString(&out, ns.ns);
        put<int64_t>(&out, ns.storedRecords);
        put<int64_t>(&out, ns.storedBytes);
        put<uint64_t>(&out, ns.records.size());
        for (const dedup::Engine::SavedRecord& r : ns.records) {
            put<int64_t>(&out, r.id);
            put<uint32_t>(&out, r.logicalSize);
            put<int64_t>(&out, r.baseId);
            put<uint32_t>(&out, r.storedSize);
            put<uint8_t>(&out, r.retained ? kRetained : 0);
            put<uint8_t>(&out, static_cast<uint8_t>(r.sketch.size()));
            for (dedup::Feature f : r.sketch) put<uint64_t>(&out, f);
        }
    }
    put<uint32_t>(&out, dedup::crc32c(0, out.data(), out.size()));
    out.append(kEndMagic, 8);
    return out;
}

Status decodeSavedDedupState(std::string_view bytes, SavedDedupState* out) {
    auto bad = [](const std::string& why) {
        return Status(ErrorCodes::FailedToParse, "saved dedup state is damaged: " + why);
    };
    if (bytes.size() < 8 + 4 + 8 || bytes.substr(0, 8) != std::string_view(kMagic, 8) ||
        bytes.substr(bytes.size() - 8) != std::string_view(kEndMagic, 8))
        return bad("no header or trailer");
    const size_t body = bytes.size() - 12;
    uint32_t crc;
    std::memcpy(&crc, bytes.data() + body, 4);
    if (dedup::crc32c(0, bytes.data(), body) != crc) return bad("checksum mismatch");
    Reader r(bytes.substr(8, body - 8));
    if (r.get<uint32_t>() != kVersion) return bad("unknown version");
    SavedDedupState s;
    s.featureSignature = r.getString();
    const uint32_t nss = r.get<uint32_t>();
    for (uint32_t i = 0; i < nss && !r.bad(); ++i) {
        SavedDedupNamespace& ns = s.namespaces.emplace_back();
        ns.ns = r.getString();
        ns.storedRecords = r.get<int64_t>();
        ns.storedBytes = r.get<int64_t>();
        const uint64_t n = r.get<uint64_t>();
        // Each record takes at least 26 bytes: a count beyond what is left is damage.
        if (r.bad() || n > r.remaining() / 26) return bad("record count");
        ns.records.resize(n);
        for (dedup::Engine::SavedRecord& rec : ns.records) {
            rec.id = r.get<int64_t>();
            rec.logicalSize = r.get<uint32_t>();
            rec.baseId = r.get<int64_t>();
            rec.storedSize = r.get<uint32_t>();
            rec.retained = (r.get<uint8_t>() & kRetained) != 0;
            const uint8_t k = r.get<uint8_t>();
            if (r.bad()) break;
            rec.sketch.resize(k);
            for (dedup::Feature& f : rec.sketch) f = r.get<uint64_t>();
        }
    }
    if (r.bad() || r.remaining() != 0) return bad("lengths");
    *out = std::move(s);
    return Status::OK();
}

Status writeSavedDedupState(const std::string& dbpath, const SavedDedupState& state) {
    const std::string bytes = encodeSavedDedupState(state);
    const std::string tmp = pathOf(dbpath, kSavedDedupStateFile) + ".tmp";
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return errnoStatus("open " + tmp);
    size_t off = 0;
    while (off < bytes.size()) {
        ssize_t w = ::write(fd, bytes.data() + off, bytes.size() - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            Status s = errnoStatus("write " + tmp);
            ::close(fd);
            ::unlink(tmp.c_str());
            return s;
        }
        off += size_t(w);
    }
    if (::fsync(fd) != 0) {
        Status s = errnoStatus("fsync " + tmp);
        ::close(fd);
        ::unlink(tmp.c_str());
        return s;
    }
    ::close(fd);
    if (::rename(tmp.c_str(), pathOf(dbpath, kSavedDedupStateFile).c_str()) != 0) {
        Status s = errnoStatus("rename " + tmp);
        ::unlink(tmp.c_str());
        return s;
    }
    return fsyncDirectory(dbpath);
}

std::optional<std::string> takeSavedDedupStateBytes(const std::string& dbpath) {
    const std::string path = pathOf(dbpath, kSavedDedupStateFile);
    ::unlink((path + ".tmp").c_str());  // a shutdown that died while writing it
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return std::nullopt;
        uasserted(ErrorCodes::InternalError, "cannot read the saved dedup state: " + errnoStatus("open " + path).reason());
    }
    std::string bytes;
    struct stat st;
    if (::fstat(fd, &st) == 0 && st.st_size > 0) bytes.resize(static_cast<size_t>(st.st_size));
    size_t got = 0;
    while (got < bytes.size()) {
        ssize_t n = ::read(fd, &bytes[got], bytes.size() - got);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += size_t(n);
    }
    bytes.resize(got);  // a short read leaves a damaged encoding, which decoding refuses
    ::close(fd);
    if (::unlink(path.c_str()) != 0)
        uasserted(ErrorCodes::InternalError, "cannot remove the saved dedup state " + path + ": " + std::strerror(errno));
    Status synced = fsyncDirectory(dbpath);
    uassert(ErrorCodes::InternalError, "cannot make the removal of the saved dedup state durable: " + synced.reason(),
            synced.isOK());
    return bytes;
}

}  // namespace mongo
