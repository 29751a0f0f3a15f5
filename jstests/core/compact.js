// compact: reply shape {bytesFreed, ok}, the space of deleted documents going back to the file
// system, the documents kept intact, and the errors of MongoDB 7.0 for bad arguments.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_compact');
const MB = 1024 * 1024;

// Random hex: block compressors get little out of it, so the file holds about what we insert.
function randomHex(n) {
  let s = '';
  while (s.length < n) s += Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, '0');
  return s.substring(0, n);
}

// ~4 MB of documents with an index, made durable in the file.
for (let b = 0; b < 4; b++) {
  const docs = [];
  for (let i = 0; i < 1000; i++) docs.push({_id: b * 1000 + i, k: i % 10, p: randomHex(1000)});
  assert.commandWorked(t.runCommand({insert: 'c', documents: docs}));
}
assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {k: 1}, name: 'k_1'}]}));
assert.commandWorked(db.adminCommand({fsync: 1}));
const full = assert.commandWorked(t.runCommand({collStats: 'c'}));
assert.gt(full.storageSize, 3 * MB, tojson(full));

// Delete nine documents in ten; the file keeps its size until compact.
assert.commandWorked(t.runCommand({delete: 'c', deletes: [{q: {k: {$ne: 0}}, limit: 0}]}));
assert.commandWorked(db.adminCommand({fsync: 1}));
const before = assert.commandWorked(t.runCommand({collStats: 'c'}));

let r = assert.commandWorked(t.runCommand({compact: 'c', freeSpaceTargetMB: 1}));
assert.sameMembers(['bytesFreed', 'ok'], Object.keys(r));
assert.eq(1, r.ok);
assert.gt(toNumber(r.bytesFreed), 2 * MB, tojson(r));
const after = assert.commandWorked(t.runCommand({collStats: 'c'}));
assert.lt(after.storageSize, before.storageSize / 2, tojson({before: before.storageSize, after: after.storageSize}));

// What was kept is intact, through both indexes.
assert.eq(400, t.c.countDocuments({}));
assert.eq(400, t.c.find({k: 0}).hint('k_1').itcount());
assert.eq(400, t.c.find().hint({_id: 1}).itcount());
assert.eq(1000, t.c.findOne({_id: 2000}).p.length);
r = assert.commandWorked(t.runCommand({validate: 'c', full: true}));
assert.eq(true, r.valid, tojson(r));
// Writes work afterwards; a second compact has nothing left to give.
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 'new', k: 0}]}));
r = assert.commandWorked(t.runCommand({compact: 'c', force: true}));
assert.gte(toNumber(r.bytesFreed), 0);
assert.eq(401, t.c.countDocuments({}));

// Errors.
r = assert.commandFailedWithCode(runCmd(t, {compact: 'nosuch'}), 26);
assert.eq('NamespaceNotFound', r.codeName);
assert.eq('collection does not exist', r.errmsg);
assert.commandFailedWithCode(runCmd(db.getSiblingDB('jstests_compact_nosuchdb'), {compact: 'c'}), 26);
r = assert.commandFailedWithCode(runCmd(t, {compact: ''}), 73);
assert.eq('InvalidNamespace', r.codeName);
assert.commandFailedWithCode(runCmd(t, {compact: 1}), 73);
r = assert.commandFailedWithCode(runCmd(t, {compact: 'c', bogus: 1}), 40415);
assert.eq("BSON field 'compact.bogus' is an unknown field.", r.errmsg);
r = assert.commandFailedWithCode(runCmd(t, {compact: 'c', force: 'yes'}), 14);
assert.eq('TypeMismatch', r.codeName);
assert.commandFailedWithCode(runCmd(t, {compact: 'c', freeSpaceTargetMB: 'x'}), 14);
r = assert.commandFailedWithCode(runCmd(t, {compact: 'c', freeSpaceTargetMB: 0}), 2);
assert.eq('BadValue', r.codeName);
// Generic arguments are accepted.
assert.commandWorked(t.runCommand({compact: 'c', comment: 'x', maxTimeMS: 60000}));
print('compact.js OK');
