// $unwind (string and document forms), $lookup (equality and pipeline forms) and
// $replaceRoot / $replaceWith.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_agg_unwind_lookup');
assert.commandWorked(t.runCommand({insert: 'orders', documents: [
  {_id: 1, item: 'pen', tags: ['a', 'b'], qty: 2, sub: {x: 1, y: {z: 2}}},
  {_id: 2, item: 'ink', tags: [], qty: 1},
  {_id: 3, item: 'pad', tags: 'solo', qty: 5},
  {_id: 4, item: 'cup', qty: 0, tags: null},
  {_id: 5, item: ['pen', 'pad']},
]}));
assert.commandWorked(t.runCommand({insert: 'items', documents: [
  {_id: 'i1', name: 'pen', price: 3}, {_id: 'i2', name: 'pad', price: 7}, {_id: 'i3', name: 'pen', price: 4}
]}));

function agg(coll, pipeline) {
  return assert.commandWorked(t.runCommand({aggregate: coll, pipeline: pipeline, cursor: {}})).cursor.firstBatch;
}

// --- $unwind
let r = agg('orders', [{$unwind: '$tags'}, {$project: {tags: 1}}, {$sort: {_id: 1, tags: 1}}]);
assert.docEq([{_id: 1, tags: 'a'}, {_id: 1, tags: 'b'}, {_id: 3, tags: 'solo'}], r,
             'empty arrays, null and missing produce nothing; a scalar is one element');
r = agg('orders', [{$unwind: {path: '$tags', preserveNullAndEmptyArrays: true}}, {$project: {tags: 1}}, {$sort: {_id: 1, tags: 1}}]);
assert.docEq([{_id: 1, tags: 'a'}, {_id: 1, tags: 'b'}, {_id: 2}, {_id: 3, tags: 'solo'}, {_id: 4, tags: null}, {_id: 5}], r);
r = agg('orders', [{$unwind: {path: '$tags', includeArrayIndex: 'idx'}}, {$project: {tags: 1, idx: 1}}, {$sort: {_id: 1, idx: 1}}]);
assert.docEq([{_id: 1, tags: 'a', idx: 0}, {_id: 1, tags: 'b', idx: 1}, {_id: 3, tags: 'solo', idx: null}], r);
assert.eq('long', agg('orders', [{$unwind: {path: '$tags', includeArrayIndex: 'idx'}}, {$limit: 1},
                                 {$project: {t: {$type: '$idx'}}}])[0].t, 'includeArrayIndex is an int64');
// Unwinding a nested path.
assert.commandWorked(t.runCommand({insert: 'nested', documents: [{_id: 1, a: {b: [1, 2]}}]}));
assert.docEq([{_id: 1, a: {b: 1}}, {_id: 1, a: {b: 2}}], agg('nested', [{$unwind: '$a.b'}]));
assert.commandFailedWithCode(runCmd(t, {aggregate: 'orders', pipeline: [{$unwind: 'tags'}], cursor: {}}), 28818);
assert.commandFailed(runCmd(t, {aggregate: 'orders', pipeline: [{$unwind: {}}], cursor: {}}));

// --- $lookup (localField/foreignField)
r = agg('orders', [{$match: {_id: {$in: [1, 2, 5]}}},
                   {$lookup: {from: 'items', localField: 'item', foreignField: 'name', as: 'matches'}},
                   {$project: {ids: '$matches._id'}}, {$sort: {_id: 1}}]);
