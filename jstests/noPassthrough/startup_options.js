// mongod's command line and configuration file: --version, --help, bad options, the YAML
// config file, --dedup, and startup failures (port in use, dbpath locked or missing).
load(__dirname + '/../lib/assert.js');
load(__dirname + '/../lib/mongod_runner.js');
const fs = require('fs');
const path = require('path');

// --version prints "db version v7.0.x" and exits 0.
let r = MongodRunner.run(['--version']);
assert.eq(0, r.status, r.output);
assert(/db version v7\.0\.\d+/.test(r.output), r.output);

// --help lists the options and exits 0.
r = MongodRunner.run(['--help']);
assert.eq(0, r.status, r.output);
for (const opt of ['--port', '--bind_ip', '--dbpath', '--config', '--dedup']) {
  assert(r.output.includes(opt), '--help mentions ' + opt);
}

// An unknown option: exit code 2 (EXIT_BADOPTIONS) with a message naming it.
r = MongodRunner.run(['--noSuchOptionAnywhere', '--dbpath', MongodRunner.tempDir()]);
assert.eq(2, r.status, r.output);
assert(/noSuchOptionAnywhere/.test(r.output), r.output);
// A bad value.
r = MongodRunner.run(['--port', 'notaport', '--dbpath', MongodRunner.tempDir()]);
assert.eq(2, r.status, r.output);

// A missing dbpath directory is a startup failure.
r = MongodRunner.run(['--port', String(MongodRunner.allocPort()), '--dbpath', '/nonexistent/dir/for/mongod']);
assert.neq(0, r.status, r.output);

// The YAML configuration file.
const dir = MongodRunner.tempDir();
const dbpath = path.join(dir, 'data');
fs.mkdirSync(dbpath);
const port = MongodRunner.allocPort();
const conf = path.join(dir, 'mongod.conf');
fs.writeFileSync(conf, [
  'net:', '  port: ' + port, '  bindIp: 127.0.0.1',
  'storage:', '  dbPath: ' + dbpath, '  wiredTiger:', '    collectionConfig:', '      blockCompressor: zstd',
  'setParameter:', '  enableTestCommands: 1', ''
].join('\n'));
const m = new MongodRunner.Mongod({port: port, dbpath: dbpath});
m.args = () => ['--config', conf];
m.start();
let opts = assert.commandWorked(m.conn.getDB('admin').runCommand({getCmdLineOpts: 1}));
assert.eq(port, opts.parsed.net.port);
assert.eq(dbpath, opts.parsed.storage.dbPath);
assert.eq('zstd', opts.parsed.storage.wiredTiger.collectionConfig.blockCompressor);
assert.eq(conf, opts.parsed.config);
assert.commandWorked(m.conn.getDB('t').runCommand({insert: 'c', documents: [{a: 1}]}));

// A second mongod on the same port fails to start (and the first keeps running).
r = MongodRunner.run(['--port', String(port), '--bind_ip', '127.0.0.1', '--dbpath', MongodRunner.tempDir()]);
assert.neq(0, r.status, 'port in use: ' + r.output);
// A second mongod on the same dbpath fails to start: the dbpath is locked.
r = MongodRunner.run(['--port', String(MongodRunner.allocPort()), '--bind_ip', '127.0.0.1', '--dbpath', dbpath]);
assert.neq(0, r.status, 'dbpath in use: ' + r.output);
assert.commandWorked(m.conn.getDB('admin').runCommand({ping: 1}));
assert.eq(0, m.stop(), 'clean shutdown exits 0');

// An unknown option in the config file is refused.
const badConf = path.join(dir, 'bad.conf');
fs.writeFileSync(badConf, 'net:\n  port: ' + port + '\nstorage:\n  dbPath: ' + dbpath + '\nnoSuchSection:\n  x: 1\n');
r = MongodRunner.run(['--config', badConf]);
assert.eq(2, r.status, r.output);
// Command-line options override the file.
const port2 = MongodRunner.allocPort();
const m2 = new MongodRunner.Mongod({port: port2, dbpath: dbpath});
m2.args = () => ['--config', conf, '--port', String(port2)];
m2.start();
opts = assert.commandWorked(m2.conn.getDB('admin').runCommand({getCmdLineOpts: 1}));
assert.eq(port2, opts.parsed.net.port);
assert.eq(1, m2.conn.getDB('t').c.countDocuments({}), 'data written through the config-file server is there');
assert.eq(0, m2.stop());

// --dedup is accepted, and the server works with it.
const m3 = MongodRunner.start({args: ['--dedup']});
assert.commandWorked(m3.conn.getDB('t').runCommand({insert: 'c', documents: [{a: 'x'.repeat(1000)}, {a: 'x'.repeat(999) + 'y'}]}));
assert.eq(2, m3.conn.getDB('t').c.countDocuments({}));
assert.eq(0, m3.stop());
print('startup_options.js OK');
