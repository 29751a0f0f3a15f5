// Data, indexes and collection options survive a clean restart and a kill -9 after
// journaled writes (the mongosh twin of tests/pymongo/test_persistence.py).
load(__dirname + '/../lib/assert.js');
load(__dirname + '/../lib/mongod_runner.js');

const m = MongodRunner.start();
let t = m.conn.getDB('persist');
const docs = [];
for (let i = 0; i < 500; i++) docs.push({_id: i, k: i % 10, s: 'doc ' + i});
assert.commandWorked(t.runCommand({insert: 'c', documents: docs}));
assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {k: 1}, name: 'k_1'}, {key: {s: 1}, name: 's_1', unique: true}]}));
assert.commandWorked(t.runCommand({create: 'capped', capped: true, size: 65536}));
assert.commandWorked(t.runCommand({delete: 'c', deletes: [{q: {k: 9}, limit: 0}]}));

m.restart();
t = m.conn.getDB('persist');
assert.eq(450, t.c.countDocuments({}));
assert.sameMembers(['_id_', 'k_1', 's_1'], t.c.getIndexes().map((i) => i.name));
const capped = t.getCollectionInfos({name: 'capped'})[0];
assert.eq(true, capped.options.capped, tojson(capped));
assert.writeErrorWithCode(t.runCommand({insert: 'c', documents: [{s: 'doc 1'}]}), 11000, 0);

// Journaled writes survive kill -9.
for (let i = 1000; i < 1100; i++) {
  assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: i, k: -1, s: 'journaled ' + i}], writeConcern: {w: 1, j: true}}));
}
m.kill9();
m.start();
t = m.conn.getDB('persist');
assert.eq(100, t.c.countDocuments({k: -1}));
assert.eq(true, assert.commandWorked(t.runCommand({validate: 'c'})).valid);
assert.eq(0, m.stop());
print('restart_persistence.js OK');
