#include "mongo/db/repl/repl_config.h"

#include <cmath>
#include <set>

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {
namespace repl {
namespace {

Status invalid(const std::string& msg) { return Status(ErrorCodes::InvalidReplicaSetConfig, msg); }

Status wrongType(const std::string& field, const char* expected, const BSONElement& e) {
    return Status(ErrorCodes::TypeMismatch, "\"" + field + "\" had the wrong type. Expected " + expected +
                                                ", found " + typeName(e.type()));
}

bool lowerEq(const std::string& a, const std::string& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower((unsigned char)a[i]) != std::tolower((unsigned char)b[i])) return false;
    return true;
}

StatusWith<MemberConfig> parseMember(const BSONElement& e) {
    if (e.type() != Object) return wrongType("members." + std::string(e.fieldNameStringData()), "object", e);
    MemberConfig m;
    bool haveId = false, haveHost = false;
    for (BSONElement f : e.embeddedObject()) {
        std::string n(f.fieldNameStringData());
        if (n == "_id") {
            long long v;
            if (!f.isNumber() || !f.isIntegral64(&v)) return wrongType("_id", "NumberInt", f);
            if (v < 0 || v > 255) return Status(ErrorCodes::BadValue, "_id field value of " + std::to_string(v) + " is out of range.");
            m.id = int(v);
            haveId = true;
        } else if (n == "host") {
            if (f.type() != String) return wrongType("host", "string", f);
            m.host = f.str();
            haveHost = true;
        } else if (n == "arbiterOnly" || n == "buildIndexes" || n == "hidden") {
            if (f.type() != Bool && !f.isNumber()) return wrongType(n, "bool", f);
            (n == "arbiterOnly" ? m.arbiterOnly : n == "buildIndexes" ? m.buildIndexes : m.hidden) = f.trueValue();
        } else if (n == "priority") {
            if (!f.isNumber()) return wrongType("priority", "number", f);
            m.priority = f.numberDouble();
            if (!(m.priority >= 0 && m.priority <= 1000))
                return Status(ErrorCodes::BadValue, "priority field value of " + f.toString(false) + " is out of range");
        } else if (n == "votes") {
            if (!f.isNumber()) return wrongType("votes", "number", f);
            long long v = f.numberLong();
            if (v != 0 && v != 1) return Status(ErrorCodes::BadValue, "votes field value is " + f.toString(false) + " but must be 0 or 1");
            m.votes = int(v);
        } else if (n == "tags") {
            if (f.type() != Object) return wrongType("tags", "object", f);
            for (BSONElement t : f.embeddedObject())
                if (t.type() != String) return wrongType("tags." + std::string(t.fieldNameStringData()), "string", t);
            m.tags = f.embeddedObject().getOwned();
        } else if (n == "secondaryDelaySecs") {
            long long v;
            if (!f.isNumber() || !f.isIntegral64(&v)) return wrongType("secondaryDelaySecs", "NumberLong", f);
            // MongoDB's bound: one (leap) year.
            if (v < 0 || v > 3600LL * 24 * 366)
                return Status(ErrorCodes::BadValue, "secondaryDelaySecs field value of " + std::to_string(v) + " seconds is out of range");
            m.secondaryDelaySecs = v;
        } else if (n == "slaveDelay") {
            return Status(ErrorCodes::BadValue, "Use secondaryDelaySecs instead of slaveDelay");
        } else if (n == "horizons" || n == "newlyAdded") {
            return invalid("member field '" + n + "' is not supported by this server yet");
        } else {
            return Status(ErrorCodes::BadValue, "Unexpected field " + n + " in replica set member configuration");
        }
    }
    if (!haveId) return Status(ErrorCodes::NoSuchKey, "Missing expected field \"_id\"");
    if (!haveHost) return Status(ErrorCodes::NoSuchKey, "Missing expected field \"host\"");
    if (m.host.empty()) return invalid("Empty host field in replica set member configuration");
    if (m.arbiterOnly && m.priority != 0) m.priority = 0;  // MongoDB gives arbiters priority 0
    if (m.arbiterOnly && m.votes == 0) return invalid("Arbiter must vote (cannot have 0 votes)");
    if (m.arbiterOnly && !m.tags.isEmpty()) return invalid("Cannot set tags on arbiters.");
    if (m.arbiterOnly && !m.buildIndexes) return invalid("Arbiters must have buildIndexes set to true");
    if (m.votes == 0 && m.priority != 0) return invalid("priority must be 0 when non-voting (votes:0)");
    if (m.hidden && m.priority != 0) return invalid("priority must be 0 when hidden=true");
    if (!m.buildIndexes && m.priority != 0) return invalid("priority must be 0 when buildIndexes=false");
    if (m.secondaryDelaySecs > 0 && m.priority != 0)
        return invalid("priority must be 0 when secondaryDelaySecs is greater than 0");
    // host:port with a port in range (the host part is resolved when members connect).
    const auto colon = m.host.rfind(':');
    if (colon != std::string::npos && m.host.find(']') == std::string::npos) {
        const std::string port = m.host.substr(colon + 1);
        long long p = -1;
        if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
            (p = std::stoll(port)) < 1 || p > 65535)
            return Status(ErrorCodes::FailedToParse, "Port number " + port + " out of range parsing HostAndPort from \"" + m.host + "\"");
    }
    return m;
}

Status parseSettings(const BSONElement& e, ReplSetConfig* c) {
    if (e.type() != Object) return wrongType("settings", "object", e);
    for (BSONElement f : e.embeddedObject()) {
        std::string n(f.fieldNameStringData());
        long long v = 0;
        auto millis = [&](long long* out, long long minV) -> Status {
            if (!f.isNumber() || !f.isIntegral64(&v)) return wrongType("settings." + n, "number", f);
            if (v < minV) return Status(ErrorCodes::BadValue, n + " field value must be at least " + std::to_string(minV));
            *out = v;
            return Status::OK();
        };
        Status s = Status::OK();
        if (n == "chainingAllowed") {
            if (f.type() != Bool) return wrongType("settings.chainingAllowed", "bool", f);
            c->chainingAllowed = f.boolean();
        } else if (n == "heartbeatIntervalMillis") {
            s = millis(&c->heartbeatIntervalMillis, 1);
        } else if (n == "heartbeatTimeoutSecs") {
            s = millis(&c->heartbeatTimeoutSecs, 1);
        } else if (n == "electionTimeoutMillis") {
            s = millis(&c->electionTimeoutMillis, 1);
        } else if (n == "catchUpTimeoutMillis") {
            s = millis(&c->catchUpTimeoutMillis, -1);
        } else if (n == "catchUpTakeoverDelayMillis") {
            s = millis(&c->catchUpTakeoverDelayMillis, -1);
        } else if (n == "getLastErrorModes") {
            if (f.type() != Object) return wrongType("settings.getLastErrorModes", "object", f);
            if (!f.embeddedObject().isEmpty())
                return invalid("settings.getLastErrorModes (tagged write concerns) are not supported by this server yet");
            c->getLastErrorModes = f.embeddedObject().getOwned();
        } else if (n == "getLastErrorDefaults") {
            if (f.type() != Object) return wrongType("settings.getLastErrorDefaults", "object", f);
            BSONObj d = f.embeddedObject();
            // As MongoDB 5.0+: only the implicit default {w: 1, wtimeout: 0} is allowed.
            for (BSONElement g : d) {
                std::string gn(g.fieldNameStringData());
                bool ok = (gn == "w" && g.isNumber() && g.numberLong() == 1) ||
                          (gn == "wtimeout" && g.isNumber() && g.numberLong() == 0);
                if (!ok)
                    return invalid("getLastErrorDefaults are no longer supported; use setDefaultRWConcern to set a "
                                   "default write concern");
            }
        } else if (n == "replicaSetId") {
            if (f.type() != jstOID) return wrongType("settings.replicaSetId", "objectId", f);
            c->replicaSetId = f.oid();
            c->replicaSetIdGiven = true;
        } else {
            return Status(ErrorCodes::BadValue, "Unexpected field " + n + " in replica set settings");
        }
        if (!s.isOK()) return s;
    }
    return Status::OK();
}

}  // namespace

