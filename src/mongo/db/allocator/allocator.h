#pragma once
// The process's memory allocator, as far as the server reports and tunes it.
//
// mongod links tcmalloc from gperftools (SConstruct's allocator=tcmalloc, the default, as
// MongoDB links tcmalloc): glibc's malloc gives each of the many connection threads an arena
// of its own and keeps what they free, so its RSS grew to several times what the server held
// under 64 clients (buildscripts/bench/memory/README.md). With allocator=system (and in the
// sanitizer builds) these functions report that nothing is available.
//
// Only this file's .cpp knows which allocator was linked (MONGO_HAVE_TCMALLOC is defined for
// src/mongo/db/allocator alone), so switching allocators rebuilds a few files, not the tree.
//
// Thread safety: every function may be called from any thread at any time.
#include <cstddef>
#include <optional>
#include <string>

namespace mongo::allocator {

// Whether the server runs on tcmalloc.
bool isTcmalloc();

// buildInfo's "allocator": "tcmalloc" or "system".
const char* name();

// A numeric property of MallocExtension ("generic.current_allocated_bytes",
// "tcmalloc.pageheap_free_bytes", ...); nothing when the allocator does not know it.
std::optional<size_t> numericProperty(const char* property);

// Sets a writable property ("tcmalloc.max_total_thread_cache_bytes",
// "tcmalloc.aggressive_memory_decommit"); false when the allocator refuses it.
bool setNumericProperty(const char* property, size_t value);

// gperftools' release rate: how eagerly memory freed into the page heap goes back to the
// system as it is freed (0 = never, 1 = the default, 10 = eagerly). -1 when not tcmalloc.
double releaseRate();
void setReleaseRate(double rate);

// Returns at least `bytes` of free page-heap memory to the system (madvise), or all of it if
// there is less. Memory stays in the address space; touching it again costs a page fault.
void releaseToSystem(size_t bytes);

// tcmalloc's own text summary (MallocExtension::GetStats); empty when not tcmalloc.
std::string statsText();

}  // namespace mongo::allocator
