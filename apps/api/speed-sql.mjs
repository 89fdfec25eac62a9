// temporary: print the page and count statements of a query, with EXPLAIN QUERY PLAN and timings
const D = '/work/wt/speed/packages/domain/dist/';
const d = await import(D + 'index.js');
const { compileQuery } = await import(D + 'issues/search/compile-query.js');
const P = await import(D + 'issues/search/search-plan.js');
const { readableIssuesCondition } = await import(D + 'issues/search/readable-issues.js');
const { readRows } = await import(D + 'read-models/statements.js');
const file = process.argv[2];
const orm = await d.createOrm({ kind: 'sqlite', file });
const em = orm.em.fork();
const login = process.env.LOGIN ?? 'root';
const actor = await d.loadActor(em, await em.findOneOrFail(d.User, { loginKey: login }));
for (const query of process.argv.slice(3)) {
  const compiled = await compileQuery(em, actor, query, { dialect: 'sqlite', timeZone: 'UTC', now: Date.now() });
  const readable = readableIssuesCondition(actor, 'i');
  const plan = await P.planQuery(compiled.condition, readable, async (drv) => {
    const s = P.estimateStatement(drv);
    const [row] = await readRows(em, s.sql, s.params);
    return Number(Object.values(row)[0]);
  });
  for (const [kind, st] of [['page', P.pageStatement(plan, compiled.sort, 0, 50)], ['count', P.countStatement(plan)]]) {
    const ps = st.params.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p));
    const qp = await readRows(em, `explain query plan ${st.sql}`, ps);
    const times = [];
    let n = 0;
    for (let k = 0; k < 5; k++) { const t = performance.now(); n = (await readRows(em, st.sql, ps)).length; times.push(performance.now() - t); }
    times.sort((a, b) => a - b);
    console.log(`\n== ${query} [${kind}] rows ${n} median ${times[2].toFixed(1)} ms\n${st.sql}\n${JSON.stringify(ps)}`);
    console.log(qp.map((r) => `  ${r.detail}`).join('\n'));
  }
}
await orm.close(true);
