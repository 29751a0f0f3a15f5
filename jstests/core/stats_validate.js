// collStats, dbStats and validate: reply shapes and the counts they report.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_stats_validate');
const docs = [];
for (let i = 0; i < 50; i++) docs.push({_id: i, a: i, s: 'x'.repeat(100)});
assert.commandWorked(t.runCommand({insert: 'c', documents: docs}));
assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {a: 1}, name: 'a_1'}]}));
assert.commandWorked(t.runCommand({insert: 'd', documents: [{x: 1}]}));

// --- collStats
let r = assert.commandWorked(t.runCommand({collStats: 'c'}));
assert.eq('jstests_stats_validate.c', r.ns);
assert.eq(50, r.count);
assert.hasFields(r, ['size', 'avgObjSize', 'storageSize', 'nindexes', 'totalIndexSize', 'indexSizes', 'scaleFactor',
                     'capped', 'totalSize']);
assert.eq(2, r.nindexes);
assert.eq(false, r.capped);
assert.eq(1, r.scaleFactor);
// size is the total BSON size of the documents.
const oneSize = bsonsize(t.c.findOne({_id: 0}));
assert.eq(50 * oneSize, r.size, 'size = sum of document sizes');
assert.eq(oneSize, r.avgObjSize);
assert.sameMembers(['_id_', 'a_1'], Object.keys(r.indexSizes));
assert.gt(r.storageSize, 0);
assert.gt(r.totalIndexSize, 0);
// scale divides the sizes.
const scaled = assert.commandWorked(t.runCommand({collStats: 'c', scale: 1024}));
assert.eq(1024, scaled.scaleFactor);
assert.eq(Math.floor(toNumber(r.size) / 1024), scaled.size);
// $collStats aggregation stage.
r = assert.commandWorked(t.runCommand({aggregate: 'c', pipeline: [{$collStats: {storageStats: {}, count: {}}}], cursor: {}}));
assert.eq(50, r.cursor.firstBatch[0].storageStats.count);
assert.eq(50, r.cursor.firstBatch[0].count);

// --- dbStats
r = assert.commandWorked(t.runCommand({dbStats: 1}));
assert.eq('jstests_stats_validate', r.db);
assert.eq(2, r.collections);
assert.eq(0, r.views);
assert.eq(51, r.objects);
assert.eq(3, r.indexes, '_id_ on both collections and a_1');
assert.hasFields(r, ['avgObjSize', 'dataSize', 'storageSize', 'indexSize', 'totalSize', 'scaleFactor', 'fsUsedSize',
                     'fsTotalSize']);
assert.eq(50 * oneSize + bsonsize(t.d.findOne()), r.dataSize);
r = assert.commandWorked(db.getSiblingDB('jstests_stats_validate_none').runCommand({dbStats: 1}));
assert.eq(0, r.collections);
assert.eq(0, r.objects);

// --- validate
r = assert.commandWorked(t.runCommand({validate: 'c'}));
assert.eq('jstests_stats_validate.c', r.ns);
assert.eq(true, r.valid);
assert.eq(50, r.nrecords);
assert.eq(2, r.nIndexes);
assert.eq(50, r.keysPerIndex._id_);
assert.eq(50, r.keysPerIndex.a_1);
assert.eq([], r.errors);
assert.eq(0, r.nInvalidDocuments);
assert.eq(true, r.indexDetails._id_.valid);
assert.eq(true, r.indexDetails.a_1.valid);
assert.hasFields(r, ['warnings', 'extraIndexEntries', 'missingIndexEntries', 'corruptRecords', 'repaired']);
r = assert.commandWorked(t.runCommand({validate: 'c', full: true}));
assert.eq(true, r.valid);
assert.commandFailedWithCode(runCmd(t, {validate: 'nosuch'}), 26 /* NamespaceNotFound */);
// Validation counts multikey keys per entry.
assert.commandWorked(t.runCommand({createIndexes: 'm', indexes: [{key: {tags: 1}, name: 'tags_1'}]}));
assert.commandWorked(t.runCommand({insert: 'm', documents: [{tags: [1, 2, 3]}, {tags: [4]}]}));
r = assert.commandWorked(t.runCommand({validate: 'm'}));
assert.eq(true, r.valid);
assert.eq(2, r.nrecords);
assert.eq(4, r.keysPerIndex.tags_1);
// After deletes and updates the indexes stay consistent.
assert.commandWorked(t.runCommand({delete: 'c', deletes: [{q: {a: {$lt: 10}}, limit: 0}]}));
assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {}, u: {$inc: {a: 1000}}, multi: true}]}));
r = assert.commandWorked(t.runCommand({validate: 'c'}));
assert.eq(true, r.valid, tojson(r));
assert.eq(40, r.nrecords);
assert.eq(40, r.keysPerIndex.a_1);
assert.eq(40, t.c.find({a: {$gte: 1000}}).hint('a_1').itcount());
print('stats_validate.js OK');
