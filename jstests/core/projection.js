// find projections: inclusion, exclusion, _id handling, dotted paths through arrays, $slice,
// $elemMatch, positional $, computed fields, and the errors for mixing modes.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_projection');
assert.commandWorked(t.runCommand({insert: 'c', documents: [
  {_id: 1, name: 'n1', a: 1, b: 2, c: 3, x: {y: 1, z: 2}, arr: [1, 2, 3, 4, 5],
   items: [{k: 'x', v: 1}, {k: 'y', v: 2}, {k: 'y', v: 3}], mixed: [{y: 1, z: 1}, {z: 2}, 5]},
]}));

function proj(projection, filter) {
  const r = assert.commandWorked(t.runCommand({find: 'c', filter: filter || {_id: 1}, projection: projection}));
  assert.eq(1, r.cursor.firstBatch.length);
  return r.cursor.firstBatch[0];
}

// Inclusion keeps _id and the document's own field order, whatever the projection's order.
let d = proj({c: 1, a: 1});
assert.docEqOrdered({_id: 1, a: 1, c: 3}, d);
assert.docEqOrdered({a: 1}, proj({a: 1, _id: 0}));
assert.docEqOrdered({a: 1}, proj({a: true, _id: false}));
assert.docEqOrdered({_id: 1, a: 1}, proj({a: 5}), 'any non-zero number includes');
assert.docEqOrdered({_id: 1, a: 1}, proj({a: 1, nosuch: 1}), 'missing fields are not invented');
// Exclusion.
d = proj({arr: 0, items: 0, mixed: 0, x: 0, name: 0});
assert.docEqOrdered({_id: 1, a: 1, b: 2, c: 3}, d);
d = proj({_id: 0, arr: 0, items: 0, mixed: 0, x: 0});
assert.docEqOrdered({name: 'n1', a: 1, b: 2, c: 3}, d);
// Empty projection returns the whole document.
assert.eq(['_id', 'name', 'a', 'b', 'c', 'x', 'arr', 'items', 'mixed'], Object.keys(proj({})));

// Dotted paths.
assert.docEqOrdered({_id: 1, x: {y: 1}}, proj({'x.y': 1}));
assert.docEqOrdered({_id: 1, x: {z: 2}}, proj({'x.y': 0, name: 0, a: 0, b: 0, c: 0, arr: 0, items: 0, mixed: 0}));
// Inclusion through an array keeps sub-documents (possibly empty) and drops scalars.
assert.docEqOrdered({_id: 1, mixed: [{y: 1}, {}]}, proj({'mixed.y': 1}));
// Exclusion through an array keeps scalars.
assert.docEqOrdered({mixed: [{z: 1}, {z: 2}, 5]}, proj({_id: 0, 'mixed.y': 0, name: 0, a: 0, b: 0, c: 0, x: 0, arr: 0, items: 0}));
assert.docEqOrdered({_id: 1, items: [{v: 1}, {v: 2}, {v: 3}]}, proj({'items.v': 1}));
// Embedded-document form of a dotted path.
assert.docEqOrdered({_id: 1, x: {y: 1}}, proj({x: {y: 1}}));

// $slice keeps every other field unless there is an inclusion.
d = proj({arr: {$slice: 2}});
assert.eq([1, 2], d.arr);
assert.eq('n1', d.name);
assert.eq([4, 5], proj({arr: {$slice: -2}}).arr);
assert.eq([2, 3], proj({arr: {$slice: [1, 2]}}).arr);
assert.eq([4, 5], proj({arr: {$slice: [-2, 5]}}).arr);
assert.eq([], proj({arr: {$slice: [10, 2]}}).arr);
assert.docEqOrdered({_id: 1, arr: [1]}, proj({arr: {$slice: 1}, a: 0, b: 0, c: 0, name: 0, x: 0, items: 0, mixed: 0}));
assert.docEqOrdered({_id: 1, name: 'n1', arr: [1]}, proj({name: 1, arr: {$slice: 1}}));

// $elemMatch returns only the first matching element.
d = proj({name: 1, items: {$elemMatch: {k: 'y'}}});
assert.docEqOrdered({_id: 1, name: 'n1', items: [{k: 'y', v: 2}]}, d);
d = proj({name: 1, items: {$elemMatch: {k: 'nope'}}});
assert.docEqOrdered({_id: 1, name: 'n1'}, d, 'no match: the field is left out');

// Positional $ projects the first element matched by the query.
d = proj({'items.$': 1}, {'items.v': {$gte: 2}});
assert.docEqOrdered({_id: 1, items: [{k: 'y', v: 2}]}, d);
d = proj({'arr.$': 1}, {arr: 4});
assert.docEqOrdered({_id: 1, arr: [4]}, d);

// Computed fields (aggregation expressions) in find projections.
d = proj({a: 1, total: {$add: ['$a', '$b', '$c']}, lit: {$literal: 1}, up: {$toUpper: '$name'}});
assert.docEq({_id: 1, a: 1, total: 6, lit: 1, up: 'N1'}, d);
d = proj({_id: 0, renamed: '$x.z'});
assert.docEq({renamed: 2}, d);

// Errors.
let r = assert.commandFailedWithCode(runCmd(t, {find: 'c', projection: {a: 1, b: 0}}), 31254);
assert(/Cannot do exclusion on field b in inclusion projection/.test(r.errmsg), r.errmsg);
r = assert.commandFailedWithCode(runCmd(t, {find: 'c', projection: {a: 0, b: 1}}), 31253);
assert(/Cannot do inclusion on field b in exclusion projection/.test(r.errmsg), r.errmsg);
assert.commandFailed(runCmd(t, {find: 'c', projection: {a: 1, 'a.b': 1}}), 'path collision');
assert.commandFailed(runCmd(t, {find: 'c', projection: {arr: {$slice: 'x'}}}));
assert.commandFailedWithCode(runCmd(t, {find: 'c', projection: 5}), 14 /* TypeMismatch */);
// _id: 0 may be combined with either mode.
assert.docEqOrdered({b: 2}, proj({_id: 0, b: 1}));
print('projection.js OK');
