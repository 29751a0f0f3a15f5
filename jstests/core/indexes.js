// Indexes: createIndexes/listIndexes/dropIndexes reply shapes, unique indexes and E11000
// duplicate key errors, option/name conflicts, multikey, sparse, partial, hint, and errors.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_indexes');

// --- createIndexes on a collection that does not exist yet creates it.
let r = assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {a: 1}, name: 'a_1'}]}));
assert.eq(true, r.createdCollectionAutomatically);
assert.eq(1, r.numIndexesBefore);
assert.eq(2, r.numIndexesAfter);
r = assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {b: -1, c: 1}, name: 'b_-1_c_1'},
                                                                     {key: {u: 1}, name: 'u_1', unique: true}]}));
assert.eq(false, r.createdCollectionAutomatically);
assert.eq(2, r.numIndexesBefore);
assert.eq(4, r.numIndexesAfter);
// Creating an identical index again is a no-op success.
r = assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {a: 1}, name: 'a_1'}]}));
assert.eq(4, r.numIndexesBefore);
assert.eq(4, r.numIndexesAfter);
assert.eq('all indexes already exist', r.note);

// --- listIndexes
r = assert.commandWorked(t.runCommand({listIndexes: 'c'}));
assert.eq('jstests_indexes.$cmd.listIndexes.c', r.cursor.ns);
assert.eq(0, r.cursor.id);
const idx = r.cursor.firstBatch;
assert.docEqOrdered({v: 2, key: {_id: 1}, name: '_id_'}, idx[0]);
assert.docEqOrdered({v: 2, key: {a: 1}, name: 'a_1'}, idx[1]);
assert.docEqOrdered({v: 2, key: {b: -1, c: 1}, name: 'b_-1_c_1'}, idx[2]);
assert.docEq({v: 2, key: {u: 1}, name: 'u_1', unique: true}, idx[3]);
assert.commandFailedWithCode(runCmd(t, {listIndexes: 'nosuch'}), 26 /* NamespaceNotFound */);
r = assert.commandWorked(t.runCommand({listIndexes: 'c', cursor: {batchSize: 1}}));
assert.eq(1, r.cursor.firstBatch.length);
assert.eq(4, allDocs(t, r).length);

// --- conflicts
assert.commandFailedWithCode(runCmd(t, {createIndexes: 'c', indexes: [{key: {a: 1}, name: 'other_name'}]}),
                             85 /* IndexOptionsConflict */);
assert.commandFailedWithCode(runCmd(t, {createIndexes: 'c', indexes: [{key: {zz: 1}, name: 'a_1'}]}),
                             86 /* IndexKeySpecsConflict */);
assert.commandFailedWithCode(runCmd(t, {createIndexes: 'c', indexes: [{key: {a: 1}, name: 'a_1', unique: true}]}),
                             86);
// --- invalid specs
assert.commandFailedWithCode(runCmd(t, {createIndexes: 'c', indexes: [{key: {x: 'nosuchplugin'}, name: 'x'}]}),
                             67 /* CannotCreateIndex */);
assert.commandFailedWithCode(runCmd(t, {createIndexes: 'c', indexes: [{key: {x: 0}, name: 'x0'}]}), 67);
assert.commandFailedWithCode(runCmd(t, {createIndexes: 'c', indexes: [{key: {}, name: 'empty'}]}), 67);
assert.commandFailed(runCmd(t, {createIndexes: 'c', indexes: []}));
assert.commandFailed(runCmd(t, {createIndexes: 'c', indexes: [{key: {x: 1}, name: 'x_1', nosuchoption: 1}]}));

// --- unique index violations
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 1, u: 1}, {_id: 2, u: 2}]}));
r = t.runCommand({insert: 'c', documents: [{_id: 3, u: 1}]});
let we = assert.writeErrorWithCode(r, 11000, 0);
assert.eq('E11000 duplicate key error collection: jstests_indexes.c index: u_1 dup key: { u: 1 }', we.errmsg);
assert.docEq({u: 1}, we.keyPattern);
assert.docEq({u: 1}, we.keyValue);
assert.eq(0, t.c.countDocuments({_id: 3}), 'the document was not inserted');
// Updates too.
r = t.runCommand({update: 'c', updates: [{q: {_id: 2}, u: {$set: {u: 1}}}]});
we = assert.writeErrorWithCode(r, 11000, 0);
assert(/index: u_1 dup key: \{ u: 1 \}/.test(we.errmsg), we.errmsg);
assert.eq(2, t.c.findOne({_id: 2}).u);
// Missing fields index as null: only one document may lack the field.
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 4}]}));
we = assert.writeErrorWithCode(t.runCommand({insert: 'c', documents: [{_id: 5}]}), 11000, 0);
assert(/dup key: \{ u: null \}/.test(we.errmsg), we.errmsg);
// Building a unique index over duplicates fails.
assert.commandWorked(t.runCommand({insert: 'd', documents: [{x: 1}, {x: 1}]}));
r = assert.commandFailedWithCode(runCmd(t, {createIndexes: 'd', indexes: [{key: {x: 1}, name: 'x_1', unique: true}]}), 11000);
assert.eq('DuplicateKey', r.codeName);
assert.eq(1, t.d.getIndexes().length, 'the failed index is not left behind');
// Compound unique: the combination must be unique.
assert.commandWorked(t.runCommand({createIndexes: 'cu', indexes: [{key: {p: 1, q: 1}, name: 'p_1_q_1', unique: true}]}));
assert.commandWorked(t.runCommand({insert: 'cu', documents: [{p: 1, q: 1}, {p: 1, q: 2}]}));
we = assert.writeErrorWithCode(t.runCommand({insert: 'cu', documents: [{p: 1, q: 2}]}), 11000, 0);
assert(/dup key: \{ p: 1, q: 2 \}/.test(we.errmsg), we.errmsg);

