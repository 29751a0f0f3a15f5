// Members prove themselves with a key file (issue 17, point 5; issue 10): three members started
// with the same --keyFile (which turns on --auth) are initiated through the localhost exception,
// elect a primary and replicate, every connection between them authenticated as __system with
// SCRAM-SHA-256 (src/mongo/db/repl/remote_client.cpp). A client without credentials is refused
// every internal replication command with Unauthorized (13). A member with another key cannot
// join: the others see it unhealthy with an authentication error, and it logs the refusals. A
// member whose key file holds two keys (MongoDB's YAML list), one of them the set's, joins.
load(__dirname + '/../lib/assert.js');
load(__dirname + '/../lib/replsettest.js');
const fs = require('fs');
const path = require('path');

const dir = MongodRunner.tempDir('keyfile-');
function writeKey(name, key) {
  const p = path.join(dir, name);
  fs.writeFileSync(p, key + '\n', {mode: 0o600});
  return p;
}
const good = 'c2VjcmV0S2V5Rm9yVGhlU2V0MDEyMzQ1Njc4OQ==';
const goodKey = writeKey('good.key', good);
const badKey = writeKey('bad.key', 'YW5vdGhlcktleVRoYXRJc1dyb25nOTg3NjU0MzIx');
// MongoDB's YAML form with several keys (key rollover): a member tries its keys in order and
// accepts any, so it needs only one key in common with the others.
const rolloverKey = writeKey('rollover.key', '- bmV3S2V5Tm9ib2R5RWxzZUhhczEyMzQ1Njc4\n- ' + good);

const rst = new ReplSetTest({name: 'authset', nodes: 3, keyFile: goodKey,
                             settings: {electionTimeoutMillis: 2000, heartbeatIntervalMillis: 500}});
rst.startSet();

// A client without credentials, from localhost.
function anon(i) {
  return new Mongo('mongodb://127.0.0.1:' + rst.ports[i] + '/?directConnection=true&serverSelectionTimeoutMS=5000');
}
const anon0 = anon(0);
assert.commandFailedWithCode(runCmd(anon0.getDB('admin'), {replSetGetStatus: 1}), 13);

// The localhost exception lets the set be initiated before any user exists (no user can be
// created before: the node is not primary yet).
assert.commandWorked(anon0.getDB('admin').runCommand({replSetInitiate: rst.getReplSetConfig()}));
const primary = rst.getPrimary();
rst.awaitSecondaryNodes();
const p = rst.idx(primary);
const anonP = anon(p);

// Unauthenticated: data and every internal replication command are refused.
const refused = [
  ['test', {find: 'c'}],
  ['test', {insert: 'c', documents: [{_id: 'x'}]}],
  ['local', {find: 'oplog.rs'}],
  ['admin', {replSetGetStatus: 1}],
  ['admin', {replSetGetConfig: 1}],
  ['admin', {replSetHeartbeat: 'authset', configVersion: 1, from: 'localhost:1', fromId: 9, term: 1}],
  ['admin', {replSetRequestVotes: 1, setName: 'authset', dryRun: true, term: 99, candidateIndex: 1, configVersion: 1,
             lastAppliedOpTime: {ts: Timestamp(1, 1), t: 1}}],
  ['admin', {replSetUpdatePosition: 1, optimes: []}],
  ['admin', {replSetStepDown: 60}],
  ['admin', {_isSelf: 1}],
];
for (const [dbName, cmd] of refused) {
  assert.commandFailedWithCode(runCmd(anonP.getDB(dbName), cmd), 13, tojson(cmd));
}
assert.eq(true, anonP.getDB('admin').runCommand({hello: 1}).isWritablePrimary);

// The first user, through the localhost exception on the primary; then nothing more without it.
assert.commandWorked(anonP.getDB('admin').runCommand({createUser: 'root', pwd: 'pw', roles: ['root']}));
assert.commandFailedWithCode(runCmd(anonP.getDB('admin'), {createUser: 'other', pwd: 'pw', roles: []}), 13);

// As that user: majority writes replicate to both secondaries (through authenticated links).
const user = (i) => new Mongo('mongodb://root:pw@127.0.0.1:' + rst.ports[i] +
                              '/?directConnection=true&authSource=admin&serverSelectionTimeoutMS=5000');
const userP = user(p);
assert.commandWorked(userP.getDB('test').runCommand(
    {insert: 'c', documents: [{_id: 1}, {_id: 2}], writeConcern: {w: 3, wtimeout: 30000}}));
