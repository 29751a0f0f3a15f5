// The planner never changes an answer: multikey compound bounds, sparse and partial indexes,
// $natural hints with sorts, hidden indexes, multiKeyPaths in explain. Each case compares the
// indexed answer with a collection scan of the same data.
load(__dirname + '/../lib/assert.js');

const db0 = testDB('jstests_query_planner_correctness');

function ids(cursor) {
  return cursor.toArray().map((d) => d._id);
}
function scan(coll, filter) {
  return ids(coll.find(filter).hint({$natural: 1})).sort();
}
function winning(coll, filter, opts) {
  const cmd = Object.assign({find: coll.getName(), filter: filter}, opts || {});
  return assert.commandWorked(db0.runCommand({explain: cmd, verbosity: 'executionStats'}));
}
function findStage(plan, name) {
  if (!plan) return null;
  if (plan.stage === name) return plan;
  return findStage(plan.inputStage, name) || (plan.inputStages || []).map((p) => findStage(p, name)).find((x) => x);
}

// ---- Two paths in one array: bounds are compounded only inside $elemMatch. ----
let c = db0.scores;
c.drop();
assert.commandWorked(c.insertMany([
  {_id: 1, scores: [{level: 1, score: 90}, {level: 2, score: 0}]},
  {_id: 2, scores: [{level: 2, score: 50}]},
  {_id: 3, scores: [{level: 1, score: 10}]},
]));
c.createIndex({'scores.level': 1, 'scores.score': 1});
const loose = {'scores.level': 2, 'scores.score': {$gt: 30}};
assert.eq([1, 2], ids(c.find(loose)).sort(), 'either element may satisfy each predicate');
assert.eq(scan(c, loose), ids(c.find(loose).hint({'scores.level': 1, 'scores.score': 1})).sort());
let e = winning(c, loose);
let ix = findStage(e.queryPlanner.winningPlan, 'IXSCAN');
assert.eq(true, ix.isMultiKey);
assert.docEq({'scores.level': ['scores'], 'scores.score': ['scores']}, ix.multiKeyPaths);
assert.eq(['[MinKey, MaxKey]'], ix.indexBounds['scores.score'], 'not compounded across elements');
const tight = {scores: {$elemMatch: {level: 2, score: {$gt: 30}}}};
assert.eq([2], ids(c.find(tight)));
ix = findStage(winning(c, tight).queryPlanner.winningPlan, 'IXSCAN');
assert.eq(['(30, inf.0]'], ix.indexBounds['scores.score'], '$elemMatch pins one element');

// Same for {a.b, a.c} and a range on one multikey field.
c = db0.ab;
c.drop();
assert.commandWorked(c.insertMany([{_id: 1, a: [{b: 1, c: 1}, {b: 2, c: 2}]}, {_id: 2, a: [{b: 1, c: 2}]}, {_id: 3, a: [1, 9]}]));
c.createIndex({'a.b': 1, 'a.c': 1});
assert.eq([1, 2], ids(c.find({'a.b': 1, 'a.c': 2})).sort());
c.createIndex({a: 1});
assert.eq([3], ids(c.find({a: {$gt: 3, $lt: 5}}).hint({a: 1})), 'range predicates on an array are not intersected');
assert.eq([], ids(c.find({a: {$elemMatch: {$gt: 3, $lt: 5}}}).hint({a: 1})));

// ---- Sparse indexes never drop documents from a sort or a query that needs them. ----
c = db0.sparse;
c.drop();
assert.commandWorked(c.insertMany([{_id: 1, x: 3}, {_id: 2}, {_id: 3, x: 1}, {_id: 4}, {_id: 5, x: 2}]));
c.createIndex({x: 1}, {sparse: true});
assert.eq(5, c.find().sort({x: 1}).itcount());
assert.eq([2, 4, 3, 5, 1], ids(c.find().sort({x: 1, _id: 1})));
assert.eq([2, 4], ids(c.find({x: null}).sort({_id: 1})));
assert.eq([2, 4], ids(c.find({x: {$exists: false}}).sort({_id: 1})));
assert.eq(4, c.find({x: {$ne: 3}}).itcount());
e = winning(c, {x: {$gt: 1}});
ix = findStage(e.queryPlanner.winningPlan, 'IXSCAN');
assert.eq(true, ix.isSparse, 'a predicate that fails on missing x may use the sparse index');
assert(!findStage(winning(c, {x: null}).queryPlanner.winningPlan, 'IXSCAN'), 'no IXSCAN');
// A hint is obeyed, even when the sparse index cannot see every document (as MongoDB documents).
assert.eq(3, c.find().hint({x: 1}).itcount());

