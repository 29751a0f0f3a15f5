// Collations through ICU (MongoDB 7.0's results): the collation document and its full form,
// case-insensitive and locale-aware matching and sorting, collated indexes (bounding strings only
// for a query with the same collation, never changing an answer), a collection's default
// collation, views, and MongoDB's errors for bad collations.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_collation');
const en2 = {locale: 'en', strength: 2};
const fullEn2 = {locale: 'en', caseLevel: false, caseFirst: 'off', strength: 2, numericOrdering: false,
                 alternate: 'non-ignorable', maxVariable: 'punct', normalization: false, backwards: false,
                 version: '57.1'};
function ids(cursorReply) { return cursorReply.cursor.firstBatch.map((d) => d._id); }
function find(cmd) { return ids(assert.commandWorked(t.runCommand(Object.assign({find: 'c'}, cmd)))); }

assert.commandWorked(t.runCommand({insert: 'c', documents: [
  {_id: 1, s: 'abc'}, {_id: 2, s: 'ABC'}, {_id: 3, s: 'Abd'}, {_id: 4, s: 'b'}, {_id: 5, s: 'B10'},
  {_id: 6, s: 'B9'}, {_id: 7, s: 'ábc'}, {_id: 8, s: 5}, {_id: 9, s: ['x', 'ABC']}, {_id: 10}]}));

// --- strength 2: case-insensitive, accent-sensitive; numbers and other types unchanged.
assert.eq([1, 2, 9], find({filter: {s: 'abc'}, collation: en2, sort: {_id: 1}}));
assert.eq([1], find({filter: {s: 'abc'}, sort: {_id: 1}}));
assert.eq([1, 2, 7, 9], find({filter: {s: 'abc'}, collation: {locale: 'en', strength: 1}, sort: {_id: 1}}));
assert.eq([1, 2, 9], find({filter: {s: {$in: ['ABC', 'zzz']}}, collation: en2, sort: {_id: 1}}));
assert.eq([3, 4, 5, 6, 7, 8, 10], find({filter: {s: {$ne: 'abc'}}, collation: en2, sort: {_id: 1}}));
assert.eq([3, 4, 5, 6, 7, 9], find({filter: {s: {$gt: 'abc', $lt: 'C'}}, collation: en2, sort: {_id: 1}}));
assert.eq([8], find({filter: {s: 5}, collation: en2}));
// Regexes ignore the collation, as in MongoDB.
assert.eq([1], find({filter: {s: /^abc$/}, collation: en2, sort: {_id: 1}}));

// --- sort order: locale order, numericOrdering, caseFirst.
assert.eq([8, 1, 2, 9, 7, 3, 4, 5, 6],
          find({filter: {_id: {$lte: 9}}, sort: {s: 1, _id: 1}, collation: {locale: 'en'}}));
assert.eq([6, 5], find({filter: {_id: {$in: [5, 6]}}, sort: {s: 1}, collation: {locale: 'en', numericOrdering: true}}));
assert.eq([5, 6], find({filter: {_id: {$in: [5, 6]}}, sort: {s: 1}}));
assert.eq([2, 1], find({filter: {_id: {$in: [1, 2]}}, sort: {s: 1}, collation: {locale: 'en', caseFirst: 'upper'}}));
assert.eq([1, 2], find({filter: {_id: {$in: [1, 2]}}, sort: {s: 1}, collation: {locale: 'en'}}));
// German phonebook order (ü as ue) and French Canadian backwards accents, as ICU orders them.
assert.commandWorked(t.runCommand({insert: 'de', documents: [{_id: 1, s: 'Mull'}, {_id: 2, s: 'Müller'}]}));
assert.eq([2, 1], ids(assert.commandWorked(t.runCommand(
    {find: 'de', sort: {s: 1}, collation: {locale: 'de@collation=phonebook'}}))));
