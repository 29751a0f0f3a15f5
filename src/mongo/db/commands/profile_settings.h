#pragma once
// Profiling and slow-operation settings, changed by the profile command and read by the
// dispatcher (slow-operation logging, writing <db>.system.profile).
// Level: 0 off, 1 operations slower than slowMs (sampled by sampleRate), 2 every operation;
// per database, starting from --profile / operationProfiling.mode. slowMs and sampleRate
// are process-wide (as in MongoDB), starting from --slowms / --slowOpSampleRate.
// Thread safety: all functions are thread safe.
#include <string>

#include "mongo/bson/bsonobj.h"

namespace mongo {

int profileLevel(const std::string& db);
// False when no database can have a profiling level above 0 (one atomic load: the dispatcher
// asks it after every command).
bool anyProfilingEnabled();
int slowOpThresholdMs();
double slowOpSampleRate();
// The filter set with {profile: n, filter: {...}} for db, or an empty object.
BSONObj profileFilter(const std::string& db);

}  // namespace mongo
