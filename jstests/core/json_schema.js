// $jsonSchema as a query operator (find, aggregate $match, count, in $or / $elemMatch) and its
// parse errors, as MongoDB 7.0.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_json_schema');
function ids(filter) {
  return allDocs(t, assert.commandWorked(t.runCommand({find: 'c', filter: filter, projection: {_id: 1}, sort: {_id: 1}})))
      .map((d) => d._id);
}

assert.commandWorked(t.runCommand({insert: 'c', documents: [
  {_id: 0, num: 3}, {_id: 1, num: -3}, {_id: 2, num: NumberInt(2)}, {_id: 3, num: NumberInt(-2)},
  {_id: 4, num: NumberLong('1')}, {_id: 5, num: NumberLong('-1')}, {_id: 6, num: {}}, {_id: 7, num: 'str'},
  {_id: 8, num: 'string'}, {_id: 9},
]}));

// --- matching
assert.eq([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], ids({$jsonSchema: {}}));
assert.eq([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], ids({$jsonSchema: {type: 'object'}}));
assert.eq([], ids({$jsonSchema: {type: 'string'}}), 'a top-level type that excludes objects matches nothing');
assert.eq([], ids({$jsonSchema: {bsonType: 'objectId'}}));
assert.eq([0, 1, 2, 3, 4, 5, 9], ids({$jsonSchema: {properties: {num: {type: 'number'}}}}));
assert.eq([1, 3, 5, 9], ids({$jsonSchema: {properties: {num: {type: 'number', maximum: -1}}}}));
assert.eq([4, 5, 9], ids({$jsonSchema: {properties: {num: {bsonType: 'long'}}}}));
assert.eq([5, 9], ids({$jsonSchema: {properties: {num: {bsonType: 'long', maximum: 0}}}}));
assert.eq([1, 3, 5, 6, 7, 8, 9], ids({$jsonSchema: {properties: {num: {maximum: 0}}}}), 'maximum ignores non-numbers');
assert.eq([7, 8, 9], ids({$jsonSchema: {properties: {num: {type: 'string', maximum: 0}}}}));
assert.eq([7, 9], ids({$jsonSchema: {properties: {num: {type: 'string', maxLength: 3}}}}));
assert.eq([8, 9], ids({$jsonSchema: {properties: {num: {type: 'string', minLength: 4}}}}));
assert.eq([8, 9], ids({$jsonSchema: {properties: {num: {type: 'string', pattern: 'ing'}}}}));
assert.eq([0, 1, 2, 3, 4, 5, 6, 7, 8], ids({$jsonSchema: {required: ['num']}}));
assert.eq([0, 1, 2, 3, 9], ids({$jsonSchema: {properties: {num: {bsonType: 'int'}}}}), 'the shell sends integral numbers as int');
assert.eq([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], ids({$jsonSchema: {title: 'x', description: 'y'}}));
assert.eq([7, 9], ids({$jsonSchema: {properties: {num: {enum: ['str', 5]}}}}));
assert.eq([0, 2, 4, 9], ids({$jsonSchema: {properties: {num: {not: {maximum: -1}}}}}), 'maximum holds vacuously for non-numbers');
assert.eq([2, 3, 4, 5, 9], ids({$jsonSchema: {properties: {num: {oneOf: [{minimum: 3}, {maximum: -3}, {type: 'number'}]}}}}));

// Combined with other operators, in aggregate and count.
assert.eq([0, 6, 7], ids({$or: [{num: 3}, {$jsonSchema: {properties: {num: {bsonType: ['object', 'string']}}}, _id: {$lt: 8}}]}));
let r = assert.commandWorked(t.runCommand({aggregate: 'c', pipeline: [{$match: {$jsonSchema: {required: ['num'], properties: {num: {type: 'object'}}}}}], cursor: {}}));
assert.eq([6], r.cursor.firstBatch.map((d) => d._id));
assert.eq(2, assert.commandWorked(t.runCommand({count: 'c', query: {$jsonSchema: {properties: {num: {type: 'string'}}, required: ['num']}}})).n);

