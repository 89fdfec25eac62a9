import { describe, expect, it } from 'vitest';
import {
  and,
  countStatement,
  type Driver,
  ESTIMATE_LIMIT,
  leaf,
  type NestedSet,
  or,
  pageStatement,
  planNested,
  planQuery,
  REFINED_ESTIMATE_LIMIT,
  setStatement,
  unplannedSet,
} from './search-plan.js';

const readable = { sql: '1 = 1', params: [] };
const valueLeaf = (key: string, ordered = true) => {
  const driver: Driver = {
    from: 'issue_field_values d',
    id: 'd.issue_id',
    where: { sql: 'd.value_key = ?', params: [key] },
    ordered,
  };
  return leaf({ sql: `exists (select 1 from x where x.value_key = ?)`, params: [key] }, driver);
};

describe('planQuery', () => {
  it('takes a single ordered driver without estimating it', async () => {
    const estimated: unknown[] = [];
    const plan = await planQuery(valueLeaf('open'), readable, async (d) => {
      estimated.push(d.where.params);
      return 10;
    });
    expect(estimated).toEqual([]);
    expect(plan.from).toBe('issue_field_values d cross join issues i on i.id = d.issue_id');
    expect(plan.ordered).toBe(true);
  });

  it('ranks several drivers by their estimates and starts from the smallest', async () => {
    const sizes: Record<string, number> = { open: 2000, critical: 40 };
    const estimated: unknown[] = [];
    const plan = await planQuery(and([valueLeaf('open'), valueLeaf('critical')]), readable, async (d) => {
      estimated.push(d.where.params[0]);
      return sizes[d.where.params[0] as string] ?? 0;
    });
    expect(estimated.sort()).toEqual(['critical', 'open']);
    expect(plan.where.params[0]).toBe('critical');
  });

  it('counts drivers tied at the bound again, further, and starts from the smallest', async () => {
    // At a million issues: the project 50,000, the reporter 5,000, the word 70,000; all reach 2,000.
    const sizes: Record<string, number> = { project: 50_000, reporter: 5_000, word: 70_000 };
    const asked: [unknown, number][] = [];
    const plan = await planQuery(
      and([valueLeaf('project'), valueLeaf('reporter'), valueLeaf('word')]),
      readable,
      async (d, limit) => {
        asked.push([d.where.params[0], limit]);
        return Math.min(sizes[d.where.params[0] as string] ?? 0, limit);
      },
    );
    expect(plan.where.params[0]).toBe('reporter');
    expect(
      asked
        .filter(([, limit]) => limit === REFINED_ESTIMATE_LIMIT)
        .map(([key]) => key)
        .sort(),
    ).toEqual(['project', 'reporter', 'word']);
  });

  it('counts no driver again when at most one reached the bound', async () => {
    const sizes: Record<string, number> = { open: 50_000, critical: 40 };
    const limits: number[] = [];
    const plan = await planQuery(
      and([valueLeaf('open'), valueLeaf('critical')]),
      readable,
      async (d, limit) => {
        limits.push(limit);
        return Math.min(sizes[d.where.params[0] as string] ?? 0, limit);
      },
    );
    expect(plan.where.params[0]).toBe('critical');
    expect(limits).toEqual([ESTIMATE_LIMIT, ESTIMATE_LIMIT]);
  });

  it('marks a walk: the driver in its own order, no other condition, a caller who reads everything', async () => {
    const estimate = async () => 10;
    const walk = await planQuery(valueLeaf('open'), readable, estimate);
    expect(walk.walk).toBe(true);
    // Its page reads the ids off the driver's index, joined to no issue row.
    expect(pageStatement(walk, [], 150, 50)).toEqual({
      sql: 'select d.issue_id as id from issue_field_values d where d.value_key = ? and 1 = 1 and 1 = 1 order by d.issue_id desc limit ? offset ?',
      params: ['open', 50, 150],
    });
    const readsSome = { sql: 'i.project_id in (?)', params: [3] };
    expect((await planQuery(valueLeaf('open'), readsSome, estimate)).walk).toBeUndefined();
    const more = and([valueLeaf('open'), leaf({ sql: 'i.resolved_at is null', params: [] })]);
    expect((await planQuery(more, readable, estimate)).walk).toBeUndefined();
    expect((await planQuery(valueLeaf('open', false), readable, estimate)).walk).toBeUndefined();
  });

  it('still estimates a single unordered driver: used only when small enough to sort', async () => {
    const small = await planQuery(valueLeaf('open', false), readable, async () => 5);
    expect(small.from).toContain('issue_field_values d');
    const large = await planQuery(valueLeaf('open', false), readable, async () => 2000);
    expect(large.from).toBe('issues i');
  });
});

