// dedup_bench: loads a JSON Lines data set into the dedup engine (or a baseline) as a stream
// of inserts, in file order, and prints one JSON object with compression, memory, cache and
// speed figures. See usage() for the flags and the meaning of every key.
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "mongo/db/dedup/dedup_engine.h"
#include "mongo/db/dedup/delta_encoder.h"
#include "mongo/db/dedup/memory_record_store.h"
#include "mongo/db/dedup/trad_dedup.h"
#include "mongo/db/dedup/tools/bench_baselines.h"
#include "mongo/db/dedup/tools/block_compress.h"
#include "mongo/db/dedup/tools/jsonl_source.h"

using namespace mongo;
using namespace mongo::dedup;

namespace {

const char* kUsage = R"(usage: dedup_bench --input FILE [flags]

Reads FILE (JSON Lines, plain or zstd-compressed; long windows up to 2^27), converts each line
to the BSON document the server would store (fields in file order; --record-format json keeps
the raw line instead), and inserts the records in file order.

Modes (--mode):
  dbdedup          similarity dedup with the engine (default); --scheme picks the chain scheme
  version-jumping  dbdedup with version-jumping chains (cluster size --hop-distance)
  trad             chunk-based exact dedup: SHA-1 of every chunk (--chunk-size, default 4096)
  none             records stored as they are
  codec            the delta codec alone on consecutive versions of each `key` (forward
                   deltas, --anchor-interval); --dump-pairs DIR writes every --dump-every-th
                   pair (src, tgt, our delta size) for comparison with xdelta3

Flags (defaults in brackets):
  --input FILE             data set (required)
  --limit N                first N records only [all]
  --mode M                 see above [dbdedup]
  --scheme S               bounded-hop | hop | backward | version-jumping [bounded-hop]
  --chunk-size B           mean content-defined chunk size [64; trad: 4096]
  --sketch K               features per record [8]
  --candidates N           records kept per feature in the index [8]
  --reward R               cache-aware selection reward [2]
  --anchor-interval A      delta anchor interval [64]
  --min-anchors M          anchors a small source still gets [128]
  --no-gap-search          Algorithm 1 alone: no second look at literal gaps (faster)
  --compress-deltas        zstd-compress delta bodies with much new text (format 0xD2)
  --hop-distance H         hop distance / version-jumping cluster size [16]
  --max-decode-steps N     decode-step cap applied to write-backs, 0 = scheme's own [0]
  --source-cache-mb MB     source record cache [32]
  --writeback-cache-mb MB  lossy write-back cache [8]
  --drain-every N          apply write-backs after every N inserts (I/O idle); 0 = at the end [1]
  --no-size-filter         deduplicate records of every size
  --no-governor            never disable dedup
  --record-format F        bson | json [bson]
  --zstd-level L           level for every zstd figure [3]
  --page-size B            page size of the paged block-compression figures [32768]
  --no-baselines           skip the zstd/snappy reference baselines
  --no-verify              skip reading every record back
  --dump-pairs DIR         codec mode: write sampled pairs to DIR (pairs.tsv lists them)
  --dump-every N           codec mode: dump every N-th pair [10]
  --label S                copied into the output
  --help

Output keys (bytes unless noted; ratio = logical_bytes / stored size):
  records, logical_bytes          records inserted and their total size
  stored_bytes, ratio             stored forms after dedup (dbdedup: a 1-byte tag per record,
                                  raw or delta against a base id; trad: new chunks + 8-byte refs)
  stored_snappy_bytes, ratio_snappy, stored_zstd_bytes, ratio_zstd
                                  each stored form block-compressed alone (kept raw if larger)
  paged.{snappy,zstd}_bytes, paged.ratio_{snappy,zstd}
                                  stored forms in key order packed into --page-size pages, each
                                  page compressed (WiredTiger-like leaf pages)
  stored_forms.{raw,delta}_{records,bytes,zstd_bytes}
                                  dbdedup: the stored forms split into raw records and deltas
  oplog_bytes, oplog_ratio        replication payload: forward deltas (+8-byte source id) for
                                  encoded records, the record itself otherwise
  outcomes.{encoded,unique,filtered,disabled,source_unavailable}
                                  overlapped: encoded against an older member of a chain
  index_entries, index_bytes, index_bytes_per_entry, index_bytes_per_record
                                  feature index (trad: modelled SHA-1 index, 28 B/entry at 75%)
  metadata_bytes                  dedup-metadata container (in memory here; on disk in the paper)
  source_cache.{hits,misses,hit_rate,fetches}
                                  source record cache lookups; fetches = records read+decoded
  write_backs.{queued,applied,dropped,invalidated,replaced,depth_limited,stale,pending}
  insert_mb_per_s                 logical bytes / CPU time inside Engine::onInsert
  delta_encode_mb_per_s           Algorithm 1 alone on every (source, record) pair the engine
                                  chose, target bytes / CPU second
  delta_decode_mb_per_s           applying those forward deltas, target bytes / CPU second
  read_mb_per_s                   Engine::read of every record (chains decoded, the source
                                  record cache short-cutting walks), bytes / CPU second
  worst_decode_chain, avg_decode_steps
                                  most and mean deltas applied to rebuild a record from storage
                                  alone (no cache)
  longest_chain                   same, from the engine's own bookkeeping
  verify_errors                   records that did not read back byte-identical (must be 0)
  codec.{pairs,target_bytes,delta_bytes,delta_ratio,encode_mb_per_s,decode_mb_per_s}
                                  codec mode: forward deltas of consecutive versions;
                                  delta_ratio = delta bytes / target bytes
  baselines.{zstd_per_record,snappy_per_record,zstd_prev_key_dict,zstd_similar_dict}.{bytes,ratio}
                                  (a) prev_key_dict: previous version of the same key as zstd
                                  dictionary; (b) similar_dict: the earlier record sharing most
                                  of a top-8 line-hash sketch as dictionary
  elapsed_s                       wall time of the whole run
)";

