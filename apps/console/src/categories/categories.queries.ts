// The categories domain's server state: its query keys, its reads and its writes.
import type {
  Category,
  CategoryChanges,
  CategoryInput,
  CategoryListQuery,
} from '@custodian/console-client';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createCategory,
  deleteCategory,
  listCategories,
  updateCategory,
} from '../api/categories.api';
import { QUERY_ROOT, invalidateRoots } from '../shared/query-keys';

export const categoryKeys = {
  list: (query: CategoryListQuery) => [QUERY_ROOT.categories, 'list', query] as const,
};

export const categoryQueries = {
  list: (query: CategoryListQuery) =>
    queryOptions({ queryKey: categoryKeys.list(query), queryFn: () => listCategories(query) }),
};

// A category's name shows on every asset of it.
const CHANGED_BY_CATEGORY_WRITES = [
  QUERY_ROOT.categories,
  QUERY_ROOT.assets,
  QUERY_ROOT.activity,
] as const;

export type CategorySave =
  { id: null; input: CategoryInput } | { id: string; changes: CategoryChanges };

export function useSaveCategory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (save: CategorySave): Promise<Category> =>
      save.id === null ? createCategory(save.input) : updateCategory(save.id, save.changes),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_CATEGORY_WRITES),
  });
}

export function useDeleteCategory() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string): Promise<Category> => deleteCategory(id),
    onSuccess: () => invalidateRoots(client, CHANGED_BY_CATEGORY_WRITES),
  });
}
