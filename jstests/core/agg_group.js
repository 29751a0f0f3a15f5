// $group: _id forms (null, field, compound, expression) and accumulators
// ($sum $avg $min $max $first $last $push $addToSet $count), with errors.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_agg_group');
assert.commandWorked(t.runCommand({insert: 'c', documents: [
  {_id: 1, g: 'a', h: 1, v: 10, s: 'p'}, {_id: 2, g: 'a', h: 2, v: 20, s: 'q'}, {_id: 3, g: 'b', h: 1, v: 5, s: 'p'},
  {_id: 4, g: 'b', h: 1, v: 'str', s: 'p'}, {_id: 5, g: 'c', h: 2}, {_id: 6, h: 3, v: 1.5}
]}));

function agg(pipeline) {
  return assert.commandWorked(t.runCommand({aggregate: 'c', pipeline: pipeline, cursor: {}})).cursor.firstBatch;
}

// _id: null groups everything.
assert.docEq([{_id: null, n: 6, total: 36.5}], agg([{$group: {_id: null, n: {$sum: 1}, total: {$sum: '$v'}}}]));
// Group by field; missing groups under null.
let r = agg([{$group: {_id: '$g', n: {$sum: 1}}}, {$sort: {_id: 1}}]);
assert.docEq([{_id: null, n: 1}, {_id: 'a', n: 2}, {_id: 'b', n: 2}, {_id: 'c', n: 1}], r);
// Compound _id.
r = agg([{$match: {g: {$exists: true}}}, {$group: {_id: {g: '$g', h: '$h'}, n: {$sum: 1}}}, {$sort: {'_id.g': 1, '_id.h': 1}}]);
assert.docEq([{_id: {g: 'a', h: 1}, n: 1}, {_id: {g: 'a', h: 2}, n: 1}, {_id: {g: 'b', h: 1}, n: 2},
              {_id: {g: 'c', h: 2}, n: 1}], r);
// Expression _id.
r = agg([{$group: {_id: {$mod: ['$h', 2]}, n: {$sum: 1}}}, {$sort: {_id: 1}}]);
assert.docEq([{_id: 0, n: 2}, {_id: 1, n: 4}], r);

// Accumulators per group. Non-numeric values are ignored by $sum/$avg.
r = agg([{$match: {g: {$in: ['a', 'b']}}}, {$sort: {_id: 1}},
         {$group: {_id: '$g', sum: {$sum: '$v'}, avg: {$avg: '$v'}, min: {$min: '$v'}, max: {$max: '$v'},
                   first: {$first: '$_id'}, last: {$last: '$_id'}, all: {$push: '$s'}, set: {$addToSet: '$s'},
                   cnt: {$count: {}}}},
         {$sort: {_id: 1}}]);
assert.eq(2, r.length);
assert.sameMembers(['p', 'q'], r[0].set, '$addToSet has no defined order');
delete r[0].set;
assert.docEq({_id: 'a', sum: 30, avg: 15, min: 10, max: 20, first: 1, last: 2, all: ['p', 'q'], cnt: 2}, r[0]);
assert.eq(5, r[1].sum);
assert.eq(5, r[1].avg);
assert.eq(5, r[1].min, '$min: numbers sort before strings');
assert.eq('str', r[1].max, '$max: strings sort after numbers');
assert.eq(['p', 'p'], r[1].all);
assert.eq(['p'], r[1].set);
// $avg of no numbers is null; $sum of nothing is 0; $min/$max ignore missing.
r = agg([{$match: {g: 'c'}}, {$group: {_id: '$g', a: {$avg: '$v'}, s: {$sum: '$v'}, mn: {$min: '$v'}, p: {$push: '$v'}}}]);
assert.docEq([{_id: 'c', a: null, s: 0, mn: null, p: []}], r);
// $sum type: ints stay int, double makes double.
r = agg([{$group: {_id: null, s: {$sum: '$h'}}}, {$project: {_id: 0, t: {$type: '$s'}, s: 1}}]);
assert.docEq([{s: 10, t: 'int'}], r);
r = agg([{$group: {_id: null, s: {$sum: '$v'}}}, {$project: {_id: 0, t: {$type: '$s'}}}]);
assert.docEq([{t: 'double'}], r);
// $push of documents and $first/$last after a sort.
r = agg([{$sort: {v: -1}}, {$match: {g: 'a'}}, {$group: {_id: '$g', top: {$first: {id: '$_id', v: '$v'}}, docs: {$push: '$$ROOT'}}}]);
assert.docEq({id: 2, v: 20}, r[0].top);
assert.eq(2, r[0].docs.length);
assert.eq('q', r[0].docs[0].s);
// $group output then further stages.
r = agg([{$group: {_id: '$h', n: {$sum: 1}}}, {$match: {n: {$gt: 1}}}, {$sort: {_id: 1}}]);
assert.docEq([{_id: 1, n: 3}, {_id: 2, n: 2}], r);

// Errors.
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: [{$group: {n: {$sum: 1}}}], cursor: {}}), 15955);
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: [{$group: {_id: null, n: {$nosuchacc: 1}}}], cursor: {}}),
                             15952);
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: [{$group: {_id: null, n: 1}}], cursor: {}}), 40234);
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: [{$group: {_id: null, 'a.b': {$sum: 1}}}], cursor: {}}),
                             40235);
assert.commandFailed(runCmd(t, {aggregate: 'c', pipeline: [{$group: 'x'}], cursor: {}}));
print('agg_group.js OK');
