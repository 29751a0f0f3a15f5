#include "mongo/db/dedup/tools/jsonl_source.h"

#include <bson/bson.h>
#include <zstd.h>

#include <cstdio>
#include <cstring>

namespace mongo {
namespace dedup {

JsonlReader::~JsonlReader() {
    if (_zstd)
        ZSTD_freeDCtx(_zstd);
    if (_f)
        std::fclose(_f);
}

StatusWith<std::unique_ptr<JsonlReader>> JsonlReader::open(const std::string& path) {
    std::unique_ptr<JsonlReader> r(new JsonlReader());
    r->_f = std::fopen(path.c_str(), "rb");
    if (!r->_f)
        return Status(ErrorCodes::FileStreamFailed, "cannot open " + path);
    r->_in.resize(1 << 20);
    r->_inLen = std::fread(r->_in.data(), 1, r->_in.size(), r->_f);
    static const unsigned char kMagic[4] = {0x28, 0xB5, 0x2F, 0xFD};
    if (r->_inLen >= 4 && std::memcmp(r->_in.data(), kMagic, 4) == 0) {
        r->_zstd = ZSTD_createDCtx();
        size_t rc = ZSTD_DCtx_setParameter(r->_zstd, ZSTD_d_windowLogMax, 27);
        if (ZSTD_isError(rc))
            return Status(ErrorCodes::InternalError, ZSTD_getErrorName(rc));
    }
    return r;
}

bool JsonlReader::fill() {
    // Moves more decoded bytes into _buf; false when there are none.
    if (_bufPos > 0) {
        _buf.erase(0, _bufPos);
        _bufPos = 0;
    }
    while (true) {
        if (_inPos == _inLen) {
            if (_eof)
                return false;
            _inLen = std::fread(_in.data(), 1, _in.size(), _f);
            _inPos = 0;
            if (_inLen == 0) {
                _eof = true;
                return false;
            }
        }
        if (!_zstd) {
            _buf.append(_in.data() + _inPos, _inLen - _inPos);
            _inPos = _inLen;
            return true;
        }
        char out[1 << 17];
        ZSTD_inBuffer in{_in.data(), _inLen, _inPos};
        ZSTD_outBuffer o{out, sizeof(out), 0};
        size_t rc = ZSTD_decompressStream(_zstd, &o, &in);
        _inPos = in.pos;
        if (ZSTD_isError(rc)) {
            _status = Status(ErrorCodes::InternalError,
                             std::string("zstd: ") + ZSTD_getErrorName(rc));
            return false;
        }
        if (o.pos > 0) {
            _buf.append(out, o.pos);
            return true;
        }
    }
}

bool JsonlReader::next(std::string* line) {
    while (true) {
        size_t nl = _buf.find('\n', _bufPos);
        if (nl != std::string::npos) {
            line->assign(_buf, _bufPos, nl - _bufPos);
            _bufPos = nl + 1;
            return true;
        }
        if (!fill()) {
            if (!_status.isOK() || _bufPos >= _buf.size())
                return false;
            line->assign(_buf, _bufPos, std::string::npos);  // last line without a newline
            _bufPos = _buf.size();
            return true;
        }
    }
}

Status loadRecords(const std::string& path, RecordFormat format, size_t limit,
                   std::vector<BenchRecord>* out) {
    auto r = JsonlReader::open(path);
    if (!r.isOK())
        return r.getStatus();
    std::string line;
    size_t lineNo = 0;
    while ((limit == 0 || out->size() < limit) && r.getValue()->next(&line)) {
        ++lineNo;
        if (line.empty())
            continue;
        bson_error_t err;
        bson_t* b = bson_new_from_json(reinterpret_cast<const uint8_t*>(line.data()),
                                       static_cast<ssize_t>(line.size()), &err);
        if (!b)
            return Status(ErrorCodes::FailedToParse,
                          path + ":" + std::to_string(lineNo) + ": " + err.message);
        BenchRecord rec;
        bson_iter_t it;
        if (bson_iter_init_find(&it, b, "key") && BSON_ITER_HOLDS_UTF8(&it))
            rec.key = bson_iter_utf8(&it, nullptr);
        if (format == RecordFormat::kBson)
            rec.bytes.assign(reinterpret_cast<const char*>(bson_get_data(b)), b->len);
        else
            rec.bytes = line;
        bson_destroy(b);
        out->push_back(std::move(rec));
    }
    return r.getValue()->status();
}

}  // namespace dedup
}  // namespace mongo
