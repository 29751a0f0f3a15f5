// Real versioned data through mongod --dedup: every document reads back byte-identical
// (whole-document comparison, by _id, by collection scan and by an index on key), the
// collection is stored in far fewer bytes than it holds, and serverStatus/collStats/dbStats/
// validate report it.
load(__dirname + '/../lib/assert.js');
load(__dirname + '/../lib/dedup_data.js');

const t = testDB('jstests_dedup_real_data');
const sets = [['wiki-python', 300], ['peps-history', 600], ['se-posthistory', 800], ['email-ham', 300]];

function insertAll(coll, docs) {
  for (let i = 0; i < docs.length; i += 50) {
    assert.commandWorked(t.runCommand({insert: coll, documents: docs.slice(i, i + 50)}));
  }
}

const loaded = {};
for (const [name, n] of sets) {
  const docs = DedupData.load(name, n);
  insertAll(name, docs);
  loaded[name] = docs;
}
const s = DedupData.settle(t);
assert.gt(s.recordsEncoded, 0, tojson(s));
assert.eq(29, s.maxDecodeSteps, 'bounded-hop at hop distance 16: 16 + floor(log_16(2^32 - 1)) + 16/2 - 2');
assert.gt(s.writeBacks.applied, 0, tojson(s));

for (const [name] of sets) {
  const docs = loaded[name];
  const byId = {};
  for (const d of docs) byId[d._id] = d;
  // Collection scan: every document, in insertion order, exactly as written.
  const scanned = t[name].find().toArray();
  assert.eq(docs.length, scanned.length, name + ' scan count');
  for (let i = 0; i < docs.length; i++) assert.docEqOrdered(docs[i], scanned[i], name + ' scan ' + i);
  // Point reads of every 7th document (old versions decode through their chains).
  for (let i = 0; i < docs.length; i += 7) assert.docEqOrdered(docs[i], t[name].findOne({_id: docs[i]._id}));
  // Secondary index and aggregation see logical documents.
  assert.commandWorked(t.runCommand({createIndexes: name, indexes: [{key: {key: 1}, name: 'key_1'}]}));
  const key = docs[docs.length - 1].key;
  const want = docs.filter((d) => d.key === key).length;
  assert.eq(want, t[name].find({key: key}).hint('key_1').itcount(), name + ' index');
  const agg = t[name].aggregate([{$group: {_id: null, n: {$sum: 1}, len: {$sum: {$strLenBytes: '$body'}}}}]).toArray();
  let bodyBytes = 0;
  for (const d of docs) bodyBytes += Buffer.byteLength(d.body, 'utf8');
  assert.eq(docs.length, agg[0].n);
  assert.eq(bodyBytes, agg[0].len, name + ' body bytes seen by $group');

  const cs = assert.commandWorked(t.runCommand({collStats: name}));
  assert.hasFields(cs.dedup, ['logicalSize', 'storedSize', 'ratio', 'retainedRecords'], name);
  assert.eq(cs.size, cs.dedup.logicalSize, name);
  assert.lt(cs.dedup.storedSize, cs.dedup.logicalSize, name + ' stores fewer bytes than it holds');
  print(name + ': ' + docs.length + ' docs, logical ' + cs.dedup.logicalSize + ' B, stored ' + cs.dedup.storedSize +
        ' B, ratio ' + cs.dedup.ratio.toFixed(2));
  const v = assert.commandWorked(t.runCommand({validate: name, full: true}));
  assert.eq(true, v.valid, tojson(v));
  assert.eq(docs.length, v.dedup.decodedRecords, tojson(v.dedup));
  assert.eq(0, v.dedup.refCountMismatches, tojson(v.dedup));
  // The decode bound, measured on the stored forms.
  assert.lte(v.dedup.longestChain, s.maxDecodeSteps, name + ' ' + tojson(v.dedup));
}
// Versions of one article compress far better than independent messages.
assert.gt(t.runCommand({collStats: 'wiki-python'}).dedup.ratio, 10);

const ds = assert.commandWorked(t.runCommand({dbStats: 1}));
assert.eq(sets.length, ds.dedup.collections, tojson(ds.dedup));
assert.gt(ds.dedup.ratio, 1, tojson(ds.dedup));
const st = DedupData.status(t);
assert.hasFields(st, ['recordsExamined', 'recordsEncoded', 'skippedBySizeFilter', 'logicalBytes', 'storedBytes',
                      'ratio', 'indexEntries', 'indexBytes', 'sourceCache', 'writeBacks', 'governor',
                      'longestChain'], 'serverStatus().dedup');
assert.hasFields(st.sourceCache, ['hits', 'misses']);
assert.hasFields(st.writeBacks, ['queued', 'applied', 'dropped']);
assert.eq(true, st.governor[t.getName()].active, tojson(st.governor));
// A collection can opt out at create: stored whole, no dedup statistics.
assert.commandWorked(t.runCommand({create: 'plain', dedup: false}));
insertAll('plain', loaded['wiki-python'].slice(0, 50));
const plainStats = assert.commandWorked(t.runCommand({collStats: 'plain'}));
assert.eq(undefined, plainStats.dedup, tojson(plainStats));
assert.eq(false, t.getCollectionInfos({name: 'plain'})[0].options.dedup);
const plain = t.plain.find().toArray();
for (let i = 0; i < 50; i++) assert.docEqOrdered(loaded['wiki-python'][i], plain[i]);
print('real_data_roundtrip.js OK');
