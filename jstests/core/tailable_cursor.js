// Tailable and awaitData cursors on capped collections (MongoDB 7.0): the cursor stays open at
// the end of the collection and returns later inserts in insertion order; the refused option
// combinations and their codes; an awaitData getMore waits up to its maxTimeMS and returns an
// empty batch with the cursor open; CappedPositionLost when the collection rolled over past the
// cursor; QueryPlanKilled when it was dropped. Waiting for an insert from another client,
// killCursors/killOp/disconnect/shutdown during a wait: tests/pymongo/test_tailable.py.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_tailable_cursor');
const ids = (docs) => docs.map((d) => d._id);

// ---- Refused combinations ----
assert.commandWorked(t.runCommand({insert: 'plain', documents: [{_id: 1}]}));
let res = assert.commandFailedWithCode(runCmd(t, {find: 'plain', tailable: true}), 2 /* BadValue */);
assert(res.errmsg.startsWith('error processing query: ns=jstests_tailable_cursor.plainTree: $and\n'), res.errmsg);
assert(res.errmsg.endsWith(' tailable cursor requested on non capped collection'), res.errmsg);
assert.commandFailedWithCode(runCmd(t, {find: 'plain', tailable: true, awaitData: true}), 2);
res = assert.commandFailedWithCode(runCmd(t, {find: 'plain', awaitData: true}), 9 /* FailedToParse */);
assert.eq("Cannot set 'awaitData' without also setting 'tailable'", res.errmsg);

assert.commandWorked(t.createCollection('cap', {capped: true, size: 4096}));
res = assert.commandFailedWithCode(runCmd(t, {find: 'cap', tailable: true, sort: {x: 1}}), 2);
assert.eq('cannot use tailable option with a sort other than {$natural: 1}', res.errmsg);
assert.commandFailedWithCode(runCmd(t, {find: 'cap', tailable: true, sort: {$natural: -1}}), 2);
res = assert.commandFailedWithCode(runCmd(t, {find: 'cap', tailable: true, singleBatch: true}), 2);
assert.eq("cannot use tailable option with the 'singleBatch' option", res.errmsg);

// ---- No cursor on a missing or empty collection (MongoDB: id 0 at once) ----
res = assert.commandWorked(t.runCommand({find: 'missing', tailable: true, awaitData: true, batchSize: 0}));
assert.eq(0, res.cursor.id);
assert.eq([], res.cursor.firstBatch);
res = assert.commandWorked(t.runCommand({find: 'cap', tailable: true}));
assert.eq(0, res.cursor.id);
assert.eq('jstests_tailable_cursor.cap', res.cursor.ns);

// ---- Tailing: later getMores return what was inserted since, in insertion order ----
assert.commandWorked(t.runCommand({insert: 'cap', documents: [{_id: 1}, {_id: 2}, {_id: 3}]}));
res = assert.commandWorked(t.runCommand({find: 'cap', tailable: true, batchSize: 2}));
const cid = res.cursor.id;
assert.neq(0, cid);
assert.eq([1, 2], ids(res.cursor.firstBatch));
let more = assert.commandWorked(t.runCommand({getMore: cid, collection: 'cap'}));
assert.eq([3], ids(more.cursor.nextBatch));
assert.eq(cid.toString(), more.cursor.id.toString(), 'open at the end of the collection');
more = assert.commandWorked(t.runCommand({getMore: cid, collection: 'cap'}));
assert.eq([], more.cursor.nextBatch);
assert.eq(cid.toString(), more.cursor.id.toString());
assert.commandWorked(t.runCommand({insert: 'cap', documents: [{_id: 'a'}, {_id: 0}]}));
assert.commandWorked(t.runCommand({insert: 'cap', documents: [{_id: -5}]}));
more = assert.commandWorked(t.runCommand({getMore: cid, collection: 'cap', batchSize: 2}));
assert.eq(['a', 0], ids(more.cursor.nextBatch), 'natural order, not _id order');
more = assert.commandWorked(t.runCommand({getMore: cid, collection: 'cap'}));
assert.eq([-5], ids(more.cursor.nextBatch));
// maxTimeMS on a getMore is only for awaitData cursors (and the cursor survives the refusal).
res = assert.commandFailedWithCode(runCmd(t, {getMore: cid, collection: 'cap', maxTimeMS: 100}), 2);
assert.eq('cannot set maxTimeMS on getMore command for a non-awaitData cursor', res.errmsg);
assert.commandWorked(t.runCommand({getMore: cid, collection: 'cap'}));
assert.eq([cid], assert.commandWorked(t.runCommand({killCursors: 'cap', cursors: [cid]})).cursorsKilled);

// A filter that matches nothing keeps the cursor open; {$natural: 1} is the one sort allowed;
// an index hint is no error but no index is used (tailable cursors always scan).
res = assert.commandWorked(t.runCommand({find: 'cap', filter: {x: 1}, tailable: true, sort: {$natural: 1},
                                         hint: {_id: 1}}));
