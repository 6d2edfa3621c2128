import type { Category } from '@custodian/console-client';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConfirmDialog } from '../shared/confirm-dialog';
import { ErrorNotice } from '../shared/notices';
import { Pager } from '../shared/pager';
import { can } from '../shared/permissions';
import { QueryState } from '../shared/query-state';
import { useSession } from '../shared/session';
import { usePageTitle } from '../shared/use-page-title';
import { categoryQueries, useDeleteCategory, useSaveCategory } from './categories.queries';

const PAGE_SIZE = 100;

/** Categories by name, with how many assets each has; add, rename, delete the unused. */
export function CategoriesPage() {
  usePageTitle('Categories');
  const { session } = useSession();
  const manage = can(session, 'categories.manage');
  const [page, setPage] = useState(1);
  const categories = useQuery(
    categoryQueries.list({ page: String(page), pageSize: String(PAGE_SIZE) }),
  );
  return (
    <div className="page">
      <div className="page-head">
        <h1>Categories</h1>
      </div>
      <p className="lead">
        Kinds of asset. A new name becomes a category when an asset is given it; a rename shows on
        every asset of it at once.
      </p>
      {manage && <AddCategory />}
      <QueryState query={categories} what="categories">
        {(found) => (
          <>
            <div className="table-wrap">
              <table>
                <caption className="visually-hidden">Categories</caption>
                <thead>
                  <tr>
                    <th scope="col">Category</th>
                    <th scope="col">Assets</th>
                    {manage && <th scope="col">Actions</th>}
                  </tr>
                </thead>
                <tbody>
                  {found.data.length === 0 && (
                    <tr>
                      <td colSpan={manage ? 3 : 2} className="empty">
                        No categories yet.
                      </td>
                    </tr>
                  )}
                  {found.data.map((category) => (
                    <CategoryRow key={category.id} category={category} manage={manage} />
                  ))}
                </tbody>
              </table>
            </div>
            <Pager
              page={page}
              pageSize={PAGE_SIZE}
              total={found.total}
              noun={['category', 'categories']}
              onPage={setPage}
            />
          </>
        )}
      </QueryState>
    </div>
  );
}

function AddCategory() {
  const saving = useSaveCategory();
  const [name, setName] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    saving.mutate({ id: null, input: { name: name.trim() } }, { onSuccess: () => setName('') });
  }
  return (
    <form className="card inline-form" onSubmit={submit} aria-label="Add category">
      <div className="inline-fields">
        <label htmlFor="category-new">New category</label>
        <input
          id="category-new"
          required
          maxLength={200}
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <button type="submit" className="button-primary" disabled={saving.isPending}>
          {saving.isPending ? 'Adding…' : 'Add category'}
        </button>
      </div>
      <ErrorNotice error={saving.error} />
    </form>
  );
}

function CategoryRow({ category, manage }: { category: Category; manage: boolean }) {
  const saving = useSaveCategory();
  const deleting = useDeleteCategory();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(category.name);
  const [confirming, setConfirming] = useState(false);

  function submit(event: FormEvent) {
    event.preventDefault();
    saving.mutate(
      { id: category.id, changes: { name: name.trim() } },
      { onSuccess: () => setRenaming(false) },
    );
  }

  return (
    <tr>
      <th scope="row">
        {renaming ? (
          <form onSubmit={submit} aria-label={`Rename ${category.name}`}>
            <div className="inline-fields">
              <label htmlFor={`rename-${category.id}`} className="visually-hidden">
                New name
              </label>
              <input
                id={`rename-${category.id}`}
                required
                maxLength={200}
                value={name}
                onChange={(event) => setName(event.target.value)}
              />
              <button type="submit" className="button-primary" disabled={saving.isPending}>
                Save
              </button>
              <button type="button" className="button" onClick={() => setRenaming(false)}>
                Cancel
              </button>
            </div>
            <ErrorNotice error={saving.error} />
          </form>
        ) : (
          category.name
        )}
      </th>
      <td>{category.asset_count}</td>
      {manage && (
        <td>
          <div className="actions">
            <button
              type="button"
              className="button"
              onClick={() => {
                saving.reset();
                setName(category.name);
                setRenaming(true);
              }}
            >
              Rename
            </button>
            <button
              type="button"
              className="button-danger-quiet"
              onClick={() => {
                deleting.reset();
                setConfirming(true);
              }}
            >
              Delete
            </button>
          </div>
          <ConfirmDialog
            open={confirming}
            title={`Delete ${category.name}?`}
            confirmLabel="Delete category"
            danger
            busy={deleting.isPending}
            error={deleting.error}
            onConfirm={() =>
              deleting.mutate(category.id, { onSuccess: () => setConfirming(false) })
            }
            onClose={() => setConfirming(false)}
          >
            <p>Only a category no asset has can go.</p>
          </ConfirmDialog>
        </td>
      )}
    </tr>
  );
}
