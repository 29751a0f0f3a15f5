// Numbers of the four types (int, long, double, decimal) compare by exact value, as MongoDB
// 7.0 does: a double meets a decimal as its 34-digit decimal (the double 0.1 is
// 0.1000000000000000055511151231257827, not NumberDecimal("0.1")), longs and doubles compare
// exactly (2^63-1 < 2^63), NaN equals NaN and sorts first, -0 equals 0. Checked through find
// (without an index, with an ascending and a descending one), sort, $group, $min/$max
// (accumulators and update operators), $eq, $setUnion, distinct and a unique index. Also
// distinct through positional paths ("a.1.b").
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_numeric_exactness');
t.c.drop();
const docs = [
  {_id: 1, x: 0.1},
  {_id: 2, x: NumberDecimal('0.1')},
  {_id: 3, x: NumberDecimal('0.10')},
  {_id: 4, x: NumberDecimal('0.1000000000000000055511151231257827')},  // == the double 0.1
  {_id: 5, x: NumberInt(1)},
  {_id: 6, x: Double(1)},
  {_id: 7, x: NumberLong(1)},
  {_id: 8, x: NumberDecimal('1.00')},
  {_id: 9, x: NumberLong('9223372036854775807')},
  {_id: 10, x: Double(9223372036854775808)},
  {_id: 11, x: NumberLong('9007199254740993')},
  {_id: 12, x: Double(9007199254740992)},
  {_id: 13, x: NaN},
  {_id: 14, x: NumberDecimal('NaN')},
  {_id: 15, x: Double(-0)},
  {_id: 16, x: NumberDecimal('-0')},
  {_id: 17, x: Infinity},
  {_id: 18, x: NumberDecimal('Infinity')},
  {_id: 19, x: NumberDecimal('1E+400')},
  {_id: 20, x: 0.3},  // 0.2999999999999999888977697537484346
  {_id: 21, x: NumberDecimal('0.3')},
];
assert.commandWorked(t.runCommand({insert: 'c', documents: docs}));

function ids(filter, hint, sort) {
  const cmd = {find: 'c', filter: filter, projection: {_id: 1}, sort: sort || {_id: 1}};
  if (hint) cmd.hint = hint;
  return assert.commandWorked(t.runCommand(cmd)).cursor.firstBatch.map((d) => d._id);
}

const kSortedIds = [13, 14, 15, 16, 2, 3, 1, 4, 20, 21, 5, 6, 7, 8, 12, 11, 9, 10, 19, 17, 18];

function checkQueries(label, hint) {
  const q = (filter, expected) => assert.eq(expected, ids(filter, hint), label + ' ' + tojson(filter));
  q({x: NumberDecimal('0.1')}, [2, 3]);
  q({x: 0.1}, [1, 4]);
  q({x: NumberDecimal('0.1000000000000000055511151231257827')}, [1, 4]);
  q({x: {$lt: 0.1}}, [2, 3, 15, 16]);
  q({x: {$lte: NumberDecimal('0.1')}}, [2, 3, 15, 16]);
  q({x: {$gt: NumberDecimal('0.1'), $lt: 0.5}}, [1, 4, 20, 21]);
  q({x: {$gt: 0.3, $lt: NumberDecimal('0.3000000000000000000000000000000001')}}, [21]);
  q({x: 1}, [5, 6, 7, 8]);
  q({x: NumberDecimal('1.0000000000000000000000000000000')}, [5, 6, 7, 8]);
  q({x: NumberLong('9223372036854775807')}, [9]);
  q({x: Double(9223372036854775808)}, [10]);
  q({x: {$gt: NumberLong('9223372036854775807')}}, [10, 17, 18, 19]);
  q({x: NumberLong('9007199254740993')}, [11]);
  q({x: Double(9007199254740992)}, [12]);
  q({x: {$gt: Double(9007199254740992), $lt: NumberDecimal('9223372036854775808')}}, [9, 11]);
  q({x: NaN}, [13, 14]);
  q({x: NumberDecimal('NaN')}, [13, 14]);
  q({x: 0}, [15, 16]);
  q({x: Infinity}, [17, 18]);
  q({x: {$gte: NumberDecimal('1E+400')}}, [17, 18, 19]);
  q({x: {$in: [NumberDecimal('0.10'), 1]}}, [2, 3, 5, 6, 7, 8]);
  q({x: {$in: [0.1, NumberDecimal('0.3')]}}, [1, 4, 21]);
  q({x: {$ne: 0.1}}, [2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21]);
  assert.eq(kSortedIds, ids({}, hint, {x: 1, _id: 1}), label + ' sort ascending');
  const desc = ids({}, hint, {x: -1, _id: 1});
  assert.eq([17, 18, 19, 10, 9, 11, 12, 5, 6, 7, 8, 21, 20, 1, 4, 2, 3, 15, 16, 13, 14], desc, label + ' sort descending');
}

