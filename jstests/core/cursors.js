// Cursors: default and explicit batch sizes, getMore until exhaustion, limit with batchSize,
// singleBatch, killCursors reply shape, CursorNotFound, and getMore namespace checks.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_cursors');
const docs = [];
for (let i = 0; i < 250; i++) docs.push({_id: i, pad: 'x'.repeat(10)});
assert.commandWorked(t.runCommand({insert: 'c', documents: docs}));

// Default first batch: 101 documents.
let r = assert.commandWorked(t.runCommand({find: 'c', sort: {_id: 1}}));
assert.eq(101, r.cursor.firstBatch.length);
assert.neq(0, r.cursor.id);
assert.eq('Long', r.cursor.id._bsontype, 'cursor ids are int64');
assert.eq('jstests_cursors.c', r.cursor.ns);
// getMore without batchSize returns the rest.
let m = assert.commandWorked(t.runCommand({getMore: r.cursor.id, collection: 'c'}));
assert.eq(149, m.cursor.nextBatch.length);
assert.eq(0, m.cursor.id);
assert.eq('jstests_cursors.c', m.cursor.ns);
assert.eq(101, m.cursor.nextBatch[0]._id);
// The exhausted cursor is gone.
assert.commandFailedWithCode(runCmd(t, {getMore: r.cursor.id, collection: 'c'}), 43 /* CursorNotFound */);

// Explicit batch sizes.
r = assert.commandWorked(t.runCommand({find: 'c', sort: {_id: 1}, batchSize: 100}));
assert.eq(100, r.cursor.firstBatch.length);
const id = r.cursor.id;
m = assert.commandWorked(t.runCommand({getMore: id, collection: 'c', batchSize: 100}));
assert.eq(100, m.cursor.nextBatch.length);
assert.eq(id.toString(), m.cursor.id.toString(), 'the cursor keeps its id');
m = assert.commandWorked(t.runCommand({getMore: id, collection: 'c', batchSize: 100}));
assert.eq(50, m.cursor.nextBatch.length);
assert.eq(0, m.cursor.id);
assert.eq(249, m.cursor.nextBatch[49]._id);

// batchSize 0: an empty first batch and an open cursor.
r = assert.commandWorked(t.runCommand({find: 'c', batchSize: 0}));
assert.eq(0, r.cursor.firstBatch.length);
assert.neq(0, r.cursor.id);
assert.eq(250, allDocs(t, r).length);

// A batch that exactly exhausts the results may still leave an open cursor; the next getMore
// then returns an empty batch and id 0. Either way the total is right.
r = assert.commandWorked(t.runCommand({find: 'c', filter: {_id: {$lt: 10}}, batchSize: 10}));
assert.eq(10, allDocs(t, r).length);

// limit with batchSize: the cursor closes after limit documents.
r = assert.commandWorked(t.runCommand({find: 'c', sort: {_id: 1}, limit: 5, batchSize: 2}));
assert.eq(2, r.cursor.firstBatch.length);
let all = allDocs(t, r);
assert.eq([0, 1, 2, 3, 4], all.map((d) => d._id));
// A limit smaller than the first batch closes the cursor at once.
r = assert.commandWorked(t.runCommand({find: 'c', limit: 3}));
assert.eq(3, r.cursor.firstBatch.length);
assert.eq(0, r.cursor.id);
// singleBatch closes the cursor after the first batch.
r = assert.commandWorked(t.runCommand({find: 'c', batchSize: 10, singleBatch: true}));
assert.eq(10, r.cursor.firstBatch.length);
assert.eq(0, r.cursor.id);

// killCursors.
r = assert.commandWorked(t.runCommand({find: 'c', batchSize: 2}));
const k = assert.commandWorked(t.runCommand({killCursors: 'c', cursors: [r.cursor.id, NumberLong('123456789')]}));
assert.eq([r.cursor.id.toString()], k.cursorsKilled.map((x) => x.toString()));
assert.eq(['123456789'], k.cursorsNotFound.map((x) => x.toString()));
assert.eq([], k.cursorsAlive);
assert.eq([], k.cursorsUnknown);
assert.commandFailedWithCode(runCmd(t, {getMore: r.cursor.id, collection: 'c'}), 43);
// getMore on a cursor id that never existed.
r = assert.commandFailedWithCode(runCmd(t, {getMore: NumberLong('987654321'), collection: 'c'}), 43);
assert.eq('CursorNotFound', r.codeName);

// getMore must name the cursor's own collection.
r = assert.commandWorked(t.runCommand({find: 'c', batchSize: 2}));
assert.commandFailedWithCode(runCmd(t, {getMore: r.cursor.id, collection: 'other'}), 13 /* Unauthorized */);
assert.commandWorked(t.runCommand({killCursors: 'c', cursors: [r.cursor.id]}));

// Bad getMore arguments.
assert.commandFailedWithCode(runCmd(t, {getMore: 'abc', collection: 'c'}), 14 /* TypeMismatch */);
assert.commandFailedWithCode(runCmd(t, {getMore: NumberLong('1')}), 40414 /* missing required field */);
assert.commandFailed(runCmd(t, {find: 'c', batchSize: -1}));

// Aggregate cursors page the same way.
r = assert.commandWorked(t.runCommand({aggregate: 'c', pipeline: [{$match: {}}], cursor: {batchSize: 7}}));
assert.eq(7, r.cursor.firstBatch.length);
assert.eq(250, allDocs(t, r).length);

// The shell's cursor walks every batch.
assert.eq(250, t.c.find().batchSize(13).toArray().length);
let n = 0;
const cur = t.c.find().sort({_id: 1}).batchSize(50);
while (cur.hasNext()) {
  assert.eq(n, cur.next()._id);
  n++;
}
assert.eq(250, n);
print('cursors.js OK');
