#include "mongo/db/auth/command_privileges.h"

#include <functional>

namespace mongo::auth {

namespace {

using A = ActionType;
using R = ResourcePattern;

bool bypass(const OpMsgRequest& req) { return req.body["bypassDocumentValidation"].trueValue(); }

ResourcePattern nsFromFullName(const BSONElement& e, const std::string& fallbackDb) {
    if (e.type() != String) return R::database(fallbackDb);
    return R::forNamespace(e.str());
}

void addPipeline(RequiredPrivileges& r, const std::string& db, const BSONElement& pipeline);

void addStage(RequiredPrivileges& r, const std::string& db, const std::string& input, const BSONObj& stage) {
    if (stage.isEmpty()) return;
    BSONElement s = stage.firstElement();
    std::string name(s.fieldNameStringData());
    auto readColl = [&](const BSONElement& from) {
        if (from.type() == String) r.add(R::exact(db, from.str()), {A::find});
        else if (from.type() == Object && from.Obj()["db"].type() == String && from.Obj()["coll"].type() == String)
            r.add(R::exact(from.Obj()["db"].str(), from.Obj()["coll"].str()), {A::find});
    };
    // $out: "coll" or {db, coll}; $merge: "coll", {into: "coll"} or {into: {db, coll}}.
    std::function<ResourcePattern(const BSONElement&)> target = [&](const BSONElement& t) -> ResourcePattern {
        if (t.type() == String) return R::exact(db, t.str());
        if (t.type() == Object) {
            BSONObj o = t.Obj();
            std::string d = o["db"].type() == String ? o["db"].str() : db;
            if (o["coll"].type() == String) return R::exact(d, o["coll"].str());
            if (o["into"].type() == String) return R::exact(d, o["into"].str());
            if (o["into"].type() == Object) return target(o["into"]);
        }
        return R::database(db);
    };
    if (name == "$lookup" || name == "$graphLookup") {
        if (s.type() == Object) {
            readColl(s.Obj()["from"]);
            addPipeline(r, db, s.Obj()["pipeline"]);
        }
    } else if (name == "$unionWith") {
        if (s.type() == String) readColl(s);
        else if (s.type() == Object) {
            readColl(s.Obj()["coll"]);
            addPipeline(r, db, s.Obj()["pipeline"]);
        }
    } else if (name == "$facet") {
        if (s.type() == Object)
            for (BSONElement sub : s.Obj()) addPipeline(r, db, sub);
    } else if (name == "$out" || name == "$merge") {
        ActionSet acts{A::insert, A::remove};
        if (name == "$merge") acts.add(A::update);
        r.add(target(s), acts);
    } else if (name == "$currentOp") {
        r.add(R::cluster(), {A::inprog});
    } else if (name == "$collStats") {
        r.add(input.empty() ? R::database(db) : R::exact(db, input), {A::collStats});
    } else if (name == "$indexStats") {
        r.add(input.empty() ? R::database(db) : R::exact(db, input), {A::indexStats});
    } else if (name == "$changeStream") {
        // As MongoDB: changeStream and find on the collection, the database, or (a cluster-wide
        // stream) every normal resource.
        const bool cluster = s.type() == Object && s.Obj()["allChangesForCluster"].trueValue();
        r.add(cluster ? R::anyNormal() : input.empty() ? R::database(db) : R::exact(db, input),
              {A::changeStream, A::find});
    } else if (name == "$listSessions" || name == "$listLocalSessions") {
        if (s.type() == Object && s.Obj()["allUsers"].trueValue()) r.add(R::cluster(), {A::listSessions});
    }
}

void addPipeline(RequiredPrivileges& r, const std::string& db, const BSONElement& pipeline) {
    if (pipeline.type() != Array) return;
    for (BSONElement st : pipeline.Obj())
        if (st.type() == Object) addStage(r, db, "", st.Obj());
}

}  // namespace

RequiredPrivileges insertPrivileges(const OpMsgRequest& req) {
    ActionSet a{A::insert};
    if (bypass(req)) a.add(A::bypassDocumentValidation);
    return RequiredPrivileges::onCommandNamespace(req, a);
}

RequiredPrivileges updatePrivileges(const OpMsgRequest& req) {
    ActionSet a{A::update};
    if (bypass(req)) a.add(A::bypassDocumentValidation);
    auto upsert = [&](const BSONObj& st) {
        if (st["upsert"].trueValue()) a.add(A::insert);
    };
    if (req.body["updates"].type() == Array)
        for (BSONElement st : req.body["updates"].Obj())
            if (st.type() == Object) upsert(st.Obj());
    if (auto* seq = req.sequence("updates"))
        for (auto& st : *seq) upsert(st);
    return RequiredPrivileges::onCommandNamespace(req, a);
}

RequiredPrivileges findAndModifyPrivileges(const OpMsgRequest& req) {
    ActionSet a{A::find};
    if (req.body["remove"].trueValue()) a.add(A::remove);
    else a.add(A::update);
    if (req.body["upsert"].trueValue()) a.add(A::insert);
    if (bypass(req)) a.add(A::bypassDocumentValidation);
    return RequiredPrivileges::onCommandNamespace(req, a);
}

RequiredPrivileges getMorePrivileges(const OpMsgRequest& req) {
    BSONElement coll = req.body["collection"];
    if (coll.type() == String && !coll.valueStringData().empty())
        return RequiredPrivileges::on(R::exact(req.db(), coll.str()), {A::find});
    return RequiredPrivileges::onDatabase(req.db(), {A::find});
}

RequiredPrivileges createPrivileges(const OpMsgRequest& req) {
    auto r = RequiredPrivileges::onCommandNamespace(req, {A::createCollection});
    if (req.body["viewOn"].type() == String) {
        r.add(R::exact(req.db(), req.body["viewOn"].str()), {A::find});
        addPipeline(r, req.db(), req.body["pipeline"]);
    }
    return r;
}

RequiredPrivileges renameCollectionPrivileges(const OpMsgRequest& req) {
    R src = nsFromFullName(req.body.firstElement(), req.db());
    R dst = nsFromFullName(req.body["to"], req.db());
    bool dropTarget = req.body["dropTarget"].trueValue();
    if (src.db() == dst.db() && !dropTarget)
        return RequiredPrivileges::onDatabase(src.db(), {A::renameCollectionSameDB});
    RequiredPrivileges r = RequiredPrivileges::on(src, {A::find, A::dropCollection});
    ActionSet t{A::insert, A::createIndex};
    if (dropTarget) t.add(A::dropCollection);
    r.add(dst, t);
    return r;
}

RequiredPrivileges dataSizePrivileges(const OpMsgRequest& req) {
    return RequiredPrivileges::on(nsFromFullName(req.body.firstElement(), req.db()), {A::find});
}

RequiredPrivileges aggregatePrivileges(const OpMsgRequest& req) {
    BSONElement first = req.body.firstElement();
    std::string input = first.type() == String ? first.str() : "";
    RequiredPrivileges r;
    BSONElement pipeline = req.body["pipeline"];
    bool firstIsSpecial = false;
    if (pipeline.type() == Array) {
        for (BSONElement st : pipeline.Obj()) {
            if (st.type() != Object || st.Obj().isEmpty()) continue;
            std::string n(st.Obj().firstElementFieldName());
            if (!firstIsSpecial && (n == "$collStats" || n == "$indexStats" || n == "$currentOp" ||
                                    n == "$listSessions" || n == "$listLocalSessions" || n == "$documents" ||
                                    n == "$changeStream"))
                firstIsSpecial = true;
            addStage(r, req.db(), input, st.Obj());
            break;
        }
        bool skippedFirst = false;
        for (BSONElement st : pipeline.Obj()) {
            if (!skippedFirst) {
                skippedFirst = true;
                continue;
            }
            if (st.type() == Object) addStage(r, req.db(), input, st.Obj());
        }
    }
    // Reading the input itself, unless the first stage makes the data ($collStats, ...).
    if (!firstIsSpecial) r.add(RequiredPrivileges::commandResource(req), {A::find});
    if (bypass(req)) r.add(RequiredPrivileges::commandResource(req), {A::bypassDocumentValidation});
    if (!r.isDeclared()) return RequiredPrivileges::authenticated();
    return r;
}

}  // namespace mongo::auth
