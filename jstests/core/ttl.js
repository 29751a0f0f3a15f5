// TTL indexes: the TTL monitor deletes documents whose indexed date (the earliest, for an array)
// is older than expireAfterSeconds; values that are not dates never expire. The monitor's period
// (ttlMonitorSleepSecs) and switch (ttlMonitorEnabled) are settable at run time; its work shows
// in serverStatus().metrics.ttl. createIndexes checks expireAfterSeconds as MongoDB 7.0 does.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_ttl');
const admin = t.getSiblingDB('admin');
const saved = assert.commandWorked(admin.runCommand({getParameter: 1, ttlMonitorSleepSecs: 1, ttlMonitorEnabled: 1}));
function ttlMetrics() {
  const m = assert.commandWorked(admin.runCommand({serverStatus: 1})).metrics.ttl;
  return {passes: Number(m.passes), subPasses: Number(m.subPasses), deleted: Number(m.deletedDocuments)};
}
// Waits until the monitor has started and finished n more passes.
function waitForPasses(n) {
  const start = ttlMetrics().passes;
  assert.soon(() => ttlMetrics().passes >= start + n, () => 'TTL monitor passes from ' + start + ': ' + tojson(ttlMetrics()),
              30000, 100);
}

try {
  // The period changes at run time (MongoDB 7.0: startup and runtime).
  const details = assert.commandWorked(admin.runCommand({getParameter: {showDetails: true}, ttlMonitorSleepSecs: 1}));
  assert.eq(true, details.ttlMonitorSleepSecs.settableAtRuntime, tojson(details));
  assert.commandFailed(runCmd(admin, {setParameter: 1, ttlMonitorSleepSecs: 0}));
  assert.commandWorked(admin.runCommand({setParameter: 1, ttlMonitorSleepSecs: 1}));

  // createIndexes' checks of expireAfterSeconds.
  function refused(spec, code, re, coll) {
    const r = assert.commandFailedWithCode(runCmd(t, {createIndexes: coll || 'checks', indexes: [spec]}), code, tojson(spec));
    assert(re.test(r.errmsg), r.errmsg);
  }
  refused({key: {d: 1}, name: 'd_1', expireAfterSeconds: -1}, 67,
          /^\. Index spec: .* :: caused by :: TTL index 'expireAfterSeconds' option cannot be less than 0$/);
  refused({key: {d: 1}, name: 'd_1', expireAfterSeconds: 'x'}, 67,
          /TTL index 'expireAfterSeconds' option must be numeric, but received a type of 'string/);
  refused({key: {d: 1}, name: 'd_1', expireAfterSeconds: NaN}, 67, /option must not be NaN/);
  refused({key: {d: 1}, name: 'd_1', expireAfterSeconds: 2147483648}, 67, /must be within the range of a 32-bit integer/);
  refused({key: {d: 1, e: 1}, name: 'd_e', expireAfterSeconds: 10}, 67,
          /^TTL indexes are single-field indexes, compound indexes do not support TTL\. Index spec: /);
  refused({key: {_id: 1}, name: 'id_ttl', expireAfterSeconds: 10}, 197,
          /^The field 'expireAfterSeconds' is not valid for an _id index specification/);
  assert(!t.getCollectionNames().includes('checks'), 'a refused createIndexes creates no collection');
  assert.commandWorked(t.runCommand({create: 'capped', capped: true, size: 4096}));
  refused({key: {d: 1}, name: 'd_1', expireAfterSeconds: 10}, 67, /^Cannot create TTL index on a capped collection$/,
          'capped');
  // The largest value, and fractions (truncated) are fine.
  assert.commandWorked(t.runCommand({createIndexes: 'checks', indexes: [{key: {d: 1}, name: 'd_1',
                                                                         expireAfterSeconds: 2147483647}]}));
  assert.commandWorked(t.runCommand({createIndexes: 'checks', indexes: [{key: {e: 1}, name: 'e_1',
                                                                         expireAfterSeconds: 1.5}]}));

  // What expires: a date older than now - expireAfterSeconds, or an array whose earliest date
  // is; not future dates, not numbers, strings, timestamps or dates nested in documents.
  const old = new Date(Date.now() - 3600 * 1000), future = new Date(Date.now() + 3600 * 1000);
  const docs = [
    {_id: 'old', d: old},
    {_id: 'array-one-old', d: [future, old]},
    {_id: 'array-future', d: [future, future]},
    {_id: 'future', d: future},
    {_id: 'number', d: 12345},
    {_id: 'string', d: 'yesterday'},
    {_id: 'timestamp', d: Timestamp(1, 1)},
    {_id: 'nested', d: {when: old}},
    {_id: 'missing'},
    {_id: 'null', d: null},
  ];
  assert.commandWorked(t.runCommand({insert: 'c', documents: docs}));
  assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {d: 1}, name: 'd_ttl', expireAfterSeconds: 60}]}));
  // A partial TTL index only expires the documents it holds.
  assert.commandWorked(t.runCommand({insert: 'p', documents: [{_id: 1, d: old, keep: true}, {_id: 2, d: old, keep: false}]}));
  assert.commandWorked(t.runCommand({createIndexes: 'p', indexes: [{key: {d: 1}, name: 'd_ttl', expireAfterSeconds: 0,
                                                                     partialFilterExpression: {keep: false}}]}));
  // A hidden TTL index still expires documents (MongoDB maintains hidden indexes).
  assert.commandWorked(t.runCommand({insert: 'h', documents: [{_id: 1, d: old}, {_id: 2, d: future}]}));
  assert.commandWorked(t.runCommand({createIndexes: 'h', indexes: [{key: {d: 1}, name: 'd_ttl', expireAfterSeconds: 0,
                                                                     hidden: true}]}));
  // A non-TTL index expires nothing.
  assert.commandWorked(t.runCommand({insert: 'plain', documents: [{_id: 1, d: old}]}));
  assert.commandWorked(t.runCommand({createIndexes: 'plain', indexes: [{key: {d: 1}, name: 'd_1'}]}));

  const before = ttlMetrics();
  assert.soon(() => t.c.countDocuments({}) === docs.length - 2, 'expired documents deleted', 30000, 100);
  waitForPasses(2);  // and nothing more goes in later passes
  assert.sameMembers(['array-future', 'future', 'number', 'string', 'timestamp', 'nested', 'missing', 'null'],
                     t.c.find().toArray().map((d) => d._id));
  assert.eq([1], t.p.find().toArray().map((d) => d._id));
  assert.eq([2], t.h.find().toArray().map((d) => d._id));
  assert.eq(1, t.plain.countDocuments({}));
  const after = ttlMetrics();
  assert.gte(after.deleted - before.deleted, 4, tojson([before, after]));
  assert.gte(after.passes - before.passes, 2);
  assert.gte(after.subPasses, after.passes);
  // The index was used, and the collection is consistent afterwards.
  assert.eq(8, t.c.find().hint('d_ttl').itcount());
  assert.eq(true, assert.commandWorked(t.runCommand({validate: 'c', full: true})).valid);

  // ttlMonitorEnabled: false stops deleting; true resumes.
  assert.commandWorked(admin.runCommand({setParameter: 1, ttlMonitorEnabled: false}));
  sleep(1500);  // a pass that started before the switch has finished
  const disabledAt = ttlMetrics().passes;
  assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 'late', d: old}]}));
  sleep(2500);
  assert.eq(1, t.c.countDocuments({_id: 'late'}), 'no deletes while disabled');
  assert.eq(disabledAt, ttlMetrics().passes, 'no passes while disabled');
  assert.commandWorked(admin.runCommand({setParameter: 1, ttlMonitorEnabled: true}));
  assert.soon(() => t.c.countDocuments({_id: 'late'}) === 0, 'deletes resume', 30000, 100);
} finally {
  assert.commandWorked(admin.runCommand({setParameter: 1, ttlMonitorSleepSecs: saved.ttlMonitorSleepSecs,
                                         ttlMonitorEnabled: saved.ttlMonitorEnabled}));
}
print('ttl.js OK');
