// One rule for every option: a command refuses a field it does not know with 40415
// "BSON field '<struct>.<field>' is an unknown field." (the struct name MongoDB 7.0's parser
// reports), accepts MongoDB's generic arguments everywhere, and checks the fields of write
// statements and cursor specs the same way. Commands MongoDB itself parses leniently (hello,
// ping, serverStatus...) read what they know.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_unknown_fields');
const admin = t.getSiblingDB('admin');
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 1, a: 1}]}));

function unknown(database, cmd, path) {
  const r = assert.commandFailedWithCode(runCmd(database, cmd), 40415, tojson(cmd));
  assert.eq("BSON field '" + path + "' is an unknown field.", r.errmsg, tojson(cmd));
  assert.eq('Location40415', r.codeName);
}

// Every strict command, with the name MongoDB's parser uses. The check comes before the command
// runs: shutdown, dropDatabase and killAllSessions do nothing here.
const strict = [
  [t, {find: 'c'}, 'FindCommandRequest'],
  [t, {getMore: NumberLong(1), collection: 'c'}, 'getMore'],
  [t, {killCursors: 'c', cursors: []}, 'killCursors'],
  [t, {aggregate: 'c', pipeline: [], cursor: {}}, 'aggregate'],
  [t, {count: 'c'}, 'count'],
  [t, {distinct: 'c', key: 'a'}, 'distinct'],
  [t, {insert: 'c', documents: [{}]}, 'insert'],
  [t, {update: 'c', updates: [{q: {}, u: {}}]}, 'update'],
  [t, {delete: 'c', deletes: [{q: {}, limit: 1}]}, 'delete'],
  [t, {findAndModify: 'c', remove: true}, 'findAndModify'],
  [t, {findandmodify: 'c', remove: true}, 'findAndModify'],
  [t, {explain: {find: 'c'}}, 'explain'],
  [t, {create: 'x'}, 'create'],
  [t, {drop: 'x'}, 'drop'],
  [t.getSiblingDB('jstests_unknown_fields_scratch'), {dropDatabase: 1}, 'dropDatabase'],
  [admin, {renameCollection: t.getName() + '.c', to: t.getName() + '.d'}, 'renameCollection'],
  [t, {listCollections: 1}, 'listCollections'],
  [admin, {listDatabases: 1}, 'listDatabases'],
  [t, {createIndexes: 'c', indexes: [{key: {a: 1}, name: 'a_1'}]}, 'createIndexes'],
  [t, {listIndexes: 'c'}, 'listIndexes'],
  [t, {dropIndexes: 'c', index: 'a_1'}, 'dropIndexes'],
  [t, {deleteIndexes: 'c', index: 'a_1'}, 'dropIndexes'],
  [t, {compact: 'c'}, 'compact'],
  [t, {validate: 'c'}, 'validate'],
  [t, {dbStats: 1}, 'dbStats'],
  [t, {profile: -1}, 'profile'],
  [admin, {shutdown: 1}, 'shutdown'],
  [admin, {fsync: 1}, 'fsync'],
  [admin, {getDefaultRWConcern: 1}, 'getDefaultRWConcern'],
  [admin, {setFeatureCompatibilityVersion: '7.0', confirm: true}, 'setFeatureCompatibilityVersion'],
  [t, {connectionStatus: 1}, 'connectionStatus'],
  [admin, {killAllSessions: []}, 'KillAllSessionsCmd'],
  [admin, {killAllSessionsByPattern: []}, 'KillAllSessionsByPatternCmd'],
];
for (const [database, cmd, struct] of strict) {
  unknown(database, Object.assign({}, cmd, {bogusField: 1}), struct + '.bogusField');
}
assert.eq([1], t.c.find().toArray().map((d) => d._id), 'no refused command ran');
assert(admin.runCommand({ping: 1}).ok, 'the server is still up');

// Fields of other MongoDB versions are unknown to 7.0's parser: maxScan (removed in 4.2),
// distinct's hint (7.1), an update statement's sort (8.0), the IDL's internal fields.
unknown(t, {find: 'c', maxScan: 10}, 'FindCommandRequest.maxScan');
unknown(t, {distinct: 'c', key: 'a', hint: {a: 1}}, 'distinct.hint');
unknown(t, {update: 'c', updates: [{q: {}, u: {$set: {a: 2}}, sort: {a: 1}}]}, 'update.updates.sort');
unknown(t, {update: 'c', updates: [{q: {}, u: {$set: {a: 2}}, bogus: 1}]}, 'update.updates.bogus');
unknown(t, {delete: 'c', deletes: [{q: {}, limit: 0, sort: {a: 1}}]}, 'delete.deletes.sort');
unknown(t, {aggregate: 'c', pipeline: [], cursor: {batchSize: 1, bogus: 1}}, 'aggregate.cursor.bogus');
unknown(t, {aggregate: 'c', pipeline: [], cursor: {}, fromMongos: true}, 'aggregate.fromMongos');
unknown(t, {insert: 'c', documents: [{}], isTimeseriesNamespace: true}, 'insert.isTimeseriesNamespace');
unknown(t, {create: 'x', recordPreImages: true}, 'create.recordPreImages');
// A statement error fails the whole command before any statement runs.
assert.eq(1, t.c.findOne({_id: 1}).a);
// Generic arguments are not statement fields.
unknown(t, {delete: 'c', deletes: [{q: {}, limit: 0, comment: 'x'}]}, 'delete.deletes.comment');

