import { plural } from './format';

/** "1–50 of 120 assets", Previous and Next, under a paged list. */
export function Pager({
  page,
  pageSize,
  total,
  noun,
  label = 'Pages',
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  /** What is counted, one and many: ['asset', 'assets']. */
  noun: readonly [string, string];
  /** The navigation landmark's name, when a screen has more than one pager. */
  label?: string;
  onPage: (page: number) => void;
}) {
  const last = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const end = Math.min(total, page * pageSize);
  return (
    <nav className="pager" aria-label={label}>
      <span>
        {first.toLocaleString('en')}–{end.toLocaleString('en')} of {plural(total, ...noun)}
      </span>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <button type="button" disabled={page >= last} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