checkQueries('no index', null);  // (no index exists yet)
assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {x: 1}, name: 'x_1'}]}));
checkQueries('index {x: 1}', {x: 1});
assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {x: -1}, name: 'x_-1'}]}));
checkQueries('index {x: -1}', {x: -1});

// $group: 1, 1.0, NumberLong(1), NumberDecimal("1.00") are one group; the double 0.1 and
// NumberDecimal("0.1") are two.
let r = assert.commandWorked(t.runCommand({aggregate: 'c', pipeline: [
  {$group: {_id: '$x', ids: {$push: '$_id'}}}, {$sort: {_id: 1}}], cursor: {}}));
assert.eq([[13, 14], [15, 16], [2, 3], [1, 4], [20], [21], [5, 6, 7, 8], [12], [11], [9], [10], [19], [17, 18]],
          r.cursor.firstBatch.map((g) => g.ids.sort((a, b) => a - b)));
// $sort in a pipeline orders the same way.
r = assert.commandWorked(t.runCommand({aggregate: 'c', pipeline: [{$sort: {x: 1, _id: 1}}, {$project: {_id: 1}}], cursor: {}}));
assert.eq(kSortedIds, r.cursor.firstBatch.map((d) => d._id));

// $min / $max accumulators return the exact extreme, with its type.
function extremes(idList) {
  const res = assert.commandWorked(t.runCommand({aggregate: 'c', pipeline: [
    {$match: {_id: {$in: idList}}}, {$sort: {_id: 1}},
    {$group: {_id: null, mn: {$min: '$x'}, mx: {$max: '$x'}}},
    {$project: {_id: 0, mn: 1, mx: 1, tmn: {$type: '$mn'}, tmx: {$type: '$mx'}}}], cursor: {}}));
  return res.cursor.firstBatch[0];
}
let e = extremes([1, 2, 20]);
assert.eq(['decimal', 'double'], [e.tmn, e.tmx]);
assert.eq('0.1', e.mn.toString());
assert.eq(0.3, e.mx);  // the double 0.2999999999999999888..., above 0.1 of either type
e = extremes([9, 10]);
assert.eq(['long', 'double'], [e.tmn, e.tmx]);
e = extremes([11, 12]);
assert.eq(['double', 'long'], [e.tmn, e.tmx]);
e = extremes([13, 15, 21]);
assert.eq(['double', 'decimal'], [e.tmn, e.tmx], 'NaN is the smallest number');

// $eq and $setUnion in expressions.
r = assert.commandWorked(t.runCommand({aggregate: 'c', pipeline: [
  {$match: {_id: {$in: [1, 3, 4]}}}, {$sort: {_id: 1}},
  {$project: {e: {$eq: ['$x', NumberDecimal('0.1')]}, lt: {$lt: ['$x', 0.1]},
              u: {$size: {$setUnion: [[0.1, NumberDecimal('0.1'), 1, NumberLong(1), NumberDecimal('1.00'), '$x']]}}}}],
  cursor: {}}));
assert.docEq([{_id: 1, e: false, lt: false, u: 3}, {_id: 3, e: true, lt: true, u: 3}, {_id: 4, e: false, lt: false, u: 3}],
             r.cursor.firstBatch);

