import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { clientTypes } from './client-types';

/** From dist/tools/openapi/src/ to the repository root. */
const ROOT = resolve(__dirname, '../../../..');
const DOCUMENT_FILE = 'docs/openapi.json';
const CLIENT_FILE = 'libs/api-client/src/schema.d.ts';

/**
 * The typed client's types, from the committed OpenAPI document (which the gateway's own
 * `openapi-cli` writes from its code, and checks): `npm run openapi` writes
 * libs/api-client/src/schema.d.ts, `--check` (CI) fails when the committed file differs.
 */
async function main(check: boolean): Promise<number> {
  const document = JSON.parse(readFileSync(resolve(ROOT, DOCUMENT_FILE), 'utf8')) as object;
  const text = await clientTypes(document);
  const path = resolve(ROOT, CLIENT_FILE);
  if (!check) {
    writeFileSync(path, text);
    console.log(`wrote ${CLIENT_FILE}`);
    return 0;
  }
  if (readOrEmpty(path) !== text) {
    console.error(`${CLIENT_FILE} is not what ${DOCUMENT_FILE} generates: run "npm run openapi"`);
    return 1;
  }
  console.log(`${CLIENT_FILE} matches ${DOCUMENT_FILE}`);
  return 0;
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

main(process.argv.includes('--check'))
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    console.error(`could not generate ${CLIENT_FILE}: ${(error as Error).stack}`);
    process.exit(1);
  });
