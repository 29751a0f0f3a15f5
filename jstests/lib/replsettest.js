// ReplSetTest: a replica set of local mongod processes for --nodb mongosh tests (the replsets
// suite), named after MongoDB's jstests/libs/replsettest.js API but written for this project.
// Built on mongod_runner.js (processes, ports, temp dirs) and, with useBridge, mongobridge.py (one
// proxy per member, so links between members can be cut).
//
//   load(__dirname + '/../lib/replsettest.js');
//   const rst = new ReplSetTest({name: 'rs0', nodes: [{}, {}, {arbiter: true}], useBridge: true,
//                                settings: {electionTimeoutMillis: 2000}});
//   rst.startSet();  rst.initiate();
//   const primary = rst.getPrimary();                 // a Mongo connection (direct)
//   rst.stepUp(1);  rst.stop(0);  rst.restart(0);  rst.kill(2);  rst.pause(1);  rst.resume(1);
//   rst.disconnect(0, 1);  rst.reconnect(0, 1);  rst.isolate(0);  rst.heal();
//   rst.delayMessages(0, 1, ms);  rst.discardMessages(0, 1, loss);   // from member 0 to member 1
//   rst.awaitReplication();  rst.awaitSecondaryNodes();  rst.status(i);  rst.getSecondaries();
//   rst.checkReplicatedDataHashes();  rst.checkOplogs();  rst.validateAll();   // or checkAll()
//   rst.stopSet();   // end checks (dbHash, oplogs, validate), then SIGTERM and clean exits
//   ReplSetTest.attach('rs0', ['127.0.0.1:20001', ...]);   // members started elsewhere: checks only
//
// Options: name, nodes (a count or per-member options), nodeOptions, oplogSize (MB, 16),
// settings (the config's settings), useBridge, keyFile (every member gets it; the library then
// connects as __system with its first key).
//
// Members are referred to by index (0..n-1) or by their Mongo connection. nodes[i] is always a
// direct connection to member i's own port (never through its bridge), so that the test's own
// commands are never cut by a partition; hosts[i] is the name the set's config uses (the
// bridge's "localhost:<port>" with useBridge). With keyFile every connection the library makes
// authenticates as __system (as MongoDB's ReplSetTest does with asCluster).
//
// Per-member options (an element of `nodes`): {arbiter: true} (arbiterOnly in the config),
// {rsConfig: {priority: 0, votes: 0, hidden: true, ...}} (merged into the member's config),
// {args: ['--dedup']} (extra mongod arguments). nodeOptions: arguments for every member.
(function () {
  'use strict';
  // __dirname is this file's directory only while it loads: keep it.
  const libDir = __dirname;
  // Loaded once: a second load would restart its port numbering.
  if (!globalThis.MongodRunner) load(libDir + '/mongod_runner.js');
  const cp = require('child_process');
  const fs = require('fs');
  const path = require('path');

  const kStates = {PRIMARY: 1, SECONDARY: 2, RECOVERING: 3, STARTUP2: 5, ARBITER: 7, REMOVED: 10};
  const kDefaultTimeout = 60000;

  // Timestamps as [seconds, increment] (bson's Timestamp is a Long: high bits, low bits).
  function tsParts(ts) {
    return [ts.getHighBits() >>> 0, ts.getLowBits() >>> 0];
  }
  function tsCmp(a, b) {
    const [at, ai] = tsParts(a), [bt, bi] = tsParts(b);
    if (at !== bt) return at < bt ? -1 : 1;
    if (ai !== bi) return ai < bi ? -1 : 1;
    return 0;
  }
  function tsStr(ts) {
    return ts ? '(' + tsParts(ts).join(',') + ')' : 'null';
  }

  // The first key of a key file: the whole text without whitespace, or the first item of a
  // YAML list ("- key" lines or "[k1, k2]"), as the server reads it.
  function firstKey(text) {
    const t = text.trim();
    if (t.startsWith('[')) return t.slice(1).split(/[,\]]/)[0].replace(/\s+/g, '');
    if (t.startsWith('-')) return t.split('\n')[0].slice(1).replace(/\s+/g, '');
    return t.replace(/\s+/g, '');
  }

  // Bridges are killed with mongosh, like the servers mongod_runner starts.
  const liveBridges = new Set();
  process.on('exit', () => {
    for (const p of liveBridges) {
      try {
        p.kill('SIGKILL');
      } catch (e) {
      }
    }
  });

  class Bridge {
    constructor(port, destPort) {
      this.port = port;
      this.destPort = destPort;
      this.logFile = path.join(MongodRunner.tempDir('mongobridge-'), 'bridge.log');
      const py = process.env.PYTHON || 'python3';
      this.proc = cp.spawn(py, [path.join(libDir, 'mongobridge.py'), '--port', String(port), '--dest',
                                '127.0.0.1:' + destPort, '--log', this.logFile],
                           {stdio: ['ignore', 'ignore', fs.openSync(this.logFile, 'a')]});
      liveBridges.add(this.proc);
      this.proc.on('exit', (code, signal) => {
        this.exitCode = code === null ? signal : code;
        liveBridges.delete(this.proc);
      });
      this.conn = null;
    }
    // The control connection is made lazily: through it, the bridge's own commands.
    command(cmd) {
      if (!this.conn) {
        this.conn = new Mongo('mongodb://127.0.0.1:' + this.port + '/?directConnection=true&serverSelectionTimeoutMS=5000');
      }
      const r = this.conn.getDB('admin').runCommand(cmd);
      if (!r || r.ok !== 1) throw new Error('bridge on ' + this.port + ' refused ' + tojson(cmd) + ': ' + tojson(r));
      return r;
    }
    // True once the bridge listens; false if it exited (its port was taken) or hung.
    waitListening() {
      const deadline = Date.now() + 15000;
      while (Date.now() < deadline) {
        if (/listening on/.test(this.log())) return true;
        if (this.exitCode !== undefined) return false;
        sleep(50);
      }
      return false;
    }
    log() {
      try {
        return fs.readFileSync(this.logFile, 'utf8').split('\n').slice(-20).join('\n');
      } catch (e) {
        return '(no log)';
      }
    }
    stop() {
      if (this.conn) {
        try {
          this.conn.close();
        } catch (e) {
        }
        this.conn = null;
      }
      if (this.exitCode === undefined) {
        this.proc.kill('SIGKILL');
        const deadline = Date.now() + 10000;
        while (this.exitCode === undefined && Date.now() < deadline) sleep(50);
      }
    }
  }

  // When a test fails, the members' replication log lines tell why: print their tails before
  // mongod_runner.js removes the log files (its exit hook runs after this one).
  const allSets = [];
  process.prependListener('exit', (code) => {
    if (!code) return;
    for (const rst of allSets) {
      rst.mongods.forEach((m, i) => {
        const lines = m.log(4000).split('\n').filter((l) => /"c":"(REPL|ELECTION|ACCESS)/.test(l) || /"s":"(E|F|W)"/.test(l));
        // (print() is asynchronous in mongosh and would be lost at exit.)
        fs.writeSync(1, '--- ' + rst.name + ' member ' + i + ' (port ' + m.port + '), last replication log lines ---\n' +
                        lines.slice(-25).map((l) => l.slice(0, 400)).join('\n') + '\n');
      });
    }
  });

  class ReplSetTest {
    constructor(opts) {
      allSets.push(this);
      opts = opts || {};
      this.name = opts.name || 'rs0';
      let nodes = opts.nodes === undefined ? 3 : opts.nodes;
      if (typeof nodes === 'number') nodes = Array.from({length: nodes}, () => ({}));
      this.nodeSpecs = nodes.map((n) => Object.assign({}, n));
      this.nodeOptions = opts.nodeOptions || [];
      this.oplogSize = opts.oplogSize || 16;
      this.useBridge = !!opts.useBridge;
      this.settings = opts.settings || {};
      this.keyFile = opts.keyFile || null;
      this.key = this.keyFile ? firstKey(fs.readFileSync(this.keyFile, 'utf8')) : null;
      this.mongods = [];
      this.bridges = [];
      this.nodes = [];  // direct connections, refreshed on (re)start
      this.ports = [];
      this.hosts = [];
    }

    // A ReplSetTest over members someone else started (resmoke's replica_sets_jscore suite):
    // hostPorts are "host:port" strings in member order. Only the queries and end checks work
    // (getPrimary, awaitReplication, awaitSecondaryNodes, checkAll, ...); the members cannot be
    // stopped or restarted from here, and a failing test prints no member log tails.
    static attach(name, hostPorts, opts) {
      const rst = new ReplSetTest(Object.assign({}, opts || {}, {name: name, nodes: hostPorts.length}));
      allSets.splice(allSets.indexOf(rst), 1);
      for (const hp of hostPorts) {
        const port = Number(hp.split(':').pop());
        rst.mongods.push({port: port, proc: true, exitCode: undefined, paused: false, log: () => ''});
        rst.ports.push(port);
        rst.hosts.push(hp);
        rst.nodes.push(rst.connect(port));
      }
      return rst;
    }

    // --- processes ---

    _args(i) {
      const spec = this.nodeSpecs[i];
      let a = ['--replSet', this.name, '--oplogSize', String(this.oplogSize)].concat(this.nodeOptions);
      if (this.keyFile) a = a.concat(['--keyFile', this.keyFile]);
      return a.concat(spec.args || []);
    }

    // A connection the library uses for member i: direct, and authenticated as __system with a
    // key file. The timeouts keep a stopped or paused member from hanging the test.
    connect(port) {
      const creds = this.key ? '__system:' + encodeURIComponent(this.key) + '@' : '';
      const auth = this.key ? '&authSource=local&authMechanism=SCRAM-SHA-256' : '';
      // heartbeatFrequencyMS: after an error that marks the member unknown (e.g. an arbiter's
      // 13436 for a read), the driver's monitor sees it again within half a second.
      return new Mongo('mongodb://' + creds + '127.0.0.1:' + port +
                       '/?directConnection=true&serverSelectionTimeoutMS=5000&socketTimeoutMS=20000' +
                       '&heartbeatFrequencyMS=500' + auth);
    }

    startSet() {
      for (let i = 0; i < this.nodeSpecs.length; i++) {
        const m = new MongodRunner.Mongod({args: this._args(i)});
        this.mongods.push(m);
        this.ports.push(m.port);
      }
      if (this.useBridge) {
        // Bridges bind before the members start (and open connections whose ephemeral source
        // ports might take a bridge's port); a port taken anyway is replaced by another.
        for (let i = 0; i < this.mongods.length; i++) {
          let b = null;
          for (let attempt = 0; attempt < 3 && !b; attempt++) {
            b = new Bridge(MongodRunner.allocPort(), this.mongods[i].port);
            if (!b.waitListening()) {
              b.stop();
              b = null;
            }
          }
          if (!b) throw new Error('could not start a bridge for member ' + i);
          this.bridges.push(b);
        }
      }
      for (let i = 0; i < this.mongods.length; i++) {
        this.mongods[i].start();
        this.nodes[i] = this.connect(this.mongods[i].port);
        this.hosts[i] = 'localhost:' + (this.useBridge ? this.bridges[i].port : this.mongods[i].port);
      }
      if (this.useBridge) {
        // A bridge is ready when a ping goes through it to its member.
        for (const b of this.bridges) {
          assert.soon(() => {
            try {
              const c = new Mongo('mongodb://127.0.0.1:' + b.port + '/?directConnection=true&serverSelectionTimeoutMS=500');
              const ok = c.getDB('admin').runCommand({ping: 1}).ok === 1;
              c.close();
              return ok;
            } catch (e) {
              return false;
            }
          }, () => 'bridge ' + b.port + ' did not start (exit: ' + b.exitCode + '): ' + b.log(), 20000, 100);
        }
      }
      return this.nodes;
    }

    getReplSetConfig() {
      const members = this.nodeSpecs.map((spec, i) => {
        const m = Object.assign({_id: i, host: this.hosts[i]}, spec.rsConfig || {});
        if (spec.arbiter) m.arbiterOnly = true;
        return m;
      });
      const cfg = {_id: this.name, members: members};
      if (Object.keys(this.settings).length) cfg.settings = this.settings;
      return cfg;
    }

    initiate(cfg, timeoutMs) {
      cfg = cfg || this.getReplSetConfig();
      assert.commandWorked(this.nodes[0].getDB('admin').runCommand({replSetInitiate: cfg}));
      this.getPrimary(timeoutMs);
      this.awaitSecondaryNodes(timeoutMs);
      return this;
    }

    idx(node) {
      if (typeof node === 'number') return node;
      const i = this.nodes.indexOf(node);
      if (i < 0) throw new Error('not a member of this set: ' + node);
      return i;
    }

    // Stops member i with SIGTERM (or opts.signal: 'SIGKILL' / 9) and waits for the exit; a
    // SIGTERM must end in a clean exit (code 0) unless opts.allowedExitCode says otherwise.
    stop(node, signal, opts) {
      const i = this.idx(node);
      opts = opts || {};
      const m = this.mongods[i];
      try {
        this.nodes[i].close();
      } catch (e) {
      }
      let code;
      if (signal === 9 || signal === 'SIGKILL') {
        m.kill9();
        code = m.exitCode;
      } else {
        if (m.paused) this.resume(i);
        code = m.stop();
        const allowed = opts.allowedExitCode === undefined ? 0 : opts.allowedExitCode;
        if (code !== allowed) throw new Error('member ' + i + ' exited with ' + code + ':\n' + m.log(60));
      }
      return code;
    }
    kill(node) {
      return this.stop(node, 'SIGKILL');
    }
    // Starts a stopped member again with the same dbpath, port and options.
    start(node) {
      const i = this.idx(node);
      this.mongods[i].start();
      this.mongods[i].paused = false;
      this.nodes[i] = this.connect(this.mongods[i].port);
      return this.nodes[i];
    }
    restart(node, signal) {
      const i = this.idx(node);
      this.stop(i, signal);
      return this.start(i);
    }
    // SIGSTOP / SIGCONT: a member that hangs (its sockets stay open, nothing answers).
    pause(node) {
      const i = this.idx(node);
      this.mongods[i].proc.kill('SIGSTOP');
      this.mongods[i].paused = true;
    }
    resume(node) {
      const i = this.idx(node);
      this.mongods[i].proc.kill('SIGCONT');
      this.mongods[i].paused = false;
    }
    isRunning(i) {
      const m = this.mongods[i];
      return m.proc && m.exitCode === undefined && !m.paused;
    }

    // --- partitions (useBridge) ---

    _bridgeCmd(to, from, cmd) {
      if (!this.useBridge) throw new Error('partitions need new ReplSetTest({useBridge: true})');
      const c = Object.assign({}, cmd);
      c.host = '127.0.0.1:' + this.mongods[from].port;  // the caller, as it names itself (port)
      this.bridges[to].command(c);
    }
    // Cuts the link between members a and b in both directions (connections closed, new ones
    // closed at their first message), as mongobridge's rejectConnectionsFrom.
    disconnect(a, b) {
      a = this.idx(a);
      b = this.idx(b);
      this._bridgeCmd(a, b, {rejectConnectionsFrom: 1});
      this._bridgeCmd(b, a, {rejectConnectionsFrom: 1});
    }
    reconnect(a, b) {
      a = this.idx(a);
      b = this.idx(b);
      this._bridgeCmd(a, b, {acceptConnectionsFrom: 1});
      this._bridgeCmd(b, a, {acceptConnectionsFrom: 1});
    }
    // Messages from a to b are held delayMs each (one direction).
    delayMessages(from, to, delayMs) {
      this._bridgeCmd(this.idx(to), this.idx(from), {delayMessagesFrom: 1, delay: delayMs});
    }
    discardMessages(from, to, loss) {
      this._bridgeCmd(this.idx(to), this.idx(from), {discardMessagesFrom: 1, loss: loss});
    }
    // Cuts member i off from every other member.
    isolate(node) {
      const i = this.idx(node);
      for (let j = 0; j < this.nodes.length; j++) if (j !== i) this.disconnect(i, j);
    }
    // Restores every link.
    heal() {
      for (let a = 0; a < this.nodes.length; a++)
        for (let b = a + 1; b < this.nodes.length; b++) this.reconnect(a, b);
    }

    // --- state ---

    // fn's result, or null if it throws. (The result goes through a variable: mongosh's async
    // rewriting does not await a call returned directly from inside a try block, and its
    // error would escape the catch.)
    _try(fn) {
      try {
        const r = fn();
        return r;
      } catch (e) {
        return null;
      }
    }
    _hello(i) {
      if (!this.isRunning(i)) return null;
      return this._try(() => this.nodes[i].getDB('admin').runCommand({hello: 1}));
    }
    status(node) {
      const i = node === undefined ? this.idx(this.getPrimary()) : this.idx(node);
      return assert.commandWorked(this.nodes[i].getDB('admin').runCommand({replSetGetStatus: 1}));
    }

    // The primary's connection, waiting up to timeoutMs for exactly one member to say it is
    // the writable primary.
    getPrimary(timeoutMs) {
      let primary = null;
      assert.soon(() => {
        const found = [];
        for (let i = 0; i < this.nodes.length; i++) {
          const h = this._hello(i);
          if (h && h.isWritablePrimary) found.push(i);
        }
        if (found.length !== 1) return false;
        primary = found[0];
        return true;
      }, () => 'no primary in the set: ' + tojson(this._summary()), timeoutMs || kDefaultTimeout, 100);
      return this.nodes[primary];
    }
    getPrimaryIndex(timeoutMs) {
      return this.idx(this.getPrimary(timeoutMs));
    }
    getSecondaries() {
      const out = [];
      for (let i = 0; i < this.nodes.length; i++) {
        const h = this._hello(i);
        if (h && h.secondary) out.push(this.nodes[i]);
      }
      return out;
    }
    getSecondary() {
      return this.getSecondaries()[0];
    }
    getArbiters() {
      return this.nodes.filter((n, i) => this.nodeSpecs[i].arbiter);
    }
    _dataBearing() {
      const out = [];
      for (let i = 0; i < this.nodes.length; i++)
        if (!this.nodeSpecs[i].arbiter && this.isRunning(i)) out.push(i);
      return out;
    }
    _summary() {
      return this.nodes.map((n, i) => {
        const h = this._hello(i);
        return {i: i, port: this.ports[i], running: this.isRunning(i),
                state: h ? (h.isWritablePrimary ? 'PRIMARY' : h.secondary ? 'SECONDARY' : h.arbiterOnly ? 'ARBITER' : 'other')
                         : 'unreachable'};
      });
    }

    // Waits until every running member is SECONDARY or ARBITER except one PRIMARY.
    awaitSecondaryNodes(timeoutMs, nodes) {
      const which = nodes ? nodes.map((n) => this.idx(n)) : this.nodes.map((n, i) => i).filter((i) => this.isRunning(i));
      assert.soon(() => which.every((i) => {
        const h = this._hello(i);
        return h && (h.isWritablePrimary || h.secondary || h.arbiterOnly);
      }), () => 'members did not become secondaries: ' + tojson(this._summary()), timeoutMs || kDefaultTimeout, 100);
    }

    // A member's own view of its last applied optime.
    lastApplied(i) {
      const s = this._try(() => this.nodes[i].getDB('admin').runCommand({replSetGetStatus: 1}));
      return s && s.ok === 1 && s.optimes && s.optimes.appliedOpTime ? s.optimes.appliedOpTime : null;
    }

    // Waits until every running data-bearing member applied what the primary had applied
    // when this was called (and nothing more than it: the last applied optimes are equal).
    awaitReplication(timeoutMs) {
      const p = this.getPrimaryIndex(timeoutMs);
      let target = null;
      assert.soon(() => (target = this.lastApplied(p)) !== null, 'no optime from the primary', timeoutMs || kDefaultTimeout);
      let lagging = [];
      assert.soon(() => {
        lagging = [];
        for (const i of this._dataBearing()) {
          const t = this.lastApplied(i);
          if (!t || tsCmp(t.ts, target.ts) < 0) lagging.push({i: i, applied: t});
        }
        return lagging.length === 0;
      }, () => 'replication did not reach ' + tojson(target) + ': ' + tojson(lagging), timeoutMs || kDefaultTimeout, 50);
    }

    // replSetStepUp on member i, then waits until it is the primary.
    stepUp(node, timeoutMs) {
      const i = this.idx(node);
      this.awaitReplication(timeoutMs);
      // An election can lose a race (another candidate, a vote not yet answered): try again,
      // as MongoDB's ReplSetTest does.
      let last;
      assert.soon(() => {
        const h = this._hello(i);
        if (h && h.isWritablePrimary) return true;
        last = this._try(() => this.nodes[i].getDB('admin').runCommand({replSetStepUp: 1}));
        return false;
      }, () => 'member ' + i + ' did not become primary: ' + tojson(last), timeoutMs || kDefaultTimeout, 200);
      return this.getPrimary(timeoutMs);
    }

    // --- end-of-test checks ---

    _dbNames(i) {
      const r = assert.commandWorked(this.nodes[i].getDB('admin').runCommand({listDatabases: 1, nameOnly: true}));
      return r.databases.map((d) => d.name).sort();
    }

    // dbHash of every replicated database equal on every running data-bearing member.
    checkReplicatedDataHashes() {
      this.awaitReplication();
      const members = this._dataBearing();
      const ref = members[0];
      const names = new Set();
      for (const i of members) for (const n of this._dbNames(i)) if (n !== 'local') names.add(n);
      for (const name of names) {
        const hashes = members.map((i) => {
          const r = this.nodes[i].getDB(name).runCommand({dbHash: 1});
          assert.commandWorked(r, 'dbHash of ' + name + ' on member ' + i);
          return {i: i, md5: r.md5, collections: r.collections};
        });
        for (const h of hashes) {
          assert.eq(hashes[0].md5, h.md5, 'dbHash of ' + name + ' differs: member ' + ref + ' ' +
                    tojson(hashes[0].collections) + ', member ' + h.i + ' ' + tojson(h.collections));
        }
        // As MongoDB's checkReplicatedDataHashes: the listCollections entries of the collections
        // dbHash covers are the same everywhere, options and UUIDs included.
        const covered = Object.keys(hashes[0].collections).sort();
        const infos = members.map((i) => {
          const r = assert.commandWorked(this.nodes[i].getDB(name).runCommand(
              {listCollections: 1, filter: {name: {$in: covered}}}), 'listCollections of ' + name + ' on member ' + i);
          const list = r.cursor.firstBatch.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
          return EJSON.stringify(list, {relaxed: false});
        });
        for (let k = 1; k < infos.length; k++) {
          assert.eq(infos[0], infos[k], 'listCollections of ' + name + ' differs: member ' + ref + ' ' + infos[0] +
                    ', member ' + members[k] + ' ' + infos[k]);
        }
      }
    }

    // The oplogs of running data-bearing members agree: over the range every member still
    // holds (from the newest first entry to the oldest last entry), the same ts/t/op/ns/o
    // sequence.
    checkOplogs() {
      this.awaitReplication();
      const members = this._dataBearing();
      const logs = members.map((i) => this.nodes[i].getDB('local').oplog.rs.find({}, {ts: 1, t: 1, op: 1, ns: 1, o: 1, o2: 1})
                                      .sort({$natural: 1}).toArray());
      for (let k = 0; k < logs.length; k++) assert.gt(logs[k].length, 0, 'empty oplog on member ' + members[k]);
      let from = logs[0][0].ts, to = logs[0][logs[0].length - 1].ts;
      for (const l of logs) {
        if (tsCmp(l[0].ts, from) > 0) from = l[0].ts;
        if (tsCmp(l[l.length - 1].ts, to) < 0) to = l[l.length - 1].ts;
      }
      const ranges = logs.map((l) => l.filter((e) => tsCmp(e.ts, from) >= 0 && tsCmp(e.ts, to) <= 0));
      for (let k = 1; k < ranges.length; k++) {
        assert.eq(ranges[0].length, ranges[k].length, 'oplogs of members ' + members[0] + ' and ' + members[k] +
                  ' hold different numbers of entries in ' + tsStr(from) + '..' + tsStr(to));
        for (let j = 0; j < ranges[0].length; j++) {
          assert.docEq(ranges[0][j], ranges[k][j], 'oplog entry ' + j + ' differs between members ' + members[0] +
                       ' and ' + members[k]);
        }
      }
    }

    // validate is clean on every collection of every database of every running data-bearing member.
    validateAll() {
      for (const i of this._dataBearing()) {
        for (const name of this._dbNames(i)) {
          const d = this.nodes[i].getDB(name);
          const colls = assert.commandWorked(d.runCommand({listCollections: 1, filter: {type: 'collection'}, nameOnly: true}))
                            .cursor.firstBatch.map((c) => c.name);
          for (const c of colls) {
            const r = d.runCommand({validate: c, full: true});
            assert.commandWorked(r, 'validate ' + name + '.' + c + ' on member ' + i);
            assert.eq(true, r.valid, 'validate ' + name + '.' + c + ' on member ' + i + ': ' + tojson(r));
          }
        }
      }
    }

    checkAll() {
      this.checkReplicatedDataHashes();
      this.checkOplogs();
      this.validateAll();
    }

    // The end checks (unless opts.skipChecks), then every member stopped with SIGTERM and
    // checked to exit cleanly, then the bridges.
    stopSet(opts) {
      opts = opts || {};
      for (let i = 0; i < this.mongods.length; i++) if (this.mongods[i].paused) this.resume(i);
      if (!opts.skipChecks) this.checkAll();
      for (let i = 0; i < this.mongods.length; i++) {
        if (this.mongods[i].exitCode === undefined && this.mongods[i].proc) this.stop(i);
      }
      for (const b of this.bridges) b.stop();
    }
  }

  globalThis.ReplSetTest = ReplSetTest;
  globalThis.ReplSetTest.State = kStates;
})();
