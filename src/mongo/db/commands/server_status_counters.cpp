#include "mongo/db/commands/server_status_counters.h"

#include "mongo/bson/bsonobjbuilder.h"

namespace mongo {

BSONObj OpCounters::toBSON() const {
    BSONObjBuilder b;
    b.appendLong("insert", insert.load());
    b.appendLong("query", query.load());
    b.appendLong("update", update.load());
    b.appendLong("delete", deleted.load());
    b.appendLong("getmore", getmore.load());
    b.appendLong("command", command.load());
    return b.obj();
}

OpCounters& globalOpCounters() {
    static OpCounters* c = new OpCounters();  // never destroyed: counted until exit
    return *c;
}

void noteCommandForOpCounters(const std::string& cmdName) {
    OpCounters& c = globalOpCounters();
    if (cmdName == "find") {
        c.gotQuery();
    } else if (cmdName == "getMore") {
        c.gotGetMore();
    } else if (cmdName != "insert" && cmdName != "update" && cmdName != "delete") {
        c.gotCommand();
    }
}

BSONObj AssertionCounters::toBSON() const {
    BSONObjBuilder b;
    b.appendInt("regular", regular.load());
    b.appendInt("warning", warning.load());
    b.appendInt("msg", msg.load());
    b.appendInt("user", user.load());
    b.appendInt("tripwire", tripwire.load());
    b.appendInt("rollovers", rollovers.load());
    return b.obj();
}

AssertionCounters& globalAssertionCounters() {
    static AssertionCounters* c = new AssertionCounters();
    return *c;
}

}  // namespace mongo
