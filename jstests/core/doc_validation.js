// Document validation (MongoDB 7.0): validators checked on create, enforced on insert, update
// (operators, replacement, pipeline), upsert, findAndModify, $out and $merge, with
// validationLevel, validationAction, bypassDocumentValidation, and DocumentValidationFailure's
// errInfo {failingDocumentId, details}.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_doc_validation');

// --- create checks the validator and the validation options
assert.commandFailedWithCode(runCmd(t, {create: 'bad', validator: 7}), 14 /* TypeMismatch */);
assert.commandFailedWithCode(runCmd(t, {create: 'bad', validator: {$where: 'true'}}), 2);
assert.commandFailedWithCode(runCmd(t, {create: 'bad', validator: {$text: {$search: 'x'}}}), 2);
assert.commandFailedWithCode(runCmd(t, {create: 'bad', validator: {a: {$near: [0, 0]}}}), 2);
assert.commandFailedWithCode(runCmd(t, {create: 'bad', validator: {$or: [{$where: 'true'}]}}), 2);
assert.commandFailedWithCode(runCmd(t, {create: 'bad', validator: {a: {$foo: 1}}}), 2);
assert.commandFailedWithCode(runCmd(t, {create: 'bad', validator: {$jsonSchema: {invalid: 1}}}), 9);
assert.commandFailedWithCode(runCmd(t, {create: 'bad', validator: {$expr: {$eq: ['$a', '$$unbound']}}}), 17276);
assert.commandFailedWithCode(runCmd(t, {create: 'bad', validationLevel: 'sometimes'}), 2 /* BadValue */);
assert.commandFailedWithCode(runCmd(t, {create: 'bad', validationAction: 'shout'}), 2);
assert.commandFailedWithCode(runCmd(t, {create: 'bad', validationLevel: 1}), 14);
for (const other of ['admin', 'local', 'config']) {
  assert.commandFailedWithCode(runCmd(db.getSiblingDB(other), {create: 'jstests_doc_validation', validator: {a: 1}}),
                               72 /* InvalidOptions */);
}
assert.commandFailedWithCode(runCmd(t, {create: 'system.foo', validator: {a: 1}}), [72, 73]);
assert.eq([], t.getCollectionNames().filter((n) => n === 'bad'));

// --- inserts: errInfo details, ordered/unordered, bypass
assert.commandWorked(t.runCommand({create: 'q', validator: {a: {$gt: 5}, b: {$type: 'string'}}}));
let res = assert.writeReply(t.runCommand({insert: 'q', documents: [{_id: 1, a: 6, b: 'x'}, {_id: 2, a: 3, b: 'y'}, {_id: 3, a: 7, b: 'z'}]}));
assert.eq(1, res.n);
let we = assert.writeErrorWithCode(res, 121, 1);
assert.eq('Document failed validation', we.errmsg);
assert.docEqOrdered({
  failingDocumentId: 2,
  details: {operatorName: '$and', clausesNotSatisfied: [{index: 0, details: {
    operatorName: '$gt', specifiedAs: {a: {$gt: 5}}, reason: 'comparison failed', consideredValue: 3}}]}
}, we.errInfo);
assert.fieldOrder(we, ['index', 'code', 'errInfo', 'errmsg']);
res = assert.writeReply(t.runCommand({insert: 'q', ordered: false, documents: [{_id: 4, a: 1}, {_id: 5, a: 9, b: 'ok'}, {_id: 6, b: 1}]}));
assert.eq(1, res.n);
assert.eq([0, 2], res.writeErrors.map((w) => w.index));
assert.docEqOrdered({operatorName: '$and', clausesNotSatisfied: [
  {index: 0, details: {operatorName: '$gt', specifiedAs: {a: {$gt: 5}}, reason: 'field was missing'}},
  {index: 1, details: {operatorName: '$type', specifiedAs: {b: {$type: 'string'}}, reason: 'type did not match',
                       consideredValue: 1, consideredType: 'int'}}]}, res.writeErrors[1].errInfo.details);
