// serverStatus().tcmalloc and the tcmalloc server parameters, as MongoDB 7.0 reports and takes
// them when it runs on gperftools' tcmalloc. Both exist only when the server is linked with
// tcmalloc (as in MongoDB, whose builds on the system allocator have neither).
//
//   tcmalloc: {
//     generic:  {current_allocated_bytes, heap_size},
//     tcmalloc: {pageheap_free_bytes, pageheap_unmapped_bytes, max_total_thread_cache_bytes,
//                current_total_thread_cache_bytes, total_free_bytes, central_cache_free_bytes,
//                transfer_cache_free_bytes, thread_cache_free_bytes, aggressive_memory_decommit,
//                pageheap_committed_bytes, pageheap_scavenge_count, pageheap_commit_count,
//                pageheap_total_commit_bytes, pageheap_decommit_count,
//                pageheap_total_decommit_bytes, pageheap_reserve_count,
//                pageheap_total_reserve_bytes, [spinlock_total_delay_ns], release_rate,
//                formattedString}
//   }
//
// Parameters (startup and run time): tcmallocReleaseRate (double, 0-10, tcmalloc's default 1;
// also paces the background release, memory_releaser.h), tcmallocMaxTotalThreadCacheBytes,
// tcmallocAggressiveMemoryDecommit (0 or 1). Each reads and writes tcmalloc itself, so what
// getParameter shows is what the allocator uses.
#include <string>

#include "mongo/db/allocator/allocator.h"
#include "mongo/db/commands/serverstatus_section.h"
#include "mongo/db/server_parameters.h"

