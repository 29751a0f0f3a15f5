// explain: queryPlanner shape, IXSCAN (possibly under FETCH) for indexed predicates versus
// COLLSCAN otherwise, and executionStats counts.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_explain');
const docs = [];
for (let i = 0; i < 100; i++) docs.push({_id: i, a: i, b: i % 10, c: 'x' + i});
assert.commandWorked(t.runCommand({insert: 'c', documents: docs}));
assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {a: 1}, name: 'a_1'}]}));

// All stage names in a plan tree (inputStage, inputStages, queryPlan, ...).
function stages(plan) {
  const out = [];
  (function walk(node) {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (typeof node.stage === 'string') out.push(node.stage);
    for (const k of ['inputStage', 'inputStages', 'queryPlan', 'innerStage', 'outerStage', 'thenStage', 'elseStage']) {
      if (node[k]) walk(node[k]);
    }
  })(plan);
  return out;
}
function explainFind(filter, verbosity, extra) {
  const cmd = Object.assign({find: 'c', filter: filter}, extra || {});
  return assert.commandWorked(t.runCommand({explain: cmd, verbosity: verbosity || 'queryPlanner'}));
}

// Indexed equality: IXSCAN on a_1.
let e = explainFind({a: 5});
assert.hasFields(e, ['queryPlanner', 'serverInfo', 'ok']);
assert.eq('jstests_explain.c', e.queryPlanner.namespace);
assert.hasFields(e.queryPlanner, ['winningPlan', 'rejectedPlans']);
assert.eq(undefined, e.executionStats, 'queryPlanner verbosity has no executionStats');
let s = stages(e.queryPlanner.winningPlan);
assert.contains('IXSCAN', s, tojson(e.queryPlanner.winningPlan));
assert(!s.includes('COLLSCAN'), tojson(s));
// The IXSCAN names its index and key pattern.
(function findIxscan(node) {
  if (!node || typeof node !== 'object') return false;
  if (node.stage === 'IXSCAN') {
    assert.eq('a_1', node.indexName);
    assert.docEq({a: 1}, node.keyPattern);
    return true;
  }
  return ['inputStage', 'queryPlan'].some((k) => findIxscan(node[k])) ||
      (node.inputStages || []).some((n) => findIxscan(n));
})(e.queryPlanner.winningPlan) || assert(false, 'no IXSCAN node found');
assert.hasFields(e.serverInfo, ['host', 'port', 'version']);

// Range on the indexed field: IXSCAN too.
s = stages(explainFind({a: {$gte: 10, $lt: 20}}).queryPlanner.winningPlan);
assert.contains('IXSCAN', s);
// Unindexed field: COLLSCAN.
s = stages(explainFind({b: 3}).queryPlanner.winningPlan);
assert.contains('COLLSCAN', s);
assert(!s.includes('IXSCAN'), tojson(s));
// Empty filter: COLLSCAN.
assert.contains('COLLSCAN', stages(explainFind({}).queryPlanner.winningPlan));
// _id equality uses the _id index (IDHACK or IXSCAN/EXPRESS in newer versions).
s = stages(explainFind({_id: 7}).queryPlanner.winningPlan);
assert(s.includes('IDHACK') || s.includes('IXSCAN') || s.includes('EXPRESS_IXSCAN'), tojson(s));
// A hint forces the index even without a predicate on it.
assert.contains('IXSCAN', stages(explainFind({b: 3}, 'queryPlanner', {hint: {a: 1}}).queryPlanner.winningPlan));

// executionStats.
e = explainFind({a: {$gte: 10, $lt: 20}}, 'executionStats');
assert.eq(10, e.executionStats.nReturned);
assert.eq(10, e.executionStats.totalDocsExamined);
assert.gte(e.executionStats.totalKeysExamined, 10);
assert.eq(true, e.executionStats.executionSuccess);
assert.hasFields(e.executionStats, ['executionTimeMillis', 'executionStages']);
e = explainFind({b: 3}, 'executionStats');
assert.eq(10, e.executionStats.nReturned);
assert.eq(100, e.executionStats.totalDocsExamined);
assert.eq(0, e.executionStats.totalKeysExamined);
e = explainFind({b: 3}, 'allPlansExecution');
assert.eq(10, e.executionStats.nReturned);