assert.eq(3, r.length);
assert.sameMembers(['i1', 'i3'], r[0].ids);
assert.eq([], r[1].ids, 'no match gives an empty array');
assert.sameMembers(['i1', 'i2', 'i3'], r[2].ids, 'an array localField matches any element');
// The joined documents are whole documents.
r = agg('orders', [{$match: {_id: 3}}, {$lookup: {from: 'items', localField: 'item', foreignField: 'name', as: 'm'}}]);
assert.docEq([{_id: 'i2', name: 'pad', price: 7}], r[0].m);
// A missing localField matches foreign documents whose field is null or missing.
assert.commandWorked(t.runCommand({insert: 'nulls', documents: [{_id: 'n1'}, {_id: 'n2', name: null}, {_id: 'n3', name: 'x'}]}));
r = agg('orders', [{$match: {_id: 2}}, {$project: {_id: 1}},
                   {$lookup: {from: 'nulls', localField: 'nosuch', foreignField: 'name', as: 'm'}}]);
assert.sameMembers(['n1', 'n2'], r[0].m.map((d) => d._id));
// A collection that does not exist joins as empty.
r = agg('orders', [{$match: {_id: 1}}, {$lookup: {from: 'nosuch', localField: 'item', foreignField: 'name', as: 'm'}}]);
assert.eq([], r[0].m);
// 'as' may overwrite an existing field and may be dotted.
r = agg('orders', [{$match: {_id: 3}}, {$lookup: {from: 'items', localField: 'item', foreignField: 'name', as: 'sub.found'}},
                   {$project: {n: {$size: '$sub.found'}}}]);
assert.eq(1, r[0].n);

// --- $lookup with let and pipeline
r = agg('orders', [{$match: {_id: 1}},
                   {$lookup: {from: 'items', let: {nm: '$item', q: '$qty'},
                              pipeline: [{$match: {$expr: {$and: [{$eq: ['$name', '$$nm']}, {$gt: ['$price', '$$q']}]}}},
                                         {$project: {_id: 1}}],
                              as: 'expensive'}}]);
assert.sameMembers([{_id: 'i1'}, {_id: 'i3'}], r[0].expensive);
r = agg('orders', [{$match: {_id: 1}},
                   {$lookup: {from: 'items', pipeline: [{$count: 'n'}], as: 'cnt'}}]);
assert.docEq([{n: 3}], r[0].cnt, 'an uncorrelated sub-pipeline');
assert.commandFailed(runCmd(t, {aggregate: 'orders', pipeline: [{$lookup: {from: 'items', localField: 'item', as: 'x'}}], cursor: {}}));
assert.commandFailed(runCmd(t, {aggregate: 'orders', pipeline: [{$lookup: {from: 'items', localField: 'a', foreignField: 'b'}}], cursor: {}}));

// --- $replaceRoot / $replaceWith
r = agg('orders', [{$match: {_id: 1}}, {$replaceRoot: {newRoot: '$sub'}}]);
assert.docEqOrdered([{x: 1, y: {z: 2}}], r);
r = agg('orders', [{$match: {_id: 1}}, {$replaceWith: '$sub.y'}]);
assert.docEqOrdered([{z: 2}], r);
r = agg('orders', [{$match: {_id: 1}}, {$replaceRoot: {newRoot: {id: '$_id', item: '$item', total: {$multiply: ['$qty', 2]}}}}]);
assert.docEqOrdered([{id: 1, item: 'pen', total: 4}], r);
r = agg('orders', [{$match: {_id: 1}}, {$replaceWith: {$mergeObjects: [{qty: 0, extra: true}, '$sub']}}]);
assert.docEq([{qty: 0, extra: true, x: 1, y: {z: 2}}], r);
// newRoot must be a document.
r = assert.commandFailedWithCode(runCmd(t, {aggregate: 'orders', pipeline: [{$replaceRoot: {newRoot: '$item'}}], cursor: {}}),
                                 40228);
assert.commandFailedWithCode(runCmd(t, {aggregate: 'orders', pipeline: [{$match: {_id: 2}}, {$replaceRoot: {newRoot: '$sub'}}],
                                        cursor: {}}), 40228, 'missing newRoot');
assert.commandFailed(runCmd(t, {aggregate: 'orders', pipeline: [{$replaceRoot: {}}], cursor: {}}));
print('agg_unwind_lookup_replace_root.js OK');