StatusWith<ReplSetConfig> ReplSetConfig::parse(const BSONObj& doc, const std::string& expectedSetName, const char* verb) {
    ReplSetConfig c;
    c.replicaSetId = OID::gen();
    BSONObjBuilder gled;
    gled.append("w", 1);
    gled.append("wtimeout", 0);
    c.getLastErrorDefaults = gled.obj();
    bool haveId = false, haveMembers = false;
    std::set<int> ids;
    std::set<std::string> hosts;
    for (BSONElement f : doc) {
        std::string n(f.fieldNameStringData());
        if (n == "_id") {
            if (f.type() != String) return wrongType("_id", "string", f);
            c.setName = f.str();
            haveId = true;
        } else if (n == "version") {
            long long v;
            if (!f.isNumber() || !f.isIntegral64(&v)) return wrongType("version", "number", f);
            if (v < 1 || v > INT32_MAX)
                return Status(ErrorCodes::BadValue, "version field value of " + std::to_string(v) + " is out of range");
            c.version = v;
        } else if (n == "term") {
            long long v;
            if (!f.isNumber() || !f.isIntegral64(&v)) return wrongType("term", "number", f);
            c.term = v;
        } else if (n == "protocolVersion") {
            if (!f.isNumber()) return wrongType("protocolVersion", "number", f);
            if (f.numberLong() != 1)
                return invalid("Support for replication protocol version " + f.toString(false) +
                               " was removed in MongoDB 4.0. Downgrade to MongoDB version 3.6 and upgrade your protocol "
                               "version to 1 before upgrading your MongoDB version");
        } else if (n == "writeConcernMajorityJournalDefault") {
            if (f.type() != Bool) return wrongType("writeConcernMajorityJournalDefault", "bool", f);
            c.writeConcernMajorityJournalDefault = f.boolean();
        } else if (n == "members") {
            if (f.type() != Array) return wrongType("members", "array", f);
            haveMembers = true;
            for (BSONElement m : f.embeddedObject()) {
                auto sw = parseMember(m);
                if (!sw.isOK()) return sw.getStatus();
                MemberConfig mc = sw.getValue();
                if (!ids.insert(mc.id).second)
                    return invalid("Found two member configurations with same _id field, members." +
                                   std::to_string(c.members.size()) + "._id == " + std::to_string(mc.id));
                std::string lh = mc.host;
                for (auto& ch : lh) ch = char(std::tolower((unsigned char)ch));
                if (!hosts.insert(lh).second)
                    return invalid("Found two member configurations with same host field, host == " + mc.host);
                c.members.push_back(mc);
            }
        } else if (n == "settings") {
            Status s = parseSettings(f, &c);
            if (!s.isOK()) return s;
        } else if (n == "configsvr") {
            if (f.trueValue()) return invalid("config servers (configsvr: true) are not supported by this server");
        } else {
            return Status(ErrorCodes::BadValue, "Unexpected field " + n + " in replica set configuration");
        }
    }
    if (!haveId) return Status(ErrorCodes::NoSuchKey, "Missing expected field \"_id\"");
    if (c.setName.empty()) return invalid("Replica set configuration must have non-empty _id field");
    if (!haveMembers) return Status(ErrorCodes::NoSuchKey, "Missing expected field \"members\"");
    if (c.members.empty()) return invalid("Replica set configuration must contain at least one non-arbiter member with priority > 0");
    if (c.setName != expectedSetName)
        return invalid(std::string("Attempting to ") + verb + " a replica set with name " + c.setName +
                       ", but command line reports " + expectedSetName + "; rejecting");
    Status s = c.validate();
    if (!s.isOK()) return s;
    return c;
}

