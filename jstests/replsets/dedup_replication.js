// dbDedup in replication (issue 11) on a set where every member runs --dedup, behind bridges:
//   - real versioned documents (../shared/data) loaded with w: "majority": the inserts travel as
//     forward deltas (serverStatus().dedup.replication on the members that served and rebuilt
//     them), and each member stores them deduplicated;
//   - a plain find on local.oplog.rs, on every member, sees whole documents, never $dedup;
//   - a member made to lack every source (fail point dedupMissingSource) fetches each entry
//     whole (supplementalFetches) and ends with the same data;
//   - kill -9 of the primary between two loads (tests/pymongo/test_dedup_replication.py kills it
//     in the middle of one): every acknowledged write is on the new primary, which deduplicates
//     the next versions from its first insert (its index is warm);
//   - end checks: dbHash, oplogs and validate on every member.
load(__dirname + '/../lib/assert.js');
load(__dirname + '/../lib/replsettest.js');
load(__dirname + '/../lib/dedup_data.js');

const rst = new ReplSetTest({
  name: 'dedupRepl',
  nodes: [{args: ['--dedup']}, {args: ['--dedup']}, {args: ['--dedup']}],
  useBridge: true,
  settings: {electionTimeoutMillis: 2000, heartbeatIntervalMillis: 500},
});
rst.startSet();
rst.initiate();

// Every revision of one Wikipedia article: nearly every insert has a similar older document.
const docs = DedupData.load('wiki-python', 600);
const repl = (i) => DedupData.status(rst.nodes[i].getDB('admin')).replication;
const sum = (f) => [0, 1, 2].reduce((s, i) => s + Number(f(repl(i))), 0);
const acknowledged = [];
function insertMajority(batch) {
  assert.commandWorked(rst.getPrimary().getDB('test').runCommand(
      {insert: 'docs', documents: batch, ordered: true, writeConcern: {w: 'majority', wtimeout: 60000}}));
  acknowledged.push(...batch.map((d) => d._id));
}
function loadRange(from, to) {
  for (let k = from; k < to; k += 20) insertMajority(docs.slice(k, Math.min(to, k + 20)));
}

print('[dedup_replication] load with w: majority');
{
  const encoded0 = sum((r) => r.sent.entriesEncoded);
  loadRange(0, 300);
  rst.awaitReplication();
  // Two members fetched each insert once, from the primary or (chaining) from each other.
  const encoded = sum((r) => r.sent.entriesEncoded) - encoded0;
  const sent = sum((r) => r.sent.sentBytes), logical = sum((r) => r.sent.logicalBytes);
  assert.gte(encoded, 2 * 300 * 0.6, 'inserts sent encoded: ' + tojson(repl(rst.getPrimaryIndex())));
  assert.gt(logical, 5 * sent, 'bytes sent between members are not much smaller than the documents: ' + tojson([0, 1, 2].map(repl)));
  for (const s of rst.getSecondaries()) {
    const i = rst.idx(s);
    DedupData.settle(rst.nodes[i].getDB('admin'));
    const r = repl(i);
    assert.gte(Number(r.received.entriesDecoded), 300 * 0.6, 'member ' + i + ' rebuilt too few: ' + tojson(r));
    assert.gte(Number(r.received.reencoded), 300 * 0.5, 'member ' + i + ' re-encoded too few: ' + tojson(r));
    assert.gt(DedupData.status(rst.nodes[i].getDB('admin')).ratio, 2, 'member ' + i + ' storage is not deduplicated');
  }
}

print('[dedup_replication] plain readers of the oplog see whole documents');
for (let i = 0; i < 3; i++) {
  const entries = rst.nodes[i].getDB('local').oplog.rs.find({ns: 'test.docs', op: 'i'}).toArray();
  assert.eq(300, entries.length, 'member ' + i);
  for (const e of entries) {
    assert.eq(undefined, e['$dedup'], 'member ' + i + ' shows an encoded entry');
    assert.eq('string', typeof e.o.body, 'member ' + i + ' shows an entry without its document');
  }
}

print('[dedup_replication] a member lacking the sources fetches entries whole');
{
  const lacking = rst.idx(rst.getSecondaries()[0]);
  const admin = rst.nodes[lacking].getDB('admin');
  const before = repl(lacking).received.supplementalFetches;
  assert.commandWorked(admin.runCommand({configureFailPoint: 'dedupMissingSource', mode: 'alwaysOn'}));
  loadRange(300, 350);
  rst.awaitReplication();
  assert.commandWorked(admin.runCommand({configureFailPoint: 'dedupMissingSource', mode: 'off'}));
  const fetched = Number(repl(lacking).received.supplementalFetches) - Number(before);
  assert.gte(fetched, 50 * 0.5, 'supplemental fetches: ' + fetched);
  rst.checkReplicatedDataHashes();
}

print('[dedup_replication] kill -9 of the primary between loads');
{
  const old = rst.getPrimaryIndex();
  loadRange(350, 450);
  rst.kill(old);
  const np = rst.getPrimaryIndex();
  assert.neq(old, np);
  DedupData.settle(rst.nodes[np].getDB('admin'));
  const before = DedupData.status(rst.nodes[np].getDB('admin'));
  loadRange(450, 600);
  const after = DedupData.settle(rst.nodes[np].getDB('admin'));
  const examined = Number(after.recordsExamined) - Number(before.recordsExamined);
  const encoded = Number(after.recordsEncoded) - Number(before.recordsEncoded);
  assert.eq(150, examined);
  assert.gte(encoded, examined * 0.8, 'the new primary encoded ' + encoded + ' of its first ' + examined + ' inserts');
  rst.start(old);
  rst.awaitSecondaryNodes();
  rst.awaitReplication();
  const ids = rst.getPrimary().getDB('test').docs.find({}, {_id: 1}).toArray().map((d) => d._id);
  assert.sameMembers(acknowledged, ids);
}

rst.stopSet();