double cpuNow() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

double mbps(uint64_t bytes, double seconds) {
    return seconds > 0 ? double(bytes) / seconds / 1e6 : 0.0;
}

double ratioOf(uint64_t logical, uint64_t stored) {
    return stored ? double(logical) / double(stored) : 0.0;
}

struct Flags {
    std::string input, mode = "dbdedup", scheme = "bounded-hop", label, format = "bson", dumpDir;
    size_t dumpEvery = 10;
    size_t limit = 0;
    int64_t chunkSize = -1;
    uint32_t sketch = 8, candidates = 8, reward = 2, anchor = 64, minAnchors = 128, hop = 16;
    uint32_t maxDecodeSteps = 0;
    double srcCacheMb = 32, wbCacheMb = 8;
    uint64_t drainEvery = 1;
    bool sizeFilter = true, governor = true, baselines = true, verify = true, gapSearch = true;
    bool compressDeltas = false;
    int zstdLevel = 3;
    size_t pageSize = 32768;
};

bool parseFlags(int argc, char** argv, Flags* f) {
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        auto val = [&]() -> const char* {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "missing value for %s\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--help" || a == "-h") {
            std::fputs(kUsage, stdout);
            std::exit(0);
        } else if (a == "--input") f->input = val();
        else if (a == "--limit") f->limit = std::strtoull(val(), nullptr, 10);
        else if (a == "--mode") f->mode = val();
        else if (a == "--scheme") f->scheme = val();
        else if (a == "--chunk-size") f->chunkSize = std::strtoll(val(), nullptr, 10);
        else if (a == "--sketch") f->sketch = std::atoi(val());
        else if (a == "--candidates") f->candidates = std::atoi(val());
        else if (a == "--reward") f->reward = std::atoi(val());
        else if (a == "--anchor-interval") f->anchor = std::atoi(val());
        else if (a == "--min-anchors") f->minAnchors = std::atoi(val());
        else if (a == "--hop-distance") f->hop = std::atoi(val());
        else if (a == "--max-decode-steps") f->maxDecodeSteps = std::atoi(val());
        else if (a == "--source-cache-mb") f->srcCacheMb = std::atof(val());
        else if (a == "--writeback-cache-mb") f->wbCacheMb = std::atof(val());
        else if (a == "--drain-every") f->drainEvery = std::strtoull(val(), nullptr, 10);
        else if (a == "--no-size-filter") f->sizeFilter = false;
        else if (a == "--no-gap-search") f->gapSearch = false;
        else if (a == "--compress-deltas") f->compressDeltas = true;
        else if (a == "--no-governor") f->governor = false;
        else if (a == "--record-format") f->format = val();
        else if (a == "--zstd-level") f->zstdLevel = std::atoi(val());
        else if (a == "--page-size") f->pageSize = std::strtoull(val(), nullptr, 10);
        else if (a == "--no-baselines") f->baselines = false;
        else if (a == "--no-verify") f->verify = false;
        else if (a == "--label") f->label = val();
        else if (a == "--dump-pairs") f->dumpDir = val();
        else if (a == "--dump-every") f->dumpEvery = std::max<size_t>(1, std::strtoull(val(), nullptr, 10));
        else {
            std::fprintf(stderr, "unknown flag %s (see --help)\n", a.c_str());
            return false;
        }
    }
    if (f->input.empty()) {
        std::fprintf(stderr, "--input is required (see --help)\n");
        return false;
    }
    if (f->mode != "dbdedup" && f->mode != "version-jumping" && f->mode != "trad" &&
        f->mode != "none" && f->mode != "codec") {
        std::fprintf(stderr, "unknown --mode %s\n", f->mode.c_str());
        return false;
    }
    if (f->format != "bson" && f->format != "json") {
        std::fprintf(stderr, "unknown --record-format %s\n", f->format.c_str());
        return false;
    }
    return true;
}

