// Multi-statement writes: ordered stops at the first error, unordered goes on; writeErrors
// carry the statement index; n/nModified/upserted add up; batch size limits.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_bulk_write');

// --- insert, ordered (the default)
let r = assert.writeReply(t.runCommand({insert: 'c', documents: [{_id: 1}, {_id: 2}, {_id: 1}, {_id: 3}, {_id: 2}]}));
assert.eq(2, r.n);
assert.eq(1, r.writeErrors.length, 'ordered stops at the first error');
assert.eq(2, r.writeErrors[0].index);
assert.eq(11000, r.writeErrors[0].code);
assert.eq(2, t.c.countDocuments({}));

// --- insert, unordered
t.c.drop();
r = assert.writeReply(t.runCommand({insert: 'c', ordered: false,
                                       documents: [{_id: 1}, {_id: 2}, {_id: 1}, {_id: 3}, {_id: 2}]}));
assert.eq(3, r.n);
assert.eq(2, r.writeErrors.length);
assert.eq([2, 4], r.writeErrors.map((e) => e.index));
assert.eq([11000, 11000], r.writeErrors.map((e) => e.code));
assert.eq(3, t.c.countDocuments({}));
for (const we of r.writeErrors) {
  assert.hasFields(we, ['index', 'code', 'errmsg']);
}

// --- update, ordered and unordered
t.c.drop();
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 1, n: 1}, {_id: 2, n: 'str'}, {_id: 3, n: 3}]}));
r = assert.writeReply(t.runCommand({update: 'c', updates: [
  {q: {_id: 1}, u: {$inc: {n: 1}}}, {q: {_id: 2}, u: {$inc: {n: 1}}}, {q: {_id: 3}, u: {$inc: {n: 1}}}]}));
assert.eq(1, r.n);
assert.eq(1, r.nModified);
assert.eq(1, r.writeErrors.length);
assert.eq(1, r.writeErrors[0].index);
assert.eq(14, r.writeErrors[0].code);
assert.eq(3, t.c.findOne({_id: 3}).n, 'ordered: statement 2 did not run');
r = assert.writeReply(t.runCommand({update: 'c', ordered: false, updates: [
  {q: {_id: 1}, u: {$inc: {n: 1}}}, {q: {_id: 2}, u: {$inc: {n: 1}}}, {q: {_id: 3}, u: {$inc: {n: 1}}},
  {q: {_id: 9}, u: {$set: {n: 9}}, upsert: true}]}));
assert.eq(3, r.n);
assert.eq(2, r.nModified);
assert.eq([1], r.writeErrors.map((e) => e.index));
assert.docEq([{index: 3, _id: 9}], r.upserted);
assert.eq(3, t.c.findOne({_id: 1}).n);
assert.eq(4, t.c.findOne({_id: 3}).n);

// --- delete with an invalid statement in the middle
r = assert.writeReply(t.runCommand({delete: 'c', ordered: false, deletes: [
  {q: {_id: 1}, limit: 1}, {q: {_id: {$bad: 1}}, limit: 1}, {q: {_id: 3}, limit: 1}]}));
// An unparsable query fails its own statement only.
assert.eq(2, r.n);
assert.eq(1, r.writeErrors.length);
assert.eq(1, r.writeErrors[0].index);
assert.eq(2, r.writeErrors[0].code);

// --- a large batch in one command
t.big.drop();
const many = [];
for (let i = 0; i < 5000; i++) many.push({_id: i, v: i});
r = assert.commandWorked(t.runCommand({insert: 'big', documents: many}));
assert.eq(5000, r.n);
assert.eq(5000, t.big.countDocuments({}));
r = assert.commandWorked(t.runCommand({update: 'big', updates: [{q: {v: {$gte: 2500}}, u: {$set: {hi: true}}, multi: true}]}));
assert.eq(2500, r.n);
assert.eq(2500, r.nModified);
r = assert.commandWorked(t.runCommand({delete: 'big', deletes: [{q: {hi: true}, limit: 0}]}));
assert.eq(2500, r.n);

// --- batch size limits
assert.commandFailedWithCode(runCmd(t, {insert: 'c', documents: []}), 16 /* InvalidLength */);
assert.commandFailedWithCode(runCmd(t, {update: 'c', updates: []}), 16);
assert.commandFailedWithCode(runCmd(t, {delete: 'c', deletes: []}), 16);
const tooMany = [];
for (let i = 0; i < 100001; i++) tooMany.push({});
assert.commandFailedWithCode(runCmd(t, {insert: 'toomany', documents: tooMany}), 16);
assert.eq(0, t.toomany.countDocuments({}));

// --- shell bulk API
t.s.drop();
const res = t.s.bulkWrite([
  {insertOne: {document: {_id: 1, a: 1}}},
  {insertOne: {document: {_id: 2, a: 2}}},
  {updateOne: {filter: {_id: 1}, update: {$set: {a: 10}}}},
  {updateMany: {filter: {}, update: {$inc: {b: 1}}}},
  {replaceOne: {filter: {_id: 2}, replacement: {a: 20}}},
  {deleteOne: {filter: {_id: 1}}},
  {updateOne: {filter: {_id: 3}, update: {$set: {a: 3}}, upsert: true}},
]);
assert.eq(2, res.insertedCount);
assert.eq(4, res.matchedCount);
assert.eq(4, res.modifiedCount);
assert.eq(1, res.deletedCount);
assert.eq(1, res.upsertedCount);
assert.eq(2, t.s.countDocuments({}));
const e = assert.throws(() => t.s.insertMany([{_id: 10}, {_id: 10}, {_id: 11}], {ordered: false}));
assert.eq(11000, errorCodeOf(e));
assert.eq(1, t.s.countDocuments({_id: 11}), 'unordered insertMany went on after the error');
print('bulk_write.js OK');
