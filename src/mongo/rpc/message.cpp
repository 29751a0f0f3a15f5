#include "mongo/rpc/message.h"

#include <atomic>

namespace mongo {

const char* opCodeName(int32_t opCode) {
    switch (static_cast<OpCode>(opCode)) {
        case OpCode::kReply: return "reply";
        case OpCode::kUpdate: return "update";
        case OpCode::kInsert: return "insert";
        case OpCode::kQuery: return "query";
        case OpCode::kGetMore: return "getmore";
        case OpCode::kDelete: return "remove";
        case OpCode::kKillCursors: return "killcursors";
        case OpCode::kCompressed: return "compressed";
        case OpCode::kMsg: return "msg";
    }
    return "unknown";
}

Message Message::start(OpCode op, int32_t requestID, int32_t responseTo) {
    std::string buf(kMsgHeaderSize, '\0');
    MsgHeader{kMsgHeaderSize, requestID, responseTo, static_cast<int32_t>(op)}.writeTo(&buf[0]);
    return Message(std::move(buf));
}

int32_t nextMessageId() {
    static std::atomic<int32_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace mongo
