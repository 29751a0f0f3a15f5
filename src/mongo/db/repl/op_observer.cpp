#include "mongo/db/repl/op_observer.h"

#include <memory>

namespace mongo {
namespace repl {
namespace {

std::unique_ptr<OpObserver>& slot() {
    static std::unique_ptr<OpObserver> observer = std::make_unique<OpObserver>();
    return observer;
}
thread_local int tlUnreplicatedDepth = 0;
}  // namespace

UnreplicatedWritesBlock::UnreplicatedWritesBlock() { ++tlUnreplicatedDepth; }
UnreplicatedWritesBlock::~UnreplicatedWritesBlock() { --tlUnreplicatedDepth; }
bool UnreplicatedWritesBlock::active() { return tlUnreplicatedDepth > 0; }

OpObserver* OpObserver::get() { return slot().get(); }

void OpObserver::set(std::unique_ptr<OpObserver> observer) {
    slot() = observer ? std::move(observer) : std::make_unique<OpObserver>();
}

}  // namespace repl
}  // namespace mongo
