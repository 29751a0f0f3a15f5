// Array query operators ($all $elemMatch $size) and whole-array / element equality.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_query_array');
assert.commandWorked(t.runCommand({insert: 'c', documents: [
  {_id: 1, tags: ['a', 'b', 'c'], n: [1, 5, 9]},
  {_id: 2, tags: ['a', 'c'], n: [3, 4]},
  {_id: 3, tags: ['b'], n: []},
  {_id: 4, tags: 'a', n: 4},
  {_id: 5, tags: [['a', 'b'], 'c']},
  {_id: 6, items: [{k: 'x', v: 1}, {k: 'y', v: 2}]},
  {_id: 7, items: [{k: 'x', v: 2}, {k: 'y', v: 1}]},
]}));

function ids(filter) {
  const r = assert.commandWorked(t.runCommand({find: 'c', filter: filter, sort: {_id: 1}, projection: {_id: 1}}));
  return r.cursor.firstBatch.map((d) => d._id);
}

// Element equality vs whole-array equality.
assert.eq([1, 2, 4], ids({tags: 'a'}));
assert.eq([2], ids({tags: ['a', 'c']}));
assert.eq([], ids({tags: ['c', 'a']}), 'whole-array equality is order sensitive');
assert.eq([5], ids({tags: ['a', 'b']}), 'matches a nested array element');
assert.eq([1, 3], ids({tags: 'b'}), 'elements of nested arrays are not matched');

// $all
assert.eq([1, 2], ids({tags: {$all: ['a', 'c']}}));
assert.eq([1, 2], ids({tags: {$all: ['c', 'a']}}), '$all ignores order');
assert.eq([1, 2, 4], ids({tags: {$all: ['a']}}), '$all with one element matches a scalar too');
assert.eq([], ids({tags: {$all: []}}), '$all with an empty array matches nothing');
assert.eq([5], ids({tags: {$all: [['a', 'b']]}}));
assert.eq([6, 7], ids({items: {$all: [{$elemMatch: {k: 'x'}}, {$elemMatch: {v: 2}}]}}));
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {tags: {$all: 'a'}}}), 2 /* BadValue */);

// $size
assert.eq([1], ids({tags: {$size: 3}}));
assert.eq([2, 5], ids({tags: {$size: 2}}));
assert.eq([3], ids({n: {$size: 0}}));
assert.eq([], ids({n: {$size: 1}}), 'a scalar is not an array of size 1');
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {n: {$size: -1}}}), 2);
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {n: {$size: 'x'}}}), 2);

// $elemMatch: all conditions on the same element.
assert.eq([1], ids({n: {$elemMatch: {$gt: 4, $lt: 6}}}));
assert.eq([1], ids({n: {$gt: 6, $lt: 2}}), 'without $elemMatch different elements may satisfy each bound');
assert.eq([], ids({n: {$elemMatch: {$gt: 6, $lt: 2}}}));
assert.eq([6], ids({items: {$elemMatch: {k: 'x', v: 1}}}));
assert.eq([6, 7], ids({'items.k': 'x', 'items.v': 1}));
assert.eq([], ids({n: {$elemMatch: {$gt: 100}}}));
assert.eq([1, 2], ids({tags: {$elemMatch: {$eq: 'a'}}}), '$elemMatch never matches a scalar (4)');
assert.eq([7], ids({items: {$elemMatch: {v: {$gte: 2}, k: 'x'}}}));
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {n: {$elemMatch: 1}}}), 2);

// Positional index in a path.
assert.eq([1], ids({'n.0': 1}));
assert.eq([2], ids({'n.1': 4}));
assert.eq([6], ids({'items.0.k': 'x', 'items.0.v': 1}));
print('query_array.js OK');