// Generic arguments pass on every command.
const generic = {comment: {why: 'test'}, maxTimeMS: 60000, $readPreference: {mode: 'primary'}, apiVersion: '1',
                 lsid: {id: UUID()}, readConcern: {level: 'local'}};
assert.commandWorked(t.runCommand(Object.assign({find: 'c'}, generic)));
assert.commandWorked(t.runCommand(Object.assign({count: 'c'}, generic)));
assert.commandWorked(t.runCommand(Object.assign({insert: 'c', documents: [{_id: 2}], writeConcern: {w: 1}}, generic)));
assert.commandWorked(t.runCommand(Object.assign({listIndexes: 'c'}, generic)));
// ... which readPreference without '$' is not.
unknown(t, {find: 'c', readPreference: {mode: 'primary'}}, 'FindCommandRequest.readPreference');

// find's flags that change nothing on a standalone server are accepted, as by MongoDB 7.0.
assert.commandWorked(t.runCommand({find: 'c', allowPartialResults: true, oplogReplay: true, readOnce: true}));
assert.commandFailedWithCode(runCmd(t, {find: 'c', readOnce: 'yes'}), 14);
// Options that ask for what this server cannot do are refused, not ignored.
assert.commandFailedWithCode(runCmd(t, {validate: 'c', repair: true}), 72);
assert.commandWorked(t.runCommand({validate: 'c', repair: false}));
{
    // freeStorage: 1 reports the free space inside the files (real figures, see
    // jstests/core/free_storage_and_auto_compact.js); freeStorage: 0 leaves them out.
    const withFree = assert.commandWorked(t.runCommand({dbStats: 1, freeStorage: 1}));
    assert(withFree.hasOwnProperty('freeStorageSize') && withFree.hasOwnProperty('totalFreeStorageSize'), withFree);
    const without = assert.commandWorked(t.runCommand({dbStats: 1, freeStorage: 0}));
    assert(!without.hasOwnProperty('freeStorageSize'), without);
}
assert.commandFailedWithCode(runCmd(t, {listIndexes: 'c', includeIndexBuildInfo: true}), 72);
assert.commandFailedWithCode(runCmd(t, {createIndexes: 'c', indexes: [{key: {b: 1}, name: 'b_1'}],
                                        commitQuorum: 'majority'}), 2 /* Standalones can't specify commitQuorum */);
assert.commandFailedWithCode(runCmd(t, {create: 'x', clusteredIndex: {key: {_id: 1}, unique: true}}), 72);
assert.commandFailedWithCode(runCmd(t, {create: 'x', storageEngine: {wiredTiger: {configString: 'x'}}}), 72);
assert.commandWorked(t.runCommand({create: 'x', storageEngine: {}, idIndex: {key: {_id: 1}, name: '_id_'}}));
// The _id index shows beside the options, not in them (as MongoDB's listCollections).
const xInfo = t.getCollectionInfos({name: 'x'})[0];
assert.eq({storageEngine: {}}, xInfo.options);
assert.eq({v: 2, key: {_id: 1}, name: '_id_'}, xInfo.idIndex);
// renameCollection's dropTarget is a boolean for clients (a UUID is applyOps' form).
assert.commandFailedWithCode(runCmd(admin, {renameCollection: t.getName() + '.c', to: t.getName() + '.d',
                                            dropTarget: UUID()}), 14);
assert.eq(1, t.c.countDocuments({_id: 1}));
// createIndexes' ignoreUnknownIndexOptions drops unknown spec fields instead of refusing them.
assert.commandFailedWithCode(runCmd(t, {createIndexes: 'c', indexes: [{key: {b: 1}, name: 'b_1', bogus: 1}]}), 197);
assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {b: 1}, name: 'b_1', bogus: 1}],
                                   ignoreUnknownIndexOptions: true}));
const b1 = t.c.getIndexes().filter((i) => i.name === 'b_1')[0];
assert.eq(undefined, b1.bogus, tojson(b1));

// Lenient commands: MongoDB 7.0 ignores what it does not know there too.
assert.commandWorked(t.runCommand({ping: 1, bogusField: 1}));
assert.commandWorked(t.runCommand({hello: 1, bogusField: 1}));
assert.commandWorked(t.runCommand({buildInfo: 1, bogusField: 1}));

// help: true describes the command instead of running it.
let r = assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 99}], help: true}));
assert(/^help for: insert /.test(r.help), tojson(r));
assert.eq(null, t.c.findOne({_id: 99}));

print('unknown_fields.js OK');
