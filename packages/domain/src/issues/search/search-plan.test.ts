import { describe, expect, it } from 'vitest';
import { and, type Driver, leaf, planQuery } from './search-plan.js';

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
    expect(plan.from).toBe('issue_field_values d join issues i on i.id = d.issue_id');
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

  it('still estimates a single unordered driver: used only when small enough to sort', async () => {
    const small = await planQuery(valueLeaf('open', false), readable, async () => 5);
    expect(small.from).toContain('issue_field_values d');
    const large = await planQuery(valueLeaf('open', false), readable, async () => 2000);
    expect(large.from).toBe('issues i');
  });
});
