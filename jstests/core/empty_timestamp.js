// Empty timestamp replacement: a top-level field other than _id holding Timestamp(0, 0) in an
// inserted document or a replacement document gets the write's timestamp, unless the command
// says bypassEmptyTsReplacement: true (insert, update, findAndModify). Update operators ($set,
// $setOnInsert) and nested values keep Timestamp(0, 0), as in MongoDB.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_empty_timestamp');
const zero = Timestamp(0, 0);
function isZero(ts) {
  return ts.t === 0 && ts.i === 0;
}

assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 1, ts: zero, nested: {ts: zero}, arr: [zero]},
                                                           {_id: zero, other: zero}]}));
let d = t.c.findOne({_id: 1});
assert(!isZero(d.ts), tojson(d));
assert(d.ts.t > 0, tojson(d));
assert(isZero(d.nested.ts), 'nested values are not replaced');
assert(isZero(d.arr[0]), 'array elements are not replaced');
d = t.c.findOne({_id: zero});
assert(d !== null, '_id keeps Timestamp(0, 0)');
assert(!isZero(d.other));
// Replaced values of one batch are distinct and increasing.
const first = t.c.findOne({_id: 1}).ts, second = d.other;
assert(second.t > first.t || (second.t === first.t && second.i > first.i), tojson([first, second]));

// bypassEmptyTsReplacement keeps them.
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 2, ts: zero}], bypassEmptyTsReplacement: true}));
assert(isZero(t.c.findOne({_id: 2}).ts));
assert.commandFailedWithCode(runCmd(t, {insert: 'c', documents: [{_id: 3}], bypassEmptyTsReplacement: 'x'}), 14);

// Replacement updates (and replacement upserts) replace them; $set does not.
assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {_id: 2}, u: {ts: zero}}]}));
assert(!isZero(t.c.findOne({_id: 2}).ts));
assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {_id: 2}, u: {ts: zero}}], bypassEmptyTsReplacement: true}));
assert(isZero(t.c.findOne({_id: 2}).ts));
assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {_id: 2}, u: {$set: {s: zero}}}]}));
assert(isZero(t.c.findOne({_id: 2}).s));
assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {_id: 4}, u: {ts: zero}, upsert: true}]}));
assert(!isZero(t.c.findOne({_id: 4}).ts));
assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {_id: 5}, u: {$setOnInsert: {ts: zero}}, upsert: true}]}));
assert(isZero(t.c.findOne({_id: 5}).ts));

// findAndModify.
let r = assert.commandWorked(t.runCommand({findAndModify: 'c', query: {_id: 5}, update: {ts: zero}, new: true}));
assert(!isZero(r.value.ts));
r = assert.commandWorked(t.runCommand({findAndModify: 'c', query: {_id: 5}, update: {ts: zero}, new: true,
                                       bypassEmptyTsReplacement: true}));
assert(isZero(r.value.ts));
print('empty_timestamp.js OK');
