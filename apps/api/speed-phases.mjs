// temporary (not committed): phases of the page-of-50 request, in process
const d = await import('@trackline/domain');
const c = await import('@trackline/contracts');
const { toIssueDto } = await import('./dist/routers/issues/issue.dto.js');
const orm = await d.createOrm({ kind: 'sqlite', file: '/tmp/speed-page.sqlite' });
const root = await d.loadActor(orm.em.fork(), await orm.em.fork().findOneOrFail(d.User, { loginKey: 'root' }));
const t = { list: 0, views: 0, dto: 0, zod: 0, json: 0 };
const N = 300;
let bytes = 0;
for (let k = 0; k < N + 50; k++) {
  const p = `P${String((k % 50) + 1).padStart(3, '0')}`;
  const t0 = performance.now();
  const views = await d.listProjectIssues(orm.em.fork(), root, p, '', { skip: (k % 4) * 50, max: 50 });
  const t1 = performance.now();
  await d.loadIssueViews(orm.em.fork(), root, views.map((v) => v.dbId));
  const t1b = performance.now();
  if (k >= 50) t.views += t1b - t1;
  const t2a = performance.now();
  const dto = views.map(toIssueDto);
  const t2 = performance.now(); if (k >= 50) t.dto -= 0; const _x = t2a;
  const out = c.ZListProjectIssuesOutput.safeParse(dto);
  const t3 = performance.now();
  const body = JSON.stringify(out.data);
  const t4 = performance.now();
  bytes = body.length;
  if (k >= 50) { t.list += t1 - t0; t.dto += t2 - t1; t.zod += t3 - t2; t.json += t4 - t3; }
}
for (const [k, v] of Object.entries(t)) console.log(k, (v / N).toFixed(3), 'ms');
console.log('bytes', bytes);
await orm.close(true);