describe('counts on SQLite', () => {
  const big = async () => ESTIMATE_LIMIT;
  it('join the chosen driver first (cross join)', async () => {
    const plan = await planQuery(
      and([valueLeaf('open'), leaf({ sql: 'i.resolved_at is null', params: [] })]),
      readable,
      big,
    );
    expect(plan.from).toBe('issue_field_values d cross join issues i on i.id = d.issue_id');
    const pg = await planQuery(valueLeaf('open'), readable, big, { dialect: 'postgresql' });
    expect(pg.from).toBe('issue_field_values d join issues i on i.id = d.issue_id');
  });

  it('intersect several large ordered ranges by a merge, other conditions on its rows', async () => {
    const plan = await planQuery(
      and([valueLeaf('open'), valueLeaf('critical'), leaf({ sql: 'i.resolved_at is null', params: [] })]),
      readable,
      big,
    );
    const count = countStatement(plan);
    expect(count.sql).toBe(
      'select count(*) as n from (select d.issue_id as id from issue_field_values d where d.value_key = ? intersect ' +
        'select d.issue_id as id from issue_field_values d where d.value_key = ? order by 1 limit -1) m ' +
        'cross join issues i on i.id = m.id where i.resolved_at is null and 1 = 1',
    );
    expect(count.params).toEqual(['open', 'critical']);
    // A slice of issue ids: each range walked over that slice only (parameters in order).
    const slice = countStatement(plan, { from: 1, to: 500 });
    expect(slice.sql).toBe(
      'select count(*) as n from (select d.issue_id as id from issue_field_values d where d.value_key = ? and d.issue_id between ? and ? intersect ' +
        'select d.issue_id as id from issue_field_values d where d.value_key = ? and d.issue_id between ? and ? order by 1 limit -1) m ' +
        'cross join issues i on i.id = m.id where i.resolved_at is null and 1 = 1',
    );
    expect(slice.params).toEqual(['open', 1, 500, 'critical', 1, 500]);
    // The page keeps the smallest range and its probes: it stops at its 50th row.
    expect(pageStatement(plan, [], 0, 50).sql).not.toContain('intersect');
    // PostgreSQL hashes a compound: no faster than its probes for an AND, far faster for an OR.
    const pg = await planQuery(and([valueLeaf('open'), valueLeaf('critical')]), readable, big, {
      dialect: 'postgresql',
    });
    expect(countStatement(pg).sql).not.toContain('intersect');
    const pgOr = await planQuery(or([valueLeaf('open'), valueLeaf('fixed')]), readable, big, {
      dialect: 'postgresql',
    });
    expect(countStatement(pgOr).sql).toBe(
      'select count(*) as n from (select d.issue_id as id from issue_field_values d where d.value_key = ? union ' +
        'select d.issue_id as id from issue_field_values d where d.value_key = ?) m where 1 = 1 and 1 = 1',
    );
  });

  it('keep probing when a range is small, and merge an OR of ranges as a union', async () => {
    const small = await planQuery(and([valueLeaf('open'), valueLeaf('critical')]), readable, async (d) =>
      d.where.params[0] === 'open' ? 10 : ESTIMATE_LIMIT,
    );
    expect(countStatement(small).sql).not.toContain('intersect');
    const either = await planQuery(or([valueLeaf('open'), valueLeaf('fixed')]), readable, big);
    expect(countStatement(either)).toEqual({
      sql:
        'select count(*) as n from (select d.issue_id as id from issue_field_values d where d.value_key = ? union ' +
        'select d.issue_id as id from issue_field_values d where d.value_key = ? order by 1 limit -1) m where 1 = 1 and 1 = 1',
      params: ['open', 'fixed'],
    });
  });
});

