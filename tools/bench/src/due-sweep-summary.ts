import { quantile } from './quantile';

/** A node of `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)`, the fields the due-sweep bench reads. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Heap Fetches'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

/** One element of the JSON array EXPLAIN answers. */
export interface ExplainJson {
  Plan: PlanNode;
  'Planning Time'?: number;
  'Execution Time'?: number;
}

/** A scan of a table or an index: what reads rows of the relation. */
export interface ScanSummary {
  nodeType: string;
  relation: string;
  index?: string;
  loops: number;
  /** Rows it returned (over every loop). */
  rows: number;
  /** Rows it read and dropped: removed by its filter or by an index recheck. */
  removed: number;
}

export interface PlanSummary {
  /** Every node, depth first, as EXPLAIN nests them. */
  nodeTypes: string[];
  scans: ScanSummary[];
  /** Rows the scans read: returned plus removed, over every scan node. */
  rowsScanned: number;
  /** Shared buffers of the whole statement (the top node counts its children's). */
  sharedHit: number;
  sharedRead: number;
  planningMs: number;
  executionMs: number;
  /**
   * The target of issue 33 for a sweep with nothing due: one scan of the table, by index,
   * once, reading no row; no Seq Scan, no Bitmap scan.
   */
  oneIndexProbe: boolean;
  /**
   * A Bitmap Heap Scan, once, that found no row: its Bitmap Index Scan probed the index and no
   * heap page was read, so it costs one probe too, though by another node than the target's.
   */
  bitmapProbe: boolean;
}

const INDEX_SCANS = new Set(['Index Scan', 'Index Only Scan']);

/** What an EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of one statement says it read. */
export function summarizePlan(explain: ExplainJson): PlanSummary {
  const nodeTypes: string[] = [];
  const scans: ScanSummary[] = [];
  const visit = (node: PlanNode) => {
    nodeTypes.push(node['Node Type']);
    // A CTE Scan or a Function Scan reads no relation; a table's scan names it.
    if (node['Relation Name'] !== undefined) {
      // A Bitmap Heap Scan reads the index through its Bitmap Index Scan child.
      const index =
        node['Index Name'] ??
        node.Plans?.find((child) => child['Node Type'] === 'Bitmap Index Scan')?.['Index Name'];
      const loops = node['Actual Loops'] ?? 1;
      scans.push({
        nodeType: node['Node Type'],
        relation: node['Relation Name'],
        ...(index === undefined ? {} : { index }),
        loops,
        // EXPLAIN gives rows per loop; the removed counts are totals already.
        rows: (node['Actual Rows'] ?? 0) * loops,
        removed:
          (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0),
      });
    }
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(explain.Plan);
  const rowsScanned = scans.reduce((sum, scan) => sum + scan.rows + scan.removed, 0);
  const [only] = scans;
  return {
    nodeTypes,
    scans,
    rowsScanned,
    sharedHit: explain.Plan['Shared Hit Blocks'] ?? 0,
    sharedRead: explain.Plan['Shared Read Blocks'] ?? 0,
    planningMs: explain['Planning Time'] ?? NaN,
    executionMs: explain['Execution Time'] ?? NaN,
    oneIndexProbe:
      scans.length === 1 &&
      only !== undefined &&
      INDEX_SCANS.has(only.nodeType) &&
      only.loops === 1 &&
      rowsScanned === 0,
    bitmapProbe:
      scans.length === 1 &&
      only?.nodeType === 'Bitmap Heap Scan' &&
      only.loops === 1 &&
      rowsScanned === 0,
  };
}

/** The scans of a plan as a table cell: `Index Scan on due_notices using due_notices_next`. */
export function scansCell(scans: ScanSummary[]): string {
  if (scans.length === 0) return '(no scan)';
  return scans
    .map((scan) => {
      const using = scan.index === undefined ? '' : ` using ${scan.index}`;
      const loops = scan.loops === 1 ? '' : ` x${scan.loops}`;
      return `${scan.nodeType} on ${scan.relation}${using}${loops}`;
    })
    .join('; ');
}

export interface Timings {
  count: number;
  p50: number;
  p95: number;
  max: number;
}

/** The p50, p95 and slowest of `samples` (ms, any order); NaN for none. */
export function timings(samples: number[]): Timings {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    max: sorted.length === 0 ? NaN : (sorted[sorted.length - 1] ?? NaN),
  };
}

/** Notices fired a second over `ms`; 0 when nothing was fired or no time passed. */
export function perSecond(count: number, ms: number): number {
  return count > 0 && ms > 0 ? (count * 1000) / ms : 0;
}

/** The verdict on issue 33's target, as a table cell. */
export function probeCell(plan: Pick<PlanSummary, 'oneIndexProbe' | 'bitmapProbe'>): string {
  if (plan.oneIndexProbe) return 'yes';
  return plan.bitmapProbe ? 'one probe, by bitmap' : 'no';
}
