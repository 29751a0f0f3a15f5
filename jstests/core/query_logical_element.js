// Logical ($and $or $nor $not) and element ($exists $type) query operators.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_query_logical_element');
assert.commandWorked(t.runCommand({insert: 'c', documents: [
  {_id: 1, a: 1, b: 1}, {_id: 2, a: 2, b: 'x'}, {_id: 3, a: 3}, {_id: 4, b: null}, {_id: 5, a: [1, 'y']},
  {_id: 6, a: NumberLong('6'), b: 2.5}, {_id: 7, a: NumberDecimal('7'), b: true}, {_id: 8, a: {}, b: []},
  {_id: 9, a: ISODate('2020-01-01T00:00:00Z')}
]}));

function ids(filter) {
  const r = assert.commandWorked(t.runCommand({find: 'c', filter: filter, sort: {_id: 1}, projection: {_id: 1}}));
  return r.cursor.firstBatch.map((d) => d._id);
}

// --- $and / $or / $nor
assert.eq([1], ids({$and: [{a: 1}, {b: 1}]}));
assert.eq([1, 5], ids({$and: [{a: 1}]}));
assert.eq([1, 2, 5], ids({$or: [{a: 1}, {b: 'x'}]}));
assert.eq([3, 4, 6, 7, 8, 9], ids({$nor: [{a: 1}, {b: 'x'}]}));
assert.eq([2], ids({$or: [{a: 2}], b: 'x'}));
assert.eq([1], ids({$and: [{$or: [{a: 1}, {a: 2}]}, {$or: [{b: 1}, {b: 3}]}]}));
for (const op of ['$and', '$or', '$nor']) {
  const f = {};
  f[op] = [];
  let r = assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: f}), 2 /* BadValue */);
  assert(/must be a nonempty array/.test(r.errmsg), r.errmsg);
  f[op] = {a: 1};
  assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: f}), 2);
  f[op] = [1];
  assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: f}), 2);
}

// --- $not: negates an operator expression (or a regex); matches missing fields too.
assert.eq([1, 4, 5, 8, 9], ids({a: {$not: {$gt: 1}}}),
          'missing, non-numbers and arrays with no element > 1 (5 has 1 and "y")');
assert.eq([1, 2, 3, 4, 6, 7, 8, 9], ids({a: {$not: /^y/}}));
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {a: {$not: 1}}}), 2);
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {a: {$not: {}}}}), 2);
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {$not: {a: 1}}}), 2 /* unknown top level operator */);

// --- $exists
assert.eq([1, 2, 3, 5, 6, 7, 8, 9], ids({a: {$exists: true}}));
assert.eq([4], ids({a: {$exists: false}}));
assert.eq([1, 2, 4, 6, 7, 8], ids({b: {$exists: 1}}), 'null counts as existing');
assert.eq([3, 5, 9], ids({b: {$exists: 0}}));

// --- $type by alias, by number, by list, 'number'
// The shell sends integral JS numbers as int32, others as double.
assert.eq([6], ids({b: {$type: 'double'}}));
assert.eq([6], ids({b: {$type: 1}}));
assert.eq([1], ids({b: {$type: 'int'}}));
assert.eq([2], ids({b: {$type: 'string'}}));
assert.eq([2], ids({b: {$type: 2}}));
assert.eq([4], ids({b: {$type: 'null'}}));
assert.eq([4], ids({b: {$type: 10}}));
assert.eq([7], ids({b: {$type: 'bool'}}));
assert.eq([8], ids({b: {$type: 'array'}}), 'an empty array is of type array');
assert.eq([8], ids({a: {$type: 'object'}}));
assert.eq([6], ids({a: {$type: 'long'}}));
assert.eq([7], ids({a: {$type: 'decimal'}}));
assert.eq([9], ids({a: {$type: 'date'}}));
assert.eq([5], ids({a: {$type: 'array'}}));
// An array field matches $type of its elements too.
assert.eq([5], ids({a: {$type: 'string'}}));
assert.eq([1, 2, 3, 5, 6, 7], ids({a: {$type: 'number'}}));
assert.eq([2, 4], ids({b: {$type: ['string', 'null']}}));
assert.eq([2, 4], ids({b: {$type: [2, 'null']}}));
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {a: {$type: 'notAType'}}}), 2);
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {a: {$type: 99}}}), 2);
print('query_logical_element.js OK');
