// Starting and stopping mongod processes from a --nodb mongosh test (the noPassthrough suite).
// Needs MONGOD_BIN and TEST_PORT_BASE / TEST_PORT_COUNT from buildscripts/resmoke.py.
//
//   load(__dirname + '/../lib/mongod_runner.js');
//   const m = MongodRunner.start({args: ['--dedup']});   // fresh temp dbpath, next free port
//   m.conn.getDB('test').c.insertOne({});                 // a Mongo connection
//   m.restart();  m.stop();  m.kill9();
//   const r = MongodRunner.run(['--version']);            // {status, output} of a short run
(function () {
  'use strict';
  const cp = require('child_process');
  const fs = require('fs');
  const os = require('os');
  const path = require('path');

  const bin = process.env.MONGOD_BIN;
  const portBase = parseInt(process.env.TEST_PORT_BASE || '29500', 10);
  const portCount = parseInt(process.env.TEST_PORT_COUNT || '20', 10);
  let nextPort = 0;

  function requireBin() {
    if (!bin || !fs.existsSync(bin)) throw new Error('MONGOD_BIN is not set or missing: ' + bin);
  }

  // Every directory made here goes when mongosh exits: data directories hold 200 MB of
  // preallocated journal each.
  const made = [];
  function tempDir(prefix) {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix || 'mongod-runner-'));
    made.push(d);
    return d;
  }

  function allocPort() {
    if (nextPort >= portCount) throw new Error('out of test ports');
    return portBase + nextPort++;
  }

  function tryPing(port) {
    try {
      const m = new Mongo('mongodb://127.0.0.1:' + port + '/?directConnection=true&serverSelectionTimeoutMS=500');
      const r = m.getDB('admin').runCommand({ping: 1});
      return r && r.ok === 1 ? m : null;
    } catch (e) {
      return null;
    }
  }

  function readLog(file, lines) {
    try {
      const all = fs.readFileSync(file, 'utf8').split('\n');
      return all.slice(-(lines || 40)).join('\n');
    } catch (e) {
      return '(no log)';
    }
  }

  // A test that fails part-way must not leave its servers running: kill what is still alive
  // when mongosh exits.
  const live = new Set();
  process.on('exit', () => {
    for (const proc of live) {
      try {
        proc.kill('SIGKILL');
      } catch (e) {
      }
    }
    for (const d of made) {
      try {
        fs.rmSync(d, {recursive: true, force: true});
      } catch (e) {
      }
    }
  });

  class Mongod {
    constructor(opts) {
      this.opts = opts || {};
      this.port = this.opts.port || allocPort();
      this.dbpath = this.opts.dbpath || tempDir('mongod-dbpath-');
      this.logFile = path.join(tempDir('mongod-log-'), 'mongod.log');
      this.proc = null;
      this.conn = null;
      this.exitCode = undefined;
    }

    args() {
      const a = ['--port', String(this.port), '--bind_ip', '127.0.0.1', '--dbpath', this.dbpath,
                 '--setParameter', 'enableTestCommands=1'];
      return a.concat(this.opts.args || []);
    }

    start(timeoutMs) {
      requireBin();
      const fd = fs.openSync(this.logFile, 'a');
      this.exitCode = undefined;
      this.proc = cp.spawn(bin, this.args(), {stdio: ['ignore', fd, fd]});
      const proc = this.proc;
      live.add(proc);
      proc.on('exit', () => live.delete(proc));
      fs.closeSync(fd);
      this.proc.on('exit', (code, signal) => {
        this.exitCode = code === null ? signal : code;
      });
      const deadline = Date.now() + (timeoutMs || 60000);
      while (Date.now() < deadline) {
        if (this.exitCode !== undefined) {
          throw new Error('mongod exited with ' + this.exitCode + ' during startup:\n' + this.log());
        }
        const m = tryPing(this.port);
        if (m) {
          this.conn = m;
          return this;
        }
        sleep(200);
      }
      this.kill9();
      throw new Error('mongod did not start:\n' + this.log());
    }

    waitExit(timeoutMs) {
      const deadline = Date.now() + (timeoutMs || 60000);
      while (this.exitCode === undefined && Date.now() < deadline) sleep(100);
      if (this.exitCode === undefined) throw new Error('mongod did not exit in time:\n' + this.log());
      return this.exitCode;
    }

    // SIGTERM and wait; returns the exit code (0 for a clean shutdown).
    stop() {
      if (this.conn) {
        try {
          this.conn.close();
        } catch (e) {
        }
        this.conn = null;
      }
      if (!this.proc || this.exitCode !== undefined) return this.exitCode;
      this.proc.kill('SIGTERM');
      return this.waitExit();
    }

    kill9() {
      if (this.conn) {
        try {
          this.conn.close();
        } catch (e) {
        }
        this.conn = null;
      }
      if (this.proc && this.exitCode === undefined) {
        this.proc.kill('SIGKILL');
        this.waitExit();
      }
    }

    restart() {
      const code = this.stop();
      if (code !== 0) throw new Error('mongod exited with ' + code + ' on SIGTERM:\n' + this.log());
      return this.start();
    }

    log(lines) {
      return readLog(this.logFile, lines);
    }
  }

  globalThis.MongodRunner = {
    Mongod: Mongod,
    start: (opts) => new Mongod(opts).start(),
    allocPort: allocPort,
    tempDir: tempDir,
    // Runs mongod to completion (for --version, --help, bad options): {status, output}.
    run: function (args, timeoutMs) {
      requireBin();
      const r = cp.spawnSync(bin, args, {encoding: 'utf8', timeout: timeoutMs || 60000});
      return {status: r.status, signal: r.signal, output: (r.stdout || '') + (r.stderr || '')};
    },
  };
})();