assert.sameMembers([1, 5], t.q.find().toArray().map((d) => d._id), 'rejected documents leave no trace');
assert.commandWorked(t.runCommand({insert: 'q', documents: [{_id: 7}], bypassDocumentValidation: true}));
// An ordered insert stops at its first failing statement, whatever the reason.
res = assert.writeReply(t.runCommand({insert: 'q', documents: [{_id: 1, a: 9, b: 'dup'}, {_id: 70, a: 0}]}));
assert.eq(1, res.writeErrors.length, tojson(res));
assert.writeErrorWithCode(res, 11000, 0);
res = assert.writeReply(t.runCommand({insert: 'q', ordered: false, documents: [{_id: 1, a: 9, b: 'dup'}, {_id: 70, a: 0}]}));
assert.eq([11000, 121], res.writeErrors.map((w) => w.code));
assert.commandFailedWithCode(runCmd(t, {insert: 'q', documents: [{_id: 8}], bypassDocumentValidation: 'yes'}), 14);
// An _id the server generates is reported too.
we = assert.writeErrorWithCode(t.runCommand({insert: 'q', documents: [{a: 0}]}), 121, 0);
assert.eq('objectId', typeof we.errInfo.failingDocumentId === 'object' ? 'objectId' : typeof we.errInfo.failingDocumentId);

// --- updates: operator, replacement, pipeline, upsert, multi
we = assert.writeErrorWithCode(t.runCommand({update: 'q', updates: [{q: {_id: 1}, u: {$set: {a: 0}}}]}), 121, 0);
assert.docEqOrdered({failingDocumentId: 1, details: {operatorName: '$and', clausesNotSatisfied: [{index: 0, details: {
  operatorName: '$gt', specifiedAs: {a: {$gt: 5}}, reason: 'comparison failed', consideredValue: 0}}]}}, we.errInfo);
assert.writeErrorWithCode(t.runCommand({update: 'q', updates: [{q: {_id: 1}, u: {a: 10}}]}), 121, 0);
assert.writeErrorWithCode(t.runCommand({update: 'q', updates: [{q: {_id: 1}, u: [{$set: {b: 5}}]}]}), 121, 0);
assert.writeErrorWithCode(t.runCommand({update: 'q', updates: [{q: {_id: 50}, u: {$set: {a: 1}}, upsert: true}]}), 121, 0);
assert.eq(0, t.q.countDocuments({_id: 50}), 'a rejected upsert inserts nothing');
res = assert.commandWorked(t.runCommand({update: 'q', updates: [{q: {_id: 60}, u: {$set: {a: 8, b: 's'}}, upsert: true}]}));
assert.eq(60, res.upserted[0]._id);
assert.docEq({_id: 1, a: 6, b: 'x'}, t.q.findOne({_id: 1}));
res = assert.commandWorked(t.runCommand({update: 'q', updates: [{q: {_id: 1}, u: {$set: {a: 0}}}], bypassDocumentValidation: true}));
assert.eq(1, res.nModified);
// A no-op update is not validated (nothing is written).
assert.commandWorked(t.runCommand({update: 'q', updates: [{q: {_id: 1}, u: {$set: {a: 0}}}]}));

// --- validationLevel moderate: updates of documents that were already invalid are not checked
assert.commandWorked(t.runCommand({create: 'm', validator: {a: {$type: 'number'}}, validationLevel: 'moderate'}));
assert.commandWorked(t.runCommand({insert: 'm', documents: [{_id: 1, a: 'str'}, {_id: 2, a: 1}], bypassDocumentValidation: true}));
assert.commandWorked(t.runCommand({update: 'm', updates: [{q: {_id: 1}, u: {$set: {a: 'still a string'}}}]}));
assert.writeErrorWithCode(t.runCommand({update: 'm', updates: [{q: {_id: 2}, u: {$set: {a: 'now a string'}}}]}), 121, 0);
assert.writeErrorWithCode(t.runCommand({insert: 'm', documents: [{_id: 3, a: 'x'}]}), 121, 0);
assert.eq('moderate', t.getCollectionInfos({name: 'm'})[0].options.validationLevel);

