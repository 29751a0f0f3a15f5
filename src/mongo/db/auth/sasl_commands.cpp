// saslStart, saslContinue and logout: authentication of a connection. Every failure is
// logged with the client's address and answered with AuthenticationFailed (18)
// "Authentication failed.", which says nothing of whether the user exists.
#include "mongo/db/auth/sasl_commands.h"

#include "mongo/db/auth/auth_options.h"
#include "mongo/db/auth/auth_store.h"
#include "mongo/db/auth/authorization_session.h"
#include "mongo/db/commands/command.h"
#include "mongo/util/log.h"

namespace mongo::auth {

namespace {

constexpr int kMaxPayloadBytes = 8192;  // a SCRAM message is well under 1 KB

std::string payloadOf(const BSONElement& e) {
    if (e.type() == BinData) {
        int len = 0, sub = 0;
        const char* p = e.binData(&len, &sub);
        uassert(ErrorCodes::BadValue, "SASL payload is too large", len <= kMaxPayloadBytes);
        return std::string(p, len);
    }
    if (e.type() == String) {  // legacy clients send base64 text
        std::string raw;
        uassert(ErrorCodes::BadValue, "SASL payload string is not valid base64", base64Decode(e.valueStringData(), &raw));
        uassert(ErrorCodes::BadValue, "SASL payload is too large", raw.size() <= kMaxPayloadBytes);
        return raw;
    }
    uasserted(ErrorCodes::BadValue, "Missing required field 'payload' of type BinData");
}

std::optional<ScramCredential> lookupCredential(OperationContext* opCtx, HashAlgo algo, const std::string& user,
                                                const std::string& db) {
    if (user == "__system" && db == "local") return internalUserCredential(algo);
    auto doc = findUserDocument(opCtx, user, db);
    if (!doc) return std::nullopt;
    BSONElement creds = (*doc)["credentials"];
    if (creds.type() != Object) return std::nullopt;
    BSONElement c = creds.Obj()[mechanismName(algo)];
    if (c.type() != Object) return std::nullopt;
    auto sw = ScramCredential::fromBSON(c.Obj());
    if (!sw.isOK()) return std::nullopt;
    return sw.getValue();
}

void appendPayload(BSONObjBuilder& b, const std::string& payload) {
    b.appendBinData("payload", static_cast<int>(payload.size()), 0, payload.data());
}

// Takes copies: the strings may belong to the conversation it ends.
[[noreturn]] void fail(OperationContext* opCtx, AuthorizationSession* as, std::string mechanism, std::string user,
                       std::string db, const Status& why) {
    bool speculative = as->conversation && as->conversation->speculative;
    as->conversation.reset();
    Client* c = opCtx->getClient();
    LOGV2(20249, Access, "Authentication failed",
          logv2::attrs("mechanism", mechanism, "speculative", speculative, "principalName", user, "authenticationDatabase",
                       db, "remote", c ? c->remote() : std::string(), "error", why.toString()));
    uasserted(ErrorCodes::AuthenticationFailed, "Authentication failed.");
}

// Runs one step of the connection's conversation and appends {conversationId, done, payload}.
void step(OperationContext* opCtx, AuthorizationSession* as, const std::string& input, BSONObjBuilder& result) {
    SaslConversation& conv = *as->conversation;
    std::string out;
    bool done = false;
    if (conv.awaitingEmptyExchange) {
        // The client's empty message after server-final (no skipEmptyExchange).
        if (!input.empty())
            fail(opCtx, as, conv.mechanism, conv.scram->user(), conv.db,
                 Status(ErrorCodes::BadValue, "SCRAM: expected an empty message after the server's final message"));
        done = true;
    } else {
        auto r = conv.scram->step(input);
        if (!r.isOK()) fail(opCtx, as, conv.mechanism, conv.scram->user(), conv.db, r.getStatus());
        out = r.getValue();
        if (conv.scram->done()) {
            done = conv.skipEmptyExchange;
            conv.awaitingEmptyExchange = !done;
        }
    }
    result.append("conversationId", conv.id);
    result.append("done", done);
    appendPayload(result, out);
    if (done) {
        UserName u{conv.scram->user(), conv.db};
        std::string mech = conv.mechanism;
        Status allowed = authenticationRestrictionsMet(opCtx, u);
        if (!allowed.isOK()) fail(opCtx, as, mech, u.user, u.db, allowed);
        as->conversation.reset();
        as->addAuthenticatedUser(opCtx, u);
        Client* c = opCtx->getClient();
        LOGV2(20250, Access, "Authentication succeeded",
              logv2::attrs("mechanism", mech, "principalName", u.user, "authenticationDatabase", u.db, "remote",
                           c ? c->remote() : std::string()));
    }
}

// saslStart's work, shared with hello's speculativeAuthenticate.
void saslStart(OperationContext* opCtx, const std::string& db, const BSONObj& cmd, BSONObjBuilder& result,
               bool speculative = false) {
    AuthorizationSession* as = AuthorizationSession::get(opCtx->getClient());
    BSONElement mech = cmd["mechanism"];
    uassert(ErrorCodes::BadValue, "Missing required field 'mechanism' of type string", mech.type() == String);
    std::string mechanism = mech.str();
    auto algo = scramAlgoForMechanism(mechanism);
    uassert(ErrorCodes::MechanismUnavailable,
            "Received authentication for mechanism " + mechanism + " which is not enabled", algo.has_value());
    std::string payload = payloadOf(cmd["payload"]);
    bool skipEmpty = false;
    if (BSONElement o = cmd["options"]; o.type() == Object) skipEmpty = o.Obj()["skipEmptyExchange"].trueValue();

    auto conv = std::make_unique<SaslConversation>();
    conv->id = 1;  // one conversation per connection at a time, as MongoDB 7.0 numbers it
    conv->mechanism = mechanism;
    conv->db = db;
    conv->skipEmptyExchange = skipEmpty;
    conv->speculative = speculative;
    int fakeIterations = *algo == HashAlgo::kSha1 ? scramIterationCount() : scramSha256IterationCount();
    conv->scram = std::make_unique<ScramServerConversation>(
        *algo, [opCtx, a = *algo, db](const std::string& user) { return lookupCredential(opCtx, a, user, db); },
        fakeIterations);
    as->conversation = std::move(conv);
    as->lastConversationId = 1;
    step(opCtx, as, payload, result);
}

class SaslStartCmd : public Command {
public:
    SaslStartCmd() : Command("saslStart") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::none(); }
    std::string help() const override { return "First step in a SASL authentication conversation."; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        saslStart(opCtx, req.db(), req.body, result);
    }
} saslStartCmd;

class SaslContinueCmd : public Command {
public:
    SaslContinueCmd() : Command("saslContinue") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::none(); }
    std::string help() const override { return "Subsequent steps in a SASL authentication conversation."; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        AuthorizationSession* as = AuthorizationSession::get(opCtx->getClient());
        BSONElement id = req.body["conversationId"];
        long long n = 0;
        uassert(ErrorCodes::ProtocolError, "No SASL session state found",
                as->conversation && id.isNumber() && id.isIntegral64(&n) && n == as->conversation->id);
        uassert(ErrorCodes::ProtocolError, "Attempt to switch database target during SASL authentication.",
                req.db() == as->conversation->db);
        step(opCtx, as, payloadOf(req.body["payload"]), result);
    }
} saslContinueCmd;

