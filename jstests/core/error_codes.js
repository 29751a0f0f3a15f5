// Error replies of malformed commands: codes, codeNames and message shapes, as MongoDB 7.0
// gives them (CommandNotFound, BadValue, TypeMismatch, unknown/missing IDL fields,
// InvalidNamespace, ...). Also checks that generic arguments are accepted everywhere.
load(__dirname + '/../lib/assert.js');

const t = testDB('jstests_error_codes');
assert.commandWorked(t.runCommand({insert: 'c', documents: [{_id: 1, a: 1}]}));

// Unknown command.
let r = assert.commandFailedWithCode(runCmd(t, {noSuchCommandHere: 1}), 59);
assert.eq('CommandNotFound', r.codeName);
assert.eq("no such command: 'noSuchCommandHere'", r.errmsg);
assert.eq(0, r.ok);
// The command name is the first field.
r = assert.commandFailedWithCode(runCmd(t, {filter: {}, find: 'c'}), 59);
assert.eq("no such command: 'filter'", r.errmsg);
// Command names are case sensitive (apart from documented aliases).
assert.commandFailedWithCode(runCmd(t, {FIND: 'c'}), 59);

// Bad query operators: BadValue.
r = assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: {a: {$nosuchop: 1}}}), 2);
assert.eq('BadValue', r.codeName);

// Wrong types of command fields: TypeMismatch (14).
r = assert.commandFailedWithCode(runCmd(t, {find: 'c', filter: 'a'}), 14);
assert.eq('TypeMismatch', r.codeName);
assert(/BSON field '.*filter' is the wrong type 'string', expected type 'object'/.test(r.errmsg), r.errmsg);
assert.commandFailedWithCode(runCmd(t, {insert: 'c', documents: {a: 1}}), 14);
assert.commandFailedWithCode(runCmd(t, {insert: 'c', documents: [1]}), 14);
assert.commandFailedWithCode(runCmd(t, {update: 'c', updates: [{q: 1, u: {}}]}), 14);
assert.commandFailedWithCode(runCmd(t, {find: 'c', projection: 'x'}), 14);
assert.commandFailedWithCode(runCmd(t, {aggregate: 'c', pipeline: [], cursor: 1}), 14);
assert.commandFailedWithCode(runCmd(t, {find: 'c', singleBatch: 'yes'}), 14);

// Unknown fields in a command: 40415; missing required fields: 40414.
r = assert.commandFailedWithCode(runCmd(t, {find: 'c', nosuchfield: 1}), 40415);
assert(/BSON field '.*nosuchfield' is an unknown field/.test(r.errmsg), r.errmsg);
assert.eq('Location40415', r.codeName);
assert.commandFailedWithCode(runCmd(t, {insert: 'c', documents: [{}], nosuchfield: 1}), 40415);
r = assert.commandFailedWithCode(runCmd(t, {insert: 'c'}), 40414);
assert(/BSON field 'insert.documents' is missing but a required field/.test(r.errmsg), r.errmsg);
assert.eq('Location40414', r.codeName);
assert.commandFailedWithCode(runCmd(t, {update: 'c'}), 40414);
assert.commandFailedWithCode(runCmd(t, {update: 'c', updates: [{q: {}}]}), 40414);

// Invalid namespaces: 73.
r = assert.commandFailedWithCode(runCmd(t, {find: ''}), 73);
assert.eq('InvalidNamespace', r.codeName);
assert.commandFailedWithCode(runCmd(t, {insert: '', documents: [{}]}), 73);
assert.commandFailedWithCode(runCmd(t, {insert: 'a$b', documents: [{}]}), 73);
assert.commandFailedWithCode(runCmd(t, {find: 5}), [2, 73]);

// Generic arguments are accepted by every command.
assert.commandWorked(t.runCommand({find: 'c', comment: 'a comment', maxTimeMS: 10000}));
assert.commandWorked(t.runCommand({ping: 1, comment: {any: 'value'}}));
assert.commandWorked(t.runCommand({insert: 'c', documents: [{}], writeConcern: {w: 1}, comment: 'x'}));
assert.commandWorked(t.runCommand({find: 'c', readConcern: {level: 'local'}}));
assert.commandWorked(t.runCommand({count: 'c', comment: 'x'}));
assert.commandWorked(t.runCommand({aggregate: 'c', pipeline: [], cursor: {}, comment: 'x', maxTimeMS: 5000}));

// Error replies have exactly the standard fields.
r = runCmd(t, {noSuchCommandHere: 1});
for (const k of Object.keys(r)) {
  assert(['ok', 'errmsg', 'code', 'codeName', '$clusterTime', 'operationTime'].includes(k), 'unexpected field ' + k);
}
// A failed command does not break the connection.
assert.commandWorked(t.runCommand({ping: 1}));
assert.eq(2, t.c.countDocuments({}));
print('error_codes.js OK');
