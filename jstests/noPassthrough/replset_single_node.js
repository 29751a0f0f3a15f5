// A one-member replica set from mongosh (issue 10, milestone 1): rs.initiate(), rs.status(),
// rs.conf(), writes recorded in local.oplog.rs in MongoDB 7.0's format and order, read with a
// tailable cursor, and everything surviving a restart (the mongosh twin of
// tests/pymongo/test_replica_set.py).
load(__dirname + '/../lib/assert.js');
load(__dirname + '/../lib/mongod_runner.js');

const m = MongodRunner.start({args: ['--replSet', 'rs0', '--oplogSize', '16']});
db = m.conn.getDB('test');

// Before rs.initiate(): no config, no writes.
assert.commandFailedWithCode(() => db.adminCommand({replSetGetStatus: 1}), 94);
assert.commandFailedWithCode(runCmd(db, {insert: 'c', documents: [{x: 1}]}), 10107);
assert.eq(false, db.hello().isWritablePrimary);

const init = rs.initiate();
assert.eq(1, init.ok, tojson(init));
assert.eq('localhost:' + m.port, init.me);
assert.commandFailedWithCode(() => db.adminCommand({replSetInitiate: {}}), 23);

const hello = db.hello();
assert.eq('rs0', hello.setName);
assert.eq(true, hello.isWritablePrimary);
assert.eq(['localhost:' + m.port], hello.hosts);
assert.eq(hello.me, hello.primary);

const st = rs.status();
assert.eq('rs0', st.set);
assert.eq(1, st.myState);
assert.eq(1, st.members.length);
assert.eq('PRIMARY', st.members[0].stateStr);
assert.eq(true, st.members[0].self);

const conf = rs.conf();
assert.eq('rs0', conf._id);
assert.eq(1, conf.version);
assert.eq('localhost:' + m.port, conf.members[0].host);
assert.eq(10000, conf.settings.electionTimeoutMillis);

// One entry per write, in order, in MongoDB's format.
const oplog = db.getSiblingDB('local').oplog.rs;
const start = oplog.find().sort({$natural: -1}).limit(1).next().ts;
assert.commandWorked(runCmd(db, {insert: 'c', documents: [{_id: 1, a: 'x'.repeat(40), n: 1}]}));
assert.commandWorked(runCmd(db, {update: 'c', updates: [{q: {_id: 1}, u: {$inc: {n: 1}}}]}));
assert.commandWorked(runCmd(db, {delete: 'c', deletes: [{q: {_id: 1}, limit: 1}]}));
// A tailable cursor never ends: read until the four entries are in.
const cursor = oplog.find({ts: {$gt: start}}).tailable({awaitData: true});
const entries = [];
assert.soon(() => {
  const e = cursor.tryNext();
  if (e) entries.push(e);
  return entries.length === 4;
}, 'tailable cursor did not return the writes', 10000, 1);
assert.eq(null, cursor.tryNext());
assert.eq(['c', 'i', 'u', 'd'], entries.map((e) => e.op), tojson(entries));
assert.eq({create: 'c', idIndex: {v: 2, key: {_id: 1}, name: '_id_'}}, entries[0].o);
assert.eq({_id: 1}, entries[1].o2);
assert.eq({$v: 2, diff: {u: {n: 2}}}, entries[2].o);
assert.eq({_id: 1}, entries[3].o);
for (const e of entries) {
  assert.eq('test', e.ns.split('.')[0]);
  assert.eq(1, Number(e.t));
  assert.eq(2, Number(e.v));
}

// mongosh's replication helpers read the oplog's size and time span.
const info = db.getReplicationInfo();
assert.eq(16, info.logSizeMB, tojson(info));
assert(info.tFirst && info.tLast, tojson(info));

// The set, its oplog and its data survive a restart; the node is primary again, in term 2.
m.restart();
db = m.conn.getDB('test');
assert.eq(1, rs.status().myState);
assert.eq(2, Number(rs.status().term));
assert.eq(entries, db.getSiblingDB('local').oplog.rs.find({ts: {$gt: start}}).limit(4).toArray());
assert.commandWorked(runCmd(db, {insert: 'c', documents: [{_id: 2}]}));
m.stop();
