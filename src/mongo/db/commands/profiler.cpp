#include "mongo/db/commands/profiler.h"

#include <random>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/auth/command_authorization.h"
#include "mongo/db/catalog/catalog_lock.h"
#include "mongo/db/catalog/collection.h"
#include "mongo/db/commands/current_op_registry.h"
#include "mongo/db/commands/profile_settings.h"
#include "mongo/db/ops/write_ops.h"
#include "mongo/db/query/matcher.h"
#include "mongo/db/service_context.h"
#include "mongo/db/storage/write_admission.h"
#include "mongo/util/log.h"

namespace mongo {

namespace {

constexpr long long kProfileCollectionBytes = 1024 * 1024;  // MongoDB's default

bool sampled(double rate) {
    if (rate >= 1) return true;
    thread_local std::mt19937_64 gen{std::random_device{}()};
    return std::uniform_real_distribution<double>(0.0, 1.0)(gen) < rate;
}

std::string hostOf(const std::string& remote) {
    auto colon = remote.rfind(':');
    return colon == std::string::npos ? remote : remote.substr(0, colon);
}

BSONObj makeEntry(Client* client, const OpMsgRequest& req, const std::string& cmdName, const Status& status,
                  const BSONObj& reply, long long millis, const std::string& op, const std::string& ns) {
    BSONObjBuilder b;
    b.append("op", op);
    b.append("ns", ns);
    b.append("command", auth::redactedForDiagnostics(req.body));
    if (BSONElement cursor = reply["cursor"]; status.isOK() && cursor.type() == Object) {
        BSONObj c = cursor.Obj();
        BSONElement batch = c[cmdName == "getMore" ? "nextBatch" : "firstBatch"];
        if (c["id"].isNumber()) b.append("cursorid", c["id"].numberLong());
        if (batch.type() == Array) b.append("nreturned", static_cast<int>(batch.Obj().nFields()));
        if (c["id"].isNumber()) b.append("cursorExhausted", c["id"].numberLong() == 0);
    }
    if (!status.isOK()) {
        b.append("ok", 0.0);
        b.append("errMsg", status.reason());
        b.append("errName", status.codeName());
        b.append("errCode", status.code());
    }
    b.append("responseLength", static_cast<int>(reply.objsize()));
    b.append("protocol", req.fromLegacyQuery ? "op_query" : "op_msg");
    b.appendInt("millis", static_cast<int>(millis));
    b.append("ts", Date_t::now());
    b.append("client", client ? hostOf(client->remote()) : std::string());
    if (client) {
        BSONElement app = client->metadata["application"];
        if (app.type() == Object && app.Obj()["name"].type() == String) b.append("appName", app.Obj()["name"].str());
    }
    b.append("allUsers", BSONArray());
    b.append("user", "");
    return b.obj();
}

void writeEntry(Client* client, const std::string& db, const BSONObj& entry) {
    auto opCtx = makeOperationContext(client);
    NamespaceString nss(db, "system.profile");
    // Straight into the collection: clients may not write system.profile (the write path
    // refuses it) and it is never replicated. The exclusive DDL lock only when the collection
    // has to be created (the first entry, or after a drop), not for every profiled command.
    for (int attempt = 0; attempt < 2; ++attempt) {
        {
            admitWrite(opCtx.get());
            CollectionWriteLock lock;
            if (Collection* coll = CollectionCatalog::get()->lookupCollection(opCtx.get(), nss)) {
                WriteUnitOfWork wuow(opCtx.get());
                coll->insertDocument(opCtx.get(), prepareDocumentForInsert(entry));
                wuow.commit();
                return;
            }
        }
        CatalogDDLLock lock;
        if (!CollectionCatalog::get()->lookupCollection(opCtx.get(), nss)) {
            BSONObjBuilder create;
            create.append("create", "system.profile");
            create.append("capped", true);
            create.append("size", kProfileCollectionBytes);
            CollectionOptions opts = uassertStatusOK(CollectionOptions::parse(create.obj()));
            CollectionCatalog::get()->createCollection(opCtx.get(), nss, opts);
        }
    }
}

}  // namespace

int profilingLevelAtStart(const OpMsgRequest& req) {
    if (!anyProfilingEnabled()) return 0;
    return profileLevel(req.db());
}

void profileCommandIfEnabled(Client* client, const OpMsgRequest& req, const std::string& cmdName, int level,
                             const Status& status, const BSONObj& reply, long long millis) {
    const std::string db = req.db();
    if (level <= 0 || db.empty()) return;
    auto [op, ns] = CurrentOpRegistry::describeCommand(cmdName, req);
    if (ns == db + ".system.profile") return;
    const BSONObj filter = profileFilter(db);
    if (filter.isEmpty() && level == 1 && (millis < slowOpThresholdMs() || !sampled(slowOpSampleRate()))) return;
    try {
        BSONObj entry = makeEntry(client, req, cmdName, status, reply, millis, op, ns);
        if (!filter.isEmpty() && !Matcher(filter).matches(entry)) return;
        writeEntry(client, db, entry);
    } catch (const DBException& e) {
        LOGV2_WARNING(20702, Command, "Failed to write a profile entry",
                      logv2::attrs("ns", ns, "error", e.toStatus().toString()));
    }
}

}  // namespace mongo
