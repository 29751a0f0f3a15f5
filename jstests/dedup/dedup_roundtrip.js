// Storage-level deduplication must be invisible to clients: with mongod --dedup, documents
// that are near-copies of each other read back exactly as written (field order, types,
// sizes), through updates, deletes of the documents they were encoded against, index
// scans, aggregation and validate. Runs in the dedup suite (mongod --dedup).
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_dedup_roundtrip');

// Similar documents: one template with small per-document edits.
function make(i) {
  const body = [];
  for (let p = 0; p < 40; p++) body.push('paragraph ' + p + ' of a long, repetitive article body. ');
  if (i % 3 === 0) body[i % 40] = 'edited paragraph for document ' + i + '. ';
  return {
    _id: i,
    title: 'Article number ' + (i % 50),
    author: {name: 'Author ' + (i % 7), email: 'a' + (i % 7) + '@example.com'},
    tags: ['news', 'tech', i % 2 ? 'odd' : 'even'],
    body: body.join(''),
    views: NumberLong(String(i * 1000)),
    score: i / 7,
    when: new Date(Date.UTC(2024, 0, 1) + i * 60000),
    version: NumberInt(i % 5),
  };
}

const N = 1500;
for (let start = 0; start < N; start += 250) {
  const batch = [];
  for (let i = start; i < Math.min(N, start + 250); i++) batch.push(make(i));
  assert.commandWorked(t.runCommand({insert: 'articles', documents: batch}));
}
assert.commandWorked(t.runCommand({createIndexes: 'articles', indexes: [{key: {title: 1}, name: 'title_1'}]}));

function checkAll(expectFn, label) {
  const got = t.articles.find().sort({_id: 1}).toArray();
  const want = [];
  for (let i = 0; i < N; i++) {
    const e = expectFn(i);
    if (e) want.push(e);
  }
  assert.eq(want.length, got.length, label + ': document count');
  for (let k = 0; k < want.length; k++) {
    assert.docEqOrdered(want[k], got[k], label + ': document ' + want[k]._id);
    assert.eq(bsonsize(want[k]), bsonsize(got[k]), label + ': bsonsize of ' + want[k]._id);
  }
}
checkAll(make, 'after insert');
// Types are kept exactly.
assert.eq(N, t.articles.countDocuments({views: {$type: 'long'}, version: {$type: 'int'}, when: {$type: 'date'}}));

// Point reads, index reads, aggregation.
assert.docEqOrdered(make(777), t.articles.findOne({_id: 777}));
assert.eq(30, t.articles.find({title: 'Article number 7'}).hint('title_1').itcount());
const agg = t.articles.aggregate([{$group: {_id: '$author.name', n: {$sum: 1}, len: {$sum: {$strLenCP: '$body'}}}},
                                  {$sort: {_id: 1}}]).toArray();
assert.eq(7, agg.length);
let total = 0;
for (const g of agg) total += g.n;
assert.eq(N, total);

// Updates of similar documents, small and large.
assert.commandWorked(t.runCommand({update: 'articles', updates: [
  {q: {_id: {$lt: 300}}, u: {$set: {'author.name': 'Renamed'}, $inc: {version: 1}}, multi: true}]}));
const big = 'completely different content '.repeat(200);
assert.commandWorked(t.runCommand({update: 'articles', updates: [{q: {_id: {$gte: 300, $lt: 400}}, u: {$set: {body: big}}, multi: true}]}));
function expected(i) {
  const d = make(i);
  if (i < 300) {
    d.author.name = 'Renamed';
    d.version = NumberInt(i % 5 + 1);
  } else if (i < 400) {
    d.body = big;
  }
  return d;
}
checkAll(expected, 'after updates');

// Delete every other document: documents encoded against deleted ones must still read back.
assert.commandWorked(t.runCommand({delete: 'articles', deletes: [{q: {_id: {$mod: [2, 0]}}, limit: 0}]}));
checkAll((i) => (i % 2 ? expected(i) : null), 'after deleting half');

// Replacements.
for (let i = 1; i < 200; i += 2) {
  const r = make(i + 10000);
  r._id = i;
  assert.commandWorked(t.runCommand({update: 'articles', updates: [{q: {_id: i}, u: r}]}));
}
checkAll((i) => {
  if (i % 2 === 0) return null;
  if (i < 200) {
    const r = make(i + 10000);
    r._id = i;
    return r;
  }
  return expected(i);
}, 'after replacements');

assert.eq(true, assert.commandWorked(t.runCommand({validate: 'articles', full: true})).valid);
print('dedup_roundtrip.js OK');