assert.eq([1, 2], ids(assert.commandWorked(t.runCommand({find: 'de', sort: {s: 1}, collation: {locale: 'de'}}))));
assert.commandWorked(t.runCommand({insert: 'fr', documents: [{_id: 1, s: 'coté'}, {_id: 2, s: 'côte'}]}));
assert.eq([2, 1], ids(assert.commandWorked(t.runCommand({find: 'fr', sort: {s: 1}, collation: {locale: 'fr_CA'}}))));
assert.eq([1, 2], ids(assert.commandWorked(t.runCommand({find: 'fr', sort: {s: 1}, collation: {locale: 'fr'}}))));
// alternate shifted ignores spaces and punctuation.
assert.commandWorked(t.runCommand({insert: 'alt', documents: [{_id: 1, s: 'a b'}, {_id: 2, s: 'ab'}, {_id: 3, s: 'a-b'}]}));
assert.eq([1, 2, 3], ids(assert.commandWorked(t.runCommand(
    {find: 'alt', filter: {s: 'ab'}, sort: {_id: 1}, collation: {locale: 'en', alternate: 'shifted'}}))));

// --- count, distinct, update, delete, findAndModify under a collation.
assert.eq(3, assert.commandWorked(t.runCommand({count: 'c', query: {s: 'ABC'}, collation: en2})).n);
assert.eq(2, assert.commandWorked(t.runCommand({count: 'c', query: {s: 'ABC'}})).n);
let d = assert.commandWorked(t.runCommand({distinct: 'c', key: 's', query: {_id: {$in: [1, 2, 3]}}, collation: en2}));
assert.eq(2, d.values.length, tojson(d));
d = assert.commandWorked(t.runCommand({distinct: 'c', key: 's', query: {_id: {$in: [1, 2, 3]}}}));
assert.eq(3, d.values.length, tojson(d));
let r = assert.commandWorked(t.runCommand({update: 'c', updates: [{q: {s: 'ABD'}, u: {$set: {u: 1}}, multi: true, collation: en2}]}));
assert.eq(1, r.n);
assert.eq(1, t.c.findOne({_id: 3}).u);
r = assert.commandWorked(t.runCommand({findAndModify: 'c', query: {s: 'B9'}, update: {$set: {f: 1}}, new: true,
                                       collation: {locale: 'en', strength: 1}}));
assert.eq(6, r.value._id);
assert.eq(1, r.value.f);
r = assert.commandWorked(t.runCommand({delete: 'c', deletes: [{q: {s: 'AbC'}, limit: 0, collation: en2}]}));
assert.eq(3, r.n);
assert.eq(null, t.c.findOne({_id: 1}));
// Update operators that compare values follow the statement's collation.
function upd(u, extra) {
  assert.commandWorked(t.runCommand({update: 'uo', updates: [Object.assign({q: {_id: 1}, u: u, collation: en2}, extra || {})]}));
  return t.uo.findOne({_id: 1});
}
assert.commandWorked(t.runCommand({insert: 'uo', documents: [{_id: 1, a: ['a', 'b'], s: 'm', e: [{k: 'A', v: 1}, {k: 'b', v: 2}]}]}));
assert.eq(['a', 'b', 'C'], upd({$addToSet: {a: {$each: ['A', 'C', 'c']}}}).a);
assert.eq(['a', 'C'], upd({$pull: {a: 'B'}}).a);
assert.eq(['a'], upd({$pullAll: {a: ['c']}}).a);
assert.eq(['a', 'b', 'Z'], upd({$push: {a: {$each: ['Z', 'b'], $sort: 1}}}).a);
assert.eq('N', upd({$max: {s: 'N'}}).s);
assert.eq('N', upd({$min: {s: 'n'}}).s);  // equal under the collation: unchanged
assert.eq([{k: 'A', v: 9}, {k: 'b', v: 2}], upd({$set: {'e.$[x].v': 9}}, {arrayFilters: [{'x.k': 'a'}]}).e);
assert.eq(true, upd([{$set: {eq: {$eq: ['$s', 'n']}}}]).eq);
assert.eq([{k: 'A', v: 9}], upd({$pull: {e: {k: 'B'}}}).e);
// Without a collation: bytewise.
assert.commandWorked(t.runCommand({update: 'uo', updates: [{q: {_id: 1}, u: {$addToSet: {a: 'A'}}}]}));
assert.eq(['a', 'b', 'Z', 'A'], t.uo.findOne({_id: 1}).a);
// $expr in find and delete compares under the query's collation.
assert.eq([1], ids(assert.commandWorked(t.runCommand({find: 'uo', filter: {$expr: {$eq: ['$s', 'n']}}, collation: en2}))));
assert.eq([], ids(assert.commandWorked(t.runCommand({find: 'uo', filter: {$expr: {$eq: ['$s', 'n']}}}))));
// So do findAndModify's projection expressions, and explain's nWouldModify.
r = assert.commandWorked(t.runCommand({findAndModify: 'uo', query: {s: 'n'}, update: {$set: {f: 1}}, new: true,
                                       fields: {e: {$eq: ['$s', 'n']}}, collation: en2}));
