// Handshake and server information commands: hello/isMaster, buildInfo, getParameter,
// getCmdLineOpts, serverStatus, hostInfo, getLog, connectionStatus, listCommands, ping.
load(__dirname + '/../lib/assert.js');

const admin = db.getSiblingDB('admin');

// --- ping, in any database
assert.commandWorked(admin.runCommand({ping: 1}));
assert.commandWorked(db.getSiblingDB('jstests_server_info').runCommand({ping: 1}));

// --- hello
const hello = assert.commandWorked(admin.runCommand({hello: 1}));
assert.eq(true, hello.isWritablePrimary, tojson(hello));
assert.eq(undefined, hello.ismaster, 'hello must not report the legacy ismaster field');
assert.eq(16777216, hello.maxBsonObjectSize);
assert.eq(48000000, hello.maxMessageSizeBytes);
assert.eq(100000, hello.maxWriteBatchSize);
assert.eq(0, hello.minWireVersion);
assert.eq(21, hello.maxWireVersion, 'MongoDB 7.0 reports maxWireVersion 21');
assert.eq(false, hello.readOnly);
assert.eq(30, hello.logicalSessionTimeoutMinutes);
assert(isDate(hello.localTime), 'localTime is a date: ' + tojson(hello));
assert(isNumber(hello.connectionId) && toNumber(hello.connectionId) > 0, tojson(hello));
assert(hello.topologyVersion && hello.topologyVersion.processId, 'topologyVersion.processId: ' + tojson(hello));
assert.eq('ObjectId', hello.topologyVersion.processId._bsontype);
assert.eq(undefined, hello.setName, 'a standalone has no replica set name');
assert.eq(undefined, hello.msg, 'only mongos reports msg: isdbgrid');

// isMaster and ismaster are the legacy spellings and report ismaster instead.
for (const name of ['isMaster', 'ismaster']) {
  const cmd = {};
  cmd[name] = 1;
  const r = assert.commandWorked(admin.runCommand(cmd));
  assert.eq(true, r.ismaster, name + ': ' + tojson(r));
  assert.eq(undefined, r.isWritablePrimary, name + ' must not report isWritablePrimary');
  assert.eq(21, r.maxWireVersion);
}
// helloOk: true in isMaster is acknowledged.
assert.eq(true, assert.commandWorked(admin.runCommand({isMaster: 1, helloOk: true})).helloOk);
// hello works in any database.
assert.eq(true, assert.commandWorked(db.getSiblingDB('anydb').runCommand({hello: 1})).isWritablePrimary);
// Client metadata may only be sent in the first hello of a connection; the shell's
// connection has already sent it.
assert.commandFailedWithCode(
    runCmd(admin, {hello: 1, client: {application: {name: 'again'}, driver: {name: 'x', version: '1'},
                                       os: {type: 'Linux'}}}),
    186 /* ClientMetadataCannotBeMutated */);

// --- buildInfo (also spelled buildinfo), works in any database
const bi = assert.commandWorked(admin.runCommand({buildInfo: 1}));
assert(/^7\.0\.\d+/.test(bi.version), 'version 7.0.x: ' + bi.version);
assert(Array.isArray(bi.versionArray) && bi.versionArray.length === 4, tojson(bi.versionArray));
assert.eq(7, bi.versionArray[0]);
assert.eq(0, bi.versionArray[1]);
assert.eq(64, bi.bits);
assert.eq(16777216, bi.maxBsonObjectSize);
assert.eq('string', typeof bi.gitVersion);
assert.eq('boolean', typeof bi.debug);
assert(Array.isArray(bi.modules), 'modules is an array');
assert(Array.isArray(bi.storageEngines) && bi.storageEngines.includes('wiredTiger'), tojson(bi.storageEngines));
assert.eq('object', typeof bi.openssl);
assert.eq('object', typeof bi.buildEnvironment);
assert.eq(bi.version, assert.commandWorked(db.getSiblingDB('other').runCommand({buildinfo: 1})).version);

// --- getParameter
const fcv = assert.commandWorked(admin.runCommand({getParameter: 1, featureCompatibilityVersion: 1}));
assert.eq('7.0', fcv.featureCompatibilityVersion.version, tojson(fcv));
const all = assert.commandWorked(admin.runCommand({getParameter: '*'}));
assert('featureCompatibilityVersion' in all, 'getParameter * lists featureCompatibilityVersion');
assert.eq(true, all.enableTestCommands === true || all.enableTestCommands === 1, 'enableTestCommands is on');
assert.commandFailedWithCode(runCmd(admin, {getParameter: 1, noSuchParameterExists: 1}), 72 /* InvalidOptions */);
assert.commandFailedWithCode(runCmd(db.getSiblingDB('notadmin'), {getParameter: 1, featureCompatibilityVersion: 1}),
                             13 /* Unauthorized: admin only */);

// --- getCmdLineOpts
const opts = assert.commandWorked(admin.runCommand({getCmdLineOpts: 1}));
assert(Array.isArray(opts.argv) && opts.argv.length > 1, tojson(opts));
assert(/mongod$/.test(opts.argv[0]) || opts.argv[0].indexOf('mongod') >= 0, tojson(opts.argv));
assert.eq('object', typeof opts.parsed);
assert.eq('number', typeof opts.parsed.net.port, tojson(opts.parsed));
assert.eq('string', typeof opts.parsed.storage.dbPath, tojson(opts.parsed));
assert.eq('127.0.0.1', opts.parsed.net.bindIp);

