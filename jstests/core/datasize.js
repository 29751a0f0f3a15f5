// dataSize: sizes of a collection or of an index range [min, max), MongoDB 7.0's reply and
// errors (after jstests/core/datasize*.js of MongoDB's suite, rewritten).
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_datasize');
const ns = 'jstests_datasize.c';
const ds = (extra) => runCmd(t, Object.assign({dataSize: ns}, extra || {}));

// Missing and empty collections: zero, no estimate field.
let r = assert.commandWorked(ds());
assert.eq(0, r.size);
assert.eq(0, r.numObjects);
assert(!('estimate' in r), tojson(r));
assert.commandWorked(t.runCommand({create: 'c'}));
assert.eq(0, assert.commandWorked(ds()).size);

// {_id: 1, qq: 'c'} is 24 bytes of BSON, {_id: 2, qq: 'fg'} 25.
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 1, qq: 'c'}]}));
assert.eq(24, assert.commandWorked(ds()).size);
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 2, qq: 'fg'}]}));
r = assert.commandWorked(ds());
assert.eq(49, r.size);
assert.eq(2, r.numObjects);
assert.eq(false, r.estimate);
assert.gte(toNumber(r.millis), 0);
// The alias, and estimate (average size times count; the whole collection from its metadata).
assert.eq(49, assert.commandWorked(runCmd(t, {datasize: ns})).size);
r = assert.commandWorked(ds({estimate: true}));
assert.eq(49, r.size);
assert.eq(true, r.estimate);

// Ranges need an index whose key pattern starts with keyPattern (inferred from min).
assert.commandFailedWithCode(ds({min: {qq: 'a'}, max: {qq: 'z'}}), 96 /* OperationFailed */);
assert.commandWorked(t.runCommand({createIndexes: 'c', indexes: [{key: {qq: 1}, name: 'qq_1'}]}));
assert.eq(49, assert.commandWorked(ds({min: {qq: 'a'}, max: {qq: 'z'}})).size);
assert.eq(24, assert.commandWorked(ds({min: {qq: 'a'}, max: {qq: 'd'}})).size);
assert.eq(24, assert.commandWorked(ds({min: {qq: 'a'}, max: {qq: 'd'}, keyPattern: {qq: 1}})).size);
assert.eq(25, assert.commandWorked(ds({min: {qq: 'd'}, max: {qq: 'z'}, keyPattern: {qq: 1}})).size);
// min is included, max is not.
assert.eq(0, assert.commandWorked(ds({min: {qq: 'c'}, max: {qq: 'c'}})).size);
assert.eq(24, assert.commandWorked(ds({min: {qq: 'c'}, max: {qq: 'd'}})).size);
// max before min: an empty range.
r = assert.commandWorked(ds({min: {qq: 'd'}, max: {qq: 'a'}}));
assert.eq([0, 0], [r.size, r.numObjects]);
r = assert.commandWorked(ds({min: {_id: 1}, max: {_id: 2}}));
assert.eq(1, r.numObjects);
assert.eq(24, r.size);
assert.commandFailedWithCode(ds({min: {qq: 'a'}, max: {qq: 'd'}, keyPattern: {a: 1}}), 96);
assert.commandFailedWithCode(ds({min: {qq: 'a'}, max: {qq: 'd'}, keyPattern: {qq: -1}}), 96);
// Estimated ranges count the average size.
r = assert.commandWorked(ds({min: {qq: 'a'}, max: {qq: 'z'}, estimate: true}));
assert.eq(2 * 24, r.size);  // 49 / 2 = 24 per document
assert.eq(2, r.numObjects);

// A compound index serves a prefix; missing trailing fields of the bounds are MinKey.
assert.commandWorked(t.runCommand({insert: 'd', documents: [{_id: 1, a: 1, b: 1}, {_id: 2, a: 1, b: 2},
                                                            {_id: 3, a: 2, b: 1}]}));
assert.commandWorked(t.runCommand({createIndexes: 'd', indexes: [{key: {a: 1, b: -1}, name: 'ab'}]}));
r = assert.commandWorked(runCmd(t, {dataSize: 'jstests_datasize.d', keyPattern: {a: 1}, min: {a: 1}, max: {a: 2}}));
assert.eq(2, r.numObjects);
// The inferred key pattern is all ascending: {a: 1, b: 1} is no prefix of {a: 1, b: -1}.
assert.commandFailedWithCode(runCmd(t, {dataSize: 'jstests_datasize.d', min: {a: 1, b: 2}, max: {a: 1, b: 1}}), 96);
r = assert.commandWorked(runCmd(t, {dataSize: 'jstests_datasize.d', keyPattern: {a: 1, b: -1}, min: {a: 1, b: 2},
                                    max: {a: 1, b: 1}}));
assert.eq(1, r.numObjects, 'b descending: [b 2, b 1) holds b: 2 only');
// Multikey, sparse and partial indexes cannot answer.
assert.commandWorked(t.runCommand({insert: 'm', documents: [{_id: 1, x: [1, 2]}]}));
assert.commandWorked(t.runCommand({createIndexes: 'm', indexes: [{key: {x: 1}, name: 'x_1'}]}));
assert.commandFailedWithCode(runCmd(t, {dataSize: 'jstests_datasize.m', min: {x: 0}, max: {x: 9}}), 96);

// maxObjects / maxSize stop the scan once passed.
r = assert.commandWorked(ds({maxObjects: 1}));
assert.eq(true, r.maxReached);
assert.eq(2, r.numObjects);
r = assert.commandWorked(ds({maxSize: 10}));
assert.eq(true, r.maxReached);
assert.eq(1, r.numObjects);
assert(!('maxReached' in assert.commandWorked(ds({maxObjects: 5}))));

// Bad input.
assert.commandFailedWithCode(ds({min: NumberLong("1"), max: NumberLong("2")}), 14 /* TypeMismatch */);
assert.commandFailedWithCode(ds({min: {_id: 1}}), 2 /* BadValue */);
assert.commandFailedWithCode(ds({max: {_id: 1}}), 2);
assert.commandFailedWithCode(ds({min: {}, max: {_id: 1}}), 2);
assert.commandFailedWithCode(runCmd(t, {dataSize: 5}), 14);
assert.commandFailedWithCode(runCmd(t, {dataSize: 'nodot'}), 73 /* InvalidNamespace */);
assert.commandFailedWithCode(ds({bogus: 1}), 40415);
// Any database may run it: the namespace names the collection.
assert.eq(49, assert.commandWorked(db.getSiblingDB('admin').runCommand({dataSize: ns})).size);

t.dropDatabase();
