// Answers from the index alone (PROJECTION_COVERED, COUNT_SCAN, DISTINCT_SCAN, key filters)
// and find's index options min(), max(), returnKey, showRecordId, with MongoDB 7.0's errors.
load(__dirname + '/../lib/assert.js');

const db0 = testDB('jstests_covered_and_index_options');

function explain(cmd) {
  return assert.commandWorked(db0.runCommand({explain: cmd, verbosity: 'executionStats'}));
}
function stageNames(plan) {
  const out = [];
  (function walk(p) {
    if (!p) return;
    out.push(p.stage);
    walk(p.inputStage);
    (p.inputStages || []).forEach(walk);
  })(plan);
  return out;
}

// ---- Covered find ----
let c = db0.people;
c.drop();
const people = [];
for (let i = 0; i < 50; i++) people.push({_id: i, ln: i % 5 === 0 ? 'doe' : 'x' + i, fn: 'f' + i, age: i});
assert.commandWorked(c.insertMany(people));
c.createIndex({ln: 1});
let e = explain({find: 'people', filter: {ln: 'doe'}, projection: {ln: 1, _id: 0}});
assert.eq(['PROJECTION_COVERED', 'IXSCAN'], stageNames(e.queryPlanner.winningPlan));
assert.eq(0, e.executionStats.totalDocsExamined);
assert.eq(10, e.executionStats.nReturned);
assert.eq(10, c.find({ln: 'doe'}, {ln: 1, _id: 0}).toArray().filter((d) => d.ln === 'doe' && Object.keys(d).length === 1).length);
// _id kept, or a field outside the index: the document is fetched.
e = explain({find: 'people', filter: {ln: 'doe'}, projection: {ln: 1}});
assert.contains('FETCH', stageNames(e.queryPlanner.winningPlan));
e = explain({find: 'people', filter: {ln: 'doe'}, projection: {ln: 1, fn: 1, _id: 0}});
assert.contains('FETCH', stageNames(e.queryPlanner.winningPlan));
// A key filter rules documents out before fetching: a regex on the indexed field.
e = explain({find: 'people', filter: {ln: /^x1/}});
assert.eq(e.executionStats.nReturned, e.executionStats.totalDocsExamined);
const ixscan = e.queryPlanner.winningPlan.inputStage;
assert.eq('IXSCAN', ixscan.stage);
// Index keys tell a missing field from a null one: covered answers are the documents' own,
// also without a filter, with $nin, $exists and $type (as MongoDB covers them).
c.createIndex({age: 1});
assert.commandWorked(c.insertMany([{_id: 200, ln: 'doe'}, {_id: 201, ln: 'doe', age: null}]));
for (const [filter, hint] of [[{}, {age: 1}], [{age: {$nin: [5, 8]}}, {age: 1}], [{age: {$exists: true}}, {age: 1}],
                              [{age: {$exists: false}}, {age: 1}], [{age: {$type: 'null'}}, {age: 1}],
                              [{age: null}, {age: 1}]]) {
  e = explain({find: 'people', filter: filter, projection: {age: 1, _id: 0}, hint: hint});
  assert.eq(['PROJECTION_COVERED', 'IXSCAN'], stageNames(e.queryPlanner.winningPlan), tojson(filter));
  assert.eq(0, e.executionStats.totalDocsExamined, tojson(filter));
  const covered = c.find(filter, {age: 1, _id: 0}).hint(hint).toArray();
  const scanned = c.find(filter, {age: 1, _id: 0}).hint({$natural: 1}).toArray();
  assert.sameMembers(scanned, covered, tojson(filter));
}
assert.eq(1, c.find({age: {$exists: false}}, {age: 1, _id: 0}).hint({age: 1}).toArray().filter((d) => !('age' in d)).length);
assert.commandWorked(c.deleteMany({_id: {$in: [200, 201]}}));

