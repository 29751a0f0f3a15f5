// Aggregation stages: $match $project $addFields $set $unset $sort $limit $skip $count,
// the aggregate command's reply shape and its errors.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_agg_basic_stages');
assert.commandWorked(t.runCommand({insert: 'c', documents: [
  {_id: 1, name: 'ann', age: 30, city: 'x', scores: [1, 2]},
  {_id: 2, name: 'bob', age: 25, city: 'y', scores: [3]},
  {_id: 3, name: 'cat', age: 35, city: 'x', scores: []},
  {_id: 4, name: 'dan', age: 25, city: 'z'},
]}));

function agg(pipeline, coll) {
  const r = assert.commandWorked(t.runCommand({aggregate: coll || 'c', pipeline: pipeline, cursor: {}}));
  assert.eq(t.getName() + '.' + (coll || 'c'), r.cursor.ns);
  assert.eq(0, r.cursor.id);
  return r.cursor.firstBatch;
}

// Reply shape and an empty pipeline.
assert.eq(4, agg([]).length);
assert.eq([], agg([], 'nosuchcollection'));

// $match
assert.eq([1, 3], agg([{$match: {city: 'x'}}, {$sort: {_id: 1}}]).map((d) => d._id));
assert.eq([2, 4], agg([{$match: {age: {$lt: 30}}}, {$sort: {_id: 1}}]).map((d) => d._id));
assert.eq([3], agg([{$match: {$expr: {$gt: ['$age', 32]}}}]).map((d) => d._id));
assert.eq([], agg([{$match: {nosuch: 1}}]));

// $project: inclusion, exclusion, computed fields, renaming, _id suppression.
assert.docEqOrdered([{_id: 1, name: 'ann'}], agg([{$match: {_id: 1}}, {$project: {name: 1}}]));
assert.docEqOrdered([{name: 'ann'}], agg([{$match: {_id: 1}}, {$project: {name: 1, _id: 0}}]));
assert.docEqOrdered([{_id: 1, name: 'ann', city: 'x'}], agg([{$match: {_id: 1}}, {$project: {age: 0, scores: 0}}]));
assert.docEq([{_id: 1, who: 'ann', next: 31, n: 2}],
             agg([{$match: {_id: 1}}, {$project: {who: '$name', next: {$add: ['$age', 1]}, n: {$size: '$scores'}}}]));
assert.docEq([{_id: 2, lit: '$name'}], agg([{$match: {_id: 2}}, {$project: {lit: {$literal: '$name'}}}]));
let r = assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: [{$project: {a: 1, b: 0}}], cursor: {}}), 31254);
assert.commandFailed(runCmd(t, {aggregate: 'c', pipeline: [{$project: {}}], cursor: {}}), 'empty $project');
assert.commandFailed(runCmd(t, {aggregate: 'c', pipeline: [{$project: 'name'}], cursor: {}}));

// $addFields and its alias $set: add or overwrite, keep everything else.
let d = agg([{$match: {_id: 2}}, {$addFields: {older: {$add: ['$age', 10]}, city: 'new'}}]);
assert.docEqOrdered([{_id: 2, name: 'bob', age: 25, city: 'new', scores: [3], older: 35}], d);
d = agg([{$match: {_id: 2}}, {$set: {'sub.a': 1, age: '$$REMOVE'}}]);
assert.docEqOrdered([{_id: 2, name: 'bob', city: 'y', scores: [3], sub: {a: 1}}], d);

// $unset: one field, several, dotted.
d = agg([{$match: {_id: 1}}, {$unset: 'scores'}]);
assert.docEqOrdered([{_id: 1, name: 'ann', age: 30, city: 'x'}], d);
d = agg([{$match: {_id: 1}}, {$unset: ['scores', 'age', '_id']}]);
assert.docEqOrdered([{name: 'ann', city: 'x'}], d);
d = agg([{$match: {_id: 1}}, {$set: {e: {a: 1, b: 2}}}, {$unset: 'e.a'}, {$project: {e: 1, _id: 0}}]);
assert.docEqOrdered([{e: {b: 2}}], d);

// $sort, $skip, $limit.
assert.eq([3, 1, 2, 4], agg([{$sort: {age: -1, _id: 1}}]).map((d) => d._id));
assert.eq([1, 3, 2, 4], agg([{$sort: {city: 1, age: 1}}]).map((d) => d._id));
assert.eq([1, 2], agg([{$sort: {_id: 1}}, {$limit: 2}]).map((d) => d._id));
assert.eq([3, 4], agg([{$sort: {_id: 1}}, {$skip: 2}]).map((d) => d._id));
assert.eq([2], agg([{$sort: {_id: 1}}, {$skip: 1}, {$limit: 1}]).map((d) => d._id));
assert.eq([], agg([{$skip: 10}]));
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: [{$limit: 0}], cursor: {}}), 15958);
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: [{$limit: -1}], cursor: {}}), 15958);
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: [{$skip: -1}], cursor: {}}), 15956);
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: [{$sort: {}}], cursor: {}}), 15976);
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: [{$sort: {a: 2}}], cursor: {}}), 15975);

// $count
assert.docEq([{n: 4}], agg([{$count: 'n'}]));
assert.docEq([{total: 2}], agg([{$match: {city: 'x'}}, {$count: 'total'}]));
assert.eq([], agg([{$match: {city: 'nowhere'}}, {$count: 'n'}]), '$count of nothing outputs no document');
assert.commandFailed(runCmd(t, {aggregate: 'c', pipeline: [{$count: ''}], cursor: {}}));
assert.commandFailed(runCmd(t, {aggregate: 'c', pipeline: [{$count: '$n'}], cursor: {}}));

// Command errors.
r = assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: []}), 9 /* cursor option required */);
r = assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: [{$nosuch: {}}], cursor: {}}), 40324);
assert(/Unrecognized pipeline stage name: '\$nosuch'/.test(r.errmsg), r.errmsg);
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: [{$match: {}, $sort: {a: 1}}], cursor: {}}), 40323);
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: {}, cursor: {}}), 14);
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: [{$match: {a: {$bad: 1}}}], cursor: {}}), 2);
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: [{$project: {x: {$nosuchop: 1}}}], cursor: {}}), 31325);  // "Invalid $project :: caused by :: Unknown expression"
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c'}), 40414 /* pipeline is required */);

// The shell helper.
assert.eq([{_id: 'x', n: 2}], t.c.aggregate([{$match: {city: 'x'}}, {$group: {_id: '$city', n: {$sum: 1}}}]).toArray());
print('agg_basic_stages.js OK');
