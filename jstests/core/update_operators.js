// Update operators, one by one: $set $unset $inc $mul $rename $min $max $currentDate $push
// (with $each $slice $sort $position) $addToSet $pop $pull $pullAll, positional $, $[] and
// $[<id>] with arrayFilters, pipeline updates, reply shapes and operator errors.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_update_operators');

// Runs one update statement against a fresh copy of `doc`; returns [reply, resulting doc].
function upd(doc, u, extra) {
  t.c.drop();
  assert.commandWorked(t.runCommand({insert: 'c', documents: [doc]}));
  const stmt = Object.assign({q: {_id: doc._id}, u: u}, extra || {});
  const res = runCmd(t, {update: 'c', updates: [stmt]});
  return [res, t.c.findOne({_id: doc._id})];
}
function ok(doc, u, expected, extra) {
  const [res, after] = upd(doc, u, extra);
  assert.commandWorked(res, tojson(u));
  assert.eq(1, res.n, tojson(res));
  assert.docEqOrdered(expected, after, 'update ' + tojson(u));
  return res;
}
function fails(doc, u, code, extra) {
  const [res, after] = upd(doc, u, extra);
  assert.writeErrorWithCode(res, code, 0, 'update ' + tojson(u) + ' -> ' + tojson(res));
  assert.docEqOrdered(doc, after, 'a failed update leaves the document alone');
  return res;
}

// --- reply shape
let res = ok({_id: 1, a: 1}, {$set: {a: 2}}, {_id: 1, a: 2});
assert.eq(1, res.nModified);
assert.eq(undefined, res.upserted);
res = ok({_id: 1, a: 1}, {$set: {a: 1}}, {_id: 1, a: 1});
assert.eq(0, res.nModified, 'setting the same value is not a modification');

// --- $set
ok({_id: 1, a: 1, b: 1}, {$set: {b: 2, c: 3}}, {_id: 1, a: 1, b: 2, c: 3});
ok({_id: 1}, {$set: {'x.y.z': 1}}, {_id: 1, x: {y: {z: 1}}});
ok({_id: 1, x: {a: 1}}, {$set: {'x.b': 2}}, {_id: 1, x: {a: 1, b: 2}});
ok({_id: 1, arr: [1, 2]}, {$set: {'arr.1': 9}}, {_id: 1, arr: [1, 9]});
ok({_id: 1, arr: [1]}, {$set: {'arr.3': 4}}, {_id: 1, arr: [1, null, null, 4]}, undefined);
ok({_id: 1, arr: [{a: 1}]}, {$set: {'arr.0.b': 2}}, {_id: 1, arr: [{a: 1, b: 2}]});
ok({_id: 1, a: 1}, {$set: {a: {nested: [1, 2]}}}, {_id: 1, a: {nested: [1, 2]}});
fails({_id: 1, a: 5}, {$set: {'a.b': 1}}, 28 /* PathNotViable */);
// New fields are appended in lexicographic order when several are created at once.
ok({_id: 1}, {$set: {z: 1, b: 2, m: 3}}, {_id: 1, b: 2, m: 3, z: 1});

// --- $unset
ok({_id: 1, a: 1, b: 2}, {$unset: {a: ''}}, {_id: 1, b: 2});
ok({_id: 1, x: {y: 1, z: 2}}, {$unset: {'x.y': 1}}, {_id: 1, x: {z: 2}});
ok({_id: 1, arr: [1, 2, 3]}, {$unset: {'arr.1': 1}}, {_id: 1, arr: [1, null, 3]});
res = ok({_id: 1, a: 1}, {$unset: {nosuch: 1}}, {_id: 1, a: 1});
assert.eq(0, res.nModified);

