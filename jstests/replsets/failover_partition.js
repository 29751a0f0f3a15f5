// Failover on a three-member set behind bridges (jstests/lib/mongobridge.py), one set for all of:
//   - rs.stepDown() / rs.freeze(): the frozen member is never elected, another one is, and a
//     connection stays open across the step-down;
//   - replSetStepUp of a chosen member;
//   - a slow link (the bridge delays a member's messages): pingMs shows it;
//   - a partition of the primary from the majority: it steps down, the majority elects a new
//     primary and takes majority writes; once healed the old primary rolls back the write only
//     it took (rollback files) and rejoins as SECONDARY;
//   - majority writes survive killing (kill -9) a minority, and the primary itself (a change
//     stream resumes on the new primary from its last token); a member
//     restarted cleanly behind its bridge finds itself in its config and rejoins;
//   - SIGSTOP of the primary: the others elect, and after SIGCONT it rejoins;
//   - end checks: dbHash, oplogs, validate on every member (one member runs with --dedup).
// Elections use a 2 s election timeout to keep the test short.
load(__dirname + '/../lib/assert.js');
load(__dirname + '/../lib/replsettest.js');
const fs = require('fs');
const path = require('path');

const rst = new ReplSetTest({
  name: 'failover',
  nodes: [{}, {}, {args: ['--dedup']}],
  useBridge: true,
  settings: {electionTimeoutMillis: 2000, heartbeatIntervalMillis: 500},
});
rst.startSet();
rst.initiate();

let primary = rst.getPrimary();
let p = rst.idx(primary);
const coll = () => rst.getPrimary().getDB('test').c;
let nextId = 0;
// Inserts n documents with w: "majority" on the current primary; returns their ids.
function writeMajority(n) {
  const docs = [];
  for (let k = 0; k < n; k++) docs.push({_id: nextId++, pad: 'x'.repeat(200), k: k});
  assert.commandWorked(rst.getPrimary().getDB('test').runCommand(
      {insert: 'c', documents: docs, writeConcern: {w: 'majority', wtimeout: 30000}}));
  return docs.map((d) => d._id);
}
const acknowledged = [];

// The index of the member other than `old` that becomes primary (within 30 s).
function newPrimaryOtherThan(old, msg) {
  let np = -1;
  assert.soon(() => {
    for (let i = 0; i < rst.nodes.length && np < 0; i++) {
      if (i !== old && rst.nodes[i].getDB('admin').runCommand({hello: 1}).isWritablePrimary) np = i;
    }
    return np >= 0;
  }, msg, 30000, 100);
  return np;
}
acknowledged.push(...writeMajority(20));
rst.awaitReplication();

// --- step-down with one member frozen: the third one must win ---
print('[failover_partition] step-down with one member frozen: the third one must win');
{
  const others = [0, 1, 2].filter((i) => i !== p);
  assert.commandWorked(rst.nodes[others[0]].getDB('admin').runCommand({replSetFreeze: 30}));
  const conn = rst.nodes[p];
  assert.commandWorked(conn.getDB('admin').runCommand({replSetStepDown: 30, secondaryCatchUpPeriodSecs: 10}));
  // The connection survives the step-down (no disconnect since 4.2).
  assert.eq(false, conn.getDB('admin').runCommand({hello: 1}).isWritablePrimary);
  const np = rst.getPrimaryIndex();
  assert.eq(others[1], np, 'the frozen member or the stepped-down one was elected');
  assert.commandWorked(rst.nodes[others[0]].getDB('admin').runCommand({replSetFreeze: 0}));
  // A stepped-down member may not run for 30 s; replSetFreeze 0 lifts that wait, as in MongoDB.
  assert.commandWorked(conn.getDB('admin').runCommand({replSetFreeze: 0}));
  acknowledged.push(...writeMajority(10));
}

// --- stepUp a chosen member ---
print('[failover_partition] stepUp a chosen member');
{
  const target = (rst.getPrimaryIndex() + 1) % 3;
  rst.stepUp(target);
  assert.eq(target, rst.getPrimaryIndex());
  acknowledged.push(...writeMajority(10));
  rst.awaitReplication();
}

