// Views (MongoDB 7.0): create with viewOn/pipeline, views on views, listCollections, reads
// through the view's pipeline (find/aggregate/count/distinct), writes and index builds refused
// with 166 (CommandNotSupportedOnView), collMod, drop, cycles and depth.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_views');
const docs = [];
for (let i = 0; i < 10; i++) docs.push({_id: i, x: i, g: i % 3});
assert.commandWorked(t.runCommand({insert: 'c', documents: docs}));

assert.commandWorked(t.runCommand({create: 'v', viewOn: 'c', pipeline: [{$match: {x: {$gte: 3}}}]}));
assert.commandWorked(t.runCommand({create: 'vv', viewOn: 'v', pipeline: [{$project: {x: 1, g: 1}}]}));

// listCollections shows the definitions; filter on type works.
const views = allDocs(t, runCmd(t, {listCollections: 1, filter: {type: 'view'}}));
assert.sameMembers([
  {name: 'v', type: 'view', options: {viewOn: 'c', pipeline: [{$match: {x: {$gte: 3}}}]}, info: {readOnly: true}},
  {name: 'vv', type: 'view', options: {viewOn: 'v', pipeline: [{$project: {x: 1, g: 1}}]}, info: {readOnly: true}},
], views);
assert.eq(2, t.system.views.countDocuments({}));

// find: filter, sort, skip, limit and projection run after the view's pipeline.
let r = allDocs(t, runCmd(t, {find: 'vv', filter: {g: 1}, sort: {x: -1}, skip: 1, limit: 2, projection: {x: 1}}));
assert.docEq([{_id: 4, x: 4}], r);
r = assert.commandWorked(runCmd(t, {find: 'vv', batchSize: 2}));
assert.eq(t.getName() + '.vv', r.cursor.ns);
assert.eq(7, allDocs(t, r).length);
assert.eq(2, assert.commandWorked(runCmd(t, {count: 'vv', query: {g: 1}})).n);
assert.docEq([0, 1, 2], assert.commandWorked(runCmd(t, {distinct: 'vv', key: 'g'})).values);
r = allDocs(t, runCmd(t, {aggregate: 'vv', pipeline: [{$group: {_id: null, s: {$sum: '$x'}}}], cursor: {}}));
assert.docEq([{_id: null, s: 42}], r);
assert.commandFailedWithCode(runCmd(t, {find: 'v', showRecordId: true}), 168);
assert.commandFailedWithCode(runCmd(t, {find: 'v', singleBatch: true}), 168);
assert.eq(1, assert.commandWorked(runCmd(t, {find: 'v', singleBatch: true, limit: 1})).cursor.firstBatch.length);

// Writes and index builds: 166.
assert.writeErrorWithCode(runCmd(t, {insert: 'v', documents: [{x: 1}]}), 166, 0);
assert.writeErrorWithCode(runCmd(t, {update: 'v', updates: [{q: {}, u: {$set: {y: 1}}}]}), 166, 0);
assert.writeErrorWithCode(runCmd(t, {delete: 'v', deletes: [{q: {}, limit: 0}]}), 166, 0);
assert.commandFailedWithCode(runCmd(t, {findAndModify: 'v', query: {}, remove: true}), 166);
assert.commandFailedWithCode(runCmd(t, {createIndexes: 'v', indexes: [{key: {x: 1}, name: 'x_1'}]}), 166);
assert.commandFailedWithCode(runCmd(t, {listIndexes: 'v'}), 166);
assert.eq(10, t.c.countDocuments({}));

// Creation errors.
assert.commandFailedWithCode(runCmd(t, {create: 'x', viewOn: 'x'}), 5);                   // GraphContainsCycle
assert.commandFailedWithCode(runCmd(t, {collMod: 'v', viewOn: 'vv'}), 5);
assert.commandFailedWithCode(runCmd(t, {create: 'x', viewOn: 'c', pipeline: [{$out: 'o'}]}), 167);
assert.commandFailedWithCode(runCmd(t, {create: 'x', viewOn: 'c', pipeline: [{$nope: 1}]}), 40324);
assert.commandFailedWithCode(runCmd(t, {create: 'x', pipeline: []}), 2);
assert.commandFailedWithCode(runCmd(t, {create: 'system.views', viewOn: 'c'}), 73);
assert.commandFailedWithCode(runCmd(t, {create: 'v', viewOn: 'c'}), 48);
assert.commandFailedWithCode(runCmd(t, {create: 'c', viewOn: 'v'}), 48);
assert.commandWorked(runCmd(t, {create: 'v', viewOn: 'c', pipeline: [{$match: {x: {$gte: 3}}}]}));  // identical

// collMod replaces the definition; drop removes it.
assert.commandWorked(runCmd(t, {collMod: 'v', pipeline: [{$match: {x: {$lt: 2}}}]}));
assert.eq(2, assert.commandWorked(runCmd(t, {count: 'vv'})).n);
assert.commandFailedWithCode(runCmd(t, {collMod: 'v', validator: {}}), 72);
assert.commandWorked(runCmd(t, {drop: 'vv'}));
assert.eq(['c', 'system.views', 'v'], t.getCollectionNames().sort());
assert.commandWorked(t.dropDatabase());
assert.eq([], t.getCollectionNames());