// --- $inc and numeric type rules
ok({_id: 1, a: 1}, {$inc: {a: 2}}, {_id: 1, a: 3});
ok({_id: 1}, {$inc: {a: 5}}, {_id: 1, a: 5});
ok({_id: 1, a: 1}, {$inc: {a: -1.5}}, {_id: 1, a: -0.5});
ok({_id: 1, x: {n: 1}}, {$inc: {'x.n': 1, 'x.m': 1}}, {_id: 1, x: {n: 2, m: 1}});
upd({_id: 1, a: NumberInt(2147483647)}, {$inc: {a: NumberInt(1)}});
assert.eq(1, t.c.countDocuments({_id: 1, a: {$type: 'long'}}), 'int32 overflow promotes to int64');
assert.eq('2147483648', t.c.findOne().a.toString());
upd({_id: 1, a: NumberInt(1)}, {$inc: {a: 1.5}});
assert.eq(1, t.c.countDocuments({a: 2.5, _id: 1}));
assert.eq(1, t.c.countDocuments({a: {$type: 'double'}}));
upd({_id: 1, a: NumberLong('1')}, {$inc: {a: NumberInt(1)}});
assert.eq(1, t.c.countDocuments({a: {$type: 'long'}}), 'long + int stays long');
fails({_id: 1, a: 'str'}, {$inc: {a: 1}}, 14 /* TypeMismatch */);
fails({_id: 1, a: 1}, {$inc: {a: 'x'}}, 14);

// --- $mul
ok({_id: 1, a: 3}, {$mul: {a: 4}}, {_id: 1, a: 12});
ok({_id: 1}, {$mul: {a: 4}}, {_id: 1, a: 0});
ok({_id: 1, a: 2}, {$mul: {a: 0.5}}, {_id: 1, a: 1});
fails({_id: 1, a: 'x'}, {$mul: {a: 2}}, 14);

// --- $rename
ok({_id: 1, a: 1, b: 2}, {$rename: {a: 'z'}}, {_id: 1, b: 2, z: 1});
ok({_id: 1, a: 1, x: {}}, {$rename: {a: 'x.y'}}, {_id: 1, x: {y: 1}});
res = ok({_id: 1, b: 2}, {$rename: {nosuch: 'z'}}, {_id: 1, b: 2});
assert.eq(0, res.nModified);
assert.writeErrorWithCode(upd({_id: 1, a: 1}, {$rename: {a: 'a'}})[0], 2 /* BadValue */, 0);

// --- $min / $max
ok({_id: 1, a: 5}, {$min: {a: 3}}, {_id: 1, a: 3});
res = ok({_id: 1, a: 5}, {$min: {a: 7}}, {_id: 1, a: 5});
assert.eq(0, res.nModified);
ok({_id: 1, a: 5}, {$max: {a: 7}}, {_id: 1, a: 7});
ok({_id: 1}, {$max: {a: 7}}, {_id: 1, a: 7});
ok({_id: 1, a: 5}, {$min: {a: null}}, {_id: 1, a: null}, undefined);  // null sorts before numbers
ok({_id: 1, a: 5}, {$max: {a: 'str'}}, {_id: 1, a: 'str'});            // strings sort after numbers

// --- $currentDate
const before = new Date();
upd({_id: 1}, {$currentDate: {d: true, ts: {$type: 'timestamp'}, d2: {$type: 'date'}}});
const cd = t.c.findOne();
assert(isDate(cd.d) && isDate(cd.d2), tojson(cd));
assert.gte(cd.d.getTime(), before.getTime() - 5000);
assert.eq('Timestamp', cd.ts._bsontype);
fails({_id: 1}, {$currentDate: {d: {$type: 'string'}}}, 2);

// --- $setOnInsert does nothing to an existing document
res = ok({_id: 1, a: 1}, {$setOnInsert: {b: 1}}, {_id: 1, a: 1});
assert.eq(0, res.nModified);