// --- validationLevel off
assert.commandWorked(t.runCommand({create: 'off', validator: {a: 1}, validationLevel: 'off'}));
assert.commandWorked(t.runCommand({insert: 'off', documents: [{a: 2}]}));

// --- validationAction warn: the write succeeds and the server logs 20294
assert.commandWorked(t.runCommand({create: 'w', validator: {a: {$exists: true}}, validationAction: 'warn'}));
const marker = 'warned-doc-' + new ObjectId().toHexString();
assert.commandWorked(t.runCommand({insert: 'w', documents: [{_id: marker, b: 1}]}));
assert.eq(1, t.w.countDocuments({}));
const logLines = assert.commandWorked(db.adminCommand({getLog: 'global'})).log
    .filter((l) => l.includes('"id":20294') && l.includes(marker));
assert.eq(1, logLines.length, 'one "Document would fail validation" warning');
const line = JSON.parse(logLines[0]);
assert.eq('W', line.s);
assert.eq('Document would fail validation', line.msg);
assert.eq('jstests_doc_validation.w', line.attr.namespace);
assert.eq('path does not exist', line.attr.errInfo.details.reason);

// --- findAndModify: an error reply with errInfo; bypass
res = runCmd(t, {findAndModify: 'q', query: {_id: 5}, update: {$set: {a: -1}}});
assert.commandFailedWithCode(res, 121);
assert.eq('Document failed validation', res.errmsg);
assert.eq(5, res.errInfo.failingDocumentId);
assert.eq('$and', res.errInfo.details.operatorName);
assert.fieldOrder(res, ['ok', 'errmsg', 'code', 'codeName', 'errInfo'].filter((f) => f in res));
assert.commandWorked(t.runCommand({findAndModify: 'q', query: {_id: 5}, update: {$set: {a: -1}}, bypassDocumentValidation: true}));
assert.commandFailedWithCode(runCmd(t, {findAndModify: 'q', query: {_id: 99}, update: {$set: {a: 1}}, upsert: true}), 121);
assert.eq(0, t.q.countDocuments({_id: 99}));

// --- $out and $merge into a validated collection
assert.commandWorked(t.runCommand({create: 'src'}));
assert.commandWorked(t.runCommand({insert: 'src', documents: [{_id: 1, a: 10, b: 'x'}, {_id: 2, a: 1, b: 'y'}]}));
assert.commandWorked(t.runCommand({create: 'outv', validator: {a: {$gt: 5}}}));
res = runCmd(t, {aggregate: 'src', pipeline: [{$out: 'outv'}], cursor: {}});
assert.commandFailedWithCode(res, 121);
assert.eq(2, res.errInfo.failingDocumentId);
assert.eq(0, t.outv.countDocuments({}), 'a failed $out leaves the target as it was');
assert.commandWorked(t.runCommand({aggregate: 'src', pipeline: [{$out: 'outv'}], cursor: {}, bypassDocumentValidation: true}));
assert.eq(2, t.outv.countDocuments({}));
assert.docEq({a: {$gt: 5}}, t.getCollectionInfos({name: 'outv'})[0].options.validator, '$out keeps the validator');
assert.commandWorked(t.runCommand({create: 'mergev', validator: {a: {$gt: 5}}}));
res = runCmd(t, {aggregate: 'src', pipeline: [{$merge: {into: 'mergev'}}], cursor: {}});
assert.commandFailedWithCode(res, 121);
assert.eq(2, res.errInfo.failingDocumentId);
assert.commandWorked(t.runCommand({aggregate: 'src', pipeline: [{$merge: {into: 'mergev'}}], cursor: {}, bypassDocumentValidation: true}));
assert.eq(2, t.mergev.countDocuments({}));

