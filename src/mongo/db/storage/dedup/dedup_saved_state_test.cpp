// The saved dedup state's file (dedup_saved_state.h): what is written reads back exactly, any
// damage is refused, and taking the file removes it.
#include "mongo/db/storage/dedup/dedup_saved_state.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>

namespace mongo {
namespace {

SavedDedupState sample() {
    SavedDedupState s;
    s.featureSignature = "gear-topk-v1/chunk=64/k=8";
    for (int n = 0; n < 2; ++n) {
        SavedDedupNamespace& ns = s.namespaces.emplace_back();
        ns.ns = "db.collection-" + std::to_string(n);
        ns.storedRecords = 3;
        ns.storedBytes = 60 + n;
        for (int64_t id = 1; id <= 3; ++id) {
            dedup::Engine::SavedRecord r;
            r.id = id + 100 * n;
            r.logicalSize = uint32_t(1000 * id);
            r.baseId = id < 3 ? r.id + 1 : 0;
            r.storedSize = uint32_t(10 * id);
            r.retained = id == 2;
            if (id == 3) r.sketch = {0xffffffffffffffffull, 42, 7};
            ns.records.push_back(r);
        }
    }
    return s;
}

void expectEqual(const SavedDedupState& a, const SavedDedupState& b) {
    EXPECT_EQ(a.featureSignature, b.featureSignature);
    ASSERT_EQ(a.namespaces.size(), b.namespaces.size());
    for (size_t i = 0; i < a.namespaces.size(); ++i) {
        EXPECT_EQ(a.namespaces[i].ns, b.namespaces[i].ns);
        EXPECT_EQ(a.namespaces[i].storedRecords, b.namespaces[i].storedRecords);
        EXPECT_EQ(a.namespaces[i].storedBytes, b.namespaces[i].storedBytes);
        ASSERT_EQ(a.namespaces[i].records.size(), b.namespaces[i].records.size());
        for (size_t j = 0; j < a.namespaces[i].records.size(); ++j) {
            const auto &x = a.namespaces[i].records[j], &y = b.namespaces[i].records[j];
            EXPECT_EQ(x.id, y.id);
            EXPECT_EQ(x.logicalSize, y.logicalSize);
            EXPECT_EQ(x.baseId, y.baseId);
            EXPECT_EQ(x.storedSize, y.storedSize);
            EXPECT_EQ(x.retained, y.retained);
            EXPECT_EQ(x.sketch, y.sketch);
        }
    }
}

TEST(DedupSavedState, RoundTrip) {
    SavedDedupState back;
    ASSERT_TRUE(decodeSavedDedupState(encodeSavedDedupState(sample()), &back).isOK());
    expectEqual(sample(), back);
}

TEST(DedupSavedState, AnyDamageIsRefused) {
    const std::string good = encodeSavedDedupState(sample());
    SavedDedupState back;
    for (size_t i = 0; i < good.size(); ++i) {
        std::string bad = good;
        bad[i] ^= 0x10;
        EXPECT_EQ(decodeSavedDedupState(bad, &back).code(), static_cast<int>(ErrorCodes::FailedToParse)) << i;
    }
    for (size_t n = 0; n < good.size(); n += 7)
        EXPECT_EQ(decodeSavedDedupState(good.substr(0, n), &back).code(), static_cast<int>(ErrorCodes::FailedToParse)) << n;
}

TEST(DedupSavedState, TakingTheFileRemovesIt) {
    char dir[] = "/tmp/dedup-saved-state-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    EXPECT_FALSE(takeSavedDedupStateBytes(dir).has_value());

    ASSERT_TRUE(writeSavedDedupState(dir, sample()).isOK());
    const std::string path = std::string(dir) + "/" + kSavedDedupStateFile;
    ASSERT_EQ(access(path.c_str(), F_OK), 0);
    auto bytes = takeSavedDedupStateBytes(dir);
    ASSERT_TRUE(bytes.has_value());
    EXPECT_NE(access(path.c_str(), F_OK), 0);
    SavedDedupState back;
    ASSERT_TRUE(decodeSavedDedupState(*bytes, &back).isOK());
    expectEqual(sample(), back);

    // A damaged file is removed as well; decoding refuses it.
    std::ofstream(path) << "not a saved state";
    bytes = takeSavedDedupStateBytes(dir);
    ASSERT_TRUE(bytes.has_value());
    EXPECT_NE(access(path.c_str(), F_OK), 0);
    EXPECT_EQ(decodeSavedDedupState(*bytes, &back).code(), static_cast<int>(ErrorCodes::FailedToParse));
    rmdir(dir);
}

}  // namespace
}  // namespace mongo