Status ReplSetConfig::validate() const {
    if (members.size() > kMaxMembers)
        return invalid("Replica set configuration contains " + std::to_string(members.size()) +
                       " members, but must have at most " + std::to_string(kMaxMembers) + " members.");
    int voters = 0, electable = 0, localhosts = 0;
    for (const MemberConfig& m : members) {
        voters += m.votes;
        if (m.isElectable()) ++electable;
        const std::string h = m.host.substr(0, m.host.rfind(':'));
        if (h == "localhost" || h.rfind("127.", 0) == 0 || h == "::1" || h == "[::1]") ++localhosts;
    }
    if (voters < 1 || voters > kMaxVotingMembers)
        return invalid("Replica set configuration contains " + std::to_string(voters) +
                       " voting members, but must be at least 1 and no more than " + std::to_string(kMaxVotingMembers));
    if (electable == 0)
        return invalid("Replica set configuration must contain at least one non-arbiter member with priority > 0");
    if (localhosts != 0 && localhosts != int(members.size()))
        return invalid("Either all host names in a replica set configuration must be localhost references, or none "
                       "must be; found " + std::to_string(localhosts) + " out of " + std::to_string(members.size()));
    return Status::OK();
}

int ReplSetConfig::votingMembers() const {
    int n = 0;
    for (const MemberConfig& m : members) n += m.votes;
    return n;
}

int ReplSetConfig::majorityVoteCount() const { return votingMembers() / 2 + 1; }

int ReplSetConfig::writeMajorityCount() const {
    int dataBearingVoters = 0;
    for (const MemberConfig& m : members)
        if (m.votes && !m.arbiterOnly) ++dataBearingVoters;
    return std::min(majorityVoteCount(), dataBearingVoters);
}

const MemberConfig* ReplSetConfig::findMember(int id) const {
    for (const MemberConfig& m : members)
        if (m.id == id) return &m;
    return nullptr;
}