describe('counts of text on PostgreSQL', () => {
  const big = async () => ESTIMATE_LIMIT;
  const pgCount = { dialect: 'postgresql', countOnly: true } as const;
  const word = () =>
    leaf(
      { sql: 'exists (select 1 from issue_search x where x.issue_id = i.id)', params: [] },
      {
        from: 'issue_search d',
        id: 'd.issue_id',
        where: { sql: 'd.doc @@ ?', params: ['w'] },
        ordered: false,
      },
    );

  it('count a frequent word by its documents alone; a page of it walks the issues', async () => {
    const count = await planQuery(word(), readable, big, pgCount);
    expect(countStatement(count)).toEqual({
      sql: 'select count(*) as n from issue_search d where d.doc @@ ? and 1 = 1 and 1 = 1',
      params: ['w'],
    });
    // A caller who reads some projects only: the documents joined to their issues, still the driver.
    const some = { sql: 'i.project_id in (?)', params: [3] };
    expect(countStatement(await planQuery(word(), some, big, pgCount)).sql).toBe(
      'select count(*) as n from issue_search d join issues i on i.id = d.issue_id ' +
        'where d.doc @@ ? and 1 = 1 and i.project_id in (?)',
    );
    // A page sorts an unordered range only when it is small; SQLite's text range is ordered anyway.
    expect((await planQuery(word(), readable, big, { dialect: 'postgresql' })).from).toBe('issues i');
  });
});

