#include "mongo/db/repl/op_observer.h"

#include <memory>

namespace mongo {
namespace repl {
namespace {
thread_local int tlUnreplicated = 0;

std::unique_ptr<OpObserver>& slot() {
    static std::unique_ptr<OpObserver> observer = std::make_unique<OpObserver>();
    return observer;
}
}  // namespace

UnreplicatedWritesBlock::UnreplicatedWritesBlock() { ++tlUnreplicated; }
UnreplicatedWritesBlock::~UnreplicatedWritesBlock() { --tlUnreplicated; }
bool UnreplicatedWritesBlock::active() { return tlUnreplicated > 0; }

OpObserver* OpObserver::get() { return slot().get(); }

void OpObserver::set(std::unique_ptr<OpObserver> observer) {
    slot() = observer ? std::move(observer) : std::make_unique<OpObserver>();
}

}  // namespace repl
}  // namespace mongo
