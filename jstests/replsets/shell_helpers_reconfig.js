// A set built and changed from mongosh's own helpers, as a user does (issue 10, point 2):
// rs.initiate() without a config, rs.reconfig (settings, priority: a priority takeover),
// rs.add (a data-bearing member that catches up from the set's first entry), rs.addArb,
// rs.remove, rs.status(), rs.conf(), rs.printReplicationInfo(),
// rs.printSecondaryReplicationInfo(), db.getReplicationInfo(), rs.stepDown(), rs.freeze();
// then the library's end checks.
load(__dirname + '/../lib/assert.js');
load(__dirname + '/../lib/replsettest.js');

const rst = new ReplSetTest({name: 'helpers', nodes: [{}, {}, {}, {arbiter: true}]});
rst.startSet();
const [h0, h1, h2, h3] = rst.hosts;
function useNode(i) {
  db = rst.nodes[i].getDB('test');
}
function stateOf(st, host) {
  const m = st.members.find((x) => x.name === host);
  return m ? m.stateStr : null;
}

// --- rs.initiate() with no config: this node alone, named localhost:<port> ---
print('[shell_helpers_reconfig] rs.initiate() with no config: this node alone, named localhost:<port>');
useNode(0);
const init = rs.initiate();
assert.eq(1, init.ok, tojson(init));
assert.eq(h0, init.me);
assert.soon(() => db.hello().isWritablePrimary, 'the one-member set elected no primary', 30000);
let conf = rs.conf();
assert.eq('helpers', conf._id);
assert.eq(1, conf.version);
assert.eq([h0], conf.members.map((m) => m.host));
assert.eq(10000, conf.settings.electionTimeoutMillis);

// --- rs.reconfig: shorter election timeout and heartbeat interval (keeps the test short) ---
print('[shell_helpers_reconfig] rs.reconfig: shorter election timeout and heartbeat interval (keeps the test short)');
conf.settings.electionTimeoutMillis = 2000;
conf.settings.heartbeatIntervalMillis = 500;
assert.commandWorked(rs.reconfig(conf));
conf = rs.conf();
assert.eq(2, conf.version);  // rs.reconfig sets version to the current one + 1
assert.eq(2000, conf.settings.electionTimeoutMillis);
// A stale version is refused (NewReplicaSetConfigurationIncompatible).
assert.commandFailedWithCode(runCmd(db.getSiblingDB('admin'), {replSetReconfig: Object.assign({}, conf, {version: 1})}), 103);

assert.commandWorked(db.c.insertMany([{_id: 1}, {_id: 2}, {_id: 3}]));

// --- rs.add: a new empty member replays the set's oplog from its first entry ---
print('[shell_helpers_reconfig] rs.add: a new empty member replays the sets oplog from its first entry');
assert.commandWorked(rs.add(h1));
rst.awaitSecondaryNodes(60000, [0, 1]);
assert.commandWorked(rs.add({host: h2, priority: 0}));
rst.awaitSecondaryNodes(60000, [0, 1, 2]);
assert.commandWorked(rs.addArb(h3));
rst.awaitSecondaryNodes(60000, [0, 1, 2, 3]);
conf = rs.conf();
assert.eq([h0, h1, h2, h3], conf.members.map((m) => m.host));
assert.eq([0, 1, 2, 3], conf.members.map((m) => m._id));
assert.eq(true, conf.members[3].arbiterOnly);
assert.eq(0, conf.members[2].priority);
assert.commandWorked(db.runCommand({insert: 'c', documents: [{_id: 4}], writeConcern: {w: 3, wtimeout: 30000}}));

// The primary learns the arbiter's state from its first heartbeat, which on a loaded machine
// may come after the w: 3 write (that waits for the data-bearing members only).
assert.soon(() => stateOf(rs.status(), h3) === 'ARBITER', 'the arbiter is seen as ARBITER', 30000);
let st = rs.status();
assert.eq('helpers', st.set);
assert.eq(1, st.myState);
assert.eq('PRIMARY', stateOf(st, h0));
assert.eq('SECONDARY', stateOf(st, h1));
assert.eq('SECONDARY', stateOf(st, h2));
assert.eq('ARBITER', stateOf(st, h3));
for (const m of st.members) assert.eq(1, m.health, tojson(m));

