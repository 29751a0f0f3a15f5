// Collection and database DDL: create, drop, dropDatabase, listCollections, listDatabases,
// renameCollection, with reply shapes and error codes.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_collections');
const admin = db.getSiblingDB('admin');

// --- create
assert.commandWorked(t.runCommand({create: 'a'}));
assert.commandWorked(t.runCommand({create: 'a'}), 'create with identical options is a no-op success in 7.0');
assert.commandFailedWithCode(runCmd(t, {create: 'a', capped: true, size: 4096}), 48 /* NamespaceExists */);
assert.commandFailedWithCode(runCmd(t, {create: ''}), 73 /* InvalidNamespace */);
assert.commandFailedWithCode(runCmd(t, {create: 'bad$name'}), 73);
assert.commandFailedWithCode(runCmd(t, {create: 5}), 73 /* collection name of the wrong type */);
assert.commandFailedWithCode(runCmd(t, {create: 'b', nosuchoption: 1}), 40415 /* unknown field */);
assert.commandWorked(t.runCommand({create: 'b'}));

// --- listCollections
let r = assert.commandWorked(t.runCommand({listCollections: 1}));
assert.eq(0, r.cursor.id);
assert.eq('jstests_collections.$cmd.listCollections', r.cursor.ns);
const names = r.cursor.firstBatch.map((c) => c.name).sort();
assert.eq(['a', 'b'], names);
const entry = r.cursor.firstBatch.find((c) => c.name === 'a');
assert.eq('collection', entry.type);
assert.docEq({}, entry.options);
assert.eq(false, entry.info.readOnly);
assert.eq(4, entry.info.uuid.sub_type, 'info.uuid is a UUID');
assert.docEq({v: 2, key: {_id: 1}, name: '_id_'}, entry.idIndex);
r = assert.commandWorked(t.runCommand({listCollections: 1, nameOnly: true}));
assert.docEq({name: 'a', type: 'collection'}, r.cursor.firstBatch.find((c) => c.name === 'a'));
r = assert.commandWorked(t.runCommand({listCollections: 1, filter: {name: 'b'}}));
assert.eq(['b'], r.cursor.firstBatch.map((c) => c.name));
r = assert.commandWorked(t.runCommand({listCollections: 1, filter: {name: {$regex: '^z'}}}));
assert.eq([], r.cursor.firstBatch);
r = assert.commandWorked(t.runCommand({listCollections: 1, cursor: {batchSize: 1}}));
assert.eq(1, r.cursor.firstBatch.length);
assert.eq(2, allDocs(t, r).length);
// A database with no collections lists nothing.
assert.eq([], assert.commandWorked(db.getSiblingDB('jstests_collections_empty').runCommand({listCollections: 1})).cursor.firstBatch);
assert.sameMembers(['a', 'b'], t.getCollectionNames());

// --- drop
assert.commandWorked(t.runCommand({insert: 'a', documents: [{x: 1}]}));
r = assert.commandWorked(t.runCommand({drop: 'a'}));
assert.eq(1, r.nIndexesWas);
assert.eq('jstests_collections.a', r.ns);
assert.eq(['b'], t.getCollectionNames());
assert.commandWorked(t.runCommand({drop: 'a'}), 'dropping a missing collection succeeds in 7.0');
assert.eq(0, t.a.countDocuments({}));
assert.eq(true, t.b.drop());

// --- listDatabases and dropDatabase
assert.commandWorked(t.runCommand({insert: 'c', documents: [{x: 1}]}));
r = assert.commandWorked(admin.runCommand({listDatabases: 1}));
let mine = r.databases.find((d) => d.name === 'jstests_collections');
assert(mine, 'listDatabases lists the database: ' + tojson(r));
assert.eq(false, mine.empty);
assert(isNumber(mine.sizeOnDisk), tojson(mine));
assert.hasFields(r, ['totalSize', 'totalSizeMb']);
assert(!r.databases.some((d) => d.name === 'jstests_collections_empty'), 'a database without collections is not listed');
r = assert.commandWorked(admin.runCommand({listDatabases: 1, nameOnly: true}));
mine = r.databases.find((d) => d.name === 'jstests_collections');
assert.docEq({name: 'jstests_collections'}, mine);
r = assert.commandWorked(admin.runCommand({listDatabases: 1, filter: {name: 'jstests_collections'}}));
assert.eq(['jstests_collections'], r.databases.map((d) => d.name));
assert.contains('jstests_collections', db.getMongo().getDBNames());

assert.commandWorked(t.runCommand({dropDatabase: 1}));
assert.eq([], t.getCollectionNames());
r = assert.commandWorked(admin.runCommand({listDatabases: 1, nameOnly: true}));
assert(!r.databases.some((d) => d.name === 'jstests_collections'), 'dropped database is gone');
assert.commandWorked(t.runCommand({dropDatabase: 1}), 'dropping a missing database succeeds');

// --- renameCollection
assert.commandWorked(t.runCommand({insert: 'src', documents: [{_id: 1}, {_id: 2}]}));
assert.commandWorked(t.runCommand({createIndexes: 'src', indexes: [{key: {a: 1}, name: 'a_1'}]}));
assert.commandWorked(admin.runCommand({renameCollection: 'jstests_collections.src', to: 'jstests_collections.dst'}));
assert.eq(['dst'], t.getCollectionNames());
assert.eq(2, t.dst.countDocuments({}));
assert.sameMembers(['_id_', 'a_1'], t.dst.getIndexes().map((i) => i.name), 'indexes move with the collection');
// Target exists.
assert.commandWorked(t.runCommand({insert: 'other', documents: [{_id: 'o'}]}));
assert.commandFailedWithCode(runCmd(admin, {renameCollection: 'jstests_collections.dst', to: 'jstests_collections.other'}),
                             48 /* NamespaceExists */);
assert.commandWorked(admin.runCommand({renameCollection: 'jstests_collections.dst', to: 'jstests_collections.other',
                                       dropTarget: true}));
assert.eq(['other'], t.getCollectionNames());
assert.eq(2, t.other.countDocuments({}));
// Source missing.
assert.commandFailedWithCode(runCmd(admin, {renameCollection: 'jstests_collections.nosuch', to: 'jstests_collections.x'}),
                             26 /* NamespaceNotFound */);
// Only against admin.
assert.commandFailedWithCode(runCmd(t, {renameCollection: 'jstests_collections.other', to: 'jstests_collections.x'}),
                             13 /* Unauthorized */);
// Invalid target name.
assert.commandFailedWithCode(runCmd(admin, {renameCollection: 'jstests_collections.other', to: 'jstests_collections.'}), 73);
// Across databases.
const t2 = testDB('jstests_collections_2');
assert.commandWorked(admin.runCommand({renameCollection: 'jstests_collections.other', to: 'jstests_collections_2.moved'}));
assert.eq(2, t2.moved.countDocuments({}));
assert.eq([], t.getCollectionNames());
// The shell helper.
assert.commandWorked(t2.moved.renameCollection('moved2'));
assert.eq(['moved2'], t2.getCollectionNames());
t2.dropDatabase();
t.dropDatabase();
print('collections.js OK');
