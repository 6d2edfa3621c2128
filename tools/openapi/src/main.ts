import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { clientTypes } from './client-types';

/** From dist/tools/openapi/src/ to the repository root. */
const ROOT = resolve(__dirname, '../../../..');

/** Each committed document and the typed client generated from it. */
const CLIENTS = [
  { document: 'docs/openapi.json', client: 'libs/api-client/src/schema.d.ts' },
  { document: 'docs/console-openapi.json', client: 'libs/console-client/src/schema.d.ts' },
];

/**
 * The typed clients' types, from the committed OpenAPI documents (which the gateway's own
 * `openapi-cli` writes from its code, and checks): `npm run openapi` writes them, `--check`
 * (CI) fails when a committed file differs.
 */
async function main(check: boolean): Promise<number> {
  let failed = 0;
  for (const { document: documentFile, client } of CLIENTS) {
    const document = JSON.parse(readFileSync(resolve(ROOT, documentFile), 'utf8')) as object;
    const text = await clientTypes(document);
    const path = resolve(ROOT, client);
    if (!check) {
      writeFileSync(path, text);
      console.log(`wrote ${client}`);
    } else if (readOrEmpty(path) !== text) {
      console.error(`${client} is not what ${documentFile} generates: run "npm run openapi"`);
      failed = 1;
    } else {
      console.log(`${client} matches ${documentFile}`);
    }
  }
  return failed;
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
    console.error(`could not generate the client types: ${(error as Error).stack}`);
    process.exit(1);
  });