assert.eq({_id: 1, e: true}, r.value);
r = assert.commandWorked(t.runCommand({explain: {update: 'uo', updates: [{q: {_id: 1}, u: {$addToSet: {a: 'z'}}, collation: en2}]},
                                       verbosity: 'executionStats'}));
assert.eq(0, r.executionStats.executionStages.nWouldModify);
// So do a find projection's expressions.
assert.eq([{_id: 1, e: true}], assert.commandWorked(t.runCommand(
    {find: 'uo', projection: {e: {$eq: ['$s', 'n']}}, collation: en2})).cursor.firstBatch);
assert.eq([{_id: 1, e: false}], assert.commandWorked(t.runCommand(
    {find: 'uo', projection: {e: {$eq: ['$s', 'n']}}})).cursor.firstBatch);

// --- a collated index: keys follow the collation; strings bounded only under the same collation.
assert.commandWorked(t.runCommand({insert: 'ix', documents: [
  {_id: 1, s: 'abc'}, {_id: 2, s: 'ABC'}, {_id: 3, s: 'abd'}, {_id: 4, s: 'Abe'}, {_id: 5, s: 10}]}));
assert.commandWorked(t.runCommand({createIndexes: 'ix', indexes: [{key: {s: 1}, name: 's_en2', collation: en2}]}));
let spec = t.ix.getIndexes().filter((i) => i.name === 's_en2')[0];
assert.docEqOrdered({v: 2, key: {s: 1}, name: 's_en2', collation: fullEn2}, spec);
function explainFind(cmd) {
  return assert.commandWorked(t.runCommand({explain: Object.assign({find: 'ix'}, cmd)}));
}
function usesIxscan(ex) { return JSON.stringify(ex.queryPlanner.winningPlan).includes('IXSCAN'); }
for (const filter of [{s: 'ABC'}, {s: {$gte: 'ABD'}}, {s: {$in: ['abe', 'x']}}, {s: 10}]) {
  const withIndex = find({find: 'ix', filter: filter, collation: en2, sort: {_id: 1}});
  const scanned = ids(assert.commandWorked(t.runCommand({find: 'ix', filter: filter, collation: en2, sort: {_id: 1},
                                                         hint: {$natural: 1}})));
  assert.eq(scanned, withIndex, tojson(filter));
  assert(usesIxscan(explainFind({filter: filter, collation: en2})), tojson(filter));
  // Under the simple collation the index may bound only values collations cannot affect
  // (MongoDB 7.0): the number, not the strings.
  assert.eq(typeof filter.s === 'number', usesIxscan(explainFind({filter: filter})), tojson(filter));
}
// An aggregate the plan answers whole is explained as a find (MongoDB 7.0): queryPlanner at the
// top, with the query's collation and optimizedPipeline, using the collated index.
let aex = assert.commandWorked(t.runCommand({explain: {aggregate: 'ix', pipeline: [{$match: {s: 'abc'}}], collation: en2,
                                                      cursor: {}}}));
