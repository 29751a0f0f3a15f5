#pragma once
// A find's cursor: documents from a PlanExecutor, which survives between getMores.
#include <memory>

#include "mongo/db/query/cursor_manager.h"
#include "mongo/db/query/plan_executor.h"

namespace mongo {

class FindCursorSource : public CursorSource {
public:
    explicit FindCursorSource(std::unique_ptr<PlanExecutor> exec) : _exec(std::move(exec)) {}
    std::optional<BSONObj> next(const OperationContext* interruptCtx) override { return _exec->getNext(interruptCtx); }
    void save() override { _exec->saveState(); }
    // REQUIRES: shared catalog lock.
    void restore() override {
        _exec->restoreState(CollectionCatalog::get()->lookupCollection(_exec->storageContext(), _exec->nss()));
    }
    PlanExecutor* executor() { return _exec.get(); }

private:
    std::unique_ptr<PlanExecutor> _exec;
};

}  // namespace mongo
