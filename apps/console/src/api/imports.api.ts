import type {
  Import,
  ImportPage,
  ImportQuery,
  ImportRowPage,
  ImportRowQuery,
} from '@custodian/console-client';
import { client, send } from './client';

const byId = (id: string) => ({ params: { path: { id } } });

export function listImports(page: number, pageSize: number): Promise<ImportPage> {
  return send(
    'import files',
    client.GET('/console/api/imports', {
      params: { query: { page: String(page), pageSize: String(pageSize) } },
    }),
    'imports.manage',
  );
}

export function getImport(id: string): Promise<Import> {
  return send('import files', client.GET('/console/api/imports/{id}', byId(id)), 'imports.manage');
}

export function listImportRows(id: string, query: ImportRowQuery): Promise<ImportRowPage> {
  return send(
    'import files',
    client.GET('/console/api/imports/{id}/rows', { params: { path: { id }, query } }),
    'imports.manage',
  );
}

/**
 * Uploads the file as it is (the body is the File, streamed by the browser, never read into a
 * string here); the API reads it as CSV and plans every row.
 */
export function uploadImport(file: File, query: ImportQuery): Promise<Import> {
  return send(
    'import files',
    client.POST('/console/api/imports', {
      params: { query },
      // The schema says string (text/csv); a File is what fetch sends as those bytes.
      body: file as unknown as string,
      bodySerializer: (body: unknown) => body as BodyInit,
      headers: { 'content-type': 'text/csv' },
    }),
    'imports.manage',
  );
}

export function startImport(id: string): Promise<Import> {
  return send(
    'import files',
    client.POST('/console/api/imports/{id}/start', byId(id)),
    'imports.manage',
  );
}

export function cancelImport(id: string): Promise<Import> {
  return send(
    'import files',
    client.POST('/console/api/imports/{id}/cancel', byId(id)),
    'imports.manage',
  );
}
