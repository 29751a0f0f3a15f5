#pragma once
// The command dispatcher: request -> command lookup -> OperationContext -> run -> reply with
// MongoDB's envelope ({..., ok: 1} or {ok: 0, errmsg, code, codeName}).
#include "mongo/transport/service_entry_point.h"

namespace mongo {

class ServiceEntryPointMongod : public ServiceEntryPoint {
public:
    BSONObj handleRequest(Client* client, const OpMsgRequest& request) override;
    void onClientDisconnect(Client* client) override;
};

// {ok: 0, errmsg, code, codeName, <extraInfo...>} (extraInfo: e.g. a duplicate key's
// keyPattern and keyValue).
BSONObj makeErrorReply(const Status& s, const BSONObj& extraInfo = BSONObj());

}  // namespace mongo