// A tiny JSON writer: enough for one flat-ish object.
class Json {
public:
    void key(const char* k) {
        sep();
        _s << '"' << k << "\":";
        _first = true;
        _afterKey = true;
    }
    Json& num(const char* k, double v) {
        key(k);
        char buf[64];
        std::snprintf(buf, sizeof(buf), "%.6g", v);
        _s << buf;
        _afterKey = false;
        _first = false;
        return *this;
    }
    Json& num(const char* k, uint64_t v) {
        key(k);
        _s << v;
        _afterKey = false;
        _first = false;
        return *this;
    }
    Json& str(const char* k, const std::string& v) {
        key(k);
        _s << '"';
        for (char c : v) {
            if (c == '"' || c == '\\')
                _s << '\\';
            _s << c;
        }
        _s << '"';
        _afterKey = false;
        _first = false;
        return *this;
    }
    Json& open(const char* k) {
        if (k)
            key(k);
        else
            sep();
        _s << '{';
        _first = true;
        _afterKey = false;
        return *this;
    }
    Json& close() {
        _s << '}';
        _first = false;
        return *this;
    }
    std::string text() const { return _s.str(); }

private:
    void sep() {
        if (!_first && !_afterKey)
            _s << ',';
        _afterKey = false;
    }
    std::ostringstream _s;
    bool _first = true, _afterKey = false;
};

struct RunResult {
    uint64_t stored = 0;
    BlockTotals snappy, zstd;
    uint64_t oplog = 0;
    uint64_t encoded = 0, unique = 0, filtered = 0, disabled = 0, unavailable = 0;
    uint64_t indexEntries = 0, indexBytes = 0, metadataBytes = 0;
    double insertCpu = 0, encodeCpu = 0, decodeCpu = 0, readCpu = 0;
    uint64_t encodeBytes = 0, readBytes = 0;
    uint64_t worstChain = 0, totalSteps = 0, verifyErrors = 0, longestChain = 0;
    uint64_t rawRecords = 0, rawBytes = 0, rawZstd = 0, deltaRecords = 0, deltaBytes = 0, deltaZstd = 0;
    Stats engine;
    DrainResult drained;
    bool isDbDedup = false;
};

void compressStored(const std::vector<std::string_view>& items, const Flags& f, RunResult* r) {
    r->snappy = compressItems(BlockCodec::kSnappy, items, f.pageSize);
    r->zstd = compressItems(BlockCodec::kZstd, items, f.pageSize, f.zstdLevel);
}