assert.commandWorked(t.runCommand({insert: 'arr', documents: [
  {_id: 0, arr: 3}, {_id: 1, arr: [1, 'foo']}, {_id: 2, arr: [{a: 1}, {b: 2}]}, {_id: 3, arr: []}, {_id: 4, arr: {a: []}},
  {_id: 5, arr: [1, 1]}, {_id: 6, arr: [{x: 1, y: 2}, {y: 2, x: 1}]},
]}));
function arrIds(schema) {
  const res = assert.commandWorked(t.runCommand({find: 'arr', filter: {$jsonSchema: schema}, sort: {_id: 1}}));
  return res.cursor.firstBatch.map((d) => d._id);
}
assert.eq([1, 2, 3, 5, 6], arrIds({properties: {arr: {type: 'array'}}}));
assert.eq([0], arrIds({properties: {arr: {type: 'number'}}}), 'no implicit array traversal');
assert.eq([0, 1, 2, 4, 5, 6], arrIds({properties: {arr: {minItems: 1}}}));
assert.eq([0, 1, 2, 3, 4], arrIds({properties: {arr: {uniqueItems: true}}}), 'documents compare regardless of field order');
assert.eq([0, 2, 3, 4, 6], arrIds({properties: {arr: {items: {type: 'object'}}}}));
assert.eq([0, 1, 3, 4, 5], arrIds({properties: {arr: {items: [{type: 'number'}]}}}));
assert.eq([0, 3, 4], arrIds({properties: {arr: {items: [{type: 'number'}], additionalItems: false, maxItems: 1}}}));
assert.eq([2, 6], arrIds({required: ['arr'], properties: {arr: {type: 'array', items: {type: 'object', minProperties: 1}, minItems: 2}}}));
// In $elemMatch the schema applies to each element that is a document.
r = assert.commandWorked(t.runCommand({find: 'arr', filter: {arr: {$elemMatch: {$jsonSchema: {required: ['b']}}}}}));
assert.eq([2], r.cursor.firstBatch.map((d) => d._id));

// --- parse errors
function fails(schema, code, msg) {
  const res = assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {$jsonSchema: schema}}), code);
  if (msg) assert.eq(msg, res.errmsg);
}
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {$jsonSchema: 'foo'}}), 14);
assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {$jsonSchema: []}}), 14);
fails({type: 3}, 14, "$jsonSchema keyword 'type' must be either a string or an array of strings");
fails({type: 'integer'}, 9, "$jsonSchema type 'integer' is not currently supported.");
fails({type: 'int'}, 2, 'Unknown type name alias: int');
fails({bsonType: 'integer'}, 9);
fails({properties: 3}, 14);
fails({properties: {num: 'number'}}, 14, "Nested schema for $jsonSchema property 'num' must be an object");
fails({properties: {num: {maximum: '0'}}}, 14, "$jsonSchema keyword 'maximum' must be a number");
fails({properties: {num: {maxLength: '0'}}}, 9);
fails({properties: {num: {minLength: -1}}}, 9);
fails({properties: {num: {pattern: 0}}}, 14, "$jsonSchema keyword 'pattern' must be a string");
for (const unsupported of ['default', 'definitions', 'format', 'id', '$ref', '$schema']) {
  fails({[unsupported]: 'x'}, 9, "$jsonSchema keyword '" + unsupported + "' is not currently supported");
}
fails({foo: 1}, 9, 'Unknown $jsonSchema keyword: foo');
fails({type: 'object', bsonType: 'object'}, 9, "Cannot specify both $jsonSchema keywords 'type' and 'bsonType'");
fails({required: []}, 9, "$jsonSchema keyword 'required' cannot be an empty array");
fails({required: ['a', 'a']}, 9);
fails({enum: []}, 9);
fails({allOf: []}, 2, "$jsonSchema keyword 'allOf' must be a non-empty array");
fails({anyOf: [1]}, 14);
fails({not: []}, 14);
fails({minimum: 1, exclusiveMinimum: 'yes'}, 14);
fails({exclusiveMaximum: true}, 9, "$jsonSchema keyword 'maximum' must be a present if exclusiveMaximum is present");
fails({multipleOf: -1}, 9, "$jsonSchema keyword 'multipleOf' must have a positive value");
fails({additionalProperties: 'no'}, 14);
fails({dependencies: {a: 1}}, 14);
fails({items: 1}, 14);
fails({title: 1}, 14, "$jsonSchema keyword 'title' must be of type string");
assert.eq('QueryFeatureNotAllowed', assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {$jsonSchema: {properties: {a: {encrypt: {}}}}}}), 224).codeName);
fails({properties: {a: {encrypt: {}}}}, 224, 'Encryption-related validator keywords are not allowed in this context');

// --- as a validator: stored as given, encrypt allowed
assert.commandWorked(t.runCommand({create: 'v', validator: {$jsonSchema: {properties: {a: {type: 'number'}, b: {minLength: 1}}}}}));
assert.docEq({$jsonSchema: {properties: {a: {type: 'number'}, b: {minLength: 1}}}},
             t.getCollectionInfos({name: 'v'})[0].options.validator);
assert.commandWorked(t.runCommand({create: 'enc', validator: {$jsonSchema: {properties: {
  ssn: {encrypt: {bsonType: 'string', algorithm: 'AEAD_AES_256_CBC_HMAC_SHA_512-Deterministic'}}}}}}));
assert.writeErrorWithCode(t.runCommand({insert: 'enc', documents: [{ssn: '123'}]}), 121, 0);
assert.commandFailedWithCode(runCmd(t, {create: 'enc2', validator: {$jsonSchema: {properties: {ssn: {encrypt: {foo: 1}}}}}}), 40415);
print('json_schema.js OK');
