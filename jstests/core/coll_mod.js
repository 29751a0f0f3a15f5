// collMod (MongoDB 7.0): validator / validationLevel / validationAction, index
// expireAfterSeconds and hidden (reply fields *_old / *_new), capped limits, and the errors.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_coll_mod');
function info(name) {
  return t.getCollectionInfos({name: name})[0];
}
function index(coll, name) {
  return allDocs(t, assert.commandWorked(t.runCommand({listIndexes: coll}))).find((i) => i.name === name);
}

assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 1, a: 1, t: new Date()}]}));
assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [
  {key: {t: 1}, name: 't_1', expireAfterSeconds: 10}, {key: {a: 1}, name: 'a_1'}, {key: {a: 1, b: 1}, name: 'a_1_b_1'},
  {key: {p: 1}, name: 'p_x', partialFilterExpression: {x: 1}}, {key: {p: 1}, name: 'p_y', partialFilterExpression: {y: 1}},
]}));

// --- no options: a no-op
assert.docEq({ok: 1}, assert.commandWorked(t.runCommand({collMod: 'c'})));

// --- validator and validation options
let r = assert.commandWorked(t.runCommand({collMod: 'c', validator: {a: {$type: 'number'}}}));
assert.docEq({ok: 1}, r);
assert.docEqOrdered({validator: {a: {$type: 'number'}}}, info('c').options);
assert.writeErrorWithCode(t.runCommand({insert: 'c', documents: [{_id: 2, a: 'x'}]}), 121, 0);
assert.commandWorked(t.runCommand({collMod: 'c', validationAction: 'warn', validationLevel: 'moderate'}));
assert.docEqOrdered({validator: {a: {$type: 'number'}}, validationLevel: 'moderate', validationAction: 'warn'}, info('c').options);
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 2, a: 'x'}]}), 'warn lets the write through');
assert.commandWorked(t.runCommand({collMod: 'c', validationAction: 'error', validationLevel: 'strict'}));
assert.writeErrorWithCode(t.runCommand({insert: 'c', documents: [{_id: 3, a: 'y'}]}), 121, 0);
assert.commandWorked(t.runCommand({collMod: 'c', validator: {}}), 'an empty validator removes it');
assert.docEqOrdered({validationLevel: 'strict', validationAction: 'error'}, info('c').options);
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 3, a: 'y'}]}));
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', validator: {$where: 'true'}}), 2);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', validator: {$text: {$search: 'x'}}}), 2);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', validator: {$nearSphere: {place: 'x'}}}), 2);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', validator: {$jsonSchema: {invalid: 7}}}), 9);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', validator: {$expr: {$eq: ['$a', '$$unbound']}}}), 17276);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', validator: 5}), 14);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', validationLevel: 'never'}), 2);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', validationAction: 'ignore'}), 2);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', validationAction: 1}), 14);
assert.docEqOrdered({validationLevel: 'strict', validationAction: 'error'}, info('c').options, 'failed collMods change nothing');

// --- index: expireAfterSeconds
r = assert.commandWorked(t.runCommand({collMod: 'c', index: {keyPattern: {t: 1}, expireAfterSeconds: 20}}));
assert.eq(10, r.expireAfterSeconds_old);
assert.eq(20, r.expireAfterSeconds_new);
assert.fieldOrder(r, ['expireAfterSeconds_old', 'expireAfterSeconds_new', 'ok']);
assert.eq(20, index('c', 't_1').expireAfterSeconds);
r = assert.commandWorked(t.runCommand({collMod: 'c', index: {name: 'a_1', expireAfterSeconds: 100}}));
assert.eq(undefined, r.expireAfterSeconds_old, 'a non-TTL single-field index becomes TTL');
assert.eq(100, r.expireAfterSeconds_new);
assert.eq(100, index('c', 'a_1').expireAfterSeconds);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', index: {name: 'a_1_b_1', expireAfterSeconds: 5}}), 72);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', index: {name: '_id_', expireAfterSeconds: 5}}), 72);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', index: {name: 't_1', expireAfterSeconds: -1}}), 72);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', index: {name: 't_1', expireAfterSeconds: 2147483648}}), 72);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', index: {name: 't_1', expireAfterSeconds: 'soon'}}), 14);