for (let i = 0; i < 3; i++) {
  const c = user(i);
  assert.eq(2, c.getDB('test').c.countDocuments({}), 'member ' + i);
  // The user was replicated too: it authenticates on every member.
  assert.eq('root', c.getDB('admin').runCommand({connectionStatus: 1}).authInfo.authenticatedUsers[0].user);
}
// Change streams need changeStream + find on what they watch (a read role has both).
assert.commandWorked(userP.getDB('test').runCommand(
    {createUser: 'reader', pwd: 'pw', roles: [{role: 'read', db: 'test'}], writeConcern: {w: 3, wtimeout: 30000}}));
assert.commandWorked(userP.getDB('test').runCommand(
    {createUser: 'nobody', pwd: 'pw', roles: [], writeConcern: {w: 3, wtimeout: 30000}}));
const as = (name) => new Mongo('mongodb://' + name + ':pw@127.0.0.1:' + rst.ports[p] +
                               '/?directConnection=true&authSource=test&serverSelectionTimeoutMS=5000');
const watch = {aggregate: 'c', pipeline: [{$changeStream: {}}], cursor: {}};
assert.commandWorked(as('reader').getDB('test').runCommand(watch));
assert.commandFailedWithCode(runCmd(as('nobody').getDB('test'), watch), 13);
assert.commandFailedWithCode(
    runCmd(as('reader').getDB('admin'), {aggregate: 1, pipeline: [{$changeStream: {allChangesForCluster: true}}], cursor: {}}),
    13);

let st = userP.getDB('admin').runCommand({replSetGetStatus: 1});
for (const m of st.members) assert.eq(1, m.health, tojson(m));

// A member started with another key cannot join.
const intruder = new MongodRunner.Mongod({args: ['--replSet', 'authset', '--oplogSize', '16', '--keyFile', badKey]});
intruder.start();
const intruderHost = 'localhost:' + intruder.port;
const cfg = userP.getDB('admin').runCommand({replSetGetConfig: 1}).config;
cfg.version++;
cfg.members.push({_id: 3, host: intruderHost, priority: 0, votes: 0});
assert.commandWorked(userP.getDB('admin').runCommand({replSetReconfig: cfg}));
let bad;
assert.soon(() => {
  st = userP.getDB('admin').runCommand({replSetGetStatus: 1});
  bad = st.members.find((m) => m.name === intruderHost);
  return bad && bad.health === 0 && /Authentication ?failed/i.test(bad.lastHeartbeatMessage);
}, () => 'the member with the wrong key does not show as unhealthy with an auth error: ' + tojson(bad), 30000);
assert.eq('(not reachable/healthy)', bad.stateStr, tojson(bad));
// It never got the config: it is no member of the set.
const ih = intruder.conn.getDB('admin').runCommand({hello: 1});
assert.eq(false, ih.isWritablePrimary);
assert.eq(undefined, ih.setName, tojson(ih));
// The intruder refused the members' heartbeats (their key is not its key) and says why in its log.
assert.soon(() => /Authentication failed/.test(intruder.log(400)), 'the intruder logged no refusal', 20000);
// The set is unharmed: majority writes go on (the intruder has no vote).
assert.commandWorked(userP.getDB('test').runCommand(
    {insert: 'c', documents: [{_id: 3}], writeConcern: {w: 'majority', wtimeout: 30000}}));
cfg.version++;
cfg.members.pop();
assert.commandWorked(userP.getDB('admin').runCommand({replSetReconfig: cfg}));
assert.eq(0, intruder.stop());

// A member whose key file lists a new key first and the set's key second joins: its first key
// is refused, its second accepted; the others' key is its second key, which it accepts.
const rollover = new MongodRunner.Mongod({args: ['--replSet', 'authset', '--oplogSize', '16', '--keyFile', rolloverKey]});
rollover.start();
const rolloverHost = 'localhost:' + rollover.port;
cfg.version++;
cfg.members.push({_id: 4, host: rolloverHost, priority: 0, votes: 0});
assert.commandWorked(userP.getDB('admin').runCommand({replSetReconfig: cfg}));
let joined;
assert.soon(() => {
  st = userP.getDB('admin').runCommand({replSetGetStatus: 1});
  joined = st.members.find((m) => m.name === rolloverHost);
  return joined && joined.health === 1 && joined.stateStr === 'SECONDARY';
}, () => 'the member with a two-key file did not join: ' + tojson(joined), 30000);
const rc = new Mongo('mongodb://root:pw@127.0.0.1:' + rollover.port + '/?directConnection=true&authSource=admin');
assert.soon(() => rc.getDB('test').c.countDocuments({}) === 3, 'the rollover member did not replicate', 30000);
cfg.version++;
cfg.members.pop();
assert.commandWorked(userP.getDB('admin').runCommand({replSetReconfig: cfg}));
assert.eq(0, rollover.stop());

rst.stopSet();