// --- $push
ok({_id: 1, arr: [1]}, {$push: {arr: 2}}, {_id: 1, arr: [1, 2]});
ok({_id: 1}, {$push: {arr: 2}}, {_id: 1, arr: [2]});
ok({_id: 1, arr: [1]}, {$push: {arr: [2, 3]}}, {_id: 1, arr: [1, [2, 3]]});
ok({_id: 1, arr: [1]}, {$push: {arr: {$each: [2, 3]}}}, {_id: 1, arr: [1, 2, 3]});
ok({_id: 1, arr: [1, 2]}, {$push: {arr: {$each: [3, 4], $slice: -3}}}, {_id: 1, arr: [2, 3, 4]});
ok({_id: 1, arr: [1, 2]}, {$push: {arr: {$each: [3, 4], $slice: 2}}}, {_id: 1, arr: [1, 2]});
ok({_id: 1, arr: [3, 1]}, {$push: {arr: {$each: [2], $sort: 1}}}, {_id: 1, arr: [1, 2, 3]});
ok({_id: 1, arr: [3, 1]}, {$push: {arr: {$each: [2], $sort: -1, $slice: 2}}}, {_id: 1, arr: [3, 2]});
ok({_id: 1, arr: [{s: 2}, {s: 1}]}, {$push: {arr: {$each: [{s: 3}], $sort: {s: 1}}}},
   {_id: 1, arr: [{s: 1}, {s: 2}, {s: 3}]});
ok({_id: 1, arr: [1, 2]}, {$push: {arr: {$each: [9], $position: 0}}}, {_id: 1, arr: [9, 1, 2]});
ok({_id: 1, arr: [1, 2]}, {$push: {arr: {$each: [9], $position: -1}}}, {_id: 1, arr: [1, 9, 2]});
ok({_id: 1, arr: [1]}, {$push: {arr: {$each: []}}}, {_id: 1, arr: [1]});
fails({_id: 1, arr: 5}, {$push: {arr: 1}}, 2 /* BadValue: not an array */);

// --- $addToSet
ok({_id: 1, s: [1, 2]}, {$addToSet: {s: 2}}, {_id: 1, s: [1, 2]});
ok({_id: 1, s: [1, 2]}, {$addToSet: {s: 3}}, {_id: 1, s: [1, 2, 3]});
ok({_id: 1, s: [1, 2]}, {$addToSet: {s: {$each: [2, 3, 3, 4]}}}, {_id: 1, s: [1, 2, 3, 4]});
ok({_id: 1}, {$addToSet: {s: 'a'}}, {_id: 1, s: ['a']});
ok({_id: 1, s: [{a: 1, b: 2}]}, {$addToSet: {s: {b: 2, a: 1}}}, {_id: 1, s: [{a: 1, b: 2}, {b: 2, a: 1}]});
fails({_id: 1, s: 'x'}, {$addToSet: {s: 1}}, 2);

// --- $pop
ok({_id: 1, arr: [1, 2, 3]}, {$pop: {arr: 1}}, {_id: 1, arr: [1, 2]});
ok({_id: 1, arr: [1, 2, 3]}, {$pop: {arr: -1}}, {_id: 1, arr: [2, 3]});
ok({_id: 1, arr: []}, {$pop: {arr: 1}}, {_id: 1, arr: []});
fails({_id: 1, arr: [1]}, {$pop: {arr: 2}}, 9 /* FailedToParse */);

// --- $pull / $pullAll
ok({_id: 1, arr: [1, 2, 3, 2]}, {$pull: {arr: 2}}, {_id: 1, arr: [1, 3]});
ok({_id: 1, arr: [1, 2, 3, 4]}, {$pull: {arr: {$gte: 3}}}, {_id: 1, arr: [1, 2]});
ok({_id: 1, arr: [{k: 'x', v: 1}, {k: 'y', v: 2}]}, {$pull: {arr: {k: 'x'}}}, {_id: 1, arr: [{k: 'y', v: 2}]});
ok({_id: 1, arr: [1, 2, 3, 1]}, {$pullAll: {arr: [1, 3]}}, {_id: 1, arr: [2]});
ok({_id: 1, arr: [[1, 2], [3]]}, {$pull: {arr: [3]}}, {_id: 1, arr: [[1, 2]]});

