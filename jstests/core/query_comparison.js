// Comparison query operators: $eq $ne $gt $gte $lt $lte $in $nin, with type bracketing
// (a comparison only matches values of the same canonical type) and null/missing semantics.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_query_comparison');
assert.commandWorked(t.runCommand({insert: 'c', documents: [
  {_id: 1, a: 1}, {_id: 2, a: 5}, {_id: 3, a: 10}, {_id: 4, a: 'str'}, {_id: 5, a: null}, {_id: 6},
  {_id: 7, a: [2, 20]}, {_id: 8, a: NumberLong('7')}, {_id: 9, a: 7.5}, {_id: 10, a: {x: 1}}
]}));

function ids(filter) {
  const r = assert.commandWorked(t.runCommand({find: 'c', filter: filter, sort: {_id: 1}, projection: {_id: 1}}));
  return r.cursor.firstBatch.map((d) => d._id);
}

assert.eq([2], ids({a: {$eq: 5}}));
assert.eq([2], ids({a: 5}));
assert.eq([3, 7, 8, 9], ids({a: {$gt: 5}}));
assert.eq([2, 3, 7, 8, 9], ids({a: {$gte: 5}}));
assert.eq([1, 7], ids({a: {$lt: 5}}));
assert.eq([1, 2, 7], ids({a: {$lte: 5}}));
assert.eq([2, 7, 8, 9], ids({a: {$gt: 1, $lt: 10}}), 'element 2 of [2, 20] is in range');
// Array fields match if any element matches; a range may be satisfied by different elements.
assert.eq([7], ids({a: {$gt: 15}}));
assert.eq([7], ids({a: {$gt: 3, $lt: 4}}), 'element 20 satisfies $gt 3, element 2 satisfies $lt 4');
// Strings only compare with strings.
assert.eq([4], ids({a: {$gt: 'a'}}));
assert.eq([], ids({a: {$gt: 'z'}}));
// $ne and $nin also match documents where the field is missing.
assert.eq([1, 3, 4, 5, 6, 7, 8, 9, 10], ids({a: {$ne: 5}}));
assert.eq([3, 4, 5, 6, 7, 8, 9, 10], ids({a: {$nin: [1, 5]}}));
assert.eq([1, 2, 4], ids({a: {$in: [1, 5, 'str']}}));
assert.eq([7], ids({a: {$in: [20]}}));
assert.eq([], ids({a: {$in: []}}));
assert.eq([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], ids({a: {$nin: []}}));
// null matches null and missing.
assert.eq([5, 6], ids({a: null}));
assert.eq([5, 6], ids({a: {$eq: null}}));
assert.eq([5, 6], ids({a: {$in: [null]}}));
assert.eq([1, 2, 3, 4, 7, 8, 9, 10], ids({a: {$ne: null}}));
// $gte null / $lte null also match only null and missing.
assert.eq([5, 6], ids({a: {$gte: null}}));
// Embedded document comparison.
assert.eq([10], ids({a: {x: 1}}));
assert.eq([10], ids({a: {$gt: {x: 0}}}));
// $in with regex.
assert.eq([4], ids({a: {$in: [/^st/]}}));
// Regex not allowed in $eq? It is allowed and compares equal only to an identical regex value.
assert.eq([], ids({a: {$eq: /^st/}}));

// Errors: $in needs an array; unknown operators.
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {a: {$in: 5}}}), 2 /* BadValue */);
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {a: {$nin: 5}}}), 2);
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {a: {$foo: 5}}}), 2);
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {$foo: 5}}), 2);
const e = runCmd(t, {find: 'c', filter: {a: {$foo: 5}}});
assert.eq('BadValue', e.codeName);
assert(/unknown operator: \$foo/.test(e.errmsg), e.errmsg);
assert(/unknown top level operator: \$foo/.test(runCmd(t, {find: 'c', filter: {$foo: 5}}).errmsg));
print('query_comparison.js OK');
