#pragma once
// WiredTigerCursor: RAII loan of a cached WT_CURSOR from the operation's session, with the
// transaction begun. Released (reset, back to the session's cache) on destruction.
// Not thread safe.
#include <wiredtiger.h>

#include <string>

#include "mongo/db/storage/wiredtiger/wiredtiger_recovery_unit.h"

namespace mongo {

class WiredTigerCursor {
public:
    WiredTigerCursor(WiredTigerRecoveryUnit* ru, const std::string& uri)
        : _session(ru->getSession()), _uri(uri), _cursor(_session->getCursor(uri)) {}
    ~WiredTigerCursor() { _session->releaseCursor(_uri, _cursor); }
    WiredTigerCursor(const WiredTigerCursor&) = delete;
    WiredTigerCursor& operator=(const WiredTigerCursor&) = delete;

    WT_CURSOR* get() const { return _cursor; }
    WT_CURSOR* operator->() const { return _cursor; }
    WT_SESSION* session() const { return _session->get(); }

private:
    WiredTigerSession* _session;
    std::string _uri;
    WT_CURSOR* _cursor;
};

}  // namespace mongo