assert.eq(undefined, aex.stages);
assert.eq(true, aex.queryPlanner.optimizedPipeline);
assert.docEqOrdered(fullEn2, aex.queryPlanner.collation);
assert(usesIxscan(aex), tojson(aex));
assert.eq([1, 2], find({find: 'ix', filter: {s: 'abc'}, collation: en2, sort: {_id: 1}}).slice(0, 2));
assert.eq([1], ids(assert.commandWorked(t.runCommand({find: 'ix', filter: {s: 'abc'}}))));
// A regex cannot use the collated keys: same answer as a collection scan.
assert.eq([1], ids(assert.commandWorked(t.runCommand({find: 'ix', filter: {s: /^ab/}, collation: en2, hint: 's_en2'}))).concat([]).slice(0, 1));
assert.eq([1, 3], ids(assert.commandWorked(t.runCommand({find: 'ix', filter: {s: /^ab/}, collation: en2, sort: {_id: 1}}))));
// A hinted index with another collation is scanned whole: the answer does not change.
assert.eq([1], ids(assert.commandWorked(t.runCommand({find: 'ix', filter: {s: 'abc'}, hint: 's_en2'}))));
// The sort order comes from the index under the same collation.
assert.eq([5, 1, 2, 3, 4], find({find: 'ix', filter: {}, sort: {s: 1, _id: 1}, collation: en2}));
// Uniqueness follows the collation.
assert.commandWorked(t.runCommand({createIndexes: 'u', indexes: [{key: {s: 1}, name: 's_u', unique: true, collation: en2}]}));
assert.commandWorked(t.runCommand({insert: 'u', documents: [{s: 'Hello'}]}));
r = t.runCommand({insert: 'u', documents: [{s: 'HELLO'}]});
assert.eq(11000, r.writeErrors[0].code, tojson(r));
// The key is a collation key (bytes): MongoDB 7.0 reports it in hex, with the index's collation.
let we = r.writeErrors[0];
assert.eq({s: 1}, we.keyPattern);
assert(/^[0-9a-f]+$/.test(we.keyValue.s), tojson(we));
assert.eq([true], we.hexEncoded);
assert.docEqOrdered(fullEn2, we.collation);
assert.eq('E11000 duplicate key error collection: jstests_collation.u index: s_u collation: { locale: "en", ' +
              'caseLevel: false, caseFirst: "off", strength: 2, numericOrdering: false, alternate: "non-ignorable", ' +
              'maxVariable: "punct", normalization: false, backwards: false, version: "57.1" } dup key: { s: "0x' +
              we.keyValue.s + '" }',
          we.errmsg);
// returnKey returns the keys as the index stores them: collation keys, the same for 'Hello' and
// 'HELLO' under strength 2 (the bytes the duplicate key error showed in hex), through the index.
const hexOf = (str) => Array.from(str).map((ch) => ch.charCodeAt(0).toString(16).padStart(2, '0')).join('');
let rk = assert.commandWorked(t.runCommand({find: 'u', filter: {s: 'hELLO'}, collation: en2, returnKey: true}));
assert.eq(1, rk.cursor.firstBatch.length, tojson(rk));
assert.eq(we.keyValue.s, hexOf(rk.cursor.firstBatch[0].s));
assert(JSON.stringify(assert.commandWorked(t.runCommand(
    {explain: {find: 'u', filter: {s: 'hELLO'}, collation: en2, returnKey: true}})).queryPlanner.winningPlan)
           .includes('IXSCAN'));
rk = assert.commandWorked(t.runCommand({find: 'ix', filter: {s: 'abc'}, collation: en2, returnKey: true, hint: 's_en2'}));
assert.eq(2, rk.cursor.firstBatch.length, tojson(rk));
assert.eq(rk.cursor.firstBatch[0], rk.cursor.firstBatch[1]);
assert.neq('abc', rk.cursor.firstBatch[0].s);
// Hinted under another collation: the index is scanned whole and still returns its keys.
rk = assert.commandWorked(t.runCommand({find: 'ix', filter: {s: 'abc'}, returnKey: true, hint: 's_en2'}));
assert.eq([rk.cursor.firstBatch[0]], rk.cursor.firstBatch);
// Same key, different collation: a different index.
assert.commandWorked(t.runCommand({createIndexes: 'ix', indexes: [{key: {s: 1}, name: 's_1'}]}));
assert.eq(3, t.ix.getIndexes().length);

// --- a collection's default collation: inherited by indexes and queries.
assert.commandWorked(t.runCommand({create: 'dc', collation: en2}));
let lc = assert.commandWorked(t.runCommand({listCollections: 1, filter: {name: 'dc'}})).cursor.firstBatch[0];
assert.docEqOrdered(fullEn2, lc.options.collation);
assert.docEqOrdered({v: 2, key: {_id: 1}, name: '_id_', collation: fullEn2}, lc.idIndex);
assert.commandWorked(t.runCommand({create: 'dc', collation: en2}));  // identical: no-op
assert.commandWorked(t.runCommand({insert: 'dc', documents: [{_id: 'a', s: 'x'}, {_id: 'b', s: 'X'}, {_id: 'c', s: 'y'}]}));
// The _id index follows the collation: "A" is a duplicate of "a".
r = t.runCommand({insert: 'dc', documents: [{_id: 'A'}]});
assert.eq(11000, r.writeErrors[0].code, tojson(r));
assert.eq(['a'], ids(assert.commandWorked(t.runCommand({find: 'dc', filter: {_id: 'A'}}))));
assert.eq(['a', 'b'], ids(assert.commandWorked(t.runCommand({find: 'dc', filter: {s: 'x'}, sort: {_id: 1}}))));
assert.eq(['a'], ids(assert.commandWorked(t.runCommand({find: 'dc', filter: {s: 'x'}, collation: {locale: 'simple'}}))));
assert.commandWorked(t.runCommand({createIndexes: 'dc', indexes: [{key: {s: 1}, name: 's_1'},
                                                                  {key: {t: 1}, name: 't_1', collation: {locale: 'simple'}}]}));