namespace mongo::allocator {
namespace {

void appendProperty(BSONObjBuilder& b, const char* field, const char* property) {
    if (auto v = numericProperty(property)) b.appendLong(field, static_cast<long long>(*v));
}

long long property(const char* name) { return static_cast<long long>(numericProperty(name).value_or(0)); }

BSONObj tcmallocSection(OperationContext*) {
    BSONObjBuilder b;
    if (!isTcmalloc()) return b.obj();  // empty: the section is left out
    {
        BSONObjBuilder& g = b.subobjStart("generic");
        appendProperty(g, "current_allocated_bytes", "generic.current_allocated_bytes");
        appendProperty(g, "heap_size", "generic.heap_size");
        g.doneFast();
    }
    BSONObjBuilder& t = b.subobjStart("tcmalloc");
    appendProperty(t, "pageheap_free_bytes", "tcmalloc.pageheap_free_bytes");
    appendProperty(t, "pageheap_unmapped_bytes", "tcmalloc.pageheap_unmapped_bytes");
    appendProperty(t, "max_total_thread_cache_bytes", "tcmalloc.max_total_thread_cache_bytes");
    appendProperty(t, "current_total_thread_cache_bytes", "tcmalloc.current_total_thread_cache_bytes");
    // Free memory in the caches above the page heap: small objects freed but not yet whole
    // pages. Read once, so that the total is the sum of the parts shown.
    long long central = property("tcmalloc.central_cache_free_bytes");
    long long transfer = property("tcmalloc.transfer_cache_free_bytes");
    long long thread = property("tcmalloc.thread_cache_free_bytes");
    t.appendLong("total_free_bytes", central + transfer + thread);
    t.appendLong("central_cache_free_bytes", central);
    t.appendLong("transfer_cache_free_bytes", transfer);
    t.appendLong("thread_cache_free_bytes", thread);
    appendProperty(t, "aggressive_memory_decommit", "tcmalloc.aggressive_memory_decommit");
    appendProperty(t, "pageheap_committed_bytes", "tcmalloc.pageheap_committed_bytes");
    appendProperty(t, "pageheap_scavenge_count", "tcmalloc.pageheap_scavenge_count");
    appendProperty(t, "pageheap_commit_count", "tcmalloc.pageheap_commit_count");
    appendProperty(t, "pageheap_total_commit_bytes", "tcmalloc.pageheap_total_commit_bytes");
    appendProperty(t, "pageheap_decommit_count", "tcmalloc.pageheap_decommit_count");
    appendProperty(t, "pageheap_total_decommit_bytes", "tcmalloc.pageheap_total_decommit_bytes");
    appendProperty(t, "pageheap_reserve_count", "tcmalloc.pageheap_reserve_count");
    appendProperty(t, "pageheap_total_reserve_bytes", "tcmalloc.pageheap_total_reserve_bytes");
    appendProperty(t, "spinlock_total_delay_ns", "tcmalloc.spinlock_total_delay_ns");  // if this tcmalloc has it
    t.append("release_rate", releaseRate());
    t.append("formattedString", statsText());
    t.doneFast();
    return b.obj();
}

const bool kSectionRegistered = [] {
    registerServerStatusSection("tcmalloc", tcmallocSection);
    return true;
}();

#ifdef MONGO_HAVE_TCMALLOC

using SPT = ServerParameterType;

Status invalid(const std::string& param, const Status& s) {
    return Status(s.code(), "Invalid value for " + param + ": " + s.reason());
}

// tcmallocReleaseRate: tcmalloc's own release rate.
class ReleaseRateParameter : public ServerParameter {
public:
    ReleaseRateParameter() : ServerParameter("tcmallocReleaseRate", SPT::kStartupAndRuntime) {}
    void append(BSONObjBuilder& b, const std::string& name) const override { b.append(name, releaseRate()); }
    Status set(const BSONElement& e) override {
        double v = 0;
        Status s = server_parameter_detail::fromBSON(e, &v);
        return s.isOK() ? apply(v) : invalid(name(), s);
    }
    Status setFromString(const std::string& str) override {
        double v = 0;
        Status s = server_parameter_detail::fromString(str, &v);
        return s.isOK() ? apply(v) : invalid(name(), s);
    }

private:
    Status apply(double v) {
        if (!(v >= 0 && v <= 10))
            return Status(ErrorCodes::BadValue, "tcmallocReleaseRate must be between 0 and 10.0, got " + std::to_string(v));
        setReleaseRate(v);
        return Status::OK();
    }
} gReleaseRate;

// An integer property of tcmalloc's, read and written through MallocExtension.
class PropertyParameter : public ServerParameter {
public:
    PropertyParameter(std::string name, const char* property, long long lo, long long hi)
        : ServerParameter(std::move(name), SPT::kStartupAndRuntime), _property(property), _lo(lo), _hi(hi) {}
    void append(BSONObjBuilder& b, const std::string& name) const override {
        long long v = static_cast<long long>(numericProperty(_property).value_or(0));
        if (_hi <= INT32_MAX)
            b.append(name, static_cast<int>(v));
        else
            b.append(name, v);
    }
    Status set(const BSONElement& e) override {
        long long v = 0;
        Status s = server_parameter_detail::fromBSON(e, &v);
        return s.isOK() ? apply(v) : invalid(name(), s);
    }
    Status setFromString(const std::string& str) override {
        long long v = 0;
        Status s = server_parameter_detail::fromString(str, &v);
        return s.isOK() ? apply(v) : invalid(name(), s);
    }

private:
    Status apply(long long v) {
        if (v < _lo || v > _hi)
            return Status(ErrorCodes::BadValue, name() + " must be between " + std::to_string(_lo) + " and " +
                                                    std::to_string(_hi) + ", got " + std::to_string(v));
        if (!setNumericProperty(_property, static_cast<size_t>(v)))
            return Status(ErrorCodes::InternalError, std::string("tcmalloc refused to set ") + _property);
        return Status::OK();
    }
    const char* _property;
    long long _lo, _hi;
};

PropertyParameter gMaxTotalThreadCacheBytes("tcmallocMaxTotalThreadCacheBytes",
                                            "tcmalloc.max_total_thread_cache_bytes", 0, INT64_MAX);
PropertyParameter gAggressiveMemoryDecommit("tcmallocAggressiveMemoryDecommit",
                                            "tcmalloc.aggressive_memory_decommit", 0, 1);

#endif  // MONGO_HAVE_TCMALLOC

}  // namespace
}  // namespace mongo::allocator
