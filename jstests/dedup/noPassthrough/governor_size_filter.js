// The governor turns dedup off for a database whose data does not deduplicate (random
// text), and leaves it on for one that does; the size filter skips records below the
// database's 40th-percentile size (and skips nothing when --dedupSizeFilter false).
load(__dirname + '/../../lib/assert.js');
load(__dirname + '/../../lib/mongod_runner.js');
load(__dirname + '/../../lib/dedup_data.js');

function insertAll(db, coll, docs) {
  for (let i = 0; i < docs.length; i += 50)
    assert.commandWorked(db.runCommand({insert: coll, documents: docs.slice(i, i + 50)}));
}

// Governor: windows of 300 inserts.
let m = MongodRunner.start({args: ['--dedup', '--dedupGovernorWindow', '300']});
const rnd = m.conn.getDB('rnd');
const randomDocs = [];
for (let i = 0; i < 700; i++) randomDocs.push({_id: i, body: DedupData.randomText(3000, 1000 + i)});
insertAll(rnd, 'c', randomDocs);
const versions = DedupData.load('wiki-python', 700);
const sim = m.conn.getDB('similar');
insertAll(sim, 'c', versions);
let s = DedupData.settle(rnd);
assert.eq(false, s.governor.rnd.active, 'random data: dedup turned off: ' + tojson(s.governor));
assert.lt(s.governor.rnd.windowRatio, 1.1, tojson(s.governor));
assert.eq(true, s.governor.similar.active, 'versioned data: dedup stays on: ' + tojson(s.governor));
// Inserts into the disabled database are no longer examined for sources.
const skippedBefore = Number(s.skippedByGovernor);
insertAll(rnd, 'c', [{_id: 'late1', body: DedupData.randomText(3000, 5)}, {_id: 'late2', body: DedupData.randomText(3000, 6)}]);
s = DedupData.settle(rnd);
assert.eq(skippedBefore + 2, Number(s.skippedByGovernor), tojson(s));
// Documents stay readable whatever the governor decided.
assert.eq(702, rnd.c.countDocuments({}));
assert.docEq(randomDocs[123], rnd.c.findOne({_id: 123}));
assert.eq(true, assert.commandWorked(rnd.runCommand({validate: 'c', full: true})).valid);
assert.eq(0, m.stop());

// Size filter: 60% small records (150..350 bytes of body), 40% large ones (~6 KB).
function sizedDocs() {
  const base = DedupData.randomText(6000, 77);
  const out = [];
  for (let i = 0; i < 1500; i++) {
    if (i % 5 < 3) out.push({_id: i, body: base.slice(0, 150 + (i * 37) % 200) + ' #' + i});
    else out.push({_id: i, body: base.slice(0, 5900) + ' version ' + i});
  }
  return out;
}
for (const filter of ['true', 'false']) {
  m = MongodRunner.start({args: ['--dedup', '--dedupSizeFilter', filter]});
  const db = m.conn.getDB('sz');
  const docs = sizedDocs();
  insertAll(db, 'c', docs);
  s = DedupData.settle(db);
  if (filter === 'true') {
    assert.gt(Number(s.skippedBySizeFilter), 100, 'small records skipped: ' + tojson(s));
    assert.gt(Number(s.governor.sz.sizeThreshold), 150, tojson(s.governor));
    assert.lt(Number(s.governor.sz.sizeThreshold), 400, tojson(s.governor));
  } else {
    assert.eq(0, Number(s.skippedBySizeFilter), 'no size filter: ' + tojson(s));
  }
  assert.gt(Number(s.recordsEncoded), 400, 'large versions are deduplicated: ' + tojson(s));
  const got = db.c.find().toArray();
  assert.eq(docs.length, got.length);
  for (let i = 0; i < docs.length; i += 11) assert.docEqOrdered(docs[i], got[i]);
  assert.eq(0, m.stop());
}
print('governor_size_filter.js OK');
