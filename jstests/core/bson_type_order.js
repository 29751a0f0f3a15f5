// The canonical BSON type order in sort and in comparisons:
// MinKey < null/missing < numbers < strings < objects < arrays < BinData (arrays sort by their
// elements, see sort_skip_limit.js) < ObjectId < bool
//   < Date < Timestamp < regex < MaxKey. Numbers of different types compare by value.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_bson_type_order');
const values = [
  {_id: 'maxkey', v: MaxKey()},
  {_id: 'regex', v: /abc/},
  {_id: 'timestamp', v: Timestamp({t: 1, i: 1})},
  {_id: 'date', v: ISODate('2000-01-01T00:00:00Z')},
  {_id: 'true', v: true},
  {_id: 'false', v: false},
  {_id: 'oid', v: ObjectId('000000000000000000000001')},
  {_id: 'bindata', v: BinData(0, 'AAAA')},
  {_id: 'object', v: {a: 1}},
  {_id: 'string', v: 'a'},
  {_id: 'emptystring', v: ''},
  {_id: 'double', v: 2.5},
  {_id: 'int', v: NumberInt(2)},
  {_id: 'long', v: NumberLong('3')},
  {_id: 'decimal', v: NumberDecimal('-1')},
  {_id: 'null', v: null},
  {_id: 'minkey', v: MinKey()},
];
assert.commandWorked(t.runCommand({insert: 'c', documents: values}));

const ascending = ['minkey', 'null', 'decimal', 'int', 'double', 'long', 'emptystring', 'string', 'object', 'bindata', 'oid', 'false', 'true', 'date', 'timestamp', 'regex', 'maxkey'];
let r = assert.commandWorked(t.runCommand({find: 'c', sort: {v: 1}, projection: {_id: 1}}));
assert.eq(ascending, r.cursor.firstBatch.map((d) => d._id));
r = assert.commandWorked(t.runCommand({find: 'c', sort: {v: -1}, projection: {_id: 1}}));
assert.eq(ascending.slice().reverse(), r.cursor.firstBatch.map((d) => d._id));

// The same order with an index.
assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {v: 1}, name: 'v_1'}]}));
r = assert.commandWorked(t.runCommand({find: 'c', sort: {v: 1}, projection: {_id: 1}, hint: {v: 1}}));
assert.eq(ascending, r.cursor.firstBatch.map((d) => d._id));

// Aggregation $sort agrees.
r = assert.commandWorked(t.runCommand({aggregate: 'c', pipeline: [{$sort: {v: 1}}, {$project: {_id: 1}}], cursor: {}}));
assert.eq(ascending, r.cursor.firstBatch.map((d) => d._id));

// Comparison operators stay within a type bracket, except MinKey/MaxKey bounds.
function ids(filter) {
  return assert.commandWorked(t.runCommand({find: 'c', filter: filter, sort: {_id: 1}, projection: {_id: 1}}))
      .cursor.firstBatch.map((d) => d._id);
}
assert.eq(['decimal', 'double', 'int', 'long'], ids({v: {$lt: 100}}));
assert.eq(['emptystring', 'string'], ids({v: {$gte: ''}}));
assert.eq(['date'], ids({v: {$gt: ISODate('1970-01-01T00:00:00Z')}}));
assert.eq(['false', 'true'], ids({v: {$gte: false}}));
assert.eq(['oid'], ids({v: {$gt: ObjectId('000000000000000000000000')}}));
// $type 'number' covers all four numeric types.
assert.eq(['decimal', 'double', 'int', 'long'], ids({v: {$type: 'number'}}));
// $expr comparisons use the full order across types.
assert.eq(['maxkey', 'regex', 'timestamp'], ids({$expr: {$gt: ['$v', ISODate('2000-01-01T00:00:00Z')]}}));
assert.eq(['minkey', 'null'], ids({$expr: {$lt: ['$v', -5]}}));

// Numbers of mixed types sort by value, ties broken by a secondary key.
assert.commandWorked(t.runCommand({insert: 'n', documents: [
  {_id: 1, v: NumberLong('10')}, {_id: 2, v: 9.99}, {_id: 3, v: NumberDecimal('10.01')}, {_id: 4, v: NumberInt(-3)},
  {_id: 5, v: -Infinity}, {_id: 6, v: Infinity}, {_id: 7, v: NaN}, {_id: 8, v: 0}, {_id: 9, v: -0.0},
  {_id: 10, v: NumberLong('9223372036854775807')}, {_id: 11, v: 9223372036854775807}
]}));
r = assert.commandWorked(t.runCommand({find: 'n', sort: {v: 1, _id: 1}, projection: {_id: 1}}));
// NaN sorts before all other numbers; 0 and -0 are equal; the int64 max is below 2^63 as a double.
assert.eq([7, 5, 4, 8, 9, 2, 1, 3, 10, 11, 6], r.cursor.firstBatch.map((d) => d._id));
print('bson_type_order.js OK');