// --- serverStatus
const ss1 = assert.commandWorked(admin.runCommand({serverStatus: 1}));
assert.eq('mongod', ss1.process);
assert.eq(bi.version, ss1.version);
assert.eq('string', typeof ss1.host);
assert(isDate(ss1.localTime));
assert.gte(ss1.uptime, 0);
assert.hasFields(ss1, ['pid', 'uptime', 'uptimeMillis', 'uptimeEstimate', 'connections', 'opcounters',
                       'network', 'mem', 'storageEngine', 'asserts', 'metrics']);
assert.gte(ss1.connections.current, 1);
assert.gte(ss1.connections.available, 1);
assert.gte(ss1.connections.totalCreated, 1);
assert.eq('wiredTiger', ss1.storageEngine.name);
assert.hasFields(ss1.opcounters, ['insert', 'query', 'update', 'delete', 'getmore', 'command']);
assert.hasFields(ss1.network, ['bytesIn', 'bytesOut', 'numRequests']);
assert.eq(64, ss1.mem.bits);
const t = db.getSiblingDB('jstests_server_info').c;
t.drop();
assert.commandWorked(t.getDB().runCommand({insert: 'c', documents: [{a: 1}, {a: 2}, {a: 3}]}));
assert.commandWorked(t.getDB().runCommand({find: 'c', filter: {}}));
const ss2 = assert.commandWorked(admin.runCommand({serverStatus: 1}));
// opcounters.insert counts documents, query counts find commands.
assert.gte(toNumber(ss2.opcounters.insert) - toNumber(ss1.opcounters.insert), 3, 'opcounters.insert grew by 3');
assert.gte(toNumber(ss2.opcounters.query) - toNumber(ss1.opcounters.query), 1, 'opcounters.query grew');
assert.gt(ss2.opcounters.command, ss1.opcounters.command, 'opcounters.command grew');
assert.gt(ss2.network.numRequests, ss1.network.numRequests);
assert.gt(ss2.network.bytesIn, ss1.network.bytesIn);
// Sections can be excluded.
const ssNoConn = assert.commandWorked(admin.runCommand({serverStatus: 1, connections: 0}));
assert.eq(undefined, ssNoConn.connections, 'serverStatus {connections: 0} omits the section');

// --- hostInfo
const hi = assert.commandWorked(admin.runCommand({hostInfo: 1}));
assert.hasFields(hi, ['system', 'os', 'extra']);
assert.hasFields(hi.system, ['currentTime', 'hostname', 'cpuAddrSize', 'memSizeMB', 'numCores', 'cpuArch']);
assert.eq(64, hi.system.cpuAddrSize);
assert.gte(hi.system.numCores, 1);
assert.gt(hi.system.memSizeMB, 0);
assert.eq('Linux', hi.os.type);

// --- getLog
const logs = assert.commandWorked(admin.runCommand({getLog: '*'}));
assert.contains('global', logs.names);
assert.contains('startupWarnings', logs.names);
const global = assert.commandWorked(admin.runCommand({getLog: 'global'}));
assert(Array.isArray(global.log) && global.log.length > 0, 'global log has lines');
assert.gte(global.totalLinesWritten, global.log.length);
assert.eq('string', typeof global.log[0]);
// Lines are structured JSON log lines.
const first = JSON.parse(global.log[global.log.length - 1]);
assert.hasFields(first, ['t', 's', 'c', 'id', 'msg']);
assert(Array.isArray(assert.commandWorked(admin.runCommand({getLog: 'startupWarnings'})).log));
assert.commandFailed(runCmd(admin, {getLog: 'noSuchLog'}));
assert.commandFailedWithCode(runCmd(db.getSiblingDB('notadmin'), {getLog: 'global'}), 13);

// --- connectionStatus
const cs = assert.commandWorked(db.runCommand({connectionStatus: 1}));
assert.docEq({authenticatedUsers: [], authenticatedUserRoles: []}, cs.authInfo);
const csp = assert.commandWorked(db.runCommand({connectionStatus: 1, showPrivileges: true}));
assert(Array.isArray(csp.authInfo.authenticatedUserPrivileges), tojson(csp));

// --- whatsmyuri
const me = assert.commandWorked(db.runCommand({whatsmyuri: 1}));
assert(/^127\.0\.0\.1:\d+$/.test(me.you), tojson(me));

// --- listCommands
const lc = assert.commandWorked(admin.runCommand({listCommands: 1}));
for (const name of ['find', 'insert', 'update', 'delete', 'aggregate', 'getMore', 'killCursors', 'hello',
                    'isMaster', 'ping', 'buildInfo', 'createIndexes', 'listCollections', 'serverStatus']) {
  assert(lc.commands[name], 'listCommands lists ' + name);
  assert.eq('string', typeof lc.commands[name].help, name + ' has help text');
  assert.eq('boolean', typeof lc.commands[name].adminOnly, name + ' has adminOnly');
}
assert.eq(true, lc.commands.listDatabases.adminOnly);
assert.eq(false, lc.commands.find.adminOnly);

// --- admin-only commands elsewhere are Unauthorized
assert.commandFailedWithCode(runCmd(db.getSiblingDB('notadmin'), {listDatabases: 1}), 13);
print('server_info.js OK');
