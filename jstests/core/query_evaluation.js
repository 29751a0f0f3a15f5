// Evaluation query operators: $regex (and /regex/ literals with options), $mod, $expr, and
// bitwise operators.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_query_evaluation');
assert.commandWorked(t.runCommand({insert: 'c', documents: [
  {_id: 1, s: 'apple', n: 10, m: 3, bits: 5}, {_id: 2, s: 'Apricot', n: 11, m: 20, bits: 6},
  {_id: 3, s: 'banana\nApple', n: -4, m: -5, bits: 0}, {_id: 4, s: ['grape', 'avocado'], n: 12.5},
  {_id: 5, n: 'ten'}
]}));

function ids(filter) {
  const r = assert.commandWorked(t.runCommand({find: 'c', filter: filter, sort: {_id: 1}, projection: {_id: 1}}));
  return r.cursor.firstBatch.map((d) => d._id);
}

// --- $regex
assert.eq([1], ids({s: /^ap/}));
assert.eq([1, 2], ids({s: /^ap/i}));
assert.eq([1, 2], ids({s: {$regex: '^ap', $options: 'i'}}));
assert.eq([1, 2], ids({s: {$regex: /^ap/i}}));
assert.eq([1, 2, 3], ids({s: {$regex: '^ap', $options: 'im'}}), 'm: ^ matches after a newline');
assert.eq([4], ids({s: /^av/}), 'regex matches array elements');
assert.eq([1, 3], ids({s: /pple$/}));
assert.eq([1], ids({s: {$regex: '^a p # comment', $options: 'x'}}), 'x ignores whitespace and comments');
assert.eq([3], ids({s: {$regex: 'banana.Apple', $options: 's'}}), 's: dot matches newline');
assert.eq([], ids({s: {$regex: 'banana.Apple'}}));
assert.eq([2], ids({s: {$in: [/^Apr/, 'nothing']}}));
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {s: {$regex: '('}}}), 51091 /* invalid regex */);
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {s: {$regex: 'a', $options: 'q'}}}), 51108);
assert.commandFailed(runCmd(t, {find: 'c', filter: {s: {$regex: 5}}}));

// --- $mod: [divisor, remainder]; truncates towards zero like C.
assert.eq([1], ids({n: {$mod: [5, 0]}}));
assert.eq([2], ids({n: {$mod: [5, 1]}}));
assert.eq([3], ids({n: {$mod: [3, -1]}}));
assert.eq([1, 3, 4], ids({n: {$mod: [2, 0]}}), '12.5 truncates to 12');
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {n: {$mod: [5]}}}), 2);
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {n: {$mod: [5, 1, 2]}}}), 2);
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {n: {$mod: [0, 1]}}}), 2);
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {n: {$mod: 5}}}), 2);

// --- $expr: aggregation expressions comparing fields of the same document.
// Missing compares below numbers, strings above them.
assert.eq([1, 3, 4, 5], ids({$expr: {$gt: ['$n', '$m']}}));
assert.eq([2], ids({$expr: {$lt: ['$n', '$m']}}));
assert.eq([1, 2, 3], ids({$expr: {$eq: [{$type: '$m'}, 'int']}}));
assert.eq([1], ids({$expr: {$eq: ['$s', 'apple']}}));
assert.eq([1, 2, 3, 4, 5], ids({$expr: true}));
assert.eq([1, 2], ids({$expr: {$and: [{$gte: ['$n', 10]}, {$lt: ['$n', 12]}]}}));
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {$expr: {$noSuchOp: 1}}}), 168 /* InvalidPipelineOperator */);

// --- bitwise
assert.eq([1], ids({bits: {$bitsAllSet: [0, 2]}}));
assert.eq([1], ids({bits: {$bitsAllSet: 5}}));
assert.eq([1, 2], ids({bits: {$bitsAnySet: [2]}}));
assert.eq([3], ids({bits: {$bitsAllClear: 7}}));
assert.eq([2, 3], ids({bits: {$bitsAnyClear: [0]}}));
print('query_evaluation.js OK');
