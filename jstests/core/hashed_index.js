// Hashed indexes ({a: "hashed"}, compound with one hashed field): keys are MongoDB's 64-bit
// hashes, equality and $in use them (IXSCAN then FETCH with the predicate), ranges never; arrays
// are refused (16766), as are unique hashed indexes (16764) and two hashed fields (31303).
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_hashed_index');
const docs = [];
for (let i = 0; i < 60; i++) docs.push({_id: i, a: i % 12, b: 's' + (i % 5), c: {x: i % 3}});
docs.push({_id: 100, a: 3.5}, {_id: 101, a: NumberLong('3')}, {_id: 102, a: NumberDecimal('3.0')}, {_id: 103},
          {_id: 104, a: null}, {_id: 105, a: '3'});
assert.commandWorked(t.runCommand({insert: 'c', documents: docs}));
let r = assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {a: 'hashed'}, name: 'a_hashed'}]}));
t.c.createIndex({b: 1, a: 'hashed'});
t.c.createIndex({c: 'hashed'}, {sparse: true});

// listIndexes round-trips the spec; the default name is field_hashed.
const specs = assert.commandWorked(t.runCommand({listIndexes: 'c'})).cursor.firstBatch;
assert.docEq({v: 2, key: {a: 'hashed'}, name: 'a_hashed'}, specs[1]);
assert.docEq({v: 2, key: {b: 1, a: 'hashed'}, name: 'b_1_a_hashed'}, specs[2]);
assert.docEq({v: 2, key: {c: 'hashed'}, name: 'c_hashed', sparse: true}, specs[3]);

const ids = (filter, extra) => allDocs(t, assert.commandWorked(t.runCommand(
    Object.assign({find: 'c', filter: filter, sort: {_id: 1}, projection: {_id: 1}}, extra || {})))).map(d => d._id);
const plan = (filter, extra) => assert.commandWorked(t.runCommand(
    {explain: Object.assign({find: 'c', filter: filter}, extra || {}), verbosity: 'queryPlanner'})).queryPlanner.winningPlan;
const stages = (p) => p ? [p.stage].concat(stages(p.inputStage)) : [];

// Equality: every numeric type of the value, and only it (3.5 shares 3's hash but not its value).
assert.eq([3, 15, 27, 39, 51, 101, 102], ids({a: 3}));
assert.eq([3, 15, 27, 39, 51, 101, 102], ids({a: NumberDecimal('3')}));
assert.eq([100], ids({a: 3.5}));
assert.eq([105], ids({a: '3'}));
assert.eq([103, 104], ids({a: null}));
assert.eq([3, 4, 15, 16, 27, 28, 39, 40, 51, 52, 101, 102], ids({a: {$in: [3, 4]}}));
let p = plan({a: 3});
assert.eq(['FETCH', 'IXSCAN'], stages(p));
assert.eq('a_hashed', p.inputStage.indexName);
assert.docEq({a: 'hashed'}, p.inputStage.keyPattern);
assert.eq({a: {$eq: 3}}, p.filter, 'the predicate is checked on the document');
assert.eq(1, p.inputStage.indexBounds.a.length);
// Ranges, regexes and $exists never use a hashed field's bounds.
for (const f of [{a: {$gt: 3}}, {a: {$lte: 3}}, {a: /3/}, {a: {$exists: true}}, {a: {$ne: 3}}])
  assert.eq(['COLLSCAN'], stages(plan(f)), tojson(f));
assert.eq([4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19, 20, 21, 22, 23, 28, 29, 30, 31, 32, 33, 34, 35, 40, 41, 42, 43,
           44, 45, 46, 47, 52, 53, 54, 55, 56, 57, 58, 59, 100],
          ids({a: {$gt: 3}}, {hint: 'a_hashed'}), 'a hinted hashed index scans everything and filters');
// Compound: a point on b and a hashed point on a.
p = plan({b: 's3', a: 3});
assert.eq('b_1_a_hashed', p.inputStage.indexName);
assert.eq(['["s3", "s3"]'], p.inputStage.indexBounds.b);
assert.eq([3], ids({b: 's3', a: 3}));
// Never covered, never a sort, never a distinct scan on the hashed field.
assert.eq(['PROJECTION_SIMPLE', 'FETCH', 'IXSCAN'], stages(plan({a: 3}, {projection: {_id: 0, a: 1}})));
assert.contains('SORT', stages(plan({a: 3}, {sort: {a: 1}})));
assert.eq([3], assert.commandWorked(t.runCommand({distinct: 'c', key: 'a', query: {a: 3}})).values);
assert.eq(7, assert.commandWorked(t.runCommand({count: 'c', query: {a: 3}})).n);
// returnKey shows the hash, a NumberLong.
r = allDocs(t, assert.commandWorked(t.runCommand({find: 'c', filter: {_id: 3}, hint: 'a_hashed', returnKey: true})));
assert.eq(1, r.length);
assert.eq('Long', r[0].a._bsontype);
// Documents as values: the whole subdocument is hashed; sparse skips documents without c.
assert.eq([0, 3, 6], ids({c: {x: 0}, _id: {$lt: 9}}));
assert.eq('c_hashed', plan({c: {x: 0}}).inputStage.indexName);

// Arrays along the path are refused, on insert, update and index build.
let w = t.runCommand({insert: 'c', documents: [{_id: 200, a: [1, 2]}]});
assert.writeErrorWithCode(w, 16766, 0);
assert(/Found array at path: a$/.test(w.writeErrors[0].errmsg), w.writeErrors[0].errmsg);
assert.writeErrorWithCode(t.runCommand({update: 'c', updates: [{q: {_id: 1}, u: {$set: {a: [1]}}}]}), 16766, 0);
assert.commandWorked(t.runCommand({insert: 'd', documents: [{_id: 1, x: [{y: 1}]}]}));
assert.commandFailedWithCode(runCmd(t, {createIndexes: 'd', indexes: [{key: {'x.y': 'hashed'}, name: 'xy'}]}), 16766);
// An array inside a hashed subdocument is fine.
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 201, c: {x: [1, 2]}}]}));

// Bad specs.
assert.commandFailedWithCode(runCmd(t, {createIndexes: 'c', indexes: [{key: {q: 'hashed'}, name: 'q', unique: true}]}),
                             16764);
assert.commandFailedWithCode(runCmd(t, {createIndexes: 'c', indexes: [{key: {q: 'hashed', r: 'hashed'}, name: 'qr'}]}),
                             31303);
assert.commandFailedWithCode(runCmd(t, {createIndexes: 'c', indexes: [{key: {q: 'hash'}, name: 'q'}]}), 67);
assert.commandWorked(t.runCommand({validate: 'c'}));
assert.eq(true, assert.commandWorked(t.runCommand({validate: 'c', full: true})).valid);

t.dropDatabase();