// --- sparse and partial unique indexes
assert.commandWorked(t.runCommand({createIndexes: 's', indexes: [{key: {s: 1}, name: 's_1', unique: true, sparse: true}]}));
assert.commandWorked(t.runCommand({insert: 's', documents: [{_id: 1}, {_id: 2}, {_id: 3, s: 1}]}), 'sparse skips missing');
assert.writeErrorWithCode(t.runCommand({insert: 's', documents: [{_id: 4, s: 1}]}), 11000, 0);
assert.commandWorked(t.runCommand({createIndexes: 'p', indexes: [{key: {e: 1}, name: 'e_1', unique: true,
                                                                   partialFilterExpression: {active: true}}]}));
assert.commandWorked(t.runCommand({insert: 'p', documents: [{e: 1, active: false}, {e: 1, active: false}, {e: 1, active: true}]}));
assert.writeErrorWithCode(t.runCommand({insert: 'p', documents: [{e: 1, active: true}]}), 11000, 0);
const pIdx = t.p.getIndexes().find((i) => i.name === 'e_1');
assert.docEq({active: true}, pIdx.partialFilterExpression);

// --- multikey indexes answer queries on array elements
assert.commandWorked(t.runCommand({createIndexes: 'm', indexes: [{key: {tags: 1}, name: 'tags_1'}]}));
assert.commandWorked(t.runCommand({insert: 'm', documents: [{_id: 1, tags: ['a', 'b']}, {_id: 2, tags: ['b', 'c']}, {_id: 3, tags: 'a'}]}));
assert.eq([1, 2], t.m.find({tags: 'b'}).sort({_id: 1}).toArray().map((d) => d._id));
assert.eq([1, 3], t.m.find({tags: 'a'}).sort({_id: 1}).hint({tags: 1}).toArray().map((d) => d._id));
assert.eq(3, t.m.find({tags: {$in: ['a', 'c']}}).hint('tags_1').itcount());
// Unique multikey: an array's own duplicates are fine; across documents they are not.
assert.commandWorked(t.runCommand({createIndexes: 'um', indexes: [{key: {v: 1}, name: 'v_1', unique: true}]}));
assert.commandWorked(t.runCommand({insert: 'um', documents: [{_id: 1, v: [1, 1, 2]}]}));
assert.writeErrorWithCode(t.runCommand({insert: 'um', documents: [{_id: 2, v: [3, 2]}]}), 11000, 0);

// --- hint
assert.eq(2, t.c.find({u: {$gte: 1}}).hint({u: 1}).itcount());
assert.eq(2, t.c.find({u: {$gte: 1}}).hint('u_1').itcount());
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {}, hint: {nosuch: 1}}), 2 /* BadValue */);
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {}, hint: 'nosuch'}), 2);

// --- index-backed and unindexed queries agree
for (let i = 0; i < 200; i++) assert.commandWorked(t.runCommand({insert: 'agree', documents: [{_id: i, k: i % 17, s: 'v' + (i % 5)}]}));
const before = t.agree.find({k: {$gte: 3, $lt: 9}, s: 'v2'}).sort({_id: 1}).toArray();
assert.commandWorked(t.runCommand({createIndexes: 'agree', indexes: [{key: {k: 1, s: 1}, name: 'k_1_s_1'}]}));
const after = t.agree.find({k: {$gte: 3, $lt: 9}, s: 'v2'}).sort({_id: 1}).hint('k_1_s_1').toArray();
assert.docEq(before, after);
assert.gt(before.length, 0);

// --- dropIndexes
r = assert.commandWorked(t.runCommand({dropIndexes: 'c', index: 'a_1'}));
assert.eq(4, r.nIndexesWas);
r = assert.commandWorked(t.runCommand({dropIndexes: 'c', index: {b: -1, c: 1}}));
assert.eq(3, r.nIndexesWas);
assert.commandFailedWithCode(runCmd(t, {dropIndexes: 'c', index: 'nosuch'}), 27 /* IndexNotFound */);
assert.commandFailedWithCode(runCmd(t, {dropIndexes: 'c', index: {nosuch: 1}}), 27);
assert.commandFailedWithCode(runCmd(t, {dropIndexes: 'c', index: '_id_'}), 72 /* InvalidOptions */);
assert.commandFailedWithCode(runCmd(t, {dropIndexes: 'nosuchcoll', index: 'x'}), 26 /* NamespaceNotFound */);
assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {x: 1}, name: 'x_1'}, {key: {y: 1}, name: 'y_1'}]}));
r = assert.commandWorked(t.runCommand({dropIndexes: 'c', index: ['x_1', 'y_1']}));
assert.eq(4, r.nIndexesWas);
assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {x: 1}, name: 'x_1'}]}));
r = assert.commandWorked(t.runCommand({dropIndexes: 'c', index: '*'}));
assert.eq(3, r.nIndexesWas);
assert.eq(['_id_'], t.c.getIndexes().map((i) => i.name));
// After dropping the unique index, duplicates are accepted.
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 3, u: 1}]}));

// --- shell helpers
assert.eq('hx_1', t.h.createIndex({hx: 1}, {name: 'hx_1'}));
assert.eq('hy_-1', t.h.createIndex({hy: -1}));
assert.sameMembers(['_id_', 'hx_1', 'hy_-1'], t.h.getIndexes().map((i) => i.name));
t.h.dropIndex('hx_1');
assert.sameMembers(['_id_', 'hy_-1'], t.h.getIndexes().map((i) => i.name));
print('indexes.js OK');