// --- the printing helpers and db.getReplicationInfo() ---
print('[shell_helpers_reconfig] the printing helpers and db.getReplicationInfo()');
const info = db.getReplicationInfo();
assert.eq(16, info.configuredLogSizeMB, tojson(info));
assert(info.tFirst && info.tLast && info.timeDiff >= 0, tojson(info));
const pri = rs.printReplicationInfo();
assert.eq('16 MB', pri.value['configured oplog size'], tojson(pri));
rst.awaitReplication();
const sec = rs.printSecondaryReplicationInfo();
assert.eq(['source: ' + h1, 'source: ' + h2], Object.keys(sec.value).sort(), tojson(sec));
for (const k of Object.keys(sec.value)) assert(/^0 secs/.test(sec.value[k].replLag), tojson(sec));
// On a secondary, printReplicationInfo still reports its own oplog.
useNode(1);
assert.eq('16 MB', rs.printReplicationInfo().value['configured oplog size']);
// On the arbiter (no oplog), MongoDB's shell says it cannot.
useNode(3);
// (mongosh's stats() also reads config.collections, which an arbiter refuses with 13436, as
// MongoDB's do; the driver then re-checks the server before the helper's hello.)
assert.eq('cannot provide replication status from an arbiter', rs.printReplicationInfo().value.message);

// --- rs.reconfig: priority 2 on member 1; it takes over (priority takeover) ---
print('[shell_helpers_reconfig] rs.reconfig: priority 2 on member 1; it takes over (priority takeover)');
useNode(0);
conf = rs.conf();
conf.members[1].priority = 2;
assert.commandWorked(rs.reconfig(conf));
assert.soon(() => rst.nodes[1].getDB('admin').runCommand({hello: 1}).isWritablePrimary,
            'member 1 with the highest priority did not take over', 60000);
rst.awaitSecondaryNodes();

// --- rs.freeze on member 2 (priority 0 anyway) and rs.stepDown on the primary: member 0 wins ---
print('[shell_helpers_reconfig] rs.freeze on member 2 (priority 0 anyway) and rs.stepDown on the primary: member 0 wins');
useNode(0);
assert.commandWorked(rs.freeze(30));
useNode(0);
assert.commandWorked(rs.freeze(0));
useNode(1);
assert.commandWorked(rs.stepDown(10, 5));
assert.soon(() => rst.nodes[0].getDB('admin').runCommand({hello: 1}).isWritablePrimary, 'member 0 did not take over', 30000);
// A secondary refuses to step down; a frozen primary cannot be frozen.
useNode(1);
assert.commandFailedWithCode(runCmd(db.getSiblingDB('admin'), {replSetStepDown: 60}), 10107);
useNode(0);
assert.commandFailedWithCode(runCmd(db.getSiblingDB('admin'), {replSetFreeze: 10}), 95);
// After its 10 s step-down period member 1 (priority 2) takes over again.
assert.soon(() => rst.nodes[1].getDB('admin').runCommand({hello: 1}).isWritablePrimary,
            'member 1 did not take over again after its step-down period', 60000);

// --- rs.remove: member 2 leaves; it knows it was removed ---
print('[shell_helpers_reconfig] rs.remove: member 2 leaves; it knows it was removed');
useNode(1);
assert.commandWorked(rs.remove(h2));
conf = rs.conf();
assert.eq([h0, h1, h3], conf.members.map((m) => m.host));
assert.soon(() => {
  const h = rst.nodes[2].getDB('admin').runCommand({hello: 1});
  return !h.secondary && !h.isWritablePrimary;
}, 'the removed member still acts as a member', 30000);
st = rs.status();
assert.eq(null, stateOf(st, h2));
assert.commandWorked(db.runCommand({insert: 'c', documents: [{_id: 5}], writeConcern: {w: 'majority', wtimeout: 30000}}));
assert.eq(5, rst.nodes[0].getDB('test').c.countDocuments({}));

// The removed member keeps its data but is out of the set: stop it before the end checks.
rst.stop(2);
rst.stopSet();
