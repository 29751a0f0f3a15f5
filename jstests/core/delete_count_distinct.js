// delete (limit 0/1, several statements), count (query/skip/limit) and distinct (arrays,
// embedded paths, null/missing), with their reply shapes and errors.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_delete_count_distinct');
function reset() {
  t.c.drop();
  assert.commandWorked(t.runCommand({insert: 'c', documents: [
    {_id: 1, g: 'a', tags: ['x', 'y'], e: {k: 1}}, {_id: 2, g: 'a', tags: ['y', 'z'], e: {k: 2}},
    {_id: 3, g: 'b', tags: 'x', e: {k: 1}}, {_id: 4, g: null, tags: [['x'], 'w']}, {_id: 5, e: [{k: 3}, {k: 1}]},
    {_id: 6, g: 1}, {_id: 7, g: NumberLong('1')}, {_id: 8, g: 1.0}
  ]}));
}

// --- count
reset();
assert.docEq({n: 8, ok: 1}, assert.commandWorked(t.runCommand({count: 'c'})));
assert.eq(2, assert.commandWorked(t.runCommand({count: 'c', query: {g: 'a'}})).n);
assert.eq(8, assert.commandWorked(t.runCommand({count: 'c', query: {}})).n);
assert.eq(3, assert.commandWorked(t.runCommand({count: 'c', limit: 3})).n);
assert.eq(6, assert.commandWorked(t.runCommand({count: 'c', skip: 2})).n);
assert.eq(1, assert.commandWorked(t.runCommand({count: 'c', skip: 2, limit: 1})).n);
assert.eq(0, assert.commandWorked(t.runCommand({count: 'c', skip: 20})).n);
assert.eq(0, assert.commandWorked(t.runCommand({count: 'nosuchcollection'})).n);
assert.eq(3, assert.commandWorked(t.runCommand({count: 'c', query: {g: 1}})).n);
assert.commandFailedWithCode(runCmd(t, {count: 'c', query: {g: {$bad: 1}}}), 2);
assert.commandFailedWithCode(runCmd(t, {count: 'c', query: 'x'}), 14);
assert.eq(2, t.c.countDocuments({g: 'a'}));
assert.eq(8, t.c.estimatedDocumentCount());

// --- distinct
let r = assert.commandWorked(t.runCommand({distinct: 'c', key: 'g'}));
// Numerically equal values are one value; null is a value; missing is not.
assert.eq(4, r.values.length, tojson(r));
assert.sameMembers(['a', 'b', null, 1], r.values);
r = assert.commandWorked(t.runCommand({distinct: 'c', key: 'tags'}));
assert.sameMembers(['x', 'y', 'z', ['x'], 'w'], r.values, 'arrays are unwound one level');
r = assert.commandWorked(t.runCommand({distinct: 'c', key: 'e.k'}));
assert.sameMembers([1, 2, 3], r.values, 'paths through arrays of documents');
r = assert.commandWorked(t.runCommand({distinct: 'c', key: 'g', query: {e: {k: 1}}}));
assert.sameMembers(['a', 'b'], r.values);
r = assert.commandWorked(t.runCommand({distinct: 'c', key: 'e'}));
assert.sameMembers([{k: 1}, {k: 2}, {k: 3}], r.values);
r = assert.commandWorked(t.runCommand({distinct: 'nosuchcollection', key: 'a'}));
assert.eq([], r.values);
assert.commandFailedWithCode(runCmd(t, {distinct: 'c', key: 1}), 14);
assert.commandFailedWithCode(runCmd(t, {distinct: 'c'}), 40414);
assert.sameMembers(['a', 'b', null, 1], t.c.distinct('g'));

// --- delete
reset();
r = assert.commandWorked(t.runCommand({delete: 'c', deletes: [{q: {g: 'a'}, limit: 1}]}));
assert.docEq({n: 1, ok: 1}, r);
assert.eq(1, t.c.countDocuments({g: 'a'}));
r = assert.commandWorked(t.runCommand({delete: 'c', deletes: [{q: {g: 1}, limit: 0}]}));
assert.eq(3, r.n);
r = assert.commandWorked(t.runCommand({delete: 'c', deletes: [{q: {g: 'nomatch'}, limit: 0}]}));
assert.eq(0, r.n);
// Several statements: n adds up.
reset();
r = assert.commandWorked(t.runCommand({delete: 'c', deletes: [{q: {_id: 1}, limit: 1}, {q: {_id: {$in: [2, 3]}}, limit: 0},
                                                             {q: {_id: 99}, limit: 1}]}));
assert.eq(3, r.n);
assert.eq(5, t.c.countDocuments({}));
// An empty filter with limit 0 removes everything.
r = assert.commandWorked(t.runCommand({delete: 'c', deletes: [{q: {}, limit: 0}]}));
assert.eq(5, r.n);
assert.eq(0, t.c.countDocuments({}));
// Missing collection.
r = assert.commandWorked(t.runCommand({delete: 'nosuchcollection', deletes: [{q: {}, limit: 0}]}));
assert.eq(0, r.n);
// Errors.
reset();
assert.commandFailed(runCmd(t, {delete: 'c', deletes: [{q: {}, limit: 2}]}));
assert.commandFailedWithCode(runCmd(t, {delete: 'c', deletes: [{q: {}}]}), 40414 /* limit is required */);
assert.commandFailedWithCode(runCmd(t, {delete: 'c', deletes: [{limit: 0}]}), 40414 /* q is required */);
r = runCmd(t, {delete: 'c', deletes: [{q: {g: {$bad: 1}}, limit: 0}]});
assert.commandFailedWithCode(r, 2);
assert.eq(8, t.c.countDocuments({}), 'nothing deleted by failed statements');
// Shell helpers.
assert.eq(2, t.c.deleteMany({g: 'a'}).deletedCount);
assert.eq(1, t.c.deleteOne({g: {$in: [1]}}).deletedCount);
print('delete_count_distinct.js OK');