class LogoutCmd : public Command {
public:
    LogoutCmd() : Command("logout") {}
    RequiredPrivileges requiredPrivileges(const OpMsgRequest&) const override { return RequiredPrivileges::none(); }
    std::string help() const override { return "de-authenticate"; }
    void run(OperationContext* opCtx, const OpMsgRequest& req, BSONObjBuilder& result) override {
        AuthorizationSession::get(opCtx->getClient())->logoutDatabase(req.db());
    }
} logoutCmd;

}  // namespace

void appendHelloAuthFields(OperationContext* opCtx, const BSONObj& cmd, BSONObjBuilder& result) {
    if (!opCtx->getClient()) return;
    BSONElement mechs = cmd["saslSupportedMechs"];
    if (!mechs.eoo()) {
        uassert(ErrorCodes::BadValue, "saslSupportedMechs must be a string \"<db>.<user>\"", mechs.type() == String);
        std::string s = mechs.str();
        auto dot = s.find('.');
        uassert(ErrorCodes::BadValue, "UserName must contain a '.' separated database.user pair",
                dot != std::string::npos && dot > 0 && dot + 1 < s.size());
        std::string db = s.substr(0, dot), user = s.substr(dot + 1);
        std::vector<std::string> names;
        bool known = false;  // the field is there for any existing user, even with no mechanism
        if (user == "__system" && db == "local") {
            if (internalUserCredential(HashAlgo::kSha1)) names = {kScramSha1, kScramSha256};
            known = !names.empty();
        } else if (auto doc = findUserDocument(opCtx, user, db)) {
            known = true;
            BSONElement creds = (*doc)["credentials"];
            if (creds.type() == Object)
                for (const char* m : {kScramSha1, kScramSha256})
                    if (creds.Obj()[m].type() == Object) names.push_back(m);
        }
        if (known) {
            BSONArrayBuilder a;
            for (auto& n : names) a.append(n);
            result.append("saslSupportedMechs", a.arr());
        }
    }
    BSONElement spec = cmd["speculativeAuthenticate"];
    if (spec.type() == Object) {
        BSONObj s = spec.Obj();
        std::string db = s["db"].type() == String ? s["db"].str() : "admin";
        if (s.firstElementFieldName() != std::string_view("saslStart")) return;  // MONGODB-X509: not offered
        BSONObjBuilder b;
        try {
            saslStart(opCtx, db, s, b, true);
        } catch (const DBException& e) {
            return;  // logged by fail(); the driver authenticates with saslStart instead
        }
        result.append("speculativeAuthenticate", b.obj());
    }
}

}  // namespace mongo::auth