// explain of count, distinct, update, delete and aggregate also work.
assert.commandWorked(t.runCommand({explain: {count: 'c', query: {a: 5}}}));
assert.commandWorked(t.runCommand({explain: {distinct: 'c', key: 'b'}}));
e = assert.commandWorked(t.runCommand({explain: {update: 'c', updates: [{q: {a: 5}, u: {$set: {z: 1}}}]}}));
assert.contains('IXSCAN', stages(e.queryPlanner.winningPlan));
assert.eq(0, t.c.countDocuments({z: 1}), 'explain does not execute the update');
e = assert.commandWorked(t.runCommand({explain: {delete: 'c', deletes: [{q: {a: 5}, limit: 1}]}, verbosity: 'executionStats'}));
assert.eq(100, t.c.countDocuments({}), 'explain does not execute the delete');
// A pipeline the query layer answers whole is explained as a find, with optimizedPipeline
// (MongoDB 7.0); one with stages left shows them after a $cursor holding the plan.
const params = ['internalQueryFacetBufferSizeBytes', 'internalQueryFacetMaxOutputDocSizeBytes',
                'internalLookupStageIntermediateDocumentMaxSizeBytes', 'internalDocumentSourceGroupMaxMemoryBytes',
                'internalQueryMaxBlockingSortMemoryUsageBytes', 'internalQueryProhibitBlockingMergeOnMongoS',
                'internalQueryMaxAddToSetBytes', 'internalDocumentSourceSetWindowFieldsMaxMemoryBytes',
                'internalQueryFrameworkControl'];
// A replica set adds $clusterTime and operationTime to every reply, and the shell adds session
// fields to what it sends (replica_sets_jscore runs this file against one).
const replyKeys = (r) => Object.keys(r).filter((k) => k !== '$clusterTime' && k !== 'operationTime');
const asWritten = (c) => Object.fromEntries(Object.entries(c).filter(([k]) => !['lsid', '$clusterTime', 'txnNumber'].includes(k)));
const aggCmd = {aggregate: 'c', pipeline: [{$match: {a: 5}}], cursor: {}};
e = assert.commandWorked(t.runCommand({explain: aggCmd, verbosity: 'executionStats'}));
assert.eq(['explainVersion', 'queryPlanner', 'executionStats', 'command', 'serverInfo', 'serverParameters', 'ok'],
          replyKeys(e));
assert.eq(true, e.queryPlanner.optimizedPipeline);
assert.eq(['namespace', 'indexFilterSet', 'parsedQuery', 'queryHash', 'optimizedPipeline'],
          Object.keys(e.queryPlanner).slice(0, 5));
assert.contains('IXSCAN', stages(e.queryPlanner.winningPlan));
assert.eq(1, e.executionStats.nReturned);
assert.eq(aggCmd, e.command);
assert.eq(params, Object.keys(e.serverParameters));
assert.eq(104857600, e.serverParameters.internalQueryMaxBlockingSortMemoryUsageBytes);
assert.eq('trySbeRestricted', e.serverParameters.internalQueryFrameworkControl);
e = assert.commandWorked(t.runCommand({explain: {aggregate: 'c', pipeline: [], cursor: {}}}));
assert.eq(true, e.queryPlanner.optimizedPipeline);
assert.contains('COLLSCAN', stages(e.queryPlanner.winningPlan));
e = assert.commandWorked(t.runCommand({explain: {aggregate: 'c', pipeline: [{$match: {a: 5}}, {$project: {b: 1}}], cursor: {}}}));
assert.eq(['explainVersion', 'stages', 'serverInfo', 'serverParameters', 'command', 'ok'], replyKeys(e));
assert.contains('IXSCAN', stages(e.stages[0].$cursor.queryPlanner.winningPlan));
assert.eq(['$project'], e.stages.slice(1).map((s) => Object.keys(s)[0]));
// aggregate's explain: true: the same replies, the command as sent.
e = assert.commandWorked(t.runCommand({aggregate: 'c', pipeline: [{$match: {a: 5}}], explain: true}));
assert.eq(['explainVersion', 'queryPlanner', 'command', 'serverInfo', 'serverParameters', 'ok'], replyKeys(e));
assert.eq({aggregate: 'c', pipeline: [{$match: {a: 5}}], explain: true, $db: 'jstests_explain'}, asWritten(e.command));
e = assert.commandWorked(t.runCommand({aggregate: 'c', pipeline: [{$match: {a: 5}}, {$skip: 1}], explain: true}));
assert.eq(['explainVersion', 'stages', 'serverInfo', 'serverParameters', 'command', 'ok'], replyKeys(e));
// find's explain has serverParameters too.
assert.eq(params, Object.keys(explainFind({a: 5}).serverParameters));
assert.commandFailed(runCmd(t, {explain: {find: 'c'}, verbosity: 'nosuchverbosity'}));
assert.commandFailedWithCode(runCmd(t, {explain: {nosuchcommand: 'c'}}), 59);

// The shell helper.
const se = t.c.find({a: 3}).explain();
assert.contains('IXSCAN', stages(se.queryPlanner.winningPlan));
assert.commandWorked(t.runCommand({dropIndexes: 'c', index: 'a_1'}));
assert.contains('COLLSCAN', stages(explainFind({a: 5}).queryPlanner.winningPlan));
print('explain.js OK');
