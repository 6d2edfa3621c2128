import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generateOpenApiDocuments } from './generate';

/** From dist/apps/gateway/src/openapi/ to the repository root. */
const ROOT = resolve(__dirname, '../../../../..');
const DOCUMENT_FILES = { api: 'docs/openapi.json', console: 'docs/console-openapi.json' };

/**
 * `npm run openapi` writes docs/openapi.json (the public API) and docs/console-openapi.json
 * (the console's API) from the gateway's code; `--check` (CI) fails when a committed file is
 * not what the code generates, so every contract change shows up in review as a diff. The
 * typed clients are generated from the files afterwards (tools/openapi).
 */
async function main(check: boolean): Promise<number> {
  const documents = await generateOpenApiDocuments();
  let failed = 0;
  for (const [name, file] of Object.entries(DOCUMENT_FILES)) {
    const text = `${JSON.stringify(documents[name as keyof typeof DOCUMENT_FILES], null, 2)}\n`;
    const path = resolve(ROOT, file);
    if (!check) {
      writeFileSync(path, text);
      console.log(`wrote ${file}`);
    } else if (readOrEmpty(path) !== text) {
      console.error(`${file} is not what the code generates: run "npm run openapi" and commit it`);
      failed = 1;
    } else {
      console.log(`${file} matches the code`);
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
    console.error(`could not generate the OpenAPI documents: ${(error as Error).stack}`);
    process.exit(1);
  });
