// Hooks of resmoke's replica-set passthrough suites (jstests/replica_sets_jscore): run by mongosh
// --nodb with RS_HOOK, RS_NAME and RS_HOSTS ("h:p,h:p,...", member 0 first) in the environment.
//   RS_HOOK=initiate  replSetInitiate (member 0 electable, the others priority 0 so that the
//                     primary never moves during the suite, as MongoDB's ReplicaSetFixture does by
//                     default), waits for a primary and secondaries, and checks that the
//                     default write concern is w: "majority".
//   RS_HOOK=check     the end checks of ReplSetTest: replication caught up, dbHash of every
//                     replicated database equal on all members, the oplogs agree over their common
//                     range, validate clean on every collection of every member.
(function () {
  'use strict';
  load(__dirname + '/assert.js');
  load(__dirname + '/replsettest.js');
  const hook = process.env.RS_HOOK;
  const hosts = (process.env.RS_HOSTS || '').split(',').filter((h) => h);
  if (!hosts.length) throw new Error('RS_HOSTS is empty');
  const rst = ReplSetTest.attach(process.env.RS_NAME || 'rs0', hosts);
  if (hook === 'initiate') {
    const cfg = {_id: rst.name, members: hosts.map((h, i) => (i === 0 ? {_id: i, host: h} : {_id: i, host: h, priority: 0}))};
    rst.initiate(cfg, 120000);
    // The default write concern of a set is w: "majority" (MongoDB 5.0+'s implicit default);
    // the tests' connection string says w=majority as well. (setDefaultRWConcern is not
    // implemented by this server yet: once it is, set the default here explicitly.)
    const d = assert.commandWorked(rst.getPrimary().getDB('admin').runCommand({getDefaultRWConcern: 1}));
    assert.eq('majority', d.defaultWriteConcern.w, tojson(d));
    rst.awaitReplication();
  } else if (hook === 'check') {
    rst.getPrimary();
    rst.checkAll();
  } else {
    throw new Error('unknown RS_HOOK ' + hook);
  }
})();