// --- index: hidden
r = assert.commandWorked(t.runCommand({collMod: 'c', index: {name: 'a_1_b_1', hidden: true}}));
assert.docEqOrdered({hidden_old: false, hidden_new: true, ok: 1}, r);
assert.eq(true, index('c', 'a_1_b_1').hidden);
r = assert.commandWorked(t.runCommand({collMod: 'c', index: {keyPattern: {a: 1, b: 1}, hidden: true}}));
assert.docEq({ok: 1}, r, 'hiding a hidden index is a no-op');
r = assert.commandWorked(t.runCommand({collMod: 'c', index: {name: 'a_1_b_1', hidden: false}}));
assert.docEqOrdered({hidden_old: true, hidden_new: false, ok: 1}, r);
assert.eq(undefined, index('c', 'a_1_b_1').hidden, 'unhiding removes the field');
r = assert.commandWorked(t.runCommand({collMod: 'c', index: {name: 't_1', hidden: true, expireAfterSeconds: 30}}));
assert.docEqOrdered({expireAfterSeconds_old: 20, expireAfterSeconds_new: 30, hidden_old: false, hidden_new: true, ok: 1}, r);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', index: {name: '_id_', hidden: true}}), 2);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', index: {name: 'a_1', hidden: 'yes'}}), 14);

// --- index: errors
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', index: {name: 'nope', hidden: true}}), 27 /* IndexNotFound */);
let e = assert.commandFailedWithCode(runCmd(t, {collMod: 'c', index: {keyPattern: {z: 1}, hidden: true}}), 27);
assert.eq('cannot find index { z: 1 } for ns jstests_coll_mod.c', e.errmsg);
e = assert.commandFailedWithCode(runCmd(t, {collMod: 'c', index: {keyPattern: {p: 1}, hidden: true}}), 181);
assert.eq('AmbiguousIndexKeyPattern', e.codeName);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', index: {name: 'a_1', keyPattern: {a: 1}, hidden: true}}), 72);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', index: {hidden: true}}), 72);
e = assert.commandFailedWithCode(runCmd(t, {collMod: 'c', index: {name: 'a_1'}}), 72);
assert.eq('no expireAfterSeconds, hidden, unique, or prepareUnique field', e.errmsg);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', index: {name: 'a_1', foo: 1}}), 40415);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', index: 'a_1'}), 14);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', index: {name: 'a_1', unique: true}}), 72);

// --- other options and errors
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', foo: 1}), 40415);
assert.commandFailedWithCode(runCmd(t, {collMod: 'nope', validator: {a: 1}}), 26 /* NamespaceNotFound */);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', viewOn: 'x'}), 72);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', pipeline: []}), 72);
assert.commandFailedWithCode(runCmd(t, {collMod: 'c', cappedSize: 100000}), 72);
assert.commandWorked(t.runCommand({create: 'cap', capped: true, size: 4096}));
assert.commandWorked(t.runCommand({collMod: 'cap', cappedSize: 8192, cappedMax: 2}));
assert.eq(8192, info('cap').options.size);
assert.eq(2, info('cap').options.max);
assert.commandWorked(t.runCommand({insert: 'cap', documents: [{_id: 1}, {_id: 2}, {_id: 3}]}));
assert.eq([2, 3], t.cap.find().sort({_id: 1}).toArray().map((d) => d._id), 'the new max applies');
assert.commandFailedWithCode(runCmd(t, {collMod: 'cap', index: {name: '_id_', expireAfterSeconds: 5}}), 72);
print('coll_mod.js OK');