// Update operators $min / $max compare exactly too.
assert.commandWorked(t.runCommand({insert: 'm', documents: [{_id: 1, v: NumberDecimal('0.1')}]}));
function typeOfV() {
  return assert.commandWorked(t.runCommand({aggregate: 'm', pipeline: [{$project: {_id: 0, t: {$type: '$v'}, v: 1}}],
                                            cursor: {}})).cursor.firstBatch[0];
}
r = assert.commandWorked(t.runCommand({update: 'm', updates: [{q: {_id: 1}, u: {$max: {v: 0.1}}}]}));
assert.eq(1, r.nModified, 'the double 0.1 is greater than NumberDecimal("0.1")');
assert.eq('double', typeOfV().t);
r = assert.commandWorked(t.runCommand({update: 'm', updates: [{q: {_id: 1}, u: {$max: {v: NumberDecimal('0.1000000000000000055511151231257827')}}}]}));
assert.eq(0, r.nModified, 'equal values do not replace');
r = assert.commandWorked(t.runCommand({update: 'm', updates: [{q: {_id: 1}, u: {$min: {v: NumberDecimal('0.10')}}}]}));
assert.eq(1, r.nModified);
let v = typeOfV();
assert.eq(['decimal', '0.10'], [v.t, v.v.toString()]);

// distinct keeps one of each value: 13 distinct numbers among the 21 documents.
r = assert.commandWorked(t.runCommand({distinct: 'c', key: 'x'}));
assert.eq(13, r.values.length);

// A unique index treats equal numbers as duplicates whatever their types.
assert.commandWorked(t.runCommand({createIndexes: 'u', indexes: [{key: {x: 1}, name: 'x_1', unique: true}]}));
const dup = (value) => assert.writeErrorWithCode(t.runCommand({insert: 'u', documents: [{x: value}]}), 11000, 0, tojson(value));
const ok = (value) => assert.commandWorked(t.runCommand({insert: 'u', documents: [{x: value}]}), tojson(value));
ok(NumberInt(1));
dup(Double(1));
dup(NumberLong(1));
dup(NumberDecimal('1.0'));
ok(0.1);
ok(NumberDecimal('0.1'));
dup(NumberDecimal('0.10'));
dup(NumberDecimal('0.1000000000000000055511151231257827'));
ok(NaN);
dup(NumberDecimal('NaN'));
ok(NumberLong('9223372036854775807'));
ok(Double(9223372036854775808));
dup(NumberDecimal('9223372036854775808'));
ok(Double(-0));
dup(NumberDecimal('0E+7'));
assert.eq(7, t.u.countDocuments({}));

// Values read back through an index keep their type and form (decimal trailing zeros, -0).
r = assert.commandWorked(t.runCommand({aggregate: 'c', pipeline: [
  {$match: {x: {$in: [NumberDecimal('0.1'), 0]}}}, {$sort: {_id: 1}},
  {$project: {_id: 1, t: {$type: '$x'}, s: {$toString: '$x'}}}], cursor: {}, hint: {x: 1}}));
assert.docEq([{_id: 2, t: 'decimal', s: '0.1'}, {_id: 3, t: 'decimal', s: '0.10'}, {_id: 15, t: 'double', s: '-0'},
              {_id: 16, t: 'decimal', s: '-0'}], r.cursor.firstBatch);

// distinct through positional paths walks arrays as find does ("a.1.b" is element 1's b).
assert.commandWorked(t.runCommand({insert: 'p', documents: [
  {_id: 1, a: [{b: 'a'}, {b: 'd'}]},
  {_id: 2, a: [{b: 'x'}]},
  {_id: 3, a: [[1, 2], [3, 4]]},
  {_id: 4, a: {'1': {b: 'named'}}},
]}));
const distinctOf = (key) => assert.commandWorked(t.runCommand({distinct: 'p', key: key})).values;
assert.eq(['d', 'named'], distinctOf('a.1.b'));
assert.eq(['a', 'x'], distinctOf('a.0.b'));
assert.eq(['a', 'd', 'x'], distinctOf('a.b'));
assert.eq([3, 4, {b: 'd'}, {b: 'named'}], distinctOf('a.1'));
assert.eq([4], distinctOf('a.1.1'));
// find agrees: the document whose a.1.b is 'd'.
assert.eq([1], assert.commandWorked(t.runCommand({find: 'p', filter: {'a.1.b': 'd'}})).cursor.firstBatch.map((d) => d._id));
