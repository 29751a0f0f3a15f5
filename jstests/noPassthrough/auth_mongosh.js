// Authentication through mongosh's own helpers against a mongod started with --auth:
// db.createUser under the localhost exception, db.auth (SCRAM-SHA-256 and SCRAM-SHA-1),
// a wrong password, Unauthorized for a read-only user, db.getUser / db.getRole /
// db.grantRolesToUser / db.logout (the mongosh twin of tests/pymongo/test_auth.py).
load(__dirname + '/../lib/assert.js');
load(__dirname + '/../lib/mongod_runner.js');

const m = MongodRunner.start({args: ['--auth']});
const uri = 'mongodb://127.0.0.1:' + m.port + '/?directConnection=true';
let admin = m.conn.getDB('admin');

assert.commandFailedWithCode(runCmd(m.conn.getDB('test'), {find: 'c'}), 13);
admin.createUser({user: 'root', pwd: 'rootpw', roles: ['root']});
assert.commandFailedWithCode(runCmd(admin, {createUser: 'x', pwd: 'x', roles: []}), 13);

assert.eq(1, admin.auth('root', 'rootpw').ok);
const test = m.conn.getDB('test');
test.createUser({user: 'reader', pwd: 'readpw', roles: ['read']});
assert.commandWorked(test.runCommand({insert: 'c', documents: [{_id: 1}]}));
const u = test.getUser('reader');
assert.eq('test.reader', u._id);
assert.eq([{role: 'read', db: 'test'}], u.roles);
assert.eq(['SCRAM-SHA-1', 'SCRAM-SHA-256'], u.mechanisms);
assert.eq(true, test.getRole('read').isBuiltin);

for (const mechanism of ['SCRAM-SHA-256', 'SCRAM-SHA-1']) {
  const c = new Mongo(uri);
  const db = c.getDB('test');
  assert.eq(1, db.auth({user: 'reader', pwd: 'readpw', mechanism}).ok, mechanism);
  assert.eq(1, db.c.countDocuments({}));
  const r = runCmd(db, {insert: 'c', documents: [{_id: 2}]});
  assert.commandFailedWithCode(r, 13);
  assert(r.errmsg.startsWith('not authorized on test to execute command { insert: "c"'), r.errmsg);
  db.logout();
  assert.commandFailedWithCode(runCmd(db, {find: 'c'}), 13);
  c.close();
}

const c = new Mongo(uri);
let failed = null;
try {
  c.getDB('test').auth('reader', 'wrong');
} catch (e) {
  failed = e;
}
assert(failed !== null, 'a wrong password must fail');
assert.eq(18, failed.code, tojson(failed));
c.close();

test.grantRolesToUser('reader', ['readWrite']);
const w = new Mongo(uri);
assert.eq(1, w.getDB('test').auth('reader', 'readpw').ok);
assert.commandWorked(w.getDB('test').runCommand({insert: 'c', documents: [{_id: 3}]}));
w.close();
assert.eq(2, test.c.countDocuments({}));
m.stop();
