// Upserts (operator, replacement and pipeline style; which query fields seed the new
// document) and replacement updates (_id preserved, immutable, field order).
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_upsert_replacement');

function update(stmt) {
  return assert.commandWorked(t.runCommand({update: 'c', updates: [stmt]}));
}

// --- upsert with operators: equality fields of the query seed the document.
let res = update({q: {_id: 5}, u: {$set: {a: 1}}, upsert: true});
assert.eq(1, res.n);
assert.eq(0, res.nModified);
assert.eq([{index: 0, _id: 5}], res.upserted);
assert.docEqOrdered({_id: 5, a: 1}, t.c.findOne({_id: 5}));

res = update({q: {k: 'a', n: {$gt: 5}, 'x.y': 2}, u: {$set: {z: 1}, $setOnInsert: {created: true}}, upsert: true});
assert.eq(1, res.upserted.length);
const newId = res.upserted[0]._id;
assert.eq('ObjectId', newId._bsontype);
let d = t.c.findOne({_id: newId});
assert.docEq({_id: newId, k: 'a', x: {y: 2}, z: 1, created: true}, d);
assert.eq('_id', Object.keys(d)[0], '_id is the first field');

// Equalities inside $and and explicit $eq seed the document too.
res = update({q: {$and: [{p: 1}, {q: {$eq: 2}}], r: {$gt: 3}}, u: {$inc: {cnt: 1}}, upsert: true});
d = t.c.findOne({_id: res.upserted[0]._id});
assert.docEq({_id: res.upserted[0]._id, p: 1, q: 2, cnt: 1}, d);

// A matching document is updated, not inserted; $setOnInsert is then ignored.
res = update({q: {_id: 5}, u: {$set: {a: 2}, $setOnInsert: {ignored: 1}}, upsert: true});
assert.eq(1, res.n);
assert.eq(1, res.nModified);
assert.eq(undefined, res.upserted);
assert.docEqOrdered({_id: 5, a: 2}, t.c.findOne({_id: 5}));

// --- upsert with a replacement document: the query's fields are not copied (except _id).
res = update({q: {k: 'repl'}, u: {b: 3}, upsert: true});
d = t.c.findOne({_id: res.upserted[0]._id});
assert.docEq({_id: res.upserted[0]._id, b: 3}, d);
res = update({q: {_id: 'given'}, u: {b: 4}, upsert: true});
assert.eq('given', res.upserted[0]._id);
assert.docEqOrdered({_id: 'given', b: 4}, t.c.findOne({_id: 'given'}));

// --- upsert with a pipeline.
res = update({q: {_id: 'pipe'}, u: [{$set: {v: {$literal: 7}}}], upsert: true});
assert.docEqOrdered({_id: 'pipe', v: 7}, t.c.findOne({_id: 'pipe'}));

// --- several upserts in one command report their statement indexes.
res = assert.commandWorked(t.runCommand({update: 'c', updates: [
  {q: {_id: 'u1'}, u: {$set: {a: 1}}, upsert: true},
  {q: {_id: 5}, u: {$set: {a: 3}}, upsert: true},
  {q: {_id: 'u2'}, u: {$set: {a: 1}}, upsert: true},
]}));
assert.eq(3, res.n);
assert.eq(1, res.nModified);
assert.docEq([{index: 0, _id: 'u1'}, {index: 2, _id: 'u2'}], res.upserted);

// --- multi upsert with no match inserts exactly one document.
res = update({q: {grp: 'none'}, u: {$set: {m: 1}}, upsert: true, multi: true});
assert.eq(1, res.upserted.length);
assert.eq(1, t.c.countDocuments({grp: 'none'}));

// --- replacement
t.c.drop();
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 1, a: 1, b: 2, c: 3}]}));
res = update({q: {_id: 1}, u: {z: 26, y: 25}});
assert.eq(1, res.nModified);
assert.docEqOrdered({_id: 1, z: 26, y: 25}, t.c.findOne({_id: 1}), 'replacement keeps _id first, then its own order');
update({q: {_id: 1}, u: {_id: 1, w: 1}});
assert.docEqOrdered({_id: 1, w: 1}, t.c.findOne({_id: 1}));
// _id at the end of the replacement moves to the front.
update({q: {_id: 1}, u: {v: 1, _id: 1}});
assert.docEqOrdered({_id: 1, v: 1}, t.c.findOne({_id: 1}));
// An empty replacement leaves only _id.
update({q: {_id: 1}, u: {}});
assert.docEqOrdered({_id: 1}, t.c.findOne({_id: 1}));
// Changing _id is refused.
res = runCmd(t, {update: 'c', updates: [{q: {_id: 1}, u: {_id: 2, a: 1}}]});
assert.writeErrorWithCode(res, 66 /* ImmutableField */, 0);
assert.eq(1, t.c.countDocuments({_id: 1}));
assert.eq(0, t.c.countDocuments({_id: 2}));
// Replacement documents may not contain update operators.
res = runCmd(t, {update: 'c', updates: [{q: {_id: 1}, u: {a: 1, $set: {b: 1}}}]});
assert.commandFailed(res);
// Replacement via the shell helper.
assert.commandWorked(t.c.replaceOne({_id: 1}, {r: 1}));
assert.docEqOrdered({_id: 1, r: 1}, t.c.findOne({_id: 1}));
assert.throws(() => t.c.replaceOne({_id: 1}, {$set: {r: 2}}), 'replaceOne refuses operators');

// Shell helpers report upserts.
let hr = t.c.updateOne({_id: 'h'}, {$set: {a: 1}}, {upsert: true});
assert.eq('h', hr.insertedId);  // mongosh's UpdateResult names the upserted _id insertedId
assert.eq(0, hr.matchedCount);
hr = t.c.updateMany({}, {$set: {all: true}});
assert.eq(2, hr.matchedCount);
assert.eq(2, hr.modifiedCount);
print('upsert_replacement.js OK');