// --- a slow link: the primary's messages to one secondary held 600 ms each ---
print('[failover_partition] a slow link: the primary messages to one secondary held 600 ms each');
{
  p = rst.getPrimaryIndex();
  const s = (p + 1) % 3;
  const pingOf = (i) => rst.status(p).members.find((m) => m._id === i).pingMs;
  rst.delayMessages(p, s, 600);
  // The primary's heartbeats to that secondary take the delay; majority writes still work.
  assert.soon(() => pingOf(s) >= 600, () => 'pingMs did not show the delay: ' + pingOf(s), 20000);
  acknowledged.push(...writeMajority(5));
  rst.heal();
  assert.soon(() => pingOf(s) < 300, () => 'pingMs did not recover: ' + pingOf(s), 20000);
  // The bridge checks its commands' arguments.
  assert.throws(() => rst.discardMessages(s, p, 2));
}

// --- partition the primary from the majority: it steps down; a write only it took rolls back ---
print('[failover_partition] partition the primary from the majority');
{
  p = rst.getPrimaryIndex();
  const oldPrimary = rst.nodes[p];
  const termBefore = rst.status(p).term;
  // The secondaries fetch nothing more (stopReplProducer; an awaitData getMore in flight ends
  // within half a second), so a w: 1 write the primary takes now reaches no other member; then
  // the primary is cut off before it notices anything.
  const others = [0, 1, 2].filter((i) => i !== p);
  for (const i of others)
    assert.commandWorked(rst.nodes[i].getDB('admin').runCommand({configureFailPoint: 'stopReplProducer', mode: 'alwaysOn'}));
  sleep(1500);
  const lost = runCmd(oldPrimary.getDB('test'), {insert: 'c', documents: [{_id: 'lost', v: 1}], writeConcern: {w: 1}});
  assert.commandWorked(lost);
  rst.isolate(p);
  for (const i of others)
    assert.commandWorked(rst.nodes[i].getDB('admin').runCommand({configureFailPoint: 'stopReplProducer', mode: 'off'}));
  // The isolated primary cannot see a majority: it steps down by itself.
  assert.soon(() => !oldPrimary.getDB('admin').runCommand({hello: 1}).isWritablePrimary,
              'the isolated primary did not step down', 30000, 100);
  // The majority elects one of its own, in a higher term.
  const np = newPrimaryOtherThan(p, 'the majority elected no primary');
  assert.gt(rst.status(np).term, termBefore);
  // The majority takes majority writes without the old primary.
  acknowledged.push(...writeMajority(10));
  // The old primary, alone, refuses writes.
  assert.commandFailedWithCode(runCmd(oldPrimary.getDB('test'), {insert: 'c', documents: [{_id: 'lost2'}]}), 10107);
  rst.heal();
  // It rejoins without the write only it took, as a SECONDARY with exactly the set's documents.
  const conn = rst.nodes[p];
  let last = '';
  assert.soon(() => {
    try {
      const st = rst.status(p).myState;
      const n = conn.getDB('test').c.countDocuments({_id: 'lost'});
      last = 'state ' + st + ', lost documents ' + n;
      return st === 2 && n === 0;
    } catch (e) {
      last = String(e);
      return false;  // ROLLBACK and STARTUP2 serve no reads
    }
  }, () => 'the old primary did not drop the write only it took (' + last + '):\n' +
                 rst.mongods[p].log(3000).split('\n').filter((l) => /"c":"REPL"/.test(l)).slice(-30).join('\n'),
              60000, 200);
  rst.awaitSecondaryNodes(60000);
  assert.eq(np, rst.getPrimaryIndex());
  rst.awaitReplication();
  assert.eq(acknowledged.length, conn.getDB('test').c.countDocuments({}));
  // Its history diverged: it rolled back (ROLLBACK, the insert undone in place), saving the document
  // as it held it under <dbpath>/rollback/<collection uuid>/removed.<time>.bson.
  const dir = path.join(rst.mongods[p].dbpath, 'rollback');
  const files = [];
  for (const d of fs.readdirSync(dir)) for (const f of fs.readdirSync(path.join(dir, d))) files.push(f);
  assert.eq(1, files.length, 'rollback files: ' + JSON.stringify(files));
  assert(/^removed\..*\.bson$/.test(files[0]), files[0]);
}

