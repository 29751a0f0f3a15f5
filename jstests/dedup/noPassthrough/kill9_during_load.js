// kill -9 of mongod --dedup in the middle of a load (inserts, updates and deletes of chain
// members with j:true, while write-backs are being applied): after a restart every
// acknowledged write is there, byte-identical, nothing is undecodable, and validate (full)
// finds reference counts that match the stored forms. Losing the engine's queues costs only
// compression.
load(__dirname + '/../../lib/assert.js');
load(__dirname + '/../../lib/mongod_runner.js');
load(__dirname + '/../../lib/dedup_data.js');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const docs = DedupData.load('peps-history', 1500);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dedup-kill9-'));
const docsFile = path.join(dir, 'docs.json');
const ackFile = path.join(dir, 'acks.jsonl');
fs.writeFileSync(docsFile, JSON.stringify(docs));

// The loader logs each operation before sending it ("sent") and once acknowledged ("acked").
const loader = `
import json, sys, time, pymongo
docs = json.load(open(sys.argv[2]))
log = open(sys.argv[3], "a", buffering=1)
c = pymongo.MongoClient(sys.argv[1], serverSelectionTimeoutMS=2000, socketTimeoutMS=5000, retryWrites=False)
coll = c.kill9.get_collection("c", write_concern=pymongo.WriteConcern(w=1, j=True))
def op(entry, fn):
    log.write(json.dumps(dict(entry, state="sent")) + "\\n")
    fn()
    log.write(json.dumps(dict(entry, state="acked")) + "\\n")
try:
    for i, d in enumerate(docs):
        if i % 40 == 39:
            time.sleep(0.05)  # client pauses: the server applies write-backs meanwhile
        op({"op": "i", "id": d["_id"], "body": d["body"]}, lambda: coll.insert_one(dict(d)))
        if i % 10 == 9:
            u = docs[i - 4]
            body = u["body"] + " -- edit %d" % i
            op({"op": "u", "id": u["_id"], "body": body}, lambda: coll.update_one({"_id": u["_id"]}, {"$set": {"body": body}}))
        if i % 13 == 12:
            x = docs[i - 7]["_id"]
            op({"op": "d", "id": x}, lambda: coll.delete_one({"_id": x}))
except Exception as e:
    print("loader stopped:", type(e).__name__)
`;
const loaderFile = path.join(dir, 'loader.py');
fs.writeFileSync(loaderFile, loader);

const m = MongodRunner.start({args: ['--dedup']});
const uri = 'mongodb://127.0.0.1:' + m.port + '/?directConnection=true';
const child = cp.spawn(process.env.PYTHON || 'python3', [loaderFile, uri, docsFile, ackFile], {stdio: 'ignore'});
// Kill once a good part of the load is acknowledged (and write-backs have been running).
assert.soon(() => fs.existsSync(ackFile) && fs.readFileSync(ackFile, 'utf8').split('\n').length > 1200,
            'loader progress', 120000, 100);
m.kill9();
let exited = false;
child.on('exit', () => { exited = true; });
assert.soon(() => exited || child.exitCode !== null, 'loader exits', 30000, 100);

// Expected state per _id: the last acknowledged operation; an operation that was sent but
// not acknowledged may or may not have happened.
const byId = new Map();
const orig = new Map(docs.map((d) => [d._id, d]));
for (const line of fs.readFileSync(ackFile, 'utf8').split('\n')) {
  if (!line) continue;
  const e = JSON.parse(line);
  const st = byId.get(e.id) || {acked: undefined, pending: []};
  const value = e.op === 'd' ? null : Object.assign({}, orig.get(e.id), {body: e.body});
  if (e.state === 'acked') {
    st.acked = value;
    st.pending = [];
  } else {
    st.pending.push(value);
  }
  byId.set(e.id, st);
}

m.start();
const t = m.conn.getDB('kill9');
const got = new Map(t.c.find().toArray().map((d) => [d._id, d]));
let checked = 0;
for (const [id, st] of byId) {
  const have = got.has(id) ? got.get(id) : null;
  const allowed = [st.acked === undefined ? null : st.acked].concat(st.pending);
  const ok = allowed.some((a) => (a === null ? have === null : have !== null && valuesEqual(a, have, true)));
  assert(ok, 'document ' + id + ' is not in an acknowledged state: ' + (have ? have.body.slice(-40) : 'missing'));
  if (st.acked !== undefined) checked++;
}
assert.gt(checked, 400, 'acknowledged documents checked');
for (const id of got.keys()) assert(byId.has(id), 'unexpected document ' + id);
const v = assert.commandWorked(t.runCommand({validate: 'c', full: true}));
assert.eq(true, v.valid, tojson(v));
assert.eq(0, v.dedup.undecodableRecords, tojson(v.dedup));
assert.eq(0, v.dedup.refCountMismatches, tojson(v.errors));
assert.eq(got.size, Number(v.nrecords));
assert.gt(Number(v.dedup.deltaRecords), 0, 'write-backs were applied before the crash: ' + tojson(v.dedup));
print('kill9_during_load.js: ' + checked + ' acknowledged documents verified, ' + v.dedup.deltaRecords + ' stored as deltas');
assert.eq(0, m.stop());
print('kill9_during_load.js OK');
