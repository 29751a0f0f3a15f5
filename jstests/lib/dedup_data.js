// Versioned documents and helpers for the dedup tests.
//
//   load(__dirname + '/../lib/dedup_data.js');
//   const docs = DedupData.load('wiki-python', 300);  // [{_id, key, ts, body}] in file order
//   DedupData.settle(db);        // waits until the server's dedup engine has no queued work
//   DedupData.status(db);        // serverStatus().dedup
//   DedupData.randomText(n, seed)
//
// The data sets are the real ones of ../shared/data (JSON Lines compressed with zstd, read
// with the zstd tool); DEDUP_DATA_DIR overrides where they are looked for. When they are not
// on the machine, load() generates versioned text of the same shape (an article edited
// a little per version, several articles interleaved) and says so on stdout.
(function () {
  'use strict';
  const cp = require('child_process');
  const fs = require('fs');
  const path = require('path');

  function dataDir() {
    const candidates = [process.env.DEDUP_DATA_DIR, path.resolve(__dirname, '../../../shared/data'),
                        '/work/shared/data'];
    for (const c of candidates) {
      if (c && fs.existsSync(path.join(c, 'README.md'))) return c;
    }
    return null;
  }

  // A deterministic generator (mulberry32), so a failing run can be repeated.
  function rng(seed) {
    let a = seed >>> 0;
    return function () {
      a = (a + 0x6D2B79F5) >>> 0;
      let t = a;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function randomText(n, seed) {
    const r = rng(seed || 1);
    const words = [];
    let len = 0;
    while (len < n) {
      let w = '';
      const wl = 2 + Math.floor(r() * 8);
      for (let i = 0; i < wl; i++) w += String.fromCharCode(97 + Math.floor(r() * 26));
      words.push(w);
      len += w.length + 1;
    }
    return words.join(' ').slice(0, n);
  }

  function generated(n) {
    const r = rng(42);
    const articles = [];
    for (let a = 0; a < 8; a++) articles.push(randomText(12000, 100 + a).split(' '));
    const out = [];
    for (let i = 0; i < n; i++) {
      const a = Math.floor(r() * articles.length);
      const words = articles[a];
      for (let e = 0; e < 3; e++) words[Math.floor(r() * words.length)] = randomText(8, i * 7 + e + 1);
      out.push({_id: 'gen:' + i, key: 'article-' + a, ts: new Date(Date.UTC(2020, 0, 1) + i * 60000).toISOString(),
                body: words.join(' ')});
    }
    return out;
  }

  function load(name, n) {
    const dir = dataDir();
    const file = dir ? path.join(dir, name + '.jsonl.zst') : null;
    if (!file || !fs.existsSync(file)) {
      print('dedup_data: ' + name + ' not found, using ' + n + ' generated versioned documents');
      return generated(n);
    }
    const text = cp.execSync('zstd -dc --long=27 ' + JSON.stringify(file) + ' | head -n ' + Number(n),
                             {maxBuffer: 1 << 30, encoding: 'utf8'});
    const docs = text.split('\n').filter((l) => l.length > 0).map((l) => {
      const d = JSON.parse(l);
      return {_id: d._id, key: d.key, ts: d.ts, body: d.body};
    });
    print('dedup_data: ' + docs.length + ' records of ' + file);
    return docs;
  }

  function status(db) {
    return db.getSiblingDB('admin').runCommand({serverStatus: 1}).dedup;
  }

  // The engine works after commit (encoder thread) and writes back when clients pause:
  // wait until neither has anything left.
  function settle(db, timeoutMs) {
    const deadline = Date.now() + (timeoutMs || 60000);
    while (Date.now() < deadline) {
      const s = status(db);
      if (Number(s.pendingInserts) === 0 && Number(s.writeBacks.pending) === 0) return s;
      sleep(50);
    }
    throw new Error('dedup engine did not settle: ' + JSON.stringify(status(db)));
  }

  globalThis.DedupData = {load, settle, status, randomText, dataDir};
})();
