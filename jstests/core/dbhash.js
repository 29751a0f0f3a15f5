// dbHash: per-collection MD5 of the documents' BSON in _id order, the database md5 over those
// hex digests in name order, capped and uuids, the collections filter and MongoDB 7.0's errors.
load(__dirname + '/../lib/assert.js');
const crypto = require('crypto');
const md5 = (s) => crypto.createHash('md5').update(Buffer.from(s)).digest('hex');
const EMPTY = 'd41d8cd98f00b204e9800998ecf8427e';  // md5 of nothing

const t = testDB('jstests_dbhash');

// An empty database: no collections, md5 of nothing.
let r = assert.commandWorked(t.runCommand({dbHash: 1}));
assert.hasFields(r, ['host', 'collections', 'capped', 'uuids', 'md5', 'timeMillis']);
assert.docEq({}, r.collections);
assert.eq([], r.capped);
assert.docEq({}, r.uuids);
assert.eq(EMPTY, r.md5);

// Inserted out of _id order: the hash follows _id order. The expected value is the MD5 of
// BSON {_id: 1, b: "x"} followed by BSON {_id: 2, a: 1} (int32s), computed independently.
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 2, a: NumberInt(1)}, {_id: 1, b: 'x'}]}));
assert.commandWorked(t.runCommand({create: 'cap', capped: true, size: 4096}));
assert.commandWorked(t.runCommand({insert: 'same', documents: [{_id: 1, b: 'x'}, {_id: 2, a: NumberInt(1)}]}));
r = assert.commandWorked(t.runCommand({dbHash: 1}));
assert.eq('625a3171de9aa21ce9432bf48af324dc', r.collections.c);
assert.eq(r.collections.c, r.collections.same, 'same documents, same hash');
assert.eq(EMPTY, r.collections.cap);
assert.eq(['cap'], r.capped);
assert.eq(['c', 'cap', 'same'], Object.keys(r.collections));
assert.eq(md5(r.collections.c + r.collections.cap + r.collections.same), r.md5);
// uuids are those listCollections reports.
const lc = assert.commandWorked(t.runCommand({listCollections: 1})).cursor.firstBatch;
for (const c of lc) assert.eq(c.info.uuid, r.uuids[c.name], c.name);
assert.eq(3, Object.keys(r.uuids).length);
assert.gte(toNumber(r.timeMillis), 0);
assert(/:\d+$/.test(r.host), r.host);

// The lowercase alias, and the filter (names that do not exist are absent).
let f = assert.commandWorked(t.runCommand({dbhash: 1, collections: ['c', 'nosuch']}));
assert.docEq({c: r.collections.c}, f.collections);
assert.eq([], f.capped);
assert.eq(md5(r.collections.c), f.md5);
// An empty list means every collection; a non-array is ignored.
assert.eq(r.md5, assert.commandWorked(t.runCommand({dbHash: 1, collections: []})).md5);
assert.eq(r.md5, assert.commandWorked(t.runCommand({dbHash: 1, collections: 'c'})).md5);

// Any change to a document changes the hash; restoring it restores the hash.
assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {_id: 1}, u: {$set: {b: 'y'}}}]}));
const changed = assert.commandWorked(t.runCommand({dbHash: 1, collections: ['c']})).collections.c;
assert.neq(r.collections.c, changed);
assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {_id: 1}, u: {$set: {b: 'x'}}}]}));
assert.eq(r.collections.c, assert.commandWorked(t.runCommand({dbHash: 1})).collections.c);

// system.profile is not replicated, so not hashed; other system collections are.
assert.commandWorked(t.runCommand({profile: 2}));
assert.commandWorked(t.runCommand({find: 'c', filter: {}}));
assert.commandWorked(t.runCommand({profile: 0}));
assert.commandWorked(t.runCommand({insert: 'system.js', documents: [{_id: 'f', value: 1}]}));
r = assert.commandWorked(t.runCommand({dbHash: 1}));
assert(!('system.profile' in r.collections), tojson(r.collections));
assert('system.js' in r.collections, tojson(r.collections));
// Nothing in local is hashed.
assert.docEq({}, assert.commandWorked(db.getSiblingDB('local').runCommand({dbHash: 1})).collections);

// Errors.
assert.commandFailedWithCode(runCmd(t, {dbHash: 1, collections: ['c', 5]}), 2 /* BadValue */);
assert.commandFailedWithCode(runCmd(t, {dbHash: ''}), 73 /* InvalidNamespace */);
assert.commandFailedWithCode(runCmd(t, {dbHash: 'c'}), 73);

t.dropDatabase();