let dcIdx = t.dc.getIndexes();
assert.docEq(fullEn2, dcIdx.filter((i) => i.name === 's_1')[0].collation);
assert.eq(undefined, dcIdx.filter((i) => i.name === 't_1')[0].collation);
assert(JSON.stringify(assert.commandWorked(t.runCommand({explain: {find: 'dc', filter: {s: 'X'}}})).queryPlanner.winningPlan)
           .includes('IXSCAN'));
assert.eq(2, assert.commandWorked(t.runCommand({count: 'dc', query: {s: 'X'}})).n);
r = assert.commandWorked(t.runCommand({delete: 'dc', deletes: [{q: {s: 'Y'}, limit: 0}]}));
assert.eq(1, r.n);
// Aggregation runs under the collection's default collation unless the command gives one.
function agg(coll, pipeline, extra) {
  return assert.commandWorked(t.runCommand(Object.assign({aggregate: coll, pipeline: pipeline, cursor: {}}, extra || {})))
      .cursor.firstBatch;
}
assert.commandWorked(t.runCommand({insert: 'dc', documents: [{_id: 'd', s: 'X'}, {_id: 'e', s: 'x'}]}));
assert.eq([{_id: 'x', n: 4}], agg('dc', [{$match: {s: 'X'}}, {$group: {_id: {$toLower: '$s'}, n: {$sum: 1}}}]));
assert.eq([{_id: 'x', n: 2}], agg('dc', [{$match: {s: 'x'}}, {$group: {_id: '$s', n: {$sum: 1}}}],
                                  {collation: {locale: 'simple'}}));
assert.eq(4, t.dc.countDocuments({s: 'x'}));
assert.eq([{n: 4}], agg('dc', [{$match: {s: 'x'}}, {$count: 'n'}]));
// $group keys, $addToSet and expressions compare under it; $strcasecmp does not use it.
assert.eq(1, agg('dc', [{$match: {s: 'x'}}, {$group: {_id: '$s'}}]).length);
assert.eq(2, agg('dc', [{$match: {s: {$in: ['x', 'X']}}}, {$group: {_id: '$s'}}], {collation: {locale: 'simple'}}).length);
assert.eq([{_id: 'a', e: true, i: 0, set: ['x'], c: 0}],
          agg('dc', [{$match: {_id: 'a'}}, {$project: {e: {$eq: ['$s', 'X']}, i: {$indexOfArray: [['X'], '$s']},
                                                      set: {$setUnion: [['x', 'X']]}, c: {$strcasecmp: ['$s', 'X']}}}]));
assert.eq([true], agg('c', [{$limit: 1}, {$project: {_id: 0, e: {$eq: ['A', 'a']}}}], {collation: en2}).map((d) => d.e));
assert.eq([false], agg('c', [{$limit: 1}, {$project: {_id: 0, e: {$eq: ['A', 'a']}}}]).map((d) => d.e));
// $merge matches its 'on' fields under the pipeline's collation.
assert.commandWorked(t.runCommand({insert: 'ms', documents: [{_id: 'a', v: 1}]}));
assert.commandWorked(t.runCommand({insert: 'mt', documents: [{_id: 'A', w: 1}]}));
agg('ms', [{$merge: {into: 'mt'}}], {collation: en2});
assert.eq([{_id: 'A', w: 1, v: 1}], t.mt.find().toArray());
agg('ms', [{$merge: {into: 'mt'}}]);
assert.eq(2, t.mt.countDocuments({}));
// $sort follows it: "B" after "a" (simple: before).
assert.eq(['a', 'B'], agg('c', [{$limit: 1}, {$project: {_id: 0, v: ['B', 'a']}}, {$unwind: '$v'}, {$sort: {v: 1}}],
                          {collation: en2}).map((d) => d.v));
