// Command-level 'let' (MongoDB 5.0+): variables usable as $$name in $expr filters, find
// projections and pipelines of find, aggregate, update, delete and findAndModify; update
// statements' constants 'c'; MongoDB 7.0's errors for bad names and for expressions reading the
// document; system variables ($$NOW, $$ROOT, $$CURRENT, $$REMOVE, $redact's, and $$CLUSTER_TIME,
// which a standalone server does not have).
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_let_variables');
const docs = [{_id: 1, a: 1, b: 'x'}, {_id: 2, a: 2, b: 'y'}, {_id: 3, a: 3, b: 'z'}];
function reset() {
  t.c.deleteMany({});
  assert.commandWorked(t.runCommand({insert: 'c', documents: docs}));
}
function ids(r) {
  return r.cursor.firstBatch.map((d) => d._id);
}
reset();

// find: filter and projection.
let r = assert.commandWorked(t.runCommand({find: 'c', filter: {$expr: {$gte: ['$a', '$$lo']}}, let: {lo: 2},
                                           sort: {_id: 1}}));
assert.eq([2, 3], ids(r));
r = assert.commandWorked(t.runCommand({find: 'c', filter: {$or: [{$expr: {$eq: ['$b', '$$s']}}, {a: 3}]},
                                       let: {s: 'x'}, sort: {_id: 1}}));
assert.eq([1, 3], ids(r));
r = assert.commandWorked(t.runCommand({find: 'c', filter: {_id: 1}, projection: {_id: 0, v: '$$s', w: {$add: ['$a', '$$n']}},
                                       let: {s: 'hello', n: 10}}));
assert.docEq([{v: 'hello', w: 11}], r.cursor.firstBatch);
// Variables may use the ones before them, and system variables.
r = assert.commandWorked(t.runCommand({find: 'c', filter: {$expr: {$eq: ['$a', '$$two']}},
                                       let: {one: 1, two: {$add: ['$$one', 1]}, now: '$$NOW'}}));
assert.eq([2], ids(r));
// An inner $let of the same name shadows the command's variable.
r = assert.commandWorked(t.runCommand({find: 'c', filter: {$expr: {$let: {vars: {v: 3}, in: {$eq: ['$a', '$$v']}}}},
                                       let: {v: 1}}));
assert.eq([3], ids(r));
// Without 'let' the variable is undefined (17276), as before.
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {$expr: {$eq: ['$a', '$$lo']}}}), 17276);

// aggregate: stages, the leading $match (which also picks the index), $lookup sub-pipelines.
r = assert.commandWorked(t.runCommand({aggregate: 'c', cursor: {}, let: {target: 'y', tag: 't'},
                                       pipeline: [{$match: {$expr: {$eq: ['$b', '$$target']}}},
                                                  {$project: {_id: 1, tag: '$$tag'}}]}));
assert.docEq([{_id: 2, tag: 't'}], r.cursor.firstBatch);
r = assert.commandWorked(t.runCommand({aggregate: 'c', cursor: {}, let: {min: 3},
                                       pipeline: [{$match: {_id: 1}},
                                                  {$lookup: {from: 'c', let: {mine: '$a'}, as: 'big',
                                                             pipeline: [{$match: {$expr: {$and: [
                                                               {$gte: ['$a', '$$min']}, {$gt: ['$a', '$$mine']}]}}},
                                                                        {$project: {_id: 1}}]}}]}));
assert.docEq([{_id: 3}], r.cursor.firstBatch[0].big);

// update: $expr in q, pipeline updates, statement constants 'c'.
r = assert.commandWorked(t.runCommand({update: 'c', let: {pick: 2, label: 'L'},
                                       updates: [{q: {$expr: {$eq: ['$a', '$$pick']}}, u: [{$set: {l: '$$label'}}]},
                                                 {q: {_id: 3}, u: [{$set: {k: {$concat: ['$$label', '$$suffix']}}}],
                                                  c: {suffix: '!'}}]}));
