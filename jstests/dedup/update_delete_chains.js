// Updates and deletes of records other records are stored against (chain heads and hop
// bases) and of chain members, under mongod --dedup: every remaining document reads back as
// the model says, deleted ones are gone from queries, counts and indexes, retained bases are
// freed once nothing decodes through them, and validate (full) finds every record decodable
// with reference counts that match the stored forms.
load(__dirname + '/../lib/assert.js');
load(__dirname + '/../lib/dedup_data.js');

const t = testDB('jstests_dedup_update_delete');
const docs = DedupData.load('wiki-python', 240);
const model = new Map();
for (let i = 0; i < docs.length; i += 40) {
  assert.commandWorked(t.runCommand({insert: 'c', documents: docs.slice(i, i + 40)}));
}
for (const d of docs) model.set(d._id, d);
assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {ts: 1}, name: 'ts_1'}]}));
let s = DedupData.settle(t);
assert.gt(s.recordsEncoded, 100, tojson(s));

function check(label) {
  const got = t.c.find().toArray();
  assert.eq(model.size, got.length, label + ': count');
  for (const g of got) assert.docEqOrdered(model.get(g._id), g, label + ': ' + g._id);
  assert.eq(model.size, t.c.countDocuments({}), label + ': countDocuments');
  assert.eq(model.size, t.c.find().hint('ts_1').itcount(), label + ': index scan');
  const v = assert.commandWorked(t.runCommand({validate: 'c', full: true}));
  assert.eq(true, v.valid, label + ': ' + tojson(v));
  assert.eq(0, v.dedup.undecodableRecords, label);
  assert.eq(0, v.dedup.refCountMismatches, label + ': ' + tojson(v.errors));
  return v;
}
check('loaded');

// 1. Update the newest version (the raw head every older version of the chain decodes
// through) and a few hop bases / chain members in the middle.
const ids = docs.map((d) => d._id);
const toUpdate = [ids[ids.length - 1], ids[ids.length - 2], ids[16], ids[32], ids[100], ids[101], ids[0]];
for (const id of toUpdate) {
  const body = model.get(id).body.replace('Python', 'Python (updated)') + ' -- appended edit';
  assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {_id: id}, u: {$set: {body: body}}}]}));
  model.set(id, Object.assign({}, model.get(id), {body: body}));
}
check('after updates');

// 2. Delete bases and members: the current head, hop bases, a run in the middle, the oldest.
const toDelete = [ids[ids.length - 1], ids[ids.length - 3], ids[48], ids[64], ids[128]];
for (let i = 140; i < 160; i++) toDelete.push(ids[i]);
toDelete.push(ids[1]);
// Bases among them are retained (other records decode through them) until the write-back
// thread moves those records; seen right after each delete, before it can run.
let maxRetained = 0;
for (const id of toDelete) {
  const r = assert.commandWorked(t.runCommand({delete: 'c', deletes: [{q: {_id: id}, limit: 1}]}));
  assert.eq(1, r.n);
  model.delete(id);
  maxRetained = Math.max(maxRetained, Number(t.runCommand({collStats: 'c'}).dedup.retainedRecords));
}
assert.gt(maxRetained, 0, 'deleting bases retains them');
for (const id of toDelete) assert.eq(null, t.c.findOne({_id: id}), 'deleted ' + id);
let v = check('after deletes');

// 3. Replacement of a base, then deleting everything that decoded through retained bases:
// once the engine settles, nothing is retained any more.
const head = ids[ids.length - 2];
const repl = {_id: head, key: 'replaced', ts: 'x', body: DedupData.randomText(5000, 9)};
assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {_id: head}, u: repl}]}));
model.set(head, repl);
DedupData.settle(t);
check('after replacement');

// 4. Delete all but a few; retained bytes are collected.
const keep = new Set([ids[10], ids[200], head]);
assert.commandWorked(t.runCommand({delete: 'c', deletes: [{q: {_id: {$nin: Array.from(keep)}}, limit: 0}]}));
for (const id of Array.from(model.keys())) if (!keep.has(id)) model.delete(id);
assert.soon(() => {
  DedupData.settle(t);
  return Number(t.runCommand({collStats: 'c'}).dedup.retainedRecords) === 0;
}, 'retained records freed', 30000);
v = check('after deleting nearly everything');
assert.eq(3, v.dedup.storedRecords, tojson(v.dedup));
print('update_delete_chains.js OK');
