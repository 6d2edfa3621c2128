import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generateOpenApiDocument } from './generate';

/** From dist/apps/gateway/src/openapi/ to the repository root. */
const ROOT = resolve(__dirname, '../../../../..');
const DOCUMENT_FILE = 'docs/openapi.json';

/**
 * `npm run openapi` writes docs/openapi.json from the gateway's code; `--check` (CI) fails when
 * the committed file is not what the code generates, so every contract change shows up in
 * review as a diff. The typed client is generated from the file afterwards (tools/openapi).
 */
async function main(check: boolean): Promise<number> {
  const text = `${JSON.stringify(await generateOpenApiDocument(), null, 2)}\n`;
  const path = resolve(ROOT, DOCUMENT_FILE);
  if (!check) {
    writeFileSync(path, text);
    console.log(`wrote ${DOCUMENT_FILE}`);
    return 0;
  }
  if (readOrEmpty(path) !== text) {
    console.error(
      `${DOCUMENT_FILE} is not what the code generates: run "npm run openapi" and commit it`,
    );
    return 1;
  }
  console.log(`${DOCUMENT_FILE} matches the code`);
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
    console.error(`could not generate ${DOCUMENT_FILE}: ${(error as Error).stack}`);
    process.exit(1);
  });