RunResult runDbDedup(const Flags& f, const std::vector<BenchRecord>& recs) {
    RunResult r;
    r.isDbDedup = true;
    Options o;
    o.avgChunkSize = f.chunkSize > 0 ? uint32_t(f.chunkSize) : 64;
    o.sketchSize = f.sketch;
    o.maxCandidatesPerFeature = f.candidates;
    o.cacheReward = f.reward;
    o.anchorInterval = f.anchor;
    o.minAnchors = f.minAnchors;
    o.deltaGapSearch = f.gapSearch;
    o.compressDeltas = f.compressDeltas;
    o.hopDistance = f.hop;
    o.maxDecodeSteps = f.maxDecodeSteps;
    o.sourceCacheBytes = size_t(f.srcCacheMb * 1048576.0);
    o.writeBackCacheBytes = size_t(f.wbCacheMb * 1048576.0);
    o.sizeFilter = f.sizeFilter;
    o.governor = f.governor;
    if (f.mode == "version-jumping") {
        o.chainScheme = ChainScheme::kVersionJumping;
    } else if (!parseChainScheme(f.scheme.c_str(), &o.chainScheme)) {
        std::fprintf(stderr, "unknown --scheme %s\n", f.scheme.c_str());
        std::exit(2);
    }
    MemoryRecordStore store;
    Engine engine(o, &store);
    const std::string ns = "bench.records";
    std::vector<int64_t> sourceOf(recs.size(), -1);
    std::vector<std::string> forward(recs.size());
    for (size_t i = 0; i < recs.size(); ++i) {
        const std::string& b = recs[i].bytes;
        store.putRaw(ns, int64_t(i), b);
        double t0 = cpuNow();
        auto d = engine.onInsert(ns, int64_t(i), b);
        r.insertCpu += cpuNow() - t0;
        if (!d.isOK()) {
            std::fprintf(stderr, "insert %zu: %s\n", i, d.getStatus().toString().c_str());
            std::exit(1);
        }
        const InsertDecision& dec = d.getValue();
        switch (dec.outcome) {
            case InsertDecision::Outcome::kEncoded:
                ++r.encoded;
                sourceOf[i] = dec.sourceId;
                forward[i] = dec.forwardDelta;
                r.oplog += dec.forwardDelta.size() + 8;
                break;
            case InsertDecision::Outcome::kUnique: ++r.unique; break;
            case InsertDecision::Outcome::kFilteredBySize: ++r.filtered; break;
            case InsertDecision::Outcome::kDisabled: ++r.disabled; break;
            case InsertDecision::Outcome::kSourceUnavailable: ++r.unavailable; break;
        }
        if (dec.outcome != InsertDecision::Outcome::kEncoded)
            r.oplog += b.size();
        if (f.drainEvery && (i + 1) % f.drainEvery == 0) {
            DrainResult dr = engine.drainWriteBacks();
            r.drained.stale += dr.stale;
            r.drained.failed += dr.failed;
        }
    }
    DrainResult dr = engine.drainWriteBacks();
    r.drained.stale += dr.stale;
    r.drained.failed += dr.failed;
    r.engine = engine.stats(true);
    r.longestChain = r.engine.longestChain;
    r.indexEntries = r.engine.indexEntries;
    r.indexBytes = r.engine.indexBytes;
    r.metadataBytes = r.engine.metadataBytes;
    r.stored = store.storedBytes();
    std::vector<std::string_view> items;
    std::vector<std::string> keep;
    keep.reserve(store.size());
    store.forEach([&](const std::string&, int64_t, const std::string& s) { keep.push_back(s); });
    for (const std::string& s : keep) {
        items.emplace_back(s);
        bool delta = !s.empty() && uint8_t(s[0]) == kStoredDelta;
        (delta ? r.deltaRecords : r.rawRecords) += 1;
        (delta ? r.deltaBytes : r.rawBytes) += s.size();
        (delta ? r.deltaZstd : r.rawZstd) += blockSize(BlockCodec::kZstd, s, f.zstdLevel);
    }
    compressStored(items, f, &r);

    // The codec alone, on the pairs the engine chose.
    DeltaEncoder enc(o.anchorInterval, o.minAnchors, o.deltaGapSearch);
    std::vector<DeltaInst> insts;
    std::vector<uint8_t> out;
    for (size_t i = 0; i < recs.size(); ++i) {
        if (sourceOf[i] < 0)
            continue;
        const std::string& src = recs[size_t(sourceOf[i])].bytes;
        const std::string& tgt = recs[i].bytes;
        double t0 = cpuNow();
        enc.computeInstructions(reinterpret_cast<const uint8_t*>(src.data()), src.size(),
                                reinterpret_cast<const uint8_t*>(tgt.data()), tgt.size(), &insts);
        double t1 = cpuNow();
        r.encodeCpu += t1 - t0;
        r.encodeBytes += tgt.size();
        out.resize(std::max(out.size(), tgt.size()));
        const std::string& d = forward[i];
        double t2 = cpuNow();
        auto res = applyDeltaTo(reinterpret_cast<const uint8_t*>(src.data()), src.size(),
                                reinterpret_cast<const uint8_t*>(d.data()), d.size(), out.data(),
                                out.size());
        r.decodeCpu += cpuNow() - t2;
        if (!res.isOK() || std::memcmp(out.data(), tgt.data(), tgt.size()) != 0)
            ++r.verifyErrors;
    }
    if (f.verify) {
        std::string got;
        // Decode steps as stored (no cache), and byte-exact verification.
        for (size_t i = 0; i < recs.size(); ++i) {
            DecodeInfo info;
            Status st = decodeRecord(store, ns, int64_t(i), &got, &info);
            if (!st.isOK() || got != recs[i].bytes)
                ++r.verifyErrors;
            r.worstChain = std::max<uint64_t>(r.worstChain, info.steps);
            r.totalSteps += info.steps;
        }
        // The read path as the server would use it (source record cache short-cuts walks).
        for (size_t i = 0; i < recs.size(); ++i) {
            double t0 = cpuNow();
            Status st = engine.read(ns, int64_t(i), &got);
            r.readCpu += cpuNow() - t0;
            r.readBytes += recs[i].bytes.size();
            if (!st.isOK() || got != recs[i].bytes)
                ++r.verifyErrors;
        }
    }
    return r;
}

