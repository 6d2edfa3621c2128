/* eslint-disable @nx/enforce-module-boundaries -- the document is generated from the gateway's own code */
import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generateOpenApiDocument } from '@custodian/gateway';
import { clientTypes } from './client-types';

const ROOT = resolve(__dirname, '../../../..');
const DOCUMENT_FILE = 'docs/openapi.json';
const CLIENT_FILE = 'libs/api-client/src/schema.d.ts';

/**
 * `npm run openapi` writes the contract files from the code: the OpenAPI document and the
 * typed client's types generated from it. `--check` (CI) fails when a committed file is not
 * what the code generates, so every contract change shows up in review as a diff.
 */
async function main(check: boolean): Promise<number> {
  const document = await generateOpenApiDocument();
  const files: Record<string, string> = {
    [DOCUMENT_FILE]: `${JSON.stringify(document, null, 2)}\n`,
    [CLIENT_FILE]: await clientTypes(document),
  };
  let stale = 0;
  for (const [file, text] of Object.entries(files)) {
    const path = resolve(ROOT, file);
    if (!check) {
      writeFileSync(path, text);
      console.log(`wrote ${file}`);
      continue;
    }
    if (readOrEmpty(path) !== text) {
      console.error(`${file} is not what the code generates: run "npm run openapi" and commit it`);
      stale++;
    } else {
      console.log(`${file} matches the code`);
    }
  }
  return stale === 0 ? 0 : 1;
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
    console.error(`could not generate the contract files: ${(error as Error).stack}`);
    process.exit(1);
  });
