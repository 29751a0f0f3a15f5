// $out replaces a collection with the pipeline's results (keeping its indexes); $merge merges
// them into a collection document by document.
load(__dirname + '/../lib/assert.js');
const t = db.getSiblingDB('jstests_agg_out_merge');
t.dropDatabase();
assert.commandWorked(t.src.insertMany([{_id: 1, g: 'a', v: 1}, {_id: 2, g: 'a', v: 2}, {_id: 3, g: 'b', v: 5}]));

// $out into a new collection.
let r = assert.commandWorked(t.runCommand({aggregate: 'src', pipeline: [{$group: {_id: '$g', total: {$sum: '$v'}}}, {$out: 'totals'}], cursor: {}}));
assert.eq(0, r.cursor.firstBatch.length);
assert.eq(0, r.cursor.id);
assert.docEq({_id: 'a', total: 3}, t.totals.findOne({_id: 'a'}));
assert.eq(2, t.totals.countDocuments({}));

// $out replaces the target's documents and keeps its indexes.
t.totals.createIndex({total: 1});
assert.commandWorked(t.runCommand({aggregate: 'src', pipeline: [{$match: {g: 'b'}}, {$out: 'totals'}], cursor: {}}));
assert.eq(1, t.totals.countDocuments({}));
assert.eq(3, t.totals.findOne()._id);
assert.sameMembers(['_id_', 'total_1'], t.totals.getIndexes().map((i) => i.name));
// No temporary collection is left behind.
assert.eq([], t.getCollectionNames().filter((n) => n.startsWith('tmp.')));

// $out fails (and leaves the target untouched) when the results break a unique index.
assert.commandWorked(t.runCommand({aggregate: 'src', pipeline: [{$out: 'uniq'}], cursor: {}}));
assert.commandWorked(t.uniq.deleteOne({_id: 2}));
t.uniq.createIndex({g: 1}, {unique: true});
assert.commandFailedWithCode(runCmd(t, {aggregate: 'src', pipeline: [{$out: 'uniq'}], cursor: {}}), 11000);
assert.eq(2, t.uniq.countDocuments({}));

// $merge: default whenMatched merge, whenNotMatched insert.
assert.commandWorked(t.dst.insertMany([{_id: 1, keep: true}]));
assert.commandWorked(t.runCommand({aggregate: 'src', pipeline: [{$project: {v: 1}}, {$merge: {into: 'dst'}}], cursor: {}}));
assert.docEq({_id: 1, keep: true, v: 1}, t.dst.findOne({_id: 1}));
assert.eq(3, t.dst.countDocuments({}));
// whenMatched replace / keepExisting, whenNotMatched discard.
assert.commandWorked(t.runCommand({aggregate: 'src', pipeline: [{$project: {g: 1}}, {$merge: {into: 'dst', whenMatched: 'replace', whenNotMatched: 'discard'}}], cursor: {}}));
assert.docEq({_id: 1, g: 'a'}, t.dst.findOne({_id: 1}));
assert.commandWorked(t.runCommand({aggregate: 'src', pipeline: [{$project: {g: 'zzz'}}, {$merge: {into: 'dst', whenMatched: 'keepExisting'}}], cursor: {}}));
assert.docEq({_id: 1, g: 'a'}, t.dst.findOne({_id: 1}));
// whenNotMatched fail.
assert.commandFailedWithCode(runCmd(t, {aggregate: 'src', pipeline: [{$addFields: {_id: {$add: ['$_id', 100]}}}, {$merge: {into: 'dst', whenNotMatched: 'fail'}}], cursor: {}}), 13113);
print('agg_out_merge.js OK');
