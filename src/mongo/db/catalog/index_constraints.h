#pragma once
// RelaxedUniqueIndexScope: while alive on this thread, unique secondary indexes accept
// duplicate keys (the _id index stays unique). MongoDB relaxes index constraints the same way
// when a member applies writes it did not originate during initial sync: documents cloned at
// different moments, and oplog entries replayed over them, may hold a unique key twice in
// between, although the sync source never did; the set's data at the end of the sync (the
// source's at one point in time) satisfies every constraint again.
// Thread-local and nestable; no effect on other threads.
namespace mongo {

class RelaxedUniqueIndexScope {
public:
    RelaxedUniqueIndexScope() { ++depth(); }
    ~RelaxedUniqueIndexScope() { --depth(); }
    RelaxedUniqueIndexScope(const RelaxedUniqueIndexScope&) = delete;
    RelaxedUniqueIndexScope& operator=(const RelaxedUniqueIndexScope&) = delete;
    static bool active() { return depth() > 0; }

private:
    static int& depth() {
        thread_local int d = 0;
        return d;
    }
};

}  // namespace mongo
