// Small wrong answers fixed (issue 13): a refused insert leaves no implicitly created collection;
// an upsert cannot replace or extend the _id its query fixed (ImmutableField); distinct's
// query: null means no filter; every duplicate key error carries keyPattern and keyValue, in
// writeErrors and in command errors alike.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_write_edge_cases');

// 1. Refused documents do not create the collection (MongoDB creates it only to insert).
let r = assert.writeReply(runCmd(t, {insert: 'regex', documents: [{_id: /x/}]}));
assert.eq(0, r.n);
assert.eq(2, r.writeErrors[0].code);
assert(!t.getCollectionNames().includes('regex'), tojson(t.getCollectionNames()));
r = assert.writeReply(runCmd(t, {insert: 'regex', documents: [{_id: /x/}, {_id: [1]}], ordered: false}));
assert.eq(2, r.writeErrors.length);
assert(!t.getCollectionNames().includes('regex'));
// Unordered with a good document after a bad one: the good one is inserted.
r = assert.writeReply(runCmd(t, {insert: 'regex', documents: [{_id: /x/}, {_id: 1}], ordered: false}));
assert.eq(1, r.n);
assert(t.getCollectionNames().includes('regex'));

// 2. An upsert keeps the _id its query fixed.
const u = t.upserts;
for (const upd of [{$setOnInsert: {_id: 2}}, {$set: {_id: 2}}, {$setOnInsert: {'_id.y': 2}}]) {
  const q = upd.$setOnInsert && upd.$setOnInsert['_id.y'] ? {_id: {x: 1}} : {_id: 1};
  r = runCmd(t, {update: 'upserts', updates: [{q: q, u: upd, upsert: true}]});
  const we = assert.writeErrorWithCode(r, 66, 0, tojson(upd));
  assert(/the \(immutable\) field '_id' was found to have been altered/.test(we.errmsg), we.errmsg);
}
r = runCmd(t, {update: 'upserts', updates: [{q: {_id: 1}, u: {$unset: {_id: 1}}, upsert: true}]});
assert(/the \(immutable\) field '_id' was found to have been removed/.test(assert.writeErrorWithCode(r, 66, 0).errmsg));
assert.commandFailedWithCode(runCmd(t, {findAndModify: 'upserts', query: {_id: 1}, update: {$setOnInsert: {_id: 2}},
                                        upsert: true}), 66);
assert.commandFailedWithCode(runCmd(t, {update: 'upserts', updates: [{q: {_id: 1}, u: {_id: 2, a: 1}, upsert: true}]}), 66);
assert.eq(0, u.countDocuments({}));
// The same _id, or one the query did not fix, is fine.
assert.commandWorked(t.runCommand({update: 'upserts', updates: [{q: {_id: 1}, u: {$setOnInsert: {_id: 1, a: 1}}, upsert: true}]}));
assert.commandWorked(t.runCommand({update: 'upserts', updates: [{q: {a: 5}, u: {$setOnInsert: {_id: 7}}, upsert: true}]}));
assert.eq([1, 7], u.find().sort({_id: 1}).toArray().map((d) => d._id));

// 3. distinct with query: null is distinct without a filter.
assert.commandWorked(t.runCommand({insert: 'dist', documents: [{a: 1}, {a: 2}, {a: 1}]}));
r = assert.commandWorked(t.runCommand({distinct: 'dist', key: 'a', query: null}));
assert.eq([1, 2], r.values.sort());
assert.commandFailedWithCode(runCmd(t, {distinct: 'dist', key: 'a', query: 1}), 14);

// 4. Duplicate keys: keyPattern and keyValue everywhere.
assert.commandWorked(t.runCommand({insert: 'dup', documents: [{_id: 1, k: 'a'}, {_id: 2, k: 'b'}]}));
assert.commandWorked(t.runCommand({createIndexes: 'dup', indexes: [{key: {k: 1}, name: 'k_1', unique: true}]}));
function checkDup(e, pattern, value) {
  assert.eq(11000, e.code, tojson(e));
  assert.docEq(pattern, e.keyPattern, tojson(e));
  assert.docEq(value, e.keyValue, tojson(e));
}
r = assert.writeReply(runCmd(t, {insert: 'dup', documents: [{_id: 3, k: 'a'}]}));
checkDup(r.writeErrors[0], {k: 1}, {k: 'a'});
r = assert.writeReply(runCmd(t, {update: 'dup', updates: [{q: {_id: 2}, u: {$set: {k: 'a'}}}]}));
checkDup(r.writeErrors[0], {k: 1}, {k: 'a'});
r = assert.commandFailedWithCode(runCmd(t, {findAndModify: 'dup', query: {_id: 2}, update: {$set: {k: 'a'}}}), 11000);
checkDup(r, {k: 1}, {k: 'a'});
assert.eq('DuplicateKey', r.codeName);
r = assert.commandFailedWithCode(runCmd(t, {findAndModify: 'dup', query: {_id: 9}, update: {$set: {k: 'b'}}, upsert: true}),
                                 11000);
checkDup(r, {k: 1}, {k: 'b'});
for (const whenMatched of ['fail', 'merge']) {
  r = assert.commandFailedWithCode(runCmd(t, {aggregate: 'dup', cursor: {}, pipeline: [
    {$project: {_id: {$add: ['$_id', 100]}, k: 1}}, {$merge: {into: 'dup', whenMatched: whenMatched}}]}), 11000);
  checkDup(r, {k: 1}, {k: 'a'});
}
// A unique index that existing documents violate.
assert.commandWorked(t.runCommand({insert: 'dup2', documents: [{v: 1}, {v: 1}]}));
r = assert.commandFailedWithCode(runCmd(t, {createIndexes: 'dup2', indexes: [{key: {v: 1}, name: 'v_1', unique: true}]}),
                                 11000);
checkDup(r, {v: 1}, {v: 1});
print('write_edge_cases.js OK');
