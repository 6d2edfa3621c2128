import {
  perSecond,
  probeCell,
  scansCell,
  summarizePlan,
  timings,
  type ExplainJson,
  type PlanNode,
} from './due-sweep-summary';

/** The claim's plan shape: Sort over a CTE Scan over LockRows > Limit > the scan. */
function claimPlan(scan: PlanNode): ExplainJson {
  return {
    Plan: {
      'Node Type': 'Sort',
      'Shared Hit Blocks': 3,
      'Shared Read Blocks': 1,
      Plans: [
        {
          'Node Type': 'CTE Scan',
          'Actual Rows': 0,
          'Actual Loops': 1,
          Plans: [
            {
              'Node Type': 'LockRows',
              Plans: [{ 'Node Type': 'Limit', Plans: [scan] }],
            },
          ],
        },
      ],
    },
    'Planning Time': 0.3,
    'Execution Time': 0.042,
  };
}

describe('summarizePlan', () => {
  it('finds one index probe in an index scan that read nothing', () => {
    const summary = summarizePlan(
      claimPlan({
        'Node Type': 'Index Scan',
        'Relation Name': 'due_notices',
        'Index Name': 'due_notices_next',
        'Actual Rows': 0,
        'Actual Loops': 1,
      }),
    );
    expect(summary.nodeTypes).toEqual(['Sort', 'CTE Scan', 'LockRows', 'Limit', 'Index Scan']);
    expect(summary.scans).toEqual([
      {
        nodeType: 'Index Scan',
        relation: 'due_notices',
        index: 'due_notices_next',
        loops: 1,
        rows: 0,
        removed: 0,
      },
    ]);
    expect(summary.rowsScanned).toBe(0);
    expect(summary.sharedHit).toBe(3);
    expect(summary.sharedRead).toBe(1);
    expect(summary.planningMs).toBe(0.3);
    expect(summary.executionMs).toBe(0.042);
    expect(summary.oneIndexProbe).toBe(true);
    expect(summary.bitmapProbe).toBe(false);
    expect(probeCell(summary)).toBe('yes');
  });

  it('counts the rows a filter removed, and then it is no longer one probe', () => {
    const summary = summarizePlan(
      claimPlan({
        'Node Type': 'Index Scan',
        'Relation Name': 'due_notices',
        'Index Name': 'due_notices_next',
        'Actual Rows': 0,
        'Actual Loops': 1,
        'Rows Removed by Filter': 10_000,
      }),
    );
    expect(summary.rowsScanned).toBe(10_000);
    expect(summary.oneIndexProbe).toBe(false);
  });

  it('is no probe for a seq scan, even one that returned nothing', () => {
    const summary = summarizePlan(
      claimPlan({
        'Node Type': 'Seq Scan',
        'Relation Name': 'due_notices',
        'Actual Rows': 0,
        'Actual Loops': 1,
        'Rows Removed by Filter': 1_000_000,
      }),
    );
    expect(summary.rowsScanned).toBe(1_000_000);
    expect(summary.oneIndexProbe).toBe(false);
    expect(probeCell(summary)).toBe('no');
    expect(scansCell(summary.scans)).toBe('Seq Scan on due_notices');
  });

  it('multiplies rows by loops and adds index rechecks', () => {
    const summary = summarizePlan({
      Plan: {
        'Node Type': 'Nested Loop',
        Plans: [
          {
            'Node Type': 'Bitmap Heap Scan',
            'Relation Name': 'a',
            'Actual Rows': 5,
            'Actual Loops': 1,
            'Rows Removed by Index Recheck': 7,
            Plans: [{ 'Node Type': 'Bitmap Index Scan', 'Index Name': 'a_idx', 'Actual Rows': 12 }],
          },
          {
            'Node Type': 'Index Only Scan',
            'Relation Name': 'b',
            'Index Name': 'b_pkey',
            'Actual Rows': 2,
            'Actual Loops': 5,
          },
        ],
      },
    });
    expect(summary.rowsScanned).toBe(5 + 7 + 10);
    expect(summary.oneIndexProbe).toBe(false);
    expect(summary.executionMs).toBeNaN();
    expect(summary.planningMs).toBeNaN();
    expect(scansCell(summary.scans)).toBe(
      'Bitmap Heap Scan on a using a_idx; Index Only Scan on b using b_pkey x5',
    );
  });
  it('tells a bitmap scan that found nothing, one probe by another node, from one that did', () => {
    const bitmap = (rows: number) =>
      summarizePlan(
        claimPlan({
          'Node Type': 'Bitmap Heap Scan',
          'Relation Name': 'due_notices',
          'Actual Rows': rows,
          'Actual Loops': 1,
          Plans: [
            {
              'Node Type': 'Bitmap Index Scan',
              'Index Name': 'due_notices_next',
              'Actual Rows': rows,
            },
          ],
        }),
      );
    expect(bitmap(0).oneIndexProbe).toBe(false);
    expect(bitmap(0).bitmapProbe).toBe(true);
    expect(probeCell(bitmap(0))).toBe('one probe, by bitmap');
    expect(scansCell(bitmap(0).scans)).toBe(
      'Bitmap Heap Scan on due_notices using due_notices_next',
    );
    expect(bitmap(40).bitmapProbe).toBe(false);
    expect(probeCell(bitmap(40))).toBe('no');
  });
});

describe('timings', () => {
  it('gives the p50, p95 and the slowest of samples in any order', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(timings(samples)).toEqual({ count: 100, p50: 51, p95: 96, max: 100 });
  });

  it('is NaN for no samples', () => {
    const none = timings([]);
    expect(none.count).toBe(0);
    expect(none.p50).toBeNaN();
    expect(none.max).toBeNaN();
  });
});

describe('perSecond', () => {
  it('is the count over the time in seconds', () => {
    expect(perSecond(10_000, 2_500)).toBe(4_000);
  });

  it('is 0 for nothing, or no time', () => {
    expect(perSecond(0, 100)).toBe(0);
    expect(perSecond(5, 0)).toBe(0);
  });
});
