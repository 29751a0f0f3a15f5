// Dotted field paths through embedded documents and arrays, in queries, projections,
// sorts, updates and $group.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_dotted_paths');
assert.commandWorked(t.runCommand({insert: 'c', documents: [
  {_id: 1, a: {b: 1}},
  {_id: 2, a: [{b: 1}, {b: 2}]},
  {_id: 3, a: [{b: [1, 3]}]},
  {_id: 4, a: {b: [2, 5]}},
  {_id: 5, a: [[{b: 1}]]},
  {_id: 6, a: {c: 1}},
  {_id: 7, a: 1},
  {_id: 8, a: [{b: null}, {c: 1}]},
  {_id: 9},
  {_id: 10, a: {'0': {b: 7}}},
  {_id: 11, a: [{b: 7}, {b: 8}]},
]}));
function ids(filter) {
  return assert.commandWorked(t.runCommand({find: 'c', filter: filter, sort: {_id: 1}, projection: {_id: 1}}))
      .cursor.firstBatch.map((d) => d._id);
}

// a.b walks into documents and array elements (one array level at each step).
assert.eq([1, 2, 3], ids({'a.b': 1}), 'nested arrays [[...]] are not entered implicitly');
assert.eq([2, 4], ids({'a.b': 2}));
assert.eq([3], ids({'a.b': 3}));
assert.eq([4], ids({'a.b': [2, 5]}), 'whole-array equality at the end of a path');
// null matches documents where a.b is null or missing along the path.
assert.eq([6, 7, 8, 9, 10], ids({'a.b': null, _id: {$ne: 5}}));
assert.eq([1, 2, 3, 4, 8, 11], ids({'a.b': {$exists: true}}));
// Numeric path components index arrays, or name fields of documents.
assert.eq([2, 3, 5, 8, 10, 11], ids({'a.0.b': {$exists: true}}),
          'a.0 of [[{b: 1}]] is an array, whose elements are searched for b');
assert.eq([10, 11], ids({'a.0.b': 7}));
assert.eq([2], ids({'a.1.b': 2}));
assert.eq([4], ids({'a.b.1': 5}));
assert.eq([5], ids({'a.0.0.b': 1}));
// A range may be satisfied by different elements; $elemMatch needs one element to match all.
assert.eq([3, 4], ids({'a.b': {$gt: 2, $lt: 4}}));
assert.eq([2, 3, 11], ids({a: {$elemMatch: {b: {$gte: 2}}}}));
assert.eq([3], ids({a: {$elemMatch: {b: {$gt: 2, $lt: 4}}}}));

// Projection through arrays keeps the array shape.
let r = assert.commandWorked(t.runCommand({find: 'c', filter: {_id: {$in: [2, 8]}}, projection: {'a.b': 1}, sort: {_id: 1}}));
assert.docEq([{_id: 2, a: [{b: 1}, {b: 2}]}, {_id: 8, a: [{b: null}, {}]}], r.cursor.firstBatch);

// Sort by a dotted path through an array uses the smallest (asc) / largest (desc) value.
r = assert.commandWorked(t.runCommand({find: 'c', filter: {_id: {$in: [1, 2, 4, 11]}}, sort: {'a.b': 1, _id: 1},
                                       projection: {_id: 1}}));
assert.eq([1, 2, 4, 11], r.cursor.firstBatch.map((d) => d._id));
r = assert.commandWorked(t.runCommand({find: 'c', filter: {_id: {$in: [1, 2, 4, 11]}}, sort: {'a.b': -1, _id: 1},
                                       projection: {_id: 1}}));
assert.eq([11, 4, 2, 1], r.cursor.firstBatch.map((d) => d._id));

// Updates through dotted paths.
assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {_id: 2}, u: {$set: {'a.1.b': 20}}}]}));
assert.docEq([{b: 1}, {b: 20}], t.c.findOne({_id: 2}).a);
assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {_id: 1}, u: {$set: {'a.x.y': 1}}}]}));
assert.docEq({b: 1, x: {y: 1}}, t.c.findOne({_id: 1}).a);
assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {_id: 10}, u: {$set: {'a.0.b': 70}}}]}));
assert.docEq({'0': {b: 70}}, t.c.findOne({_id: 10}).a, 'a numeric component names a field of a document');
// A path through a scalar cannot be created.
assert.writeErrorWithCode(t.runCommand({update: 'c', updates: [{q: {_id: 7}, u: {$set: {'a.b': 1}}}]}), 28, 0);
// Array of documents: a.b without a positional operator cannot be set.
assert.writeErrorWithCode(t.runCommand({update: 'c', updates: [{q: {_id: 11}, u: {$set: {'a.b': 1}}}]}), 28, 0);

// Aggregation field paths through arrays yield arrays.
r = assert.commandWorked(t.runCommand({aggregate: 'c', pipeline: [{$match: {_id: {$in: [2, 11]}}}, {$sort: {_id: 1}},
                                                                  {$project: {v: '$a.b'}}], cursor: {}}));
assert.docEq([{_id: 2, v: [1, 20]}, {_id: 11, v: [7, 8]}], r.cursor.firstBatch);
print('dotted_paths.js OK');
