// collMod's changes (validator, validation options, index expireAfterSeconds / hidden) are in
// the durable catalog: they survive a clean restart and a kill -9, and keep being enforced.
load(__dirname + '/../lib/assert.js');
load(__dirname + '/../lib/mongod_runner.js');

const m = MongodRunner.start();
let t = m.conn.getDB('collmod_persist');
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 1, a: 1, t: new Date()}]}));
assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {t: 1}, name: 't_1', expireAfterSeconds: 10},
                                                                    {key: {a: 1}, name: 'a_1'}]}));
assert.commandWorked(t.runCommand({collMod: 'c', validator: {$jsonSchema: {required: ['a']}}, validationAction: 'error'}));
assert.commandWorked(t.runCommand({collMod: 'c', index: {name: 'a_1', hidden: true}}));
assert.commandWorked(t.runCommand({collMod: 'c', index: {keyPattern: {t: 1}, expireAfterSeconds: 60}}));
assert.commandWorked(t.runCommand({create: 'v', validator: {x: {$gt: 0}}, validationLevel: 'moderate'}));

function check(phase) {
  t = m.conn.getDB('collmod_persist');
  const opts = t.getCollectionInfos({name: 'c'})[0].options;
  assert.docEq({validator: {$jsonSchema: {required: ['a']}}, validationAction: 'error'}, opts, phase);
  const idx = allDocs(t, assert.commandWorked(t.runCommand({listIndexes: 'c'})));
  assert.eq(true, idx.find((i) => i.name === 'a_1').hidden, phase);
  assert.eq(60, idx.find((i) => i.name === 't_1').expireAfterSeconds, phase);
  const we = assert.writeErrorWithCode(t.runCommand({insert: 'c', documents: [{_id: phase, b: 1}]}), 121, 0);
  assert.eq(['a'], we.errInfo.details.schemaRulesNotSatisfied[0].missingProperties, phase);
  assert.eq('moderate', t.getCollectionInfos({name: 'v'})[0].options.validationLevel, phase);
  assert.writeErrorWithCode(t.runCommand({insert: 'v', documents: [{x: 0}]}), 121, 0);
}

m.restart();
check('after restart');
// A journaled collMod survives kill -9.
assert.commandWorked(t.runCommand({collMod: 'c', index: {name: 'a_1', hidden: false}, writeConcern: {w: 1, j: true}}));
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 'j', a: 2}], writeConcern: {w: 1, j: true}}));
m.kill9();
m.start();
t = m.conn.getDB('collmod_persist');
const idx = allDocs(t, assert.commandWorked(t.runCommand({listIndexes: 'c'})));
assert.eq(undefined, idx.find((i) => i.name === 'a_1').hidden);
assert.eq(2, t.c.countDocuments({}));
assert.eq(0, m.stop());
print('coll_mod_persistence.js OK');