assert.neq(0, res.cursor.id);
assert.eq([], res.cursor.firstBatch);
assert.commandWorked(t.runCommand({insert: 'cap', documents: [{_id: 'y', x: 1}, {_id: 'n', x: 2}]}));
more = assert.commandWorked(t.runCommand({getMore: res.cursor.id, collection: 'cap'}));
assert.eq(['y'], ids(more.cursor.nextBatch));
assert.commandWorked(t.runCommand({killCursors: 'cap', cursors: [res.cursor.id]}));
const plan = assert.commandWorked(t.runCommand({explain: {find: 'cap', tailable: true, hint: {_id: 1}}}));
assert.eq('COLLSCAN', plan.queryPlanner.winningPlan.stage);

// ---- The shell's cursor API: find().tailable() ----
let cur = t.cap.find({}, {_id: 1}).tailable();
cur.disableBlockWarnings();  // mongosh warns that next() on a tailable cursor may block
const first = [];
for (let i = 0; i < 8; i++) first.push(cur.next()._id);
assert.eq([1, 2, 3, 'a', 0, -5, 'y', 'n'], first);
assert.eq(null, cur.tryNext(), 'nothing new yet');
assert(!cur.isClosed(), 'the tailable cursor stays open');
assert.commandWorked(t.cap.insertOne({_id: 'later'}));
assert.eq({_id: 'later'}, cur.tryNext());
cur.close();

// ---- awaitData: a getMore at the end waits up to its maxTimeMS, then returns an empty batch ----
cur = t.cap.find().tailable({awaitData: true});
cur.disableBlockWarnings();
assert.eq(1, cur.next()._id);
cur.close();
res = assert.commandWorked(t.runCommand({find: 'cap', tailable: true, awaitData: true, maxTimeMS: 60000}));
const aid = res.cursor.id;
assert.neq(0, aid);
let t0 = Date.now();
more = assert.commandWorked(t.runCommand({getMore: aid, collection: 'cap', maxTimeMS: 250}));
assert.gte(Date.now() - t0, 200, 'the getMore waited for inserts');
assert.eq([], more.cursor.nextBatch);
assert.eq(aid.toString(), more.cursor.id.toString());
// Data already there: no wait.
assert.commandWorked(t.cap.insertOne({_id: 'now'}));
t0 = Date.now();
more = assert.commandWorked(t.runCommand({getMore: aid, collection: 'cap', maxTimeMS: 20000}));
assert.eq(['now'], ids(more.cursor.nextBatch));
assert.lt(Date.now() - t0, 10000);
assert.commandWorked(t.runCommand({killCursors: 'cap', cursors: [aid]}));

// ---- CappedPositionLost: the collection rolled over past the cursor, which then is gone ----
assert.commandWorked(t.createCollection('small', {capped: true, size: 1 << 20, max: 3}));
assert.commandWorked(t.runCommand({insert: 'small', documents: [{_id: 0}, {_id: 1}, {_id: 2}]}));
res = assert.commandWorked(t.runCommand({find: 'small', tailable: true, batchSize: 1}));
assert.eq([0], ids(res.cursor.firstBatch));
const docs = [];
for (let i = 3; i < 9; i++) docs.push({_id: i});
assert.commandWorked(t.runCommand({insert: 'small', documents: docs}));
assert.eq([6, 7, 8], ids(t.small.find().toArray()));
res = assert.commandFailedWithCode(runCmd(t, {getMore: res.cursor.id, collection: 'small'}), 136);
assert(res.errmsg.startsWith('CollectionScan died due to position in capped collection being deleted.'),
       res.errmsg);
// A plain (non-tailable) scan of a capped collection is held to its position the same way.
res = assert.commandWorked(t.runCommand({find: 'small', batchSize: 1}));
assert.commandWorked(t.runCommand({insert: 'small', documents: [{_id: 9}, {_id: 10}, {_id: 11}]}));
assert.commandFailedWithCode(runCmd(t, {getMore: res.cursor.id, collection: 'small'}), 136);
assert.commandFailedWithCode(runCmd(t, {getMore: res.cursor.id, collection: 'small'}), 43);

// ---- Dropped collection: QueryPlanKilled, then the cursor is gone ----
res = assert.commandWorked(t.runCommand({find: 'small', tailable: true, awaitData: true}));
assert(t.small.drop());
assert.commandWorked(t.createCollection('small', {capped: true, size: 4096}));
assert.commandFailedWithCode(runCmd(t, {getMore: res.cursor.id, collection: 'small'}), 175);
assert.commandFailedWithCode(runCmd(t, {getMore: res.cursor.id, collection: 'small'}), 43);

t.dropDatabase();