assert.eq(2, r.nModified, tojson(r));
assert.eq('L', t.c.findOne({_id: 2}).l);
assert.eq('L!', t.c.findOne({_id: 3}).k);
// Constants belong to pipeline updates (51198).
r = runCmd(t, {update: 'c', updates: [{q: {_id: 1}, u: {$set: {x: 1}}, c: {k: 1}}]});
assert.commandFailedWithCode(r, 51198);
assert.commandFailedWithCode(runCmd(t, {update: 'c', updates: [{q: {_id: 1}, u: {$set: {x: 1}}, c: {}}]}), 51198);
// An upsert's pipeline sees them too.
assert.commandWorked(t.runCommand({update: 'c', let: {v: 'new'},
                                   updates: [{q: {_id: 9}, u: [{$set: {v: '$$v'}}], upsert: true}]}));
assert.eq('new', t.c.findOne({_id: 9}).v);

// delete.
r = assert.commandWorked(t.runCommand({delete: 'c', let: {gone: 9}, deletes: [{q: {$expr: {$eq: ['$_id', '$$gone']}}, limit: 0}]}));
assert.eq(1, r.n);

// findAndModify: query and pipeline update, and remove.
r = assert.commandWorked(t.runCommand({findAndModify: 'c', query: {$expr: {$eq: ['$a', '$$a']}}, let: {a: 1, v: 'fm'},
                                       update: [{$set: {fm: '$$v'}}], new: true}));
assert.eq('fm', r.value.fm);
r = assert.commandWorked(t.runCommand({findAndModify: 'c', query: {$expr: {$eq: ['$a', '$$a']}}, let: {a: 1},
                                       remove: true}));
assert.eq(1, r.value._id);
reset();

// Names, as $let's: a lowercase letter or a non-ASCII character first; system names are refused.
let e = assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {}, let: {Upper: 1}}), 16867);
assert(/^Invalid 'let' parameter :: caused by :: /.test(e.errmsg), e.errmsg);
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {}, let: {'': 1}}), 16866);
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {}, let: {'a.b': 1}}), 16868);
assert.commandWorked(t.runCommand({find: 'c', filter: {}, let: {'\u00e9t\u00e9': 1}}));
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {}, let: {NOW: 1}}), 4738901);
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: [], cursor: {}, let: {CLUSTER_TIME: 1}}), 4738901);
// Command variables are computed before any document is read.
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {}, let: {x: '$a'}}), 4890500);
assert.commandFailedWithCode(runCmd(t, {update: 'c', updates: [{q: {}, u: {$set: {z: 1}}}], let: {x: '$$ROOT'}}),
                             4890500);
assert.commandWorked(t.runCommand({find: 'c', filter: {}, let: {x: {$literal: '$a'}}}));
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {}, let: 1}), 14);
assert.commandFailedWithCode(runCmd(t, {delete: 'c', deletes: [{q: {}, limit: 0}], let: {x: '$$undefinedVar'}}),
                             17276);
assert.eq(3, t.c.countDocuments({}), 'a refused let runs nothing');

// System variables.
r = assert.commandWorked(t.runCommand({aggregate: 'c', cursor: {}, pipeline: [
  {$match: {_id: 1}},
  {$project: {_id: 0, root: '$$ROOT.b', cur: '$$CURRENT.a', gone: '$$REMOVE', isDate: {$eq: [{$type: '$$NOW'}, 'date']}}}]}));
assert.docEq([{root: 'x', cur: 1, isDate: true}], r.cursor.firstBatch);
// $$CLUSTER_TIME: 51144 on a standalone server, as MongoDB 7.0.
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', cursor: {}, pipeline: [{$project: {t: '$$CLUSTER_TIME'}}]}), 51144);
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {$expr: {$lt: ['$a', '$$CLUSTER_TIME']}}}), 51144);
// $redact's $$DESCEND / $$PRUNE / $$KEEP.
assert.commandWorked(t.runCommand({insert: 'r', documents: [{_id: 1, level: 1, sub: {level: 5, x: 1}, keep: {level: 1, y: 2}}]}));
r = assert.commandWorked(t.runCommand({aggregate: 'r', cursor: {}, pipeline: [
  {$redact: {$cond: [{$gt: [{$ifNull: ['$level', 0]}, 3]}, '$$PRUNE', '$$DESCEND']}}]}));
assert.docEq([{_id: 1, level: 1, keep: {level: 1, y: 2}}], r.cursor.firstBatch);
r = assert.commandWorked(t.runCommand({aggregate: 'r', cursor: {}, pipeline: [{$redact: '$$KEEP'}]}));
assert.eq(5, r.cursor.firstBatch[0].sub.level);

print('let_variables.js OK');