RunResult runTrad(const Flags& f, const std::vector<BenchRecord>& recs) {
    RunResult r;
    TradDedup t(f.chunkSize > 0 ? uint32_t(f.chunkSize) : 4096);
    std::vector<std::string> stored;
    stored.reserve(recs.size());
    for (size_t i = 0; i < recs.size(); ++i) {
        double t0 = cpuNow();
        TradDedup::Added a = t.add(recs[i].bytes.data(), recs[i].bytes.size());
        r.insertCpu += cpuNow() - t0;
        std::string s = a.newChunkBytes;
        for (uint64_t id : a.recipe)
            s.append(reinterpret_cast<const char*>(&id), 8);
        stored.push_back(std::move(s));
        if (f.verify && t.materialize(a.recipe) != recs[i].bytes)
            ++r.verifyErrors;
        r.oplog += a.storedBytes;
    }
    r.stored = t.storedBytes();
    r.indexEntries = t.uniqueChunks();
    r.indexBytes = t.indexBytes();
    std::vector<std::string_view> items(stored.begin(), stored.end());
    compressStored(items, f, &r);
    return r;
}

RunResult runNone(const Flags& f, const std::vector<BenchRecord>& recs) {
    RunResult r;
    std::vector<std::string_view> items;
    for (const BenchRecord& b : recs) {
        r.stored += b.bytes.size();
        r.oplog += b.bytes.size();
        items.emplace_back(b.bytes);
    }
    compressStored(items, f, &r);
    return r;
}

struct CodecResult {
    uint64_t pairs = 0, target = 0, delta = 0;
    double encodeCpu = 0, decodeCpu = 0;
    uint64_t errors = 0;
};

CodecResult runCodec(const Flags& f, const std::vector<BenchRecord>& recs) {
    CodecResult c;
    DeltaEncoder enc(f.anchor, f.minAnchors, f.gapSearch);
    std::map<std::string, size_t> last;
    std::vector<uint8_t> out;
    std::FILE* tsv = nullptr;
    if (!f.dumpDir.empty())
        tsv = std::fopen((f.dumpDir + "/pairs.tsv").c_str(), "w");
    for (size_t i = 0; i < recs.size(); ++i) {
        auto it = last.find(recs[i].key);
        if (it != last.end()) {
            const std::string& src = recs[it->second].bytes;
            const std::string& tgt = recs[i].bytes;
            double t0 = cpuNow();
            std::string d = enc.encode(reinterpret_cast<const uint8_t*>(src.data()), src.size(),
                                       reinterpret_cast<const uint8_t*>(tgt.data()), tgt.size(),
                                       f.compressDeltas);
            double t1 = cpuNow();
            out.resize(std::max(out.size(), tgt.size()));
            auto r = applyDeltaTo(reinterpret_cast<const uint8_t*>(src.data()), src.size(),
                                  reinterpret_cast<const uint8_t*>(d.data()), d.size(), out.data(),
                                  out.size());
            c.decodeCpu += cpuNow() - t1;
            c.encodeCpu += t1 - t0;
            if (!r.isOK() || std::memcmp(out.data(), tgt.data(), tgt.size()) != 0)
                ++c.errors;
            if (tsv && c.pairs % f.dumpEvery == 0) {
                std::string base = f.dumpDir + "/p" + std::to_string(c.pairs);
                std::FILE* a = std::fopen((base + ".src").c_str(), "wb");
                std::FILE* b = std::fopen((base + ".tgt").c_str(), "wb");
                if (a && b) {
                    std::fwrite(src.data(), 1, src.size(), a);
                    std::fwrite(tgt.data(), 1, tgt.size(), b);
                    std::fprintf(tsv, "%s\t%zu\t%zu\n", base.c_str(), tgt.size(), d.size());
                }
                if (a)
                    std::fclose(a);
                if (b)
                    std::fclose(b);
            }
            ++c.pairs;
            c.target += tgt.size();
            c.delta += d.size();
        }
        last[recs[i].key] = i;
    }
    if (tsv)
        std::fclose(tsv);
    return c;
}

}  // namespace