Status ReplSetConfig::checkReconfig(const ReplSetConfig& oldConfig, const ReplSetConfig& newConfig, bool force) {
    auto incompatible = [](const std::string& msg) {
        return Status(ErrorCodes::NewReplicaSetConfigurationIncompatible, msg);
    };
    if (newConfig.setName != oldConfig.setName)
        return incompatible("New and old configurations differ in replica set name; old was " + oldConfig.setName +
                            ", and new is " + newConfig.setName);
    if (newConfig.replicaSetIdGiven && !(newConfig.replicaSetId == oldConfig.replicaSetId))
        return incompatible("New and old configurations differ in replica set ID; old was " +
                            oldConfig.replicaSetId.toString() + ", and new is " + newConfig.replicaSetId.toString());
    if (!force && newConfig.version <= oldConfig.version)
        return incompatible("New replica set configuration version must be greater than old, but " +
                            std::to_string(newConfig.version) + " is not greater than " +
                            std::to_string(oldConfig.version) + " for replica set " + oldConfig.setName);
    for (const MemberConfig& n : newConfig.members) {
        for (const MemberConfig& o : oldConfig.members) {
            const bool sameId = n.id == o.id, sameHost = lowerEq(n.host, o.host);
            if (sameHost && !sameId)
                return incompatible("New and old configurations both have members with host of " + n.host +
                                    " but in the new configuration the _id field is " + std::to_string(n.id) +
                                    " and in the old configuration it is " + std::to_string(o.id) +
                                    " for replica set " + oldConfig.setName);
            if (sameId && n.arbiterOnly != o.arbiterOnly)
                return incompatible("New and old configurations differ in the setting of the arbiterOnly field for "
                                    "member " + n.host + "; to make this change, remove then re-add the member");
        }
    }
    if (!force) {
        // Safe reconfig: the old and new sets of voters (by member _id) differ by at most one
        // member, so that any majority of the new config overlaps any majority of the old one.
        int changes = 0;
        for (const MemberConfig& n : newConfig.members) {
            const MemberConfig* o = oldConfig.findMember(n.id);
            if (n.votes && (!o || !o->votes)) ++changes;
        }
        for (const MemberConfig& o : oldConfig.members) {
            const MemberConfig* n = newConfig.findMember(o.id);
            if (o.votes && (!n || !n->votes)) ++changes;
        }
        if (changes > 1)
            return incompatible("Non force replica set reconfig can only add or remove at most 1 voting member.");
    }
    return Status::OK();
}

ReplSetConfig ReplSetConfig::makeDefault(const std::string& setName, const std::string& host) {
    BSONObjBuilder b;
    b.append("_id", setName);
    b.append("version", 1);
    BSONArrayBuilder members;
    BSONObjBuilder& m = members.subobjStart();
    m.append("_id", 0);
    m.append("host", host);
    m.doneFast();
    b.appendArray("members", members.arr());
    auto sw = parse(b.obj(), setName);
    invariant(sw.isOK());
    return sw.getValue();
}

BSONObj ReplSetConfig::toBSON() const {
    BSONObjBuilder b;
    b.append("_id", setName);
    b.append("version", static_cast<int>(version));
    b.append("term", static_cast<int>(term));
    BSONArrayBuilder ms;
    for (const MemberConfig& m : members) {
        BSONObjBuilder& o = ms.subobjStart();
        o.append("_id", m.id);
        o.append("host", m.host);
        o.append("arbiterOnly", m.arbiterOnly);
        o.append("buildIndexes", m.buildIndexes);
        o.append("hidden", m.hidden);
        if (m.priority == std::floor(m.priority))
            o.append("priority", static_cast<int>(m.priority));
        else
            o.append("priority", m.priority);
        o.append("tags", m.tags);
        o.append("secondaryDelaySecs", m.secondaryDelaySecs);
        o.append("votes", m.votes);
        o.doneFast();
    }
    b.appendArray("members", ms.arr());
    b.append("protocolVersion", 1LL);
    b.append("writeConcernMajorityJournalDefault", writeConcernMajorityJournalDefault);
    BSONObjBuilder s;
    s.append("chainingAllowed", chainingAllowed);
    s.append("heartbeatIntervalMillis", static_cast<int>(heartbeatIntervalMillis));
    s.append("heartbeatTimeoutSecs", static_cast<int>(heartbeatTimeoutSecs));
    s.append("electionTimeoutMillis", static_cast<int>(electionTimeoutMillis));
    s.append("catchUpTimeoutMillis", static_cast<int>(catchUpTimeoutMillis));
    s.append("catchUpTakeoverDelayMillis", static_cast<int>(catchUpTakeoverDelayMillis));
    s.append("getLastErrorModes", getLastErrorModes);
    s.append("getLastErrorDefaults", getLastErrorDefaults);
    s.append("replicaSetId", replicaSetId);
    b.append("settings", s.obj());
    return b.obj();
}

int ReplSetConfig::findSelf(const std::vector<std::string>& selfHosts) const {
    for (size_t i = 0; i < members.size(); ++i)
        for (const auto& h : selfHosts)
            if (lowerEq(members[i].host, h)) return int(i);
    return -1;
}

}  // namespace repl
}  // namespace mongo
