// The contract check of the end-to-end suite (a setupFilesAfterEnv file): every response of the
// gateway's public API that a test receives is validated against the committed OpenAPI
// document, at once, and a test that received a response the document does not describe fails
// in its afterEach, with the differences listed. The committed file, not one fetched from a
// gateway: it is there before any stack starts, `npm run openapi:check` proves it is what the
// gateway's code generates, and openapi.e2e-spec.ts that the running gateway serves exactly it.
// The counts of each test file go to the run's directory (CONTRACT_RUN_DIR, made by
// tools/scripts/summary-reporter.js), which prints their sum after the run.
import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ContractValidator,
  observeGlobalFetch,
  setResponseObserver,
  type ObservedResponse,
  type OpenApiLike,
} from '@custodian/testing';

const DOCUMENT_FILE = join(__dirname, '../../../../docs/openapi.json');
/** The console's own API (/console/api) has its own document, checked the same way. */
const CONSOLE_DOCUMENT_FILE = join(__dirname, '../../../../docs/console-openapi.json');

/** API paths that are deliberately not operations of the document: the document itself. */
const DOCUMENT_PATHS = new Set(['/api/v1/openapi.json']);

/** Set by the summary reporter at the start of a run; unset, the counts are not recorded. */
const RUN_DIR = process.env.CUSTODIAN_CONTRACT_DIR;

let validator: ContractValidator | undefined;
let consoleValidator: ContractValidator | undefined;
/** Origins that served a documented path: the gateways. Other origins are not the API. */
const gatewayOrigins = new Set<string>();
const counts = { validated: 0, notDescribed: 0, otherServers: 0, violations: 0 };
/** What was skipped, for whoever reads the run's files: `GET /health: path not in the document`. */
const skipped = new Set<string>();
/** Set between beforeEach and afterEach: violations then belong to that test. */
let inTest = false;
let testViolations: string[] = [];
/** Violations of responses received in beforeAll/afterAll or another test's afterEach. */
const hookViolations: string[] = [];

/**
 * Responses wait here and are validated after the test (or hook) that received them: checking
 * them on arrival would put Ajv's work inside the tests' own latency measurements.
 */
const pending: Array<{ response: ObservedResponse; inTest: boolean }> = [];

function observe(response: ObservedResponse): void {
  pending.push({ response, inTest });
}

function checkPending(): void {
  if (!validator) return;
  for (const { response, inTest: duringTest } of pending.splice(0)) check(response, duringTest);
}

function check(response: ObservedResponse, duringTest: boolean): void {
  if (!validator) return;
  const url = new URL(response.url);
  const outcome = (url.pathname.startsWith('/console/api/') ? consoleValidator! : validator).check(
    response,
  );
  if (outcome.kind === 'validated') {
    gatewayOrigins.add(url.origin);
    counts.validated++;
    if (outcome.violations.length === 0) return;
    counts.violations++;
    (duringTest ? testViolations : hookViolations).push(outcome.violations.join('\n  '));
  } else if (gatewayOrigins.has(url.origin) || url.pathname.startsWith('/api/')) {
    // /health, /docs, the document itself, unknown routes, a method a path lacks. An API path
    // the document lacks may only fail (404, or the key's 401/403/429): one that succeeds is a
    // route left out of the document.
    gatewayOrigins.add(url.origin);
    if (
      (url.pathname.startsWith('/api/v1/') || url.pathname.startsWith('/console/api/')) &&
      !DOCUMENT_PATHS.has(url.pathname) &&
      response.status < 400
    ) {
      counts.violations++;
      (duringTest ? testViolations : hookViolations).push(
        `${response.method} ${url.pathname} answered ${response.status} but the document has ` +
          'no such operation',
      );
      return;
    }
    counts.notDescribed++;
    skipped.add(outcome.reason);
  } else {
    // The register's or a worker's health server, a webhook receiver: not the public API.
    counts.otherServers++;
    skipped.add(`${response.method} ${url.href}: not a gateway`);
  }
}

function failWith(violations: string[], when: string): void {
  if (violations.length === 0) return;
  throw new Error(
    `${violations.length} response(s) ${when} differ from the OpenAPI documents ` +
      `(docs/openapi.json, docs/console-openapi.json):\n- ${violations.join('\n- ')}`,
  );
}

const restoreFetch = observeGlobalFetch();
setResponseObserver(observe);

beforeAll(() => {
  validator = new ContractValidator(JSON.parse(readFileSync(DOCUMENT_FILE, 'utf8')) as OpenApiLike);
  consoleValidator = new ContractValidator(
    JSON.parse(readFileSync(CONSOLE_DOCUMENT_FILE, 'utf8')) as OpenApiLike,
  );
});

beforeEach(() => {
  checkPending();
  inTest = true;
  testViolations = [];
});

afterEach(() => {
  checkPending();
  inTest = false;
  const violations = testViolations;
  testViolations = [];
  failWith(violations, 'this test received');
});

afterAll(() => {
  checkPending();
  setResponseObserver(null);
  restoreFetch();
  if (RUN_DIR) {
    const file = join(RUN_DIR, `${process.pid}-${randomUUID()}.json`);
    writeFileSync(
      file,
      JSON.stringify({ testPath: expect.getState().testPath, ...counts, skipped: [...skipped] }),
    );
  }
  failWith(hookViolations.splice(0), 'received outside a test (in a hook)');
});