int main(int argc, char** argv) {
    Flags f;
    if (!parseFlags(argc, argv, &f))
        return 2;
    auto wall0 = std::chrono::steady_clock::now();
    std::vector<BenchRecord> recs;
    Status st = loadRecords(f.input, f.format == "json" ? RecordFormat::kJson : RecordFormat::kBson,
                            f.limit, &recs);
    if (!st.isOK()) {
        std::fprintf(stderr, "%s\n", st.toString().c_str());
        return 1;
    }
    uint64_t logical = 0;
    for (const BenchRecord& b : recs)
        logical += b.bytes.size();

    if (f.mode == "codec") {
        CodecResult c = runCodec(f, recs);
        Json j;
        j.open(nullptr);
        j.str("input", f.input).str("label", f.label).str("mode", f.mode);
        j.open("params")
            .num("anchor_interval", uint64_t(f.anchor))
            .num("min_anchors", uint64_t(f.minAnchors))
            .num("gap_search", uint64_t(f.gapSearch))
            .num("compress_deltas", uint64_t(f.compressDeltas))
            .close();
        j.num("records", uint64_t(recs.size())).num("logical_bytes", logical);
        j.open("codec")
            .num("pairs", c.pairs)
            .num("target_bytes", c.target)
            .num("delta_bytes", c.delta)
            .num("delta_ratio", c.target ? double(c.delta) / c.target : 0.0)
            .num("encode_mb_per_s", mbps(c.target, c.encodeCpu))
            .num("decode_mb_per_s", mbps(c.target, c.decodeCpu))
            .close();
        j.num("verify_errors", c.errors);
        j.num("elapsed_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count());
        j.close();
        std::printf("%s\n", j.text().c_str());
        return c.errors == 0 ? 0 : 3;
    }
    RunResult r = f.mode == "trad" ? runTrad(f, recs)
        : f.mode == "none"         ? runNone(f, recs)
                                   : runDbDedup(f, recs);

    Json j;
    j.open(nullptr);
    j.str("input", f.input).str("label", f.label).str("mode", f.mode);
    j.str("scheme", f.mode == "version-jumping" ? "version-jumping" : f.scheme);
    j.str("record_format", f.format);
    j.open("params")
        .num("chunk_size", uint64_t(f.chunkSize > 0 ? f.chunkSize : (f.mode == "trad" ? 4096 : 64)))
        .num("sketch", uint64_t(f.sketch))
        .num("candidates", uint64_t(f.candidates))
        .num("reward", uint64_t(f.reward))
        .num("anchor_interval", uint64_t(f.anchor))
        .num("min_anchors", uint64_t(f.minAnchors))
        .num("gap_search", uint64_t(f.gapSearch))
        .num("compress_deltas", uint64_t(f.compressDeltas))
        .num("hop_distance", uint64_t(f.hop))
        .num("max_decode_steps", uint64_t(f.maxDecodeSteps))
        .num("source_cache_mb", f.srcCacheMb)
        .num("writeback_cache_mb", f.wbCacheMb)
        .num("drain_every", f.drainEvery)
        .num("size_filter", uint64_t(f.sizeFilter))
        .num("governor", uint64_t(f.governor))
        .num("zstd_level", uint64_t(f.zstdLevel))
        .num("page_size", uint64_t(f.pageSize))
        .close();
    j.num("records", uint64_t(recs.size())).num("logical_bytes", logical);
    j.num("stored_bytes", r.stored).num("ratio", ratioOf(logical, r.stored));
    j.num("stored_snappy_bytes", r.snappy.perRecord)
        .num("ratio_snappy", ratioOf(logical, r.snappy.perRecord));
    j.num("stored_zstd_bytes", r.zstd.perRecord).num("ratio_zstd", ratioOf(logical, r.zstd.perRecord));
    j.open("paged")
        .num("snappy_bytes", r.snappy.paged)
        .num("zstd_bytes", r.zstd.paged)
        .num("ratio_snappy", ratioOf(logical, r.snappy.paged))
        .num("ratio_zstd", ratioOf(logical, r.zstd.paged))
        .close();
    j.num("oplog_bytes", r.oplog).num("oplog_ratio", ratioOf(logical, r.oplog));
    j.open("outcomes")
        .num("encoded", r.encoded)
        .num("unique", r.unique)
        .num("filtered", r.filtered)
        .num("disabled", r.disabled)
        .num("source_unavailable", r.unavailable)
        .close();
    j.num("index_entries", r.indexEntries).num("index_bytes", r.indexBytes);
    j.num("index_bytes_per_entry", r.indexEntries ? double(r.indexBytes) / r.indexEntries : 0.0);
    j.num("index_bytes_per_record", recs.empty() ? 0.0 : double(r.indexBytes) / recs.size());
    j.num("metadata_bytes", r.metadataBytes);
    if (r.isDbDedup) {
        j.open("stored_forms")
            .num("raw_records", r.rawRecords)
            .num("raw_bytes", r.rawBytes)
            .num("raw_zstd_bytes", r.rawZstd)
            .num("delta_records", r.deltaRecords)
            .num("delta_bytes", r.deltaBytes)
            .num("delta_zstd_bytes", r.deltaZstd)
            .close();
        const Stats& s = r.engine;
        uint64_t lookups = s.sourceCacheHits + s.sourceCacheMisses;
        j.open("source_cache")
            .num("hits", s.sourceCacheHits)
            .num("misses", s.sourceCacheMisses)
            .num("hit_rate", lookups ? double(s.sourceCacheHits) / lookups : 0.0)
            .num("fetches", s.sourceFetches)
            .close();
        j.open("write_backs")
            .num("queued", s.writeBacksQueued)
            .num("applied", s.writeBacksApplied)
            .num("dropped", s.writeBacksDropped)
            .num("invalidated", s.writeBacksInvalidated)
            .num("replaced", s.writeBacksReplaced)
            .num("depth_limited", s.writeBacksDepthLimited)
            .num("stale", uint64_t(r.drained.stale))
            .num("failed", uint64_t(r.drained.failed))
            .num("pending", s.writeBacksPending)
            .close();
    }
    j.num("insert_mb_per_s", mbps(logical, r.insertCpu));
    j.num("delta_encode_mb_per_s", mbps(r.encodeBytes, r.encodeCpu));
    j.num("delta_decode_mb_per_s", mbps(r.encodeBytes, r.decodeCpu));
    j.num("read_mb_per_s", mbps(r.readBytes, r.readCpu));
    j.num("worst_decode_chain", r.worstChain);
    j.num("avg_decode_steps", recs.empty() ? 0.0 : double(r.totalSteps) / recs.size());
    j.num("longest_chain", r.longestChain);
    j.num("verify_errors", r.verifyErrors);
    if (f.baselines) {
        BaselineSizes b = computeBaselines(recs, f.zstdLevel);
        j.open("baselines");
        j.open("zstd_per_record").num("bytes", b.zstdPerRecord).num("ratio", ratioOf(logical, b.zstdPerRecord)).close();
        j.open("snappy_per_record").num("bytes", b.snappyPerRecord).num("ratio", ratioOf(logical, b.snappyPerRecord)).close();
        j.open("zstd_prev_key_dict").num("bytes", b.zstdPrevKeyDict).num("ratio", ratioOf(logical, b.zstdPrevKeyDict)).close();
        j.open("zstd_similar_dict").num("bytes", b.zstdSimilarDict).num("ratio", ratioOf(logical, b.zstdSimilarDict)).num("found", b.similarFound).close();
        j.close();
    }
    j.num("elapsed_s", std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count());
    j.close();
    std::printf("%s\n", j.text().c_str());
    return r.verifyErrors == 0 ? 0 : 3;
}
