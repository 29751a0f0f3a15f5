// sort (ascending, descending, compound, missing fields, arrays, $natural), skip and limit.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_sort_skip_limit');
assert.commandWorked(t.runCommand({insert: 'c', documents: [
  {_id: 1, a: 3, b: 'x'}, {_id: 2, a: 1, b: 'y'}, {_id: 3, a: 2, b: 'x'}, {_id: 4, a: 1, b: 'z'},
  {_id: 5, b: 'w'}, {_id: 6, a: 5.5, b: 'x'}, {_id: 7, a: NumberLong('4'), b: 'v'}
]}));

function ids(cmdExtra) {
  const cmd = Object.assign({find: 'c', filter: {}, projection: {_id: 1}}, cmdExtra);
  const r = assert.commandWorked(t.runCommand(cmd));
  return r.cursor.firstBatch.map((d) => d._id);
}

// Missing sorts like null: before numbers ascending, last descending.
assert.eq([5, 2, 4, 3, 1, 7, 6], ids({sort: {a: 1, _id: 1}}));
assert.eq([6, 7, 1, 3, 2, 4, 5], ids({sort: {a: -1, _id: 1}}));
assert.eq([6, 7, 1, 3, 4, 2, 5], ids({sort: {a: -1, _id: -1}}));
assert.eq([7, 5, 6, 1, 3, 2, 4], ids({sort: {b: 1, a: -1}}));
assert.eq([4, 2, 6, 1, 3, 5, 7], ids({sort: {b: -1, a: -1}}));
assert.eq([7, 6, 5, 4, 3, 2, 1], ids({sort: {_id: -1}}));
// $natural is insertion order on a fresh collection.
assert.eq([1, 2, 3, 4, 5, 6, 7], ids({sort: {$natural: 1}}));
assert.eq([7, 6, 5, 4, 3, 2, 1], ids({sort: {$natural: -1}}));

// skip and limit apply after sort.
assert.eq([3, 1, 7], ids({sort: {a: 1, _id: 1}, skip: 3, limit: 3}));
assert.eq([], ids({sort: {a: 1}, skip: 100}));
assert.eq([5, 2, 4, 3, 1, 7, 6], ids({sort: {a: 1, _id: 1}, limit: 0}), 'limit 0 means no limit');
assert.eq([5], ids({sort: {a: 1, _id: 1}, limit: 1}));
assert.eq([2, 4], ids({filter: {a: 1}, sort: {_id: 1}}));

// Arrays sort by their smallest element ascending and largest descending.
assert.commandWorked(t.runCommand({insert: 'arr', documents: [
  {_id: 1, v: [1, 10]}, {_id: 2, v: 5}, {_id: 3, v: [3, 4]}, {_id: 4, v: []}, {_id: 5, v: null}
]}));
let r = assert.commandWorked(t.runCommand({find: 'arr', sort: {v: 1, _id: 1}}));
assert.eq([4, 5, 1, 3, 2], r.cursor.firstBatch.map((d) => d._id), 'empty array sorts before null');
r = assert.commandWorked(t.runCommand({find: 'arr', sort: {v: -1, _id: 1}}));
assert.eq([1, 2, 3, 5, 4], r.cursor.firstBatch.map((d) => d._id));

// Strings sort by binary (UTF-8) order without a collation.
assert.commandWorked(t.runCommand({insert: 's', documents: [
  {_id: 1, s: 'b'}, {_id: 2, s: 'B'}, {_id: 3, s: 'a'}, {_id: 4, s: 'é'}, {_id: 5, s: 'ab'}, {_id: 6, s: ''}
]}));
r = assert.commandWorked(t.runCommand({find: 's', sort: {s: 1}}));
assert.eq([6, 2, 3, 5, 1, 4], r.cursor.firstBatch.map((d) => d._id));

// Sorting a document field compares embedded documents field by field.
assert.commandWorked(t.runCommand({insert: 'docs', documents: [
  {_id: 1, d: {x: 2}}, {_id: 2, d: {x: 1, y: 5}}, {_id: 3, d: {x: 1}}, {_id: 4, d: {w: 9}}
]}));
r = assert.commandWorked(t.runCommand({find: 'docs', sort: {d: 1}}));
assert.eq([4, 3, 2, 1], r.cursor.firstBatch.map((d) => d._id));

// Errors.
assert.commandFailedWithCode(runCmd(t, {find: 'c', sort: {a: 2}}), 15975);
assert.commandFailedWithCode(runCmd(t, {find: 'c', sort: {a: 0}}), 15975);
assert.commandFailedWithCode(runCmd(t, {find: 'c', sort: 'a'}), 14 /* TypeMismatch */);
assert.commandFailedWithCode(runCmd(t, {find: 'c', limit: -1}), 51024);
assert.commandFailedWithCode(runCmd(t, {find: 'c', skip: -1}), 51024);
assert.commandFailedWithCode(runCmd(t, {find: 'c', limit: 'x'}), 14);

// Shell cursor helpers agree with the command.
assert.eq([5, 2, 4], t.c.find({}, {_id: 1}).sort({a: 1, _id: 1}).limit(3).toArray().map((d) => d._id));
assert.eq([7, 6], t.c.find({}, {_id: 1}).sort({_id: -1}).limit(2).toArray().map((d) => d._id));
assert.eq([6, 5], t.c.find({}, {_id: 1}).sort({_id: -1}).skip(1).limit(2).toArray().map((d) => d._id));
print('sort_skip_limit.js OK');