describe('drivers on the issues themselves', () => {
  const projectLeaf = leaf(
    { sql: 'i.project_id = ?', params: [7] },
    { from: 'issues d', id: 'd.id', where: { sql: 'd.project_id = ?', params: [7] }, ordered: true },
  );
  const unresolved = leaf(
    { sql: 'i.resolved_at is null', params: [] },
    { from: 'issues d', id: 'd.id', where: { sql: 'd.resolved_at is null', params: [] }, ordered: false },
  );
  it('are walked first on SQLite, whose statistics cannot tell which is smaller', async () => {
    const plan = await planQuery(and([projectLeaf, unresolved]), readable, async (d) =>
      d.where.sql.includes('project') ? 5 : ESTIMATE_LIMIT,
    );
    expect(plan.from).toBe('issues d cross join issues i on i.id = d.id');
    expect(plan.where.sql).toBe('d.project_id = ? and i.resolved_at is null and 1 = 1');
    expect(plan.orderId).toBe('d.id');
  });
  it('on PostgreSQL, a condition with few rows orders the page by no index (no backward walk of the ids)', async () => {
    const word = leaf(
      { sql: 'exists (select 1 from issue_search x where x.issue_id = i.id)', params: [] },
      {
        from: 'issue_search d',
        id: 'd.issue_id',
        where: { sql: 'd.doc @@ ?', params: ['w'] },
        ordered: false,
      },
    );
    const none = await planQuery(word, readable, async () => 0, { dialect: 'postgresql' });
    expect(pageStatement(none, [], 0, 50).sql).toContain('order by (i.id + 0) desc');
    const many = await planQuery(word, readable, async () => ESTIMATE_LIMIT, { dialect: 'postgresql' });
    expect(pageStatement(many, [], 0, 50).sql).toContain('order by i.id desc');
    // A date range on the issues: counted further; under the second bound, fetched whole and sorted.
    const range = (rows: number) =>
      planQuery(
        leaf(
          { sql: 'i.created_at >= ?', params: [1] },
          { from: 'issues d', id: 'd.id', where: { sql: 'd.created_at >= ?', params: [1] }, ordered: false },
        ),
        readable,
        async (_d, limit) => Math.min(rows, limit),
        { dialect: 'postgresql' },
      );
    expect(pageStatement(await range(24_911), [], 0, 50).sql).toContain('order by (i.id + 0) desc');
    expect(pageStatement(await range(500_000), [], 0, 50).sql).toContain('order by i.id desc');
    // A count has no page to order: the range is not counted further.
    const limits: number[] = [];
    await planQuery(
      leaf(
        { sql: 'i.created_at >= ?', params: [1] },
        { from: 'issues d', id: 'd.id', where: { sql: 'd.created_at >= ?', params: [1] }, ordered: false },
      ),
      readable,
      async (_d, limit) => {
        limits.push(limit);
        return Math.min(24_911, limit);
      },
      { dialect: 'postgresql', countOnly: true },
    );
    expect(limits).toEqual([ESTIMATE_LIMIT]);
    // Conditions tied at the first bound and counted again: one under the second bound sorts too.
    const tied = await planQuery(
      and([valueLeaf('project'), valueLeaf('reporter')]),
      readable,
      async (d, limit) => Math.min(d.where.params[0] === 'reporter' ? 5_000 : 50_000, limit),
      { dialect: 'postgresql' },
    );
    expect(pageStatement(tied, [], 0, 50).sql).toContain('order by (i.id + 0) desc');
    const large = await planQuery(
      and([valueLeaf('project'), valueLeaf('reporter')]),
      readable,
      async (_d, limit) => Math.min(50_000, limit),
      { dialect: 'postgresql' },
    );
    expect(pageStatement(large, [], 0, 50).sql).toContain('order by d.issue_id desc');
    // SQLite walks the measured driver itself: its order is the driver's.
    const sqlite = await planQuery(and([projectLeaf, unresolved]), readable, async () => 5);
    expect(pageStatement(sqlite, [], 0, 50).sql).toContain('order by d.id desc');
  });
  it('are left to PostgreSQL, which picks the index of the condition on the issue', async () => {
    const plan = await planQuery(and([projectLeaf, unresolved]), readable, async () => 5, {
      dialect: 'postgresql',
    });
    expect(plan.from).toBe('issues i');
  });

  describe('alternatives on PostgreSQL', () => {
    const estimate = async () => ESTIMATE_LIMIT;
    const query = and([
      or([valueLeaf('open'), valueLeaf('fixed')]),
      leaf({ sql: 'exists (select 1 from y where y.a in (?, ?)) and i.b in (?)', params: [1, 2, 3] }),
      or([
        leaf({ sql: 'exists (select 1 from y where y.a in (?, ?)) and i.b in (?)', params: [4, 5, 6] }),
        leaf({ sql: 'i.c = ?', params: [7] }),
      ]),
    ]);

    it('a page probes each exists under an OR per issue (offset 0: never hashed), nothing else changes', async () => {
      const plan = await planQuery(query, readable, estimate, { dialect: 'postgresql' });
      const sql = pageStatement(plan, [], 0, 50).sql;
      expect(sql).toContain(
        '(exists (select 1 from x where x.value_key = ? offset 0) or exists (select 1 from x where x.value_key = ? offset 0))',
      );
      // A probe that is more than one sub-query, or one outside an OR, is left as written.
      expect(sql).toContain('exists (select 1 from y where y.a in (?, ?)) and i.b in (?) and');
      expect(sql).toContain('(exists (select 1 from y where y.a in (?, ?)) and i.b in (?) or i.c = ?)');
      expect(sql.match(/offset 0/g)).toHaveLength(2);
    });

    it('a count and SQLite keep the probes as written', async () => {
      const count = await planQuery(query, readable, estimate, { dialect: 'postgresql', countOnly: true });
      expect(countStatement(count).sql).not.toContain('offset 0');
      const sqlite = await planQuery(query, readable, estimate);
      expect(pageStatement(sqlite, [], 0, 50).sql).not.toContain('offset 0');
    });
  });

  describe('an OR of ranges in a count', () => {
    const range = (key: string, disjointBy?: string) => {
      const driver: Driver = {
        from: 'issue_field_values d',
        id: 'd.issue_id',
        where: { sql: 'd.value_key = ?', params: [key] },
        ordered: true,
        ...(disjointBy ? { disjointBy } : {}),
      };
      return leaf({ sql: 'exists (select 1 from x where x.value_key = ?)', params: [key] }, driver);
    };
    const countSql = async (condition: Parameters<typeof planQuery>[0]) =>
      countStatement(await planQuery(condition, readable, async () => ESTIMATE_LIMIT, { countOnly: true }))
        .sql;

    it('concatenates the values of one single-valued field', async () => {
      expect(await countSql(or([range('open', 'state'), range('fixed', 'state')]))).toContain(' union all ');
    });

    it('builds a set when the ranges may share an issue', async () => {
      for (const condition of [
        or([range('open', 'state'), range('open', 'state')]),
        or([range('open', 'state'), range('critical', 'priority')]),
        or([range('1.0'), range('2.0')]),
      ]) {
        const sql = await countSql(condition);
        expect(sql).toContain(' union ');
        expect(sql).not.toContain('union all');
      }
    });
  });
});