// ---- Partial indexes: used only when the query implies the filter. ----
c = db0.partial;
c.drop();
const pdocs = [];
for (let i = 0; i < 200; i++) pdocs.push({_id: i, a: i % 10});
assert.commandWorked(c.insertMany(pdocs));
c.createIndex({a: 1}, {partialFilterExpression: {a: {$gt: 3}}});
assert.eq(20, c.find({a: 1}).itcount(), 'a value outside the filter is found by a collection scan');
assert(!findStage(winning(c, {a: 1}).queryPlanner.winningPlan, 'IXSCAN'), 'no IXSCAN');
e = winning(c, {a: 5});
ix = findStage(e.queryPlanner.winningPlan, 'IXSCAN');
assert.eq(true, ix.isPartial);
assert.eq(20, e.executionStats.nReturned);
assert.commandFailedWithCode(runCmd(db0, {find: 'partial', filter: {a: 1}, hint: {a: 1}}), 2);
assert.eq(60, c.find({a: {$gte: 7}}).hint({a: 1}).itcount());

// ---- $natural hints choose the scan, never the order. ----
c = db0.natural;
c.drop();
assert.commandWorked(c.insertMany([{_id: 1, v: 3}, {_id: 2, v: 1}, {_id: 3, v: 2}]));
assert.eq([2, 3, 1], ids(c.find().sort({v: 1}).hint({$natural: 1})));
assert.eq([2, 3, 1], ids(c.find().sort({v: 1}).hint({$natural: -1})));
assert.eq([1, 3, 2], ids(c.find().sort({v: -1}).hint({$natural: 1})));
assert.eq([3, 2, 1], ids(c.find().sort({$natural: -1})));

// ---- Hidden indexes are never chosen, and cannot be hinted. ----
c = db0.hidden;
c.drop();
assert.commandWorked(c.insertMany([{_id: 1, h: 1}, {_id: 2, h: 2}]));
assert.commandWorked(db0.runCommand({createIndexes: 'hidden', indexes: [{key: {h: 1}, name: 'h_1', hidden: true}]}));
assert(!findStage(winning(c, {h: 1}).queryPlanner.winningPlan, 'IXSCAN'), 'no IXSCAN');
assert.commandFailedWithCode(runCmd(db0, {find: 'hidden', filter: {h: 1}, hint: {h: 1}}), 2);
assert.eq([1], ids(c.find({h: 1})));

// ---- Multikey state survives a restart of the index (persisted), and grows only. ----
c = db0.mk;
c.drop();
c.createIndex({'a.b': 1, c: 1});
assert.commandWorked(c.insertOne({a: {b: 1}, c: 1}));
ix = findStage(winning(c, {'a.b': 1}).queryPlanner.winningPlan, 'IXSCAN');
assert.eq(false, ix.isMultiKey);
assert.docEq({'a.b': [], c: []}, ix.multiKeyPaths);
assert.commandWorked(c.insertOne({a: [{b: 2}], c: 2}));
ix = findStage(winning(c, {'a.b': 1}).queryPlanner.winningPlan, 'IXSCAN');
assert.docEq({'a.b': ['a'], c: []}, ix.multiKeyPaths);
assert.commandWorked(c.deleteMany({}));
ix = findStage(winning(c, {'a.b': 1}).queryPlanner.winningPlan, 'IXSCAN');
assert.docEq({'a.b': ['a'], c: []}, ix.multiKeyPaths, 'multikey paths never shrink');

print('query_planner_correctness.js OK');
