import type {
  Category,
  CategoryChanges,
  CategoryInput,
  CategoryListQuery,
  CategoryPage,
} from '@custodian/console-client';
import { client, send } from './client';

const byId = (id: string) => ({ params: { path: { id } } });

export function listCategories(query: CategoryListQuery): Promise<CategoryPage> {
  return send(
    'see categories',
    client.GET('/console/api/categories', { params: { query } }),
    'categories.view',
  );
}

export function getCategory(id: string): Promise<Category> {
  return send(
    'see categories',
    client.GET('/console/api/categories/{id}', byId(id)),
    'categories.view',
  );
}

export function createCategory(input: CategoryInput): Promise<Category> {
  return send(
    'add categories',
    client.POST('/console/api/categories', { body: input }),
    'categories.manage',
  );
}

export function updateCategory(id: string, changes: CategoryChanges): Promise<Category> {
  return send(
    'change categories',
    client.PATCH('/console/api/categories/{id}', { ...byId(id), body: changes }),
    'categories.manage',
  );
}

export function deleteCategory(id: string): Promise<Category> {
  return send(
    'delete categories',
    client.DELETE('/console/api/categories/{id}', byId(id)),
    'categories.manage',
  );
}
