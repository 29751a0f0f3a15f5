#include "mongo/rpc/legacy_query.h"

#include <cstring>

#include "mongo/bson/bsonobjbuilder.h"
#include "mongo/db/namespace_string.h"

namespace mongo {
namespace {

constexpr const char* kCmdSuffix = ".$cmd";
constexpr int kUnsupportedLegacyOpCode = 5739101;
constexpr const char* kUpgradeAdvice =
    "The client driver may require an upgrade. For more details see "
    "https://dochub.mongodb.org/core/legacy-opcode-removal";

// Bounds-checked reader over the bytes after the header.
class Reader {
public:
    explicit Reader(std::string_view data) : _p(data.data()), _end(data.data() + data.size()) {}
    size_t remaining() const { return static_cast<size_t>(_end - _p); }
    bool atEnd() const { return _p >= _end; }
    int32_t int32(const char* what) {
        uassert(ErrorCodes::ProtocolError, std::string("Not enough data to read ") + what, remaining() >= 4);
        int32_t v = readLE32(_p);
        _p += 4;
        return v;
    }
    std::string cstring() {
        const char* nul = static_cast<const char*>(std::memchr(_p, '\0', remaining()));
        uassert(ErrorCodes::ProtocolError, "Failed to parse ns string", nul != nullptr);
        std::string s(_p, nul - _p);
        _p = nul + 1;
        return s;
    }
    BSONObj document() {
        uassert(ErrorCodes::InvalidBSON, "Client Error: Remaining data too small for BSON object",
                remaining() >= 5);
        auto sw = BSONObj::fromUntrusted(_p, remaining());
        uassert(ErrorCodes::InvalidBSON,
                "Client Error: bad object in message: " + sw.getStatus().reason(), sw.isOK());
        _p += sw.getValue().objsize();
        return sw.getValue();
    }

private:
    const char* _p;
    const char* _end;
};

bool isArrayOfObjects(const BSONElement& e) {
    if (e.type() != Array) return false;
    for (const auto& x : e.Obj())
        if (x.type() != Object) return false;
    return true;
}

const char* documentSequenceFor(std::string_view commandName) {
    if (commandName == "insert") return "documents";
    if (commandName == "update") return "updates";
    if (commandName == "delete") return "deletes";
    return nullptr;
}

}  // namespace

LegacyQuery parseLegacyQuery(const Message& msg) {
    Reader r(msg.body());
    LegacyQuery q;
    q.flags = r.int32("flags");
    q.ns = r.cstring();
    q.numberToSkip = r.int32("numberToSkip");
    q.numberToReturn = r.int32("numberToReturn");
    q.query = r.document();
    if (!r.atEnd()) q.fields = r.document();
    return q;
}

bool isCommandNamespace(const std::string& ns) {
    size_t dot = ns.find('.');
    return dot != std::string::npos && std::string_view(ns).substr(dot) == kCmdSuffix;
}

bool isAllowedOpQueryCommand(const std::string& name) {
    // The handshake, plus what some old drivers still send before switching to OP_MSG.
    static const char* const kAllowed[] = {"hello",     "isMaster",  "ismaster",     "_isSelf",
                                           "authenticate", "buildinfo", "buildInfo", "saslContinue",
                                           "saslStart"};
    for (const char* a : kAllowed)
        if (name == a) return true;
    return false;
}

OpMsgRequest upconvertLegacyCommand(const LegacyQuery& q) {
    uassert(18527, "The 'exhaust' OP_QUERY flag is invalid for commands: " + q.ns + " " + q.query.toString(),
            !(q.flags & query_flags::kExhaust));
    uassert(40473, "Trying to handle namespace " + q.ns + " as a command namespace", isCommandNamespace(q.ns));
    std::string db = q.ns.substr(0, q.ns.find('.'));
    uassertStatusOK(NamespaceString::validateDbName(db));
    uassert(16979,
            "Bad numberToReturn (" + std::to_string(q.numberToReturn) +
                ") for $cmd type ns - can only be 1 or -1",
            q.numberToReturn == 1 || q.numberToReturn == -1);

    BSONObj cmd = q.query;
    BSONObj readPrefContainer;  // fields to append to the command: {$readPreference: ...}
    std::string_view first = cmd.firstElementFieldName();
    if (first == "$query" || first == "query") {
        // Old drivers put the command under $query/query, with read preference beside it.
        uassert(ErrorCodes::InvalidOptions,
                "cannot use $maxTimeMS query option with commands; use maxTimeMS command option instead",
                !cmd.hasField("$maxTimeMS"));
        BSONElement inner = cmd.firstElement();
        uassert(10065, "invalid parameter: expected an object (" + std::string(first) + ")",
                inner.type() == Object);
        BSONElement rp = cmd["$readPreference"];
        if (!rp.eoo()) readPrefContainer = rp.wrap();
        cmd = inner.Obj().getOwned();
    } else if (BSONElement opts = cmd["$queryOptions"]; !opts.eoo()) {
        // mongos's nesting of read preference.
        if (opts.type() == Object) {
            BSONElement rp = opts.Obj()["$readPreference"];
            if (!rp.eoo()) {
                uassert(ErrorCodes::InvalidOptions, "Duplicate readPreference found in command object.",
                        !cmd.hasField("$readPreference"));
                readPrefContainer = rp.wrap();
            }
        }
        cmd = cmd.removeField("$queryOptions");
    }

    bool hasReadPref = cmd.hasField("$readPreference");
    if (!readPrefContainer.isEmpty()) {
        uassert(ErrorCodes::InvalidOptions, "Duplicate readPreference found in command object.", !hasReadPref);
    }
    uassert(40621, "$db is not allowed in OP_QUERY requests", !cmd.hasField("$db"));

    OpMsgRequest out;
    out.fromLegacyQuery = true;
    std::string commandName(cmd.firstElementFieldName());
    const char* seqName = documentSequenceFor(commandName);
    BSONElement seqElem = seqName ? cmd[seqName] : BSONElement();
    bool moveToSequence = seqName && isArrayOfObjects(seqElem);

    BSONObjBuilder b;
    for (const auto& e : cmd) {
        if (moveToSequence && e.fieldNameStringData() == seqName) continue;
        b.append(e);
    }
    if (!readPrefContainer.isEmpty()) {
        b.appendElements(readPrefContainer);
    } else if (!hasReadPref && (q.flags & query_flags::kSecondaryOk)) {
        BSONObjBuilder& rp = b.subobjStart("$readPreference");
        rp.append("mode", "secondaryPreferred");
        rp.doneFast();
    }
    b.append("$db", db);
    out.body = b.obj();
    if (moveToSequence) {
        std::vector<BSONObj> docs;
        for (const auto& e : seqElem.Obj()) docs.push_back(e.Obj().getOwned());
        out.sequences.emplace_back(seqName, std::move(docs));
    }

    uassert(ErrorCodes::UnsupportedOpQueryCommand,
            "Unsupported OP_QUERY command: " + commandName + ". " + kUpgradeAdvice,
            isAllowedOpQueryCommand(commandName));
    return out;
}

Message buildOpReply(const BSONObj& doc, int32_t responseTo, int32_t responseFlags) {
    Message m = Message::start(OpCode::kReply, nextMessageId(), responseTo);
    std::string& out = m.buf();
    appendLE32(out, responseFlags);
    appendLE64(out, 0);  // cursorID
    appendLE32(out, 0);  // startingFrom
    appendLE32(out, 1);  // numberReturned
    out.append(doc.objdata(), doc.objsize());
    m.finish();
    return m;
}

Message buildUnsupportedLegacyOpReply(const std::string& what, int32_t responseTo) {
    BSONObjBuilder b;
    b.append("$err", what + " is no longer supported. " + kUpgradeAdvice);
    b.append("code", kUnsupportedLegacyOpCode);
    b.append("ok", 0.0);
    return buildOpReply(b.obj(), responseTo, reply_flags::kQueryFailure);
}

ParsedOpReply parseOpReply(const Message& msg) {
    Reader r(msg.body());
    ParsedOpReply out;
    out.responseFlags = r.int32("responseFlags");
    int32_t lo = r.int32("cursorID");
    int32_t hi = r.int32("cursorID");
    out.cursorID = static_cast<int64_t>(static_cast<uint64_t>(static_cast<uint32_t>(lo)) |
                                        static_cast<uint64_t>(static_cast<uint32_t>(hi)) << 32);
    out.startingFrom = r.int32("startingFrom");
    out.numberReturned = r.int32("numberReturned");
    while (!r.atEnd()) out.documents.push_back(r.document());
    return out;
}

}  // namespace mongo
