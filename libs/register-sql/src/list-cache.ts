/** What identifies one list's matching rows: the table, the workspace and the filters. */
export interface ListKey {
  kind: string;
  workspaceId: string;
  status: string | null;
  search: string | null;
  assignedToId: string | null;
  warrantyExpiresBefore: string | null;
  locationId: string | null;
  includeChildren: boolean;
  categoryId: string | null;
}

interface Entry {
  /** The workspace's list version the entry was filled at (workspace_counters). */
  version: string;
  total: number | null;
  /** Last id of a page, by `${pageSize}:${page}`; the most recent few only. */
  lastIds: Map<string, string>;
}

/** Lists remembered at once: each entry is a few hundred bytes. */
const MAX_ENTRIES = 10_000;
/** Page ends kept per list: enough for a few callers walking the same search at once. */
const MAX_PAGE_ENDS = 16;

/**
 * What the register remembers of a list between requests, valid while its workspace's list
 * version (bumped by a trigger on every change a list can see, migration SearchByWorkspace)
 * is the one it was filled at: the exact total of a filtered list, so walking the pages of
 * one search counts its matches once; and the last id of each page served, so the next page
 * seeks past it rather than skipping OFFSET rows (docs/adr/0014-reads-at-scale.md).
 *
 * Per process (the register provides one): every request reads the version from Postgres in its own snapshot, so a
 * replica never answers from a stale entry; with several replicas a walk's pages may land on
 * different ones, and a miss only costs the uncached plan.
 */
export class ListCache {
  private readonly entries = new Map<string, Entry>();

  /** `maxEntries` 0: a cache that keeps nothing, so every read takes the uncached plan. */
  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  total(key: ListKey, version: string): number | null {
    return this.find(key, version)?.total ?? null;
  }

  setTotal(key: ListKey, version: string, total: number): void {
    this.fill(key, version).total = total;
  }

  /** The last id of page `page` of `pageSize`, if this process served it at `version`. */
  pageEnd(key: ListKey, version: string, pageSize: number, page: number): string | null {
    return this.find(key, version)?.lastIds.get(`${pageSize}:${page}`) ?? null;
  }

  setPageEnd(key: ListKey, version: string, pageSize: number, page: number, id: string): void {
    const { lastIds } = this.fill(key, version);
    const at = `${pageSize}:${page}`;
    lastIds.delete(at);
    lastIds.set(at, id);
    dropOldest(lastIds, MAX_PAGE_ENDS);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The entry at `version`, now the most recently used; a stale one is dropped. */
  private find(key: ListKey, version: string): Entry | undefined {
    const id = entryId(key);
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.entries.delete(id);
    if (entry.version !== version) return undefined;
    this.entries.set(id, entry);
    return entry;
  }

  private fill(key: ListKey, version: string): Entry {
    const found = this.find(key, version);
    if (found) return found;
    const entry: Entry = { version, total: null, lastIds: new Map() };
    this.entries.set(entryId(key), entry);
    dropOldest(this.entries, this.maxEntries);
    return entry;
  }
}

function entryId(key: ListKey): string {
  return JSON.stringify([
    key.kind,
    key.workspaceId,
    key.status,
    key.search,
    key.assignedToId,
    key.warrantyExpiresBefore,
    key.locationId,
    key.includeChildren,
    key.categoryId,
  ]);
}

/** Maps iterate in insertion order: the first keys are the least recently used. */
function dropOldest(map: Map<string, unknown>, max: number): void {
  for (const key of map.keys()) {
    if (map.size <= max) return;
    map.delete(key);
  }
}