// --- $jsonSchema validators report MongoDB's schema details
assert.commandWorked(t.runCommand({create: 'students', validator: {$jsonSchema: {
  bsonType: 'object', required: ['name', 'year'], title: 'Student',
  properties: {
    name: {bsonType: 'string', description: 'must be a string'},
    year: {bsonType: 'int', minimum: 2017, maximum: 3017},
    major: {enum: ['Math', 'English', null]},
  }}}}));
we = assert.writeErrorWithCode(t.runCommand({insert: 'students', documents: [{_id: 1, name: 5, year: NumberInt(2000), major: 'Art'}]}), 121, 0);
assert.docEqOrdered({operatorName: '$jsonSchema', title: 'Student', schemaRulesNotSatisfied: [{
  operatorName: 'properties', propertiesNotSatisfied: [
    {propertyName: 'name', description: 'must be a string', details: [{operatorName: 'bsonType', specifiedAs: {bsonType: 'string'},
      reason: 'type did not match', consideredValue: 5, consideredType: 'int'}]},
    {propertyName: 'year', details: [{operatorName: 'minimum', specifiedAs: {minimum: 2017}, reason: 'comparison failed',
      consideredValue: 2000}]},
    {propertyName: 'major', details: [{operatorName: 'enum', specifiedAs: {enum: ['Math', 'English', null]},
      reason: 'value was not found in enum', consideredValue: 'Art'}]}]}]}, we.errInfo.details);
we = assert.writeErrorWithCode(t.runCommand({insert: 'students', documents: [{_id: 2, name: 'ann'}]}), 121, 0);
assert.docEqOrdered({operatorName: '$jsonSchema', title: 'Student', schemaRulesNotSatisfied: [
  {operatorName: 'required', specifiedAs: {required: ['name', 'year']}, missingProperties: ['year']}]}, we.errInfo.details);
assert.commandWorked(t.runCommand({insert: 'students', documents: [{_id: 3, name: 'bo', year: NumberInt(2020)}]}));

// --- $expr validators, including one that cannot be evaluated on a document
assert.commandWorked(t.runCommand({create: 'ex', validator: {$expr: {$lt: ['$lo', '$hi']}}}));
we = assert.writeErrorWithCode(t.runCommand({insert: 'ex', documents: [{_id: 1, lo: 5, hi: 1}]}), 121, 0);
assert.docEqOrdered({operatorName: '$expr', specifiedAs: {$expr: {$lt: ['$lo', '$hi']}}, reason: 'expression did not match',
                     expressionResult: false}, we.errInfo.details);
assert.commandWorked(t.runCommand({create: 'exthrow', validator: {$expr: {$eq: [{$divide: ['$a', '$b']}, 1]}}}));
we = assert.writeErrorWithCode(t.runCommand({insert: 'exthrow', documents: [{_id: 1, a: 1, b: 0}]}), 121, 0);
assert.eq('failed to evaluate aggregation expression', we.errInfo.details.reason);
assert.eq('number', typeof we.errInfo.details.details.code);
assert.commandWorked(t.runCommand({insert: 'exthrow', documents: [{_id: 2, a: 2, b: 2}]}));

// --- $or / $nor / $not shapes
assert.commandWorked(t.runCommand({create: 'lg', validator: {$nor: [{a: {$lt: 0}}, {b: {$not: {$type: 'string'}}}]}}));
we = assert.writeErrorWithCode(t.runCommand({insert: 'lg', documents: [{_id: 1, a: -1, b: 'x'}]}), 121, 0);
assert.docEqOrdered({operatorName: '$nor', clausesSatisfied: [{index: 0, details: {operatorName: '$lt',
  specifiedAs: {a: {$lt: 0}}, reason: 'comparison succeeded', consideredValue: -1}}]}, we.errInfo.details);
print('doc_validation.js OK');