// --- positional operators
t.c.drop();
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 1, arr: [1, 2, 3], items: [{k: 'a', v: 1}, {k: 'b', v: 2}]}]}));
assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {_id: 1, arr: 2}, u: {$set: {'arr.$': 20}}}]}));
assert.eq([1, 20, 3], t.c.findOne().arr);
assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {'items.k': 'b'}, u: {$inc: {'items.$.v': 10}}}]}));
assert.eq(12, t.c.findOne().items[1].v);
assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {_id: 1}, u: {$inc: {'arr.$[]': 1}}}]}));
assert.eq([2, 21, 4], t.c.findOne().arr);
assert.commandWorked(t.runCommand({update: 'c', updates: [
  {q: {_id: 1}, u: {$set: {'arr.$[big]': 0}}, arrayFilters: [{big: {$gt: 3}}]}]}));
assert.eq([2, 0, 0], t.c.findOne().arr);
assert.commandWorked(t.runCommand({update: 'c', updates: [
  {q: {_id: 1}, u: {$set: {'items.$[it].v': -1}}, arrayFilters: [{'it.k': 'a'}]}]}));
assert.docEq([{k: 'a', v: -1}, {k: 'b', v: 12}], t.c.findOne().items);
assert.writeErrorWithCode(runCmd(t, {update: 'c', updates: [{q: {_id: 1}, u: {$set: {'arr.$': 1}}}]}), 2,
                          0, 'positional operator without a matching array in the query');
assert.writeErrorWithCode(runCmd(t, {update: 'c', updates: [{q: {_id: 1}, u: {$set: {'arr.$[x]': 1}}}]}), 2,
                          0, 'no array filter for the identifier');
assert.commandFailedWithCode(
    runCmd(t, {update: 'c', updates: [{q: {_id: 1}, u: {$set: {a: 1}}, arrayFilters: [{unused: 1}]}]}), 9);

// --- pipeline-style updates
t.c.drop();
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 1, a: 2, b: 3, junk: 1}]}));
assert.commandWorked(t.runCommand({update: 'c', updates: [
  {q: {_id: 1}, u: [{$set: {sum: {$add: ['$a', '$b']}}}, {$unset: 'junk'}]}]}));
assert.docEqOrdered({_id: 1, a: 2, b: 3, sum: 5}, t.c.findOne());

// --- multi
t.c.drop();
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 1, g: 1}, {_id: 2, g: 1}, {_id: 3, g: 2}]}));
res = assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {g: 1}, u: {$set: {x: 1}}, multi: true}]}));
assert.eq(2, res.n);
assert.eq(2, res.nModified);
res = assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {g: 1}, u: {$set: {y: 1}}}]}));
assert.eq(1, res.n, 'multi defaults to false');
res = assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {g: 99}, u: {$set: {y: 1}}}]}));
assert.eq(0, res.n);
assert.eq(0, res.nModified);

// --- errors
fails({_id: 1, a: 1}, {$set: {a: 1}, $inc: {a: 1}}, 40 /* ConflictingUpdateOperators */);
fails({_id: 1, a: {b: 1}}, {$set: {a: 1, 'a.b': 2}}, 40);
fails({_id: 1, a: 1}, {$set: {_id: 2}}, 66 /* ImmutableField */);
res = fails({_id: 1, a: 1}, {$foo: {a: 1}}, 9 /* FailedToParse */);
assert(/Unknown modifier: \$foo/.test(res.writeErrors[0].errmsg), tojson(res));
fails({_id: 1, a: 1}, {$set: 5}, 9);
fails({_id: 1, a: 1}, {$inc: {'': 1}}, 56 /* EmptyFieldName */);
res = runCmd(t, {update: 'c', updates: [{q: {_id: 1}, u: {b: 1}, multi: true}]});
assert.commandFailed(res, 'multi with a replacement document');
print('update_operators.js OK');
