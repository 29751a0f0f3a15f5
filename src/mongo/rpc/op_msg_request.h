#pragma once
// A command as the command layer sees it, whatever the wire format it arrived in:
// OP_MSG (body + document sequences) or legacy OP_QUERY on <db>.$cmd (converted).
#include <string>
#include <utility>
#include <vector>

#include "mongo/bson/bsonobj.h"

namespace mongo {

struct OpMsgRequest {
    BSONObj body;  // owned
    // Kind-1 sections: identifier -> documents (e.g. "documents" for insert).
    std::vector<std::pair<std::string, std::vector<BSONObj>>> sequences;
    bool fromLegacyQuery = false;  // arrived as OP_QUERY

    std::string commandName() const { return std::string(body.firstElementFieldName()); }
    // The target database: body.$db (OP_MSG) or the namespace's database (OP_QUERY).
    std::string db() const { return body["$db"].str(); }
    const std::vector<BSONObj>* sequence(const std::string& name) const {
        for (auto& s : sequences)
            if (s.first == name) return &s.second;
        return nullptr;
    }
};

}  // namespace mongo
