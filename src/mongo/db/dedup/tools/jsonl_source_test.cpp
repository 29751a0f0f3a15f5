#include "mongo/db/dedup/tools/jsonl_source.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zstd.h>

#include <cstdio>
#include <string>

namespace mongo {
namespace dedup {
namespace {

std::string tempPath(const char* suffix) {
    char buf[] = "/tmp/jsonl_source_testXXXXXX";
    int fd = mkstemp(buf);
    close(fd);
    std::string p = std::string(buf) + suffix;
    std::rename(buf, p.c_str());
    return p;
}

void writeFile(const std::string& path, const std::string& bytes) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
}

const char* kLines =
    "{\"_id\": \"a\", \"key\": \"doc1\", \"ts\": \"2001\", \"body\": \"first\\nline\"}\n"
    "{\"_id\": \"b\", \"key\": \"doc1\", \"ts\": \"2002\", \"body\": \"second\"}\n"
    "\n"
    "{\"_id\": \"c\", \"key\": \"doc2\", \"ts\": \"2003\", \"body\": \"third\"}";  // no final newline

TEST(JsonlSource, ReadsPlainAndZstdFilesAsBsonOrLines) {
    std::string plain = tempPath(".jsonl");
    writeFile(plain, kLines);
    std::string z(ZSTD_compressBound(strlen(kLines)), '\0');
    z.resize(ZSTD_compress(&z[0], z.size(), kLines, strlen(kLines), 3));
    std::string zst = tempPath(".jsonl.zst");
    writeFile(zst, z);
    for (const std::string& path : {plain, zst}) {
        std::vector<BenchRecord> recs;
        ASSERT_TRUE(loadRecords(path, RecordFormat::kBson, 0, &recs).isOK());
        ASSERT_EQ(recs.size(), 3u);
        EXPECT_EQ(recs[0].key, "doc1");
        EXPECT_EQ(recs[2].key, "doc2");
        // BSON: little-endian total length first, NUL last.
        uint32_t len = uint8_t(recs[0].bytes[0]) | uint8_t(recs[0].bytes[1]) << 8;
        EXPECT_EQ(len, recs[0].bytes.size());
        EXPECT_NE(recs[0].bytes.find("first\nline"), std::string::npos);
        std::vector<BenchRecord> lines;
        ASSERT_TRUE(loadRecords(path, RecordFormat::kJson, 2, &lines).isOK());
        ASSERT_EQ(lines.size(), 2u);
        EXPECT_EQ(lines[1].bytes.substr(0, 12), "{\"_id\": \"b\",");
    }
    std::remove(plain.c_str());
    std::remove(zst.c_str());
}

TEST(JsonlSource, ReportsMissingFilesAndBadJson) {
    std::vector<BenchRecord> recs;
    EXPECT_FALSE(loadRecords("/nonexistent/file.jsonl", RecordFormat::kBson, 0, &recs).isOK());
    std::string bad = tempPath(".jsonl");
    writeFile(bad, "{\"key\": \"x\"}\n{not json\n");
    Status st = loadRecords(bad, RecordFormat::kBson, 0, &recs);
    EXPECT_EQ(st.code(), int(ErrorCodes::FailedToParse));
    std::remove(bad.c_str());
}

}  // namespace
}  // namespace dedup
}  // namespace mongo