// Compound, sorted by the index, covered.
c.createIndex({ln: 1, age: -1});
e = explain({find: 'people', filter: {ln: 'doe', age: {$gt: 10}}, projection: {ln: 1, age: 1, _id: 0}, sort: {age: -1}});
assert.eq(0, e.executionStats.totalDocsExamined);
assert.eq([45, 40, 35, 30, 25, 20, 15], c.find({ln: 'doe', age: {$gt: 10}}, {ln: 1, age: 1, _id: 0}).sort({age: -1}).toArray().map((d) => d.age));

// ---- count and distinct from the index ----
e = explain({count: 'people', query: {ln: 'doe'}});
assert.eq(['COUNT', 'COUNT_SCAN'], stageNames(e.queryPlanner.winningPlan));
assert.eq(10, e.executionStats.executionStages.nCounted);
assert.eq(10, c.countDocuments({ln: 'doe'}));
assert.eq(5, db0.runCommand({count: 'people', query: {ln: 'doe'}, skip: 5}).n);
assert.eq(3, db0.runCommand({count: 'people', query: {ln: 'doe'}, limit: 3}).n);
e = explain({distinct: 'people', key: 'ln'});
assert.contains('DISTINCT_SCAN', stageNames(e.queryPlanner.winningPlan));
assert.eq(41, c.distinct('ln').length);
// Documents missing the field add no null to distinct, index or not.
assert.commandWorked(c.insertOne({_id: 100}));
assert.commandWorked(c.insertOne({_id: 101, ln: null}));
assert.eq(42, c.distinct('ln').length);
assert.commandWorked(c.deleteOne({_id: 101}));
assert.eq(41, c.distinct('ln').length, 'no null for a missing field');

// ---- explain of writes ----
e = explain({delete: 'people', deletes: [{q: {ln: 'doe'}, limit: 0}]});
assert.eq('DELETE', e.queryPlanner.winningPlan.stage);
assert.eq(10, e.executionStats.executionStages.nWouldDelete);
e = explain({update: 'people', updates: [{q: {ln: 'doe'}, u: {$set: {fn: 'f0'}}, multi: true}]});
assert.eq('UPDATE', e.queryPlanner.winningPlan.stage);
assert.eq(10, e.executionStats.executionStages.nMatched);
assert.eq(9, e.executionStats.executionStages.nWouldModify, 'f0 already has fn f0');
assert.eq(10, c.countDocuments({ln: 'doe'}));

// ---- min / max / returnKey / showRecordId ----
c = db0.minmax;
c.drop();
for (let i = 0; i < 9; i++) assert.commandWorked(c.insertOne({_id: i, a: i}));
c.createIndex({a: 1});
assert.eq(0, c.find().min({a: Infinity}).hint({a: 1}).itcount());
assert.eq(0, c.find().max({a: NaN}).hint({a: 1}).itcount());
assert.eq([3, 4, 5], c.find().min({a: 3}).max({a: 6}).hint({a: 1}).toArray().map((d) => d.a));
assert.eq([5, 4, 3], c.find().min({a: 3}).max({a: 6}).hint({a: 1}).sort({a: -1}).toArray().map((d) => d.a));
assert.commandFailedWithCode(runCmd(db0, {find: 'minmax', min: {a: 3}}), 51173);
assert.commandFailedWithCode(runCmd(db0, {find: 'minmax', min: {b: 3}, hint: {a: 1}}), 51174);
assert.commandFailedWithCode(runCmd(db0, {find: 'minmax', min: {a: 3}, max: {b: 1}, hint: {a: 1}}), 51176);
assert.commandFailedWithCode(runCmd(db0, {find: 'minmax', min: {a: 6}, max: {a: 3}, hint: {a: 1}}), 51175);
assert.commandFailedWithCode(runCmd(db0, {find: 'minmax', min: {a: 3}, hint: {$natural: 1}}), 291);
assert.docEq([{a: 3}], c.find({a: 3}).returnKey(true).toArray());
assert.docEq([{}], c.find({_id: 3}).hint({$natural: 1}).returnKey(true).toArray());
const withId = c.find({a: 3}, {_id: 0}).showRecordId().toArray();
assert.eq(1, withId.length);
assert.hasFields(withId[0], ['a', '$recordId']);

print('covered_and_index_options.js OK');
