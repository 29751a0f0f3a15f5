// The TTL monitor under mongod --dedup: it deletes through the delete command's path, so
// expiring documents that others are stored against (chain heads, hop bases) keeps their bytes
// while needed, the remaining documents read back unchanged, validate (full) finds every
// record decodable with matching reference counts, and retained records are freed afterwards.
load(__dirname + '/../lib/assert.js');
load(__dirname + '/../lib/dedup_data.js');

const t = testDB('jstests_dedup_ttl');
const admin = t.getSiblingDB('admin');
const saved = assert.commandWorked(admin.runCommand({getParameter: 1, ttlMonitorSleepSecs: 1}));
const old = new Date(Date.now() - 3600 * 1000), future = new Date(Date.now() + 3600 * 1000);

// Every other version expires: deletes hit heads, bases and members of the chains alike.
const docs = DedupData.load('wiki-python', 160).map((d, i) => Object.assign({}, d, {exp: i % 2 ? old : future}));
for (let i = 0; i < docs.length; i += 40) {
  assert.commandWorked(t.runCommand({insert: 'c', documents: docs.slice(i, i + 40)}));
}
const keep = docs.filter((d, i) => i % 2 === 0);
let s = DedupData.settle(t);
assert.gt(s.recordsEncoded, 50, tojson(s));

function check(label) {
  const got = t.c.find().sort({_id: 1}).toArray();
  const want = keep.slice().sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
  assert.eq(want.length, got.length, label + ': count');
  for (let i = 0; i < want.length; i++) assert.docEqOrdered(want[i], got[i], label + ': ' + want[i]._id);
  const v = assert.commandWorked(t.runCommand({validate: 'c', full: true}));
  assert.eq(true, v.valid, label + ': ' + tojson(v));
  assert.eq(0, v.dedup.undecodableRecords, label);
  assert.eq(0, v.dedup.refCountMismatches, label + ': ' + tojson(v.errors));
}

try {
  assert.commandWorked(admin.runCommand({setParameter: 1, ttlMonitorSleepSecs: 1}));
  assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {exp: 1}, name: 'exp_ttl', expireAfterSeconds: 0}]}));
  assert.soon(() => t.c.countDocuments({}) === keep.length, 'expired versions deleted', 60000, 100);
  check('after the TTL deletes');
  assert.soon(() => {
    DedupData.settle(t);
    return Number(t.runCommand({collStats: 'c'}).dedup.retainedRecords) === 0;
  }, 'retained records freed', 60000);
  check('after the engine settled');
} finally {
  assert.commandWorked(admin.runCommand({setParameter: 1, ttlMonitorSleepSecs: saved.ttlMonitorSleepSecs}));
}
print('ttl_dedup.js OK');