assert.eq(['B', 'a'], agg('c', [{$limit: 1}, {$project: {_id: 0, v: ['B', 'a']}}, {$unwind: '$v'}, {$sort: {v: 1}}])
                          .map((d) => d.v));

// --- views: a view has the simple collation; another one cannot override it.
assert.commandWorked(t.runCommand({create: 'v', viewOn: 'dc', pipeline: []}));
assert.eq(['a', 'e'], ids(assert.commandWorked(t.runCommand({find: 'v', filter: {s: 'x'}, sort: {_id: 1}}))));
assert.commandFailedWithCode(runCmd(t, {find: 'v', filter: {s: 'x'}, collation: en2}), 167);
assert.commandFailedWithCode(runCmd(t, {count: 'v', collation: en2}), 167);
// A view with a collation: its pipeline and every read of it run under it, never the
// collection's; views reading views must share it (167).
assert.commandWorked(t.runCommand({create: 'v2', viewOn: 'c', pipeline: [{$match: {s: {$in: ['B', 'abd']}}}], collation: en2}));
assert.docEq(fullEn2, assert.commandWorked(t.runCommand({listCollections: 1, filter: {name: 'v2'}})).cursor.firstBatch[0]
                          .options.collation);
assert.eq([3, 4], ids(assert.commandWorked(t.runCommand({find: 'v2', sort: {_id: 1}}))));
assert.eq([4], ids(assert.commandWorked(t.runCommand({find: 'v2', filter: {s: 'B'}, sort: {_id: 1}, collation: en2}))));
assert.eq(1, assert.commandWorked(t.runCommand({count: 'v2', query: {s: 'ABD'}})).n);
assert.eq(['Abd', 'b'], assert.commandWorked(t.runCommand({distinct: 'v2', key: 's'})).values);
assert.commandFailedWithCode(runCmd(t, {find: 'v2', collation: {locale: 'simple'}}), 167);
assert.commandFailedWithCode(runCmd(t, {aggregate: 'v2', pipeline: [], cursor: {}, collation: {locale: 'fr'}}), 167);
assert.commandFailedWithCode(runCmd(t, {create: 'v3', viewOn: 'v2', pipeline: []}), 167);
assert.commandWorked(t.runCommand({create: 'v3', viewOn: 'v2', pipeline: [], collation: en2}));
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', cursor: {}, pipeline: [{$lookup: {from: 'v2', pipeline: [], as: 'x'}}]}), 167);
assert.commandFailedWithCode(runCmd(t, {create: 'v4', viewOn: 'c', pipeline: [{$lookup: {from: 'v2', pipeline: [], as: 'x'}}]}), 167);

// --- errors, with MongoDB's codes.
const bad = [
  [{locale: 'xx'}, 2], [{locale: 'simple', strength: 2}, 9], [{strength: 2}, 40414], [{locale: 1}, 14],
  [{locale: 'en', strength: 6}, 51024], [{locale: 'en', strength: 0}, 2], [{locale: 'en', caseFirst: 'x'}, 2],
  [{locale: 'en', alternate: 'x'}, 2], [{locale: 'en', maxVariable: 'x'}, 2], [{locale: 'en', bogus: 1}, 40415],
  [{locale: 'en', caseLevel: 'yes'}, 14], [{locale: 'en', version: '1.0'}, 161], ['fr', 14]];
for (const [collation, code] of bad) {
  assert.commandFailedWithCode(runCmd(t, {find: 'c', collation: collation}), code, tojson(collation));
  assert.commandFailedWithCode(runCmd(t, {create: 'made', collation: collation}), code, tojson(collation));
}
r = runCmd(t, {find: 'c', collation: {locale: 'xx'}});
assert.eq('Field \'locale\' is invalid in: { locale: "xx" }', r.errmsg);
assert.commandFailedWithCode(runCmd(t, {createIndexes: 'c', indexes: [{key: {s: 1}, name: 'bad', collation: {}}]}), 2);
assert(!t.getCollectionNames().includes('made'));
print('collation.js OK');
