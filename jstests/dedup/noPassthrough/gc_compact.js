// Garbage collection frees space: load versioned documents into mongod --dedup, delete
// them all, and once the engine has removed every retained record, compact shrinks the
// collection's files.
load(__dirname + '/../../lib/assert.js');
load(__dirname + '/../../lib/mongod_runner.js');
load(__dirname + '/../../lib/dedup_data.js');

const m = MongodRunner.start({args: ['--dedup']});
const t = m.conn.getDB('gc');
const docs = DedupData.load('peps-history', 1500);
for (let i = 0; i < docs.length; i += 50)
  assert.commandWorked(t.runCommand({insert: 'c', documents: docs.slice(i, i + 50)}));
DedupData.settle(t);
assert.commandWorked(t.adminCommand({fsync: 1}));
const loaded = assert.commandWorked(t.runCommand({collStats: 'c'}));
print('loaded: logical ' + loaded.dedup.logicalSize + ' B, stored ' + loaded.dedup.storedSize + ' B, files ' +
      loaded.storageSize + ' B');

// Delete newest first: every chain head goes while older versions still decode through it,
// so the heads are retained, then freed as the rest goes.
const ids = docs.map((d) => d._id).reverse();
let maxRetained = 0;
for (let i = 0; i < ids.length; i += 100) {
  assert.commandWorked(t.runCommand({delete: 'c', deletes: [{q: {_id: {$in: ids.slice(i, i + 100)}}, limit: 0}]}));
  maxRetained = Math.max(maxRetained, Number(t.runCommand({collStats: 'c'}).dedup.retainedRecords));
}
assert.gt(maxRetained, 0, 'chain heads deleted first are retained');
assert.eq(0, t.c.countDocuments({}));
assert.soon(() => {
  DedupData.settle(t);
  const d = t.runCommand({collStats: 'c'}).dedup;
  return Number(d.retainedRecords) === 0 && Number(d.storedSize) === 0;
}, 'every retained record freed', 60000);
const st = DedupData.status(t);
print('retained records removed by garbage collection: ' + st.garbageCollection.retainedRemoved);
assert.gt(Number(st.garbageCollection.retainedRemoved), 0, tojson(st.garbageCollection));
assert.commandWorked(t.adminCommand({fsync: 1}));
const r = assert.commandWorked(t.runCommand({compact: 'c', freeSpaceTargetMB: 1}));
assert.commandWorked(t.adminCommand({fsync: 1}));
const after = assert.commandWorked(t.runCommand({collStats: 'c'}));
print('after delete + compact: files ' + after.storageSize + ' B (bytesFreed ' + r.bytesFreed + ')');
assert.lt(Number(after.storageSize), Number(loaded.storageSize) / 2, 'the store shrinks');
const v = assert.commandWorked(t.runCommand({validate: 'c', full: true}));
assert.eq(true, v.valid, tojson(v));
assert.eq(0, Number(v.dedup.storedRecords), tojson(v.dedup));
assert.eq(0, m.stop());
print('gc_compact.js OK');
