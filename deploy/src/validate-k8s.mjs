// Validates Kubernetes objects against the API's OpenAPI schemas (kubernetes-models) and
// KEDA's CRD schemas (@kubernetes-models/keda). Reads a JSON array of objects on stdin and
// prints a JSON array, one entry per object: { kind, name, errors } (errors null when valid).
// A child process of manifests.spec.ts, because these packages are ES modules only and Jest
// runs the specs as CommonJS.
import { readFileSync } from 'node:fs';

const objects = JSON.parse(readFileSync(0, 'utf8'));

/** The module that holds the models of an apiVersion. */
function modulePath(apiVersion) {
  if (apiVersion.startsWith('keda.sh/')) return `@kubernetes-models/keda/${apiVersion}`;
  return `kubernetes-models/${apiVersion}`;
}

const results = [];
for (const object of objects) {
  const { apiVersion = '', kind = '', metadata = {} } = object ?? {};
  const entry = { apiVersion, kind, name: metadata.name ?? '', errors: null };
  let Model;
  try {
    Model = (await import(modulePath(apiVersion)))[kind];
  } catch {
    Model = undefined;
  }
  if (typeof Model !== 'function') {
    entry.errors = `no schema known for ${apiVersion} ${kind}`;
  } else {
    try {
      new Model(object).validate();
    } catch (error) {
      entry.errors = error instanceof Error ? error.message : String(error);
    }
  }
  results.push(entry);
}
process.stdout.write(JSON.stringify(results));
