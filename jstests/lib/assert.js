// Assertion library for jstests run by mongosh (mongosh has no legacy-shell assert library;
// its global `assert` is Node's, which knows nothing of BSON types or command replies).
//
// Load from a test with:   load(__dirname + '/../lib/assert.js');
//
// Provides (as globals): assert(cond, msg) and assert.eq/neq/lt/lte/gt/gte/docEq/
// docEqOrdered/sameMembers/contains/hasFields/fieldOrder/isnull/throws/throwsWithCode/
// doesNotThrow/commandWorked/writeReply/commandFailed/commandFailedWithCode/writeErrorWithCode/soon,
// plus tojson(x), valuesEqual(a, b, ordered), runCmd(database, cmd), testDB(name),
// allDocs(database, cursorReply), isDate(x), isRegExp(x), isNumber(x) (any BSON number),
// toNumber(x), errorCodeOf(err).
//
// Equality is BSON-minded: numbers compare by value across int32/int64/double/decimal
// (as the server compares them), ObjectIds/Dates/Binary/Timestamps by value, documents
// without regard to field order unless the *Ordered variant is used.
(function () {
  'use strict';

  function bsontype(x) {
    return x !== null && typeof x === 'object' ? x._bsontype : undefined;
  }

  function isNumberLike(x) {
    if (typeof x === 'number' || typeof x === 'bigint') return true;
    const t = bsontype(x);
    return t === 'Long' || t === 'Int32' || t === 'Double' || t === 'Decimal128';
  }

  function toNumber(x) {
    if (typeof x === 'number') return x;
    if (typeof x === 'bigint') return Number(x);
    const t = bsontype(x);
    if (t === 'Long') return x.toNumber();
    if (t === 'Decimal128') return parseFloat(x.toString());
    return Number(x.valueOf());
  }

  // Values may come from the driver's realm, where instanceof Date / RegExp is false.
  function isDate(x) {
    return Object.prototype.toString.call(x) === '[object Date]';
  }
  function isRegExp(x) {
    return Object.prototype.toString.call(x) === '[object RegExp]';
  }

  function tojson(x) {
    if (x === undefined) return 'undefined';
    if (typeof x === 'function') return 'function ' + (x.name || '(anonymous)');
    if (isError(x)) return (x.name || 'Error') + ': ' + x.message +
        (x.code !== undefined ? ' (code ' + x.code + ')' : '');
    try {
      return EJSON.stringify(x, null, 0, { relaxed: true });
    } catch (e) {
      try {
        return JSON.stringify(x);
      } catch (e2) {
        return String(x);
      }
    }
  }

  function valuesEqual(a, b, ordered) {
    if (a === b) return true;
    if (isNumberLike(a) && isNumberLike(b)) {
      const x = toNumber(a), y = toNumber(b);
      return x === y || (Number.isNaN(x) && Number.isNaN(y));
    }
    if (a === null || b === null || a === undefined || b === undefined) return false;
    if (typeof a !== 'object' || typeof b !== 'object') return false;
    if (isDate(a) || isDate(b)) {
      return isDate(a) && isDate(b) && a.getTime() === b.getTime();
    }
    if (isRegExp(a) || isRegExp(b)) {
      return isRegExp(a) && isRegExp(b) && a.source === b.source && a.flags === b.flags;
    }
    const ta = bsontype(a), tb = bsontype(b);
    if (ta || tb) {
      if (ta !== tb) return false;
      if (ta === 'ObjectId' || ta === 'ObjectID') return a.toHexString() === b.toHexString();
      if (ta === 'MinKey' || ta === 'MaxKey') return true;
      if (ta === 'Timestamp') return a.toString() === b.toString();
      if (ta === 'BSONRegExp') return a.pattern === b.pattern && a.options === b.options;
      if (ta === 'Binary') {
        return a.sub_type === b.sub_type && a.toString('base64') === b.toString('base64');
      }
      return tojson(a) === tojson(b);
    }
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a)) {
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) {
        if (!valuesEqual(a[i], b[i], ordered)) return false;
      }
      return true;
    }
    const ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) return false;
    for (let i = 0; i < ka.length; i++) {
      if (ordered && ka[i] !== kb[i]) return false;
      if (!Object.prototype.hasOwnProperty.call(b, ka[i])) return false;
      if (!valuesEqual(a[ka[i]], b[ka[i]], ordered)) return false;
    }
    return true;
  }

  function fail(what, msg) {
    const err = new Error('assert failed: ' + what + (msg ? ' : ' + msg : ''));
    err.name = 'AssertionFailure';
    // Name the test file line that failed: mongosh prints only the message of an uncaught error.
    const where = (new Error().stack || '').split('\n').filter((l) => /jstests\/(?!lib\/)/.test(l))[0];
    if (where) err.message += '\n    at ' + where.trim().replace(/^at /, '');
    throw err;
  }

  function assert(cond, msg) {
    if (!cond) fail(typeof msg === 'function' ? msg() : (msg || 'condition is false'));
  }

  assert.eq = function (expected, actual, msg) {
    if (!valuesEqual(expected, actual, false)) {
      fail('[' + tojson(expected) + '] != [' + tojson(actual) + '] are not equal', msg);
    }
  };
  assert.neq = function (a, b, msg) {
    if (valuesEqual(a, b, false)) fail('[' + tojson(a) + '] == [' + tojson(b) + '] are equal', msg);
  };
  assert.docEq = function (expected, actual, msg) {
    if (!valuesEqual(expected, actual, false)) {
      fail('expected document ' + tojson(expected) + ' but got ' + tojson(actual), msg);
    }
  };
  assert.docEqOrdered = function (expected, actual, msg) {
    if (!valuesEqual(expected, actual, true)) {
      fail('expected document (field order matters) ' + tojson(expected) + ' but got ' + tojson(actual), msg);
    }
  };
  // Same elements, any order (elements compared with docEq semantics).
  assert.sameMembers = function (expected, actual, msg) {
    assert(Array.isArray(expected) && Array.isArray(actual), 'sameMembers needs two arrays: ' + tojson(actual));
    const left = actual.slice();
    const bad = () => fail('expected members ' + tojson(expected) + ' but got ' + tojson(actual), msg);
    if (expected.length !== actual.length) bad();
    for (const e of expected) {
      const i = left.findIndex((x) => valuesEqual(e, x, false));
      if (i < 0) bad();
      left.splice(i, 1);
    }
  };
  assert.contains = function (needle, haystack, msg) {
    if (!haystack || !haystack.some((x) => valuesEqual(needle, x, false))) {
      fail(tojson(needle) + ' is not in ' + tojson(haystack), msg);
    }
  };
  assert.hasFields = function (obj, fields, msg) {
    const missing = fields.filter((f) => !(obj && Object.prototype.hasOwnProperty.call(obj, f)));
    if (missing.length) fail('missing fields ' + tojson(missing) + ' in ' + tojson(obj), msg);
  };
  // The document's own fields, in order, are exactly `keys`.
  assert.fieldOrder = function (obj, keys, msg) {
    const actual = Object.keys(obj);
    if (tojson(actual) !== tojson(keys)) fail('field order ' + tojson(actual) + ' != ' + tojson(keys), msg);
  };
  assert.isnull = function (x, msg) {
    if (x !== null && x !== undefined) fail(tojson(x) + ' is not null', msg);
  };
  function cmp(name, ok) {
    return function (a, b, msg) {
      if (!ok(toNumber(a), toNumber(b))) fail(tojson(a) + ' ' + name + ' ' + tojson(b) + ' is false', msg);
    };
  }
  assert.lt = cmp('<', (a, b) => a < b);
  assert.lte = cmp('<=', (a, b) => a <= b);
  assert.gt = cmp('>', (a, b) => a > b);
  assert.gte = cmp('>=', (a, b) => a >= b);
  assert.between = function (lo, x, hi, msg) {
    assert.gte(x, lo, msg);
    assert.lte(x, hi, msg);
  };

  assert.throws = function (fn, msg) {
    try {
      fn();
    } catch (e) {
      return e;
    }
    fail('did not throw', msg);
  };
  // fn must throw an error whose code (server code, or writeErrors[0].code) is one of `codes`.
  assert.throwsWithCode = function (fn, codes, msg) {
    const e = assert.throws(fn, msg);
    const want = [].concat(codes);
    const code = errorCode(e);
    if (!want.includes(code)) {
      fail('expected error code ' + tojson(want) + ' but got ' + tojson(code) + ' from ' + tojson(e), msg);
    }
    return e;
  };
  assert.doesNotThrow = function (fn, msg) {
    try {
      return fn();
    } catch (e) {
      fail('threw ' + tojson(e) + (e && e.stack ? '\n' + e.stack : ''), msg);
    }
  };

  function errorCode(e) {
    if (!e) return undefined;
    if (e.code !== undefined) return e.code;
    const wes = e.writeErrors || (e.result && e.result.writeErrors) ||
        (e.errorResponse && e.errorResponse.writeErrors);
    if (wes && wes.length) return wes[0].code;
    if (e.writeConcernError) return e.writeConcernError.code;
    return undefined;
  }

  // Errors may come from another realm (the driver's), so instanceof alone is not enough.
  function isError(x) {
    return x !== null && typeof x === 'object' &&
        (x instanceof Error || Object.prototype.toString.call(x) === '[object Error]' ||
         (typeof x.stack === 'string' && typeof x.message === 'string'));
  }

  // A reply document as the server sent it, whether the shell threw it at us or returned it.
  function asReply(resOrFn) {
    let res = resOrFn;
    if (typeof resOrFn === 'function') {
      try {
        res = resOrFn();
      } catch (e) {
        res = e;
      }
    }
    if (isError(res)) {
      if (res.errorResponse && typeof res.errorResponse === 'object') {
        const r = Object.assign({}, res.errorResponse);
        if (r.ok === undefined) r.ok = 0;
        return r;
      }
      return { ok: 0, code: res.code, codeName: res.codeName, errmsg: res.message, writeErrors: res.writeErrors };
    }
    return res;
  }

  assert.commandWorked = function (resOrFn, msg) {
    const res = asReply(resOrFn);
    if (!res || typeof res !== 'object') fail('command result is not a document: ' + tojson(res), msg);
    if (res.ok === undefined && res.acknowledged !== undefined) return res;  // CRUD helper results
    if (!valuesEqual(res.ok, 1)) fail('command failed: ' + tojson(res), msg);
    if (res.writeErrors && res.writeErrors.length) fail('command had writeErrors: ' + tojson(res), msg);
    if (res.writeConcernError) fail('command had writeConcernError: ' + tojson(res), msg);
    return res;
  };
  // ok: 1, write errors allowed (for write commands expected to partly fail).
  assert.writeReply = function (resOrFn, msg) {
    const res = asReply(resOrFn);
    if (!res || !valuesEqual(res.ok, 1)) fail('command failed: ' + tojson(res), msg);
    return res;
  };
  assert.commandFailed = function (resOrFn, msg) {
    const res = asReply(resOrFn);
    if (valuesEqual(res.ok, 1) && !(res.writeErrors && res.writeErrors.length) && !res.writeConcernError) {
      fail('command worked but should have failed: ' + tojson(res), msg);
    }
    return res;
  };
  // Top-level error: ok 0 and code in codes. Write errors: ok 1 and writeErrors[0].code in codes.
  assert.commandFailedWithCode = function (resOrFn, codes, msg) {
    const res = assert.commandFailed(resOrFn, msg);
    const want = [].concat(codes);
    let code = res.code;
    if (valuesEqual(res.ok, 1)) {
      code = res.writeErrors && res.writeErrors.length ? res.writeErrors[0].code : res.writeConcernError.code;
    }
    if (!want.includes(code)) {
      fail('expected failure with code ' + tojson(want) + ' but got ' + tojson(res), msg);
    }
    if (!valuesEqual(res.ok, 1)) {
      assert(typeof res.errmsg === 'string', 'error reply without errmsg: ' + tojson(res));
      assert(typeof res.codeName === 'string', 'error reply without codeName: ' + tojson(res));
    }
    return res;
  };
  // ok: 1 with exactly one write error at `index` with code `code`.
  assert.writeErrorWithCode = function (res, code, index, msg) {
    res = asReply(res);
    assert.eq(1, res.ok, 'write command should report ok: 1 with writeErrors: ' + tojson(res));
    assert(Array.isArray(res.writeErrors) && res.writeErrors.length >= 1, 'no writeErrors in ' + tojson(res));
    const we = res.writeErrors[0];
    assert.eq(code, we.code, msg || tojson(res));
    if (index !== undefined) assert.eq(index, we.index, msg || tojson(res));
    assert(typeof we.errmsg === 'string', 'writeError without errmsg: ' + tojson(we));
    return we;
  };

  assert.soon = function (fn, msg, timeoutMs, intervalMs) {
    const deadline = Date.now() + (timeoutMs || 30000);
    while (Date.now() < deadline) {
      if (fn()) return;
      sleep(intervalMs || 100);
    }
    fail('condition not met in time', typeof msg === 'function' ? msg() : msg);
  };

  // Runs a command and returns the server's reply, also when the shell would throw on ok: 0.
  function runCmd(database, cmd) {
    return asReply(() => database.runCommand(cmd));
  }

  // A freshly dropped database for one test file.
  function testDB(name) {
    const d = db.getSiblingDB(name);
    d.dropDatabase();
    return d;
  }

  // Documents of a find/aggregate, reading every batch with getMore.
  function allDocs(database, reply) {
    assert.commandWorked(reply);
    const out = reply.cursor.firstBatch.slice();
    let id = reply.cursor.id;
    const coll = reply.cursor.ns.substring(reply.cursor.ns.indexOf('.') + 1);
    while (!valuesEqual(id, 0)) {
      const more = assert.commandWorked(runCmd(database, { getMore: id, collection: coll }));
      for (const d of more.cursor.nextBatch) out.push(d);
      id = more.cursor.id;
    }
    return out;
  }

  globalThis.assert = assert;
  globalThis.tojson = tojson;
  globalThis.valuesEqual = valuesEqual;
  globalThis.runCmd = runCmd;
  globalThis.testDB = testDB;
  globalThis.allDocs = allDocs;
  globalThis.errorCodeOf = errorCode;
  globalThis.isDate = isDate;
  globalThis.isNumber = isNumberLike;
  globalThis.toNumber = toNumber;
  globalThis.isRegExp = isRegExp;
})();