// --- kill -9 a minority (one secondary): majority writes go on; it rejoins after restart ---
print('[failover_partition] kill -9 a minority (one secondary): majority writes go on; it rejoins after restart');
{
  p = rst.getPrimaryIndex();
  const victim = (p + 1) % 3;
  rst.kill(victim);
  acknowledged.push(...writeMajority(10));
  rst.start(victim);
  rst.awaitSecondaryNodes();
  rst.awaitReplication();
  // A clean restart (SIGTERM, exit code 0): behind its bridge the member finds itself in its
  // stored config again (_isSelf through the bridge) and rejoins.
  rst.restart(victim);
  rst.awaitSecondaryNodes();
  acknowledged.push(...writeMajority(5));
  rst.awaitReplication();
}

// --- kill -9 the primary: a new one is elected and has every acknowledged write; a change
// stream opened on the old primary resumes on the new one from its last token ---
print('[failover_partition] kill -9 the primary: a new one is elected and has every acknowledged write');
{
  p = rst.getPrimaryIndex();
  const cs = assert.commandWorked(rst.nodes[p].getDB('test').runCommand(
      {aggregate: 'c', pipeline: [{$changeStream: {}}], cursor: {}}));
  const before = writeMajority(3);
  let seen = [];
  let token = cs.cursor.postBatchResumeToken;
  assert.soon(() => {
    const more = assert.commandWorked(rst.nodes[p].getDB('test').runCommand(
        {getMore: cs.cursor.id, collection: 'c', maxTimeMS: 200}));
    for (const e of more.cursor.nextBatch) seen.push(e.documentKey._id);
    token = more.cursor.postBatchResumeToken;
    return seen.length === before.length;
  }, 'the change stream did not show the majority writes', 20000, 10);
  assert.eq(before, seen);
  acknowledged.push(...before);
  rst.kill(p);
  const np = rst.getPrimaryIndex(30000);
  assert.neq(p, np);
  const ids = rst.nodes[np].getDB('test').c.find({}, {_id: 1}).toArray().map((d) => d._id);
  assert.sameMembers(acknowledged, ids);
  const after = writeMajority(10);
  acknowledged.push(...after);
  // Resumed on the new primary: exactly the events after the token, none lost or repeated.
  const rs = assert.commandWorked(rst.nodes[np].getDB('test').runCommand(
      {aggregate: 'c', pipeline: [{$changeStream: {resumeAfter: token}}], cursor: {}}));
  seen = rs.cursor.firstBatch.map((e) => e.documentKey._id);
  assert.soon(() => {
    if (seen.length >= after.length) return true;
    const more = assert.commandWorked(rst.nodes[np].getDB('test').runCommand(
        {getMore: rs.cursor.id, collection: 'c', maxTimeMS: 200}));
    for (const e of more.cursor.nextBatch) seen.push(e.documentKey._id);
    return seen.length >= after.length;
  }, 'the resumed change stream did not show the writes after the failover', 20000, 10);
  assert.eq(after, seen);
  rst.start(p);
  rst.awaitSecondaryNodes();
  rst.awaitReplication();
}

// --- SIGSTOP the primary: the others elect; SIGCONT: it steps down and rejoins ---
print('[failover_partition] SIGSTOP the primary: the others elect; SIGCONT: it steps down and rejoins');
{
  p = rst.getPrimaryIndex();
  rst.pause(p);
  const np = newPrimaryOtherThan(p, 'no new primary while the old one is stopped');
  acknowledged.push(...writeMajority(10));
  rst.resume(p);
  rst.awaitSecondaryNodes();
  assert.eq(np, rst.getPrimaryIndex());
  rst.awaitReplication();
}

const ids = coll().find({}, {_id: 1}).toArray().map((d) => d._id);
assert.sameMembers(acknowledged, ids);
rst.stopSet();
