// findAndModify: update (pre/post image), sort, fields, upsert, remove, and errors.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_find_and_modify');
assert.commandWorked(t.runCommand({insert: 'c', documents: [
  {_id: 1, g: 'a', n: 1}, {_id: 2, g: 'a', n: 2}, {_id: 3, g: 'b', n: 3}
]}));

// Default: returns the document before the update.
let r = assert.commandWorked(t.runCommand({findAndModify: 'c', query: {_id: 1}, update: {$inc: {n: 10}}}));
assert.docEq({n: 1, updatedExisting: true}, r.lastErrorObject);
assert.docEqOrdered({_id: 1, g: 'a', n: 1}, r.value);
assert.eq(11, t.c.findOne({_id: 1}).n);

// new: true returns the document after the update; sort chooses among matches.
r = assert.commandWorked(t.runCommand({findAndModify: 'c', query: {g: 'a'}, sort: {n: -1},
                                       update: {$set: {picked: true}}, new: true}));
assert.docEqOrdered({_id: 1, g: 'a', n: 11, picked: true}, r.value);
r = assert.commandWorked(t.runCommand({findAndModify: 'c', query: {g: 'a'}, sort: {n: 1},
                                       update: {$set: {picked: true}}, new: true}));
assert.eq(2, r.value._id);

// fields projects the returned document.
r = assert.commandWorked(t.runCommand({findAndModify: 'c', query: {_id: 3}, update: {$set: {x: 1}},
                                       fields: {n: 1, _id: 0}, new: true}));
assert.docEqOrdered({n: 3}, r.value);

// Replacement update.
r = assert.commandWorked(t.runCommand({findAndModify: 'c', query: {_id: 3}, update: {g: 'c'}, new: true}));
assert.docEqOrdered({_id: 3, g: 'c'}, r.value);

// Pipeline update.
r = assert.commandWorked(t.runCommand({findAndModify: 'c', query: {_id: 3}, update: [{$set: {h: {$concat: ['$g', '!']}}}],
                                       new: true}));
assert.eq('c!', r.value.h);

// No match: value null.
r = assert.commandWorked(t.runCommand({findAndModify: 'c', query: {_id: 99}, update: {$set: {a: 1}}}));
assert.eq(null, r.value);
assert.docEq({n: 0, updatedExisting: false}, r.lastErrorObject);

// Upsert.
r = assert.commandWorked(t.runCommand({findAndModify: 'c', query: {_id: 50}, update: {$set: {a: 1}}, upsert: true}));
assert.eq(null, r.value, 'new: false upsert returns null');
assert.docEq({n: 1, updatedExisting: false, upserted: 50}, r.lastErrorObject);
r = assert.commandWorked(t.runCommand({findAndModify: 'c', query: {_id: 51}, update: {$set: {a: 1}}, upsert: true,
                                       new: true}));
assert.docEqOrdered({_id: 51, a: 1}, r.value);
assert.eq(51, r.lastErrorObject.upserted);

// remove returns the removed document.
r = assert.commandWorked(t.runCommand({findAndModify: 'c', query: {_id: 50}, remove: true}));
assert.docEqOrdered({_id: 50, a: 1}, r.value);
assert.docEq({n: 1}, r.lastErrorObject);
assert.eq(0, t.c.countDocuments({_id: 50}));
r = assert.commandWorked(t.runCommand({findAndModify: 'c', query: {_id: 50}, remove: true}));
assert.eq(null, r.value);
assert.docEq({n: 0}, r.lastErrorObject);
// The lowercase spelling works too.
r = assert.commandWorked(t.runCommand({findandmodify: 'c', query: {_id: 51}, remove: true}));
assert.eq(51, r.value._id);

// Errors.
assert.commandFailedWithCode(runCmd(t, {findAndModify: 'c', query: {_id: 1}}), 9 /* FailedToParse */);
assert.commandFailedWithCode(runCmd(t, {findAndModify: 'c', query: {_id: 1}, remove: true, update: {$set: {a: 1}}}), 9);
assert.commandFailedWithCode(runCmd(t, {findAndModify: 'c', query: {_id: 1}, remove: true, new: true}), 9);
assert.commandFailedWithCode(runCmd(t, {findAndModify: 'c', query: {_id: 1}, update: {$inc: {g: 1}}}), 14);
assert.commandFailedWithCode(runCmd(t, {findAndModify: 'c', query: {_id: 1}, update: {$set: {_id: 9}}}), 66);
assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {u: 1}, name: 'u_1', unique: true, sparse: true}]}));
assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {_id: 1}, u: {$set: {u: 1}}}]}));
r = assert.commandFailedWithCode(runCmd(t, {findAndModify: 'c', query: {_id: 2}, update: {$set: {u: 1}}}), 11000);
assert.eq('DuplicateKey', r.codeName);
assert.eq(2, t.c.findOne({_id: 2}).n, 'the failed findAndModify changed nothing');

// Shell helpers.
const doc = t.c.findOneAndUpdate({_id: 2}, {$inc: {n: 1}}, {returnDocument: 'after'});
assert.eq(3, doc.n);
assert.eq(2, t.c.findOneAndDelete({_id: 2})._id);
assert.eq(1, t.c.findOneAndReplace({_id: 1}, {only: true}, {returnNewDocument: false})._id);
assert.docEqOrdered({_id: 1, only: true}, t.c.findOne({_id: 1}));
print('find_and_modify.js OK');
