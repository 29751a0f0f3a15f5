// insert and find basics: _id generation, reply shapes, duplicate _id, find on a missing
// collection, filters by equality on scalars/documents, field-order sensitive document equality.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_insert_find');

let res = assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 1, a: 1}, {_id: 2, a: 2}]}));
assert.eq(2, res.n);
assert.eq(undefined, res.writeErrors);

// A document without _id gets an ObjectId _id, stored as the first field.
res = assert.commandWorked(t.runCommand({insert: 'c', documents: [{a: 3, b: 'x'}]}));
assert.eq(1, res.n);
let doc = t.c.findOne({a: 3});
assert.eq('ObjectId', doc._id._bsontype);
assert.fieldOrder(doc, ['_id', 'a', 'b']);
// An _id given later in the document is moved to the front.
assert.commandWorked(t.runCommand({insert: 'c', documents: [{z: 1, _id: 'late'}]}));
assert.fieldOrder(t.c.findOne({_id: 'late'}), ['_id', 'z']);

// Duplicate _id: ok: 1 with a write error 11000 naming the _id_ index.
res = t.runCommand({insert: 'c', documents: [{_id: 1, a: 'dup'}]});
const we = assert.writeErrorWithCode(res, 11000, 0);
assert.eq(0, res.n);
assert(/^E11000 duplicate key error collection: jstests_insert_find\.c index: _id_ dup key: \{ _id: 1 \}/.test(we.errmsg),
       we.errmsg);
assert.docEq({_id: 1}, we.keyPattern);
assert.docEq({_id: 1}, we.keyValue);
// An array _id is rejected.
assert.writeErrorWithCode(t.runCommand({insert: 'c', documents: [{_id: [1, 2]}]}), 2 /* BadValue */, 0);

// find: reply shape.
res = assert.commandWorked(t.runCommand({find: 'c', filter: {_id: 1}}));
assert.eq('jstests_insert_find.c', res.cursor.ns);
assert.eq(0, res.cursor.id);
assert.docEq([{_id: 1, a: 1}], res.cursor.firstBatch);
// find on a collection that does not exist is an empty result, not an error.
res = assert.commandWorked(t.runCommand({find: 'doesNotExist', filter: {}}));
assert.eq([], res.cursor.firstBatch);
assert.eq(0, res.cursor.id);
// Inserting into a new collection creates it (and its database).
assert.commandWorked(t.runCommand({insert: 'fresh', documents: [{}]}));
assert.contains('fresh', t.getCollectionNames());

// Types round-trip exactly.
const all = {
  _id: 'types', dbl: 1.5, str: 'héllo ✓', obj: {x: {y: 1}}, arr: [1, 'two', {three: 3}], bin: BinData(0, 'AQID'),
  oid: ObjectId('5f1d7a2e9d3b2c0011223344'), t: true, f: false, date: ISODate('2020-01-02T03:04:05.678Z'),
  nul: null, re: /ab+c/i, i32: NumberInt(7), ts: Timestamp({t: 12, i: 34}), i64: NumberLong('9007199254740993'),
  dec: NumberDecimal('1.10'), min: MinKey(), max: MaxKey(), uuid: UUID('0123456789abcdef0123456789abcdef')
};
assert.commandWorked(t.runCommand({insert: 'types', documents: [all]}));
doc = t.types.findOne({_id: 'types'});
assert.fieldOrder(doc, Object.keys(all));
assert.eq('héllo ✓', doc.str);
assert.eq('Long', doc.i64._bsontype);
assert.eq('9007199254740993', doc.i64.toString());
assert.eq('Decimal128', doc.dec._bsontype);
assert.eq('1.10', doc.dec.toString());
assert.eq('Timestamp', doc.ts._bsontype);
assert.eq('MinKey', doc.min._bsontype);
assert.eq('MaxKey', doc.max._bsontype);
assert.eq(4, doc.uuid.sub_type);
assert.eq(ISODate('2020-01-02T03:04:05.678Z').getTime(), doc.date.getTime());
assert.eq(null, doc.nul);
// $type confirms how each value was stored.
const types = {dbl: 'double', str: 'string', obj: 'object', arr: 'array', bin: 'binData', oid: 'objectId',
               t: 'bool', date: 'date', nul: 'null', re: 'regex', i32: 'int', ts: 'timestamp', i64: 'long',
               dec: 'decimal', min: 'minKey', max: 'maxKey'};
for (const f of Object.keys(types)) {
  const q = {_id: 'types'};
  q[f] = {$type: types[f]};
  assert.eq(1, t.types.countDocuments(q), f + ' stored as ' + types[f]);
}

// Equality on embedded documents is exact, including field order.
assert.commandWorked(t.runCommand({insert: 'emb', documents: [{_id: 1, e: {a: 1, b: 2}}]}));
assert.eq(1, t.emb.countDocuments({e: {a: 1, b: 2}}));
assert.eq(0, t.emb.countDocuments({e: {b: 2, a: 1}}));
assert.eq(0, t.emb.countDocuments({e: {a: 1}}));
assert.eq(1, t.emb.countDocuments({'e.a': 1}));

// Numeric equality crosses numeric types.
assert.commandWorked(t.runCommand({insert: 'num', documents: [{_id: 1, v: NumberInt(5)}, {_id: 2, v: NumberLong('5')},
                                                                  {_id: 3, v: 5.0}, {_id: 4, v: NumberDecimal('5')},
                                                                  {_id: 5, v: '5'}]}));
assert.eq(4, t.num.countDocuments({v: 5}));
assert.eq(1, t.num.countDocuments({v: '5'}));

// Empty filter, no filter.
assert.eq(2, t.num.find({}, {_id: 1}).limit(2).toArray().length);
res = assert.commandWorked(t.runCommand({find: 'num'}));
assert.eq(5, res.cursor.firstBatch.length);
print('insert_find.js OK');