describe('planNested: the sets of other issues a condition is about (the other ends of links)', () => {
  const linkedTo = (
    inner: ReturnType<typeof and>,
    readableSet = { sql: '+i.project_id in (?)', params: [7] },
  ) => {
    const make = (statement: { sql: string; params: unknown[] }) =>
      leaf({
        sql: `+i.id in (select l.source_id from issue_links l where l.target_id in (${statement.sql}))`,
        params: statement.params,
      });
    const nested: NestedSet = { inner, readable: readableSet, make };
    return { ...make(unplannedSet(inner, nested.readable)), nested };
  };

  it('plans each set like a query: its smallest index range first, not every issue tested', async () => {
    const sizes: Record<string, number> = { open: 2000, critical: 40 };
    const condition = linkedTo(and([valueLeaf('open'), valueLeaf('critical')]));
    // Unplanned, the set tests every issue.
    expect(condition.probe.sql).toContain('select i.id from issues i where');
    const planned = await planNested(condition, async (inner, readableInner) =>
      setStatement(
        await planQuery(inner, readableInner, async (d) => sizes[d.where.params[0] as string] ?? 0),
      ),
    );
    if (planned.kind !== 'leaf') throw new Error('a leaf stays a leaf');
    expect(planned.nested).toBeUndefined();
    expect(planned.probe.sql).toBe(
      '+i.id in (select l.source_id from issue_links l where l.target_id in (select i.id from issue_field_values d cross join issues i on i.id = d.issue_id where d.value_key = ? and exists (select 1 from x where x.value_key = ?) and +i.project_id in (?)))',
    );
    expect(planned.probe.params).toEqual(['critical', 'open', 7]);
  });

  it('plans the innermost set first, inside ORs and negations', async () => {
    const inner = linkedTo(and([valueLeaf('critical')]));
    const outer = or([valueLeaf('open'), { kind: 'not', item: linkedTo(and([inner])) }]);
    const planned: string[] = [];
    await planNested(outer, async (set, readableSet) => {
      const statement = setStatement(await planQuery(set, readableSet, async () => 1));
      planned.push(statement.sql);
      return statement;
    });
    expect(planned).toHaveLength(2);
    expect(planned[0]).toContain('from issue_field_values d cross join issues i');
    // The outer set holds the inner one's planned statement.
    expect(planned[1]).toContain(planned[0]);
  });

  it('never renames the issue id of a nested statement to a driver column (the issue row is joined)', async () => {
    // A reader of every issue: no condition but the nested statement's names the issue row.
    const condition = and([valueLeaf('open'), linkedTo(and([valueLeaf('critical')]), readable)]);
    const plan = await planQuery(condition, readable, async (d) => (d.where.params[0] === 'open' ? 5 : 3000));
    expect(plan.driverOnly).toBeUndefined();
    expect(countStatement(plan).sql).toContain('select i.id from issues i where');
  });
});
