// Collations: this server compares strings by their bytes (the "simple" collation) and has no
// ICU. Every command and option that takes a collation refuses any other the same way, with
// BadValue (2), what MongoDB answers for a locale it does not know; {locale: "simple"} (and an
// empty collation, MongoDB's "none" for operations) is accepted everywhere.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_collation_refused');
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 1, s: 'a'}, {_id: 2, s: 'B'}]}));

const fr = {locale: 'fr'};
const simple = {locale: 'simple'};
function cases(collation) {
  return [
    [t, {find: 'c', collation: collation}],
    [t, {aggregate: 'c', pipeline: [], cursor: {}, collation: collation}],
    [t, {count: 'c', collation: collation}],
    [t, {distinct: 'c', key: 's', collation: collation}],
    [t, {update: 'c', updates: [{q: {_id: 1}, u: {$set: {u: 1}}, collation: collation}]}],
    [t, {delete: 'c', deletes: [{q: {_id: 99}, limit: 0, collation: collation}]}],
    [t, {findAndModify: 'c', query: {_id: 1}, update: {$set: {f: 1}}, collation: collation}],
    [t, {createIndexes: 'c', indexes: [{key: {s: 1}, name: 's_1', collation: collation}]}],
    [t, {create: 'made', collation: collation}],
  ];
}
for (const [database, cmd] of cases(fr)) {
  const r = assert.commandFailedWithCode(runCmd(database, cmd), 2, tojson(cmd));
  const msg = r.writeErrors ? r.writeErrors[0].errmsg : r.errmsg;
  assert(/only supports the simple collation/.test(msg), msg);
}
// Nothing was written or created by the refused commands.
assert.eq(undefined, t.c.findOne({_id: 1}).u);
assert.eq(undefined, t.c.findOne({_id: 1}).f);
assert.eq(1, t.c.getIndexes().length);
assert(!t.getCollectionNames().includes('made'));
// Options besides the locale, a missing locale and a wrong type are refused as well.
assert.commandFailedWithCode(runCmd(t, {find: 'c', collation: {locale: 'simple', strength: 1}}), 2);
assert.commandFailedWithCode(runCmd(t, {find: 'c', collation: {strength: 1}}), 40414);
assert.commandFailedWithCode(runCmd(t, {find: 'c', collation: 'fr'}), 14);
assert.commandFailedWithCode(runCmd(t, {createIndexes: 'c', indexes: [{key: {s: 1}, name: 's_1', collation: {}}]}), 2);

for (const [database, cmd] of cases(simple)) assert.commandWorked(database.runCommand(cmd), tojson(cmd));
assert.commandWorked(t.runCommand({find: 'c', collation: {}}));
// The simple collation is not stored in the index spec (as MongoDB).
const s1 = t.c.getIndexes().filter((i) => i.name === 's_1')[0];
assert.eq(undefined, s1.collation, tojson(s1));
print('collation_refused.js OK');
