/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-argument -- rendered manifests are read as loose JSON (K8s below); the schemas check their shapes */
import Ajv from 'ajv';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EVENT_KEYS } from '@custodian/contracts';
import {
  BROKER_USER_IDS,
  COMPOSE_ADMINISTRATOR,
  COMPOSE_BROKER_USERS,
  brokerDefinitions,
  brokerGrants,
  brokerUserName,
  composeDefinitions,
  definitionsSecret,
  passwordVariable,
  type BrokerDefinitions,
  type BrokerUserId,
} from '@custodian/messaging';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { parse, parseAllDocuments } from 'yaml';

/**
 * deploy/: the Kubernetes base and overlays (rendered with `kubectl kustomize`, every object
 * checked against the Kubernetes and KEDA schemas, then the invariants of
 * deploy/kubernetes/README.md), docker-compose.yml (the Compose Specification's schema and
 * the same invariants), the Dockerfile's health check, and the Prometheus and Grafana files
 * (every metric they name is one the apps export).
 */

const ROOT = path.resolve(__dirname, '..', '..');
const KUSTOMIZE = path.join(ROOT, 'deploy', 'kubernetes');
const VALIDATOR = path.join(__dirname, 'validate-k8s.mjs');

type Json = Record<string, unknown>;
// A rendered manifest, read loosely: the schemas check the shapes, the tests the meaning.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see the file's first line
type K8s = any;

const APPS = ['gateway', 'register', 'webhook-worker'] as const;
type App = (typeof APPS)[number];
const HEALTH_PORT: Record<App, number> = { gateway: 3003, register: 3001, 'webhook-worker': 3002 };
const CONFIG_FILE: Record<App, string> = {
  gateway: 'apps/gateway/src/config/gateway-config.ts',
  register: 'apps/register/src/config/register-config.ts',
  'webhook-worker': 'apps/webhook-worker/src/config/worker-config.ts',
};
/** The variables holding credentials: only ever from the Secret, by reference. */
const SECRET_VARIABLES = [
  'DATABASE_URL',
  'REDIS_URL',
  'RABBITMQ_URL',
  'WEBHOOK_SECRET_KEYS',
  'LICENSE_KEY_SECRETS',
  'SMTP_URL',
];
/** What each app must be given from the Secret (SMTP_URL is optional for the register). */
const REQUIRED_SECRETS: Record<App, string[]> = {
  gateway: ['DATABASE_URL', 'REDIS_URL', 'RABBITMQ_URL'],
  register: ['DATABASE_URL', 'RABBITMQ_URL', 'LICENSE_KEY_SECRETS'],
  'webhook-worker': ['DATABASE_URL', 'RABBITMQ_URL', 'WEBHOOK_SECRET_KEYS'],
};
const SECRET_NAME = 'custodian-secrets';
/**
 * The key of the Secret a variable comes from: its own name, but RABBITMQ_URL, which is each
 * app's own broker user (RABBITMQ_URL_GATEWAY, ...; libs/messaging/src/broker-users.ts).
 */
function secretKey(variable: string, user: BrokerUserId): string {
  return variable === 'RABBITMQ_URL'
    ? `RABBITMQ_URL_${user.toUpperCase().replace(/-/g, '_')}`
    : variable;
}
/** Variables a ConfigMap may set beyond the config classes' own. */
const EXTRA_VARIABLES = [
  'NODE_ENV',
  'NODE_OPTIONS',
  'MIGRATE_WAIT_TIMEOUT_MS',
  'MIGRATE_WAIT_INTERVAL_MS',
  // OpenTelemetry's own (libs/observability checks them when tracing starts).
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
];
/** The worker's shutdown: in-flight attempts end, then their answers are recorded (10 s). */
const WORKER_RECORDING_SECONDS = 10;
/**
 * The Postgres connections the apps may hold in each overlay (README, "Postgres connections"):
 * max_connections less 3 superuser slots and 15 kept for people, backups and monitoring.
 */
const CONNECTION_BUDGET: Record<string, number> = {
  small: 100 - 3 - 15,
  scaled: 220 - 3 - 15,
};

// ---------------------------------------------------------------------------------------------
// Rendering and schema validation

function kubectlKustomize(dir: string): string {
  const probe = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      'kubectl is required by the deploy tests (they render deploy/kubernetes with ' +
        '`kubectl kustomize`, kustomize v5), and `kubectl version --client` failed: ' +
        `${probe.error?.message ?? probe.stderr}. Install kubectl 1.32 or later.`,
    );
  }
  return execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
}

function parseStream(text: string): K8s[] {
  return parseAllDocuments(text).map((document) => {
    if (document.errors.length > 0) throw new Error(document.errors.join('\n'));
    return document.toJS();
  });
}

interface Validation {
  apiVersion: string;
  kind: string;
  name: string;
  errors: string | null;
}

/** Each object checked against its schema, in a child process (the models are ES modules). */
function validateObjects(objects: unknown[]): Validation[] {
  const run = spawnSync(process.execPath, [VALIDATOR], {
    input: JSON.stringify(objects),
    encoding: 'utf8',
    cwd: ROOT,
  });
  if (run.status !== 0) throw new Error(`validate-k8s.mjs failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as Validation[];
}

function invalid(results: Validation[]): string[] {
  return results
    .filter((result) => result.errors !== null)
    .map((result) => `${result.kind}/${result.name}: ${result.errors}`);
}

// ---------------------------------------------------------------------------------------------
// Reading the rendered objects

function find(objects: K8s[], kind: string, name: string): K8s {
  const found = objects.find((o) => o.kind === kind && o.metadata?.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the rendered manifests`);
  return found;
}

function selects(selector: Record<string, string> | undefined, labels: Record<string, string>) {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

function podContainers(podSpec: K8s): K8s[] {
  return [...(podSpec.initContainers ?? []), ...(podSpec.containers ?? [])];
}

/** The ConfigMap a container takes its environment from. */
function configOf(objects: K8s[], container: K8s): Record<string, string> {
  const refs = (container.envFrom ?? [])
    .map((source: K8s) => source.configMapRef?.name)
    .filter(Boolean);
  expect(refs).toHaveLength(1);
  return find(objects, 'ConfigMap', refs[0]).data ?? {};
}

/** The variables a config class declares (apps/<app>/src/config/*-config.ts). */
function configVariables(app: App): Set<string> {
  const source = readFileSync(path.join(ROOT, CONFIG_FILE[app]), 'utf8');
  const names = new Set<string>();
  for (const line of source.split('\n')) {
    if (/^\s*(\*|\/\/|\/\*)/.test(line)) continue;
    const match = /\b([A-Z][A-Z0-9_]+)\??:\s*[a-zA-Z'"(|]/.exec(line);
    if (match) names.add(match[1]!);
  }
  return names;
}

function commandLine(container: K8s): string {
  return [...(container.command ?? []), ...(container.args ?? [])].join(' ');
}

function sleepSeconds(container: K8s): number {
  const command: string[] = container.lifecycle?.preStop?.exec?.command ?? [];
  return command[0] === 'sleep' ? Number(command[1]) : 0;
}

function quantityBytes(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi)?$/.exec(String(value));
  if (!match) throw new Error(`unexpected memory quantity ${value}`);
  return Number(match[1]) * { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, '': 1 }[match[2] ?? '']!;
}

// ---------------------------------------------------------------------------------------------
// Kubernetes

describe.each([
  ['base', path.join(KUSTOMIZE, 'base')],
  ['small', path.join(KUSTOMIZE, 'overlays', 'small')],
  ['scaled', path.join(KUSTOMIZE, 'overlays', 'scaled')],
])('deploy/kubernetes %s', (variant, dir) => {
  let objects: K8s[] = [];
  beforeAll(() => {
    objects = parseStream(kubectlKustomize(dir));
  });
  const deployment = (app: App): K8s => find(objects, 'Deployment', `custodian-${app}`);
  const mainContainer = (app: App): K8s =>
    deployment(app).spec.template.spec.containers.find((c: K8s) => c.name === app);

  it('every object is valid against the Kubernetes (and KEDA) schemas', () => {
    expect(objects.length).toBeGreaterThan(15);
    const results = validateObjects(objects);
    expect(results).toHaveLength(objects.length);
    expect(invalid(results)).toEqual([]);
  });

  it('holds no Secret and no credential in a literal value', () => {
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    for (const configMap of objects.filter((o) => o.kind === 'ConfigMap')) {
      for (const [key, value] of Object.entries<string>(configMap.data ?? {})) {
        expect(`${configMap.metadata.name}: ${key}`).not.toMatch(
          new RegExp(`: (${SECRET_VARIABLES.join('|')})$`),
        );
        // user:password@ in a URL
        expect(`${key}=${value}`).not.toMatch(/:\/\/[^/\s:@]+:[^@\s]+@/);
      }
    }
    for (const workload of objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job')) {
      const app = /^custodian-(.+?)(-migrate)?$/.exec(workload.metadata.name)![1] as App;
      expect(APPS).toContain(app);
      for (const container of podContainers(workload.spec.template.spec)) {
        for (const variable of container.env ?? []) {
          const where = `${workload.kind}/${workload.metadata.name} ${container.name} ${variable.name}`;
          if (SECRET_VARIABLES.includes(variable.name)) {
            expect({ where, value: variable.value }).toEqual({ where, value: undefined });
            expect({ where, secret: variable.valueFrom?.secretKeyRef?.name }).toEqual({
              where,
              secret: SECRET_NAME,
            });
            expect({ where, key: variable.valueFrom.secretKeyRef.key }).toEqual({
              where,
              key: secretKey(variable.name, app),
            });
          }
        }
      }
    }
  });

  it('connects each app to RabbitMQ as its own user, and KEDA as another, from keys of their own', () => {
    const keys = new Map<string, string>();
    for (const app of APPS) {
      const job = find(objects, 'Job', `custodian-${app}-migrate`);
      const containers = [
        ...podContainers(deployment(app).spec.template.spec),
        ...job.spec.template.spec.containers,
      ];
      for (const container of containers) {
        const url = container.env.find((variable: K8s) => variable.name === 'RABBITMQ_URL');
        keys.set(`${app} ${container.name}`, url.valueFrom.secretKeyRef.key);
      }
    }
    const auth = find(objects, 'TriggerAuthentication', 'custodian-rabbitmq');
    keys.set('keda', auth.spec.secretTargetRef[0].key);
    expect(Object.fromEntries(keys)).toEqual({
      'gateway wait-for-migrations': 'RABBITMQ_URL_GATEWAY',
      'gateway gateway': 'RABBITMQ_URL_GATEWAY',
      'gateway migrate': 'RABBITMQ_URL_GATEWAY',
      'register wait-for-migrations': 'RABBITMQ_URL_REGISTER',
      'register register': 'RABBITMQ_URL_REGISTER',
      'register migrate': 'RABBITMQ_URL_REGISTER',
      'webhook-worker wait-for-migrations': 'RABBITMQ_URL_WEBHOOK_WORKER',
      'webhook-worker webhook-worker': 'RABBITMQ_URL_WEBHOOK_WORKER',
      'webhook-worker migrate': 'RABBITMQ_URL_WEBHOOK_WORKER',
      keda: 'RABBITMQ_URL_AUTOSCALER',
    });
  });

  describe.each(APPS)('%s', (app) => {
    it('has a Deployment whose containers all have resources and a locked-down security context', () => {
      const pod = deployment(app).spec.template.spec;
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(pod.automountServiceAccountToken).toBe(false);
      for (const container of podContainers(pod)) {
        expect(container.image).toMatch(new RegExp(`custodian-${app}(:|$)`));
        expect(container.resources?.requests).toEqual(
          expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }),
        );
        expect(container.resources?.limits).toEqual(
          expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }),
        );
        expect(quantityBytes(container.resources.limits.memory)).toBeGreaterThanOrEqual(
          quantityBytes(container.resources.requests.memory),
        );
        expect(container.securityContext).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
      }
    });

    it('probes /health/live for liveness and start-up and /health for readiness, on its health port', () => {
      const container = mainContainer(app);
      const healthPort = container.ports.find((p: K8s) => p.name === 'health');
      expect(healthPort.containerPort).toBe(HEALTH_PORT[app]);
      expect(configOf(objects, container).HEALTH_PORT).toBe(String(HEALTH_PORT[app]));
      expect(container.startupProbe?.httpGet).toEqual({ path: '/health/live', port: 'health' });
      expect(container.livenessProbe?.httpGet).toEqual({ path: '/health/live', port: 'health' });
      expect(container.readinessProbe?.httpGet).toEqual({ path: '/health', port: 'health' });
      if (app === 'gateway') {
        expect(container.ports.find((p: K8s) => p.name === 'http').containerPort).toBe(3000);
        expect(configOf(objects, container).PORT).toBe('3000');
      }
    });

    it('is scraped by Prometheus on its health port', () => {
      expect(deployment(app).spec.template.metadata.annotations).toMatchObject({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(HEALTH_PORT[app]),
        'prometheus.io/path': '/metrics',
      });
    });

    it('drains before it stops: a preStop sleep, then a grace period the app fits in', () => {
      const pod = deployment(app).spec.template.spec;
      const container = mainContainer(app);
      const sleep = sleepSeconds(container);
      expect(sleep).toBeGreaterThanOrEqual(3);
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(sleep + 10);
      if (app === 'webhook-worker') {
        const timeoutMs = Number(configOf(objects, container).DELIVERY_TIMEOUT_MS ?? 10_000);
        expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(
          sleep + timeoutMs / 1000 + WORKER_RECORDING_SECONDS,
        );
      }
    });

    it('starts only main.js, after an initContainer that waits for the migrations', () => {
      const pod = deployment(app).spec.template.spec;
      expect(commandLine(mainContainer(app))).toBe(
        `node -r ./tools/runtime/register-paths.js dist/apps/${app}/src/main.js`,
      );
      expect(pod.initContainers.map(commandLine)).toContain(
        `node -r ./tools/runtime/register-paths.js dist/apps/${app}/src/migrate.js --wait`,
      );
      const job = find(objects, 'Job', `custodian-${app}-migrate`);
      const [migrate] = job.spec.template.spec.containers;
      expect(commandLine(migrate)).toBe(
        `node -r ./tools/runtime/register-paths.js dist/apps/${app}/src/migrate.js`,
      );
      expect(migrate.image).toBe(mainContainer(app).image);
      expect(job.spec.template.spec.restartPolicy).toBe('Never');
      expect(job.spec.backoffLimit).toBeGreaterThan(0);
    });

    it('takes its credentials from the Secret, and only settings it knows from its ConfigMap', () => {
      const known = new Set([...configVariables(app), ...EXTRA_VARIABLES]);
      expect(known.has('HEALTH_PORT')).toBe(true);
      const job = find(objects, 'Job', `custodian-${app}-migrate`);
      const containers = [
        ...podContainers(deployment(app).spec.template.spec),
        ...job.spec.template.spec.containers,
      ];
      for (const container of containers) {
        const unknown = Object.keys(configOf(objects, container)).filter((key) => !known.has(key));
        expect(unknown).toEqual([]);
        const fromSecret = (container.env ?? [])
          .filter((variable: K8s) => variable.valueFrom?.secretKeyRef?.name === SECRET_NAME)
          .map((variable: K8s) => variable.name);
        expect(fromSecret).toEqual(expect.arrayContaining(REQUIRED_SECRETS[app]));
      }
    });

    it('has a PodDisruptionBudget selecting its pods, and a health Service', () => {
      const labels = deployment(app).spec.template.metadata.labels;
      const budgets = objects.filter(
        (o) => o.kind === 'PodDisruptionBudget' && selects(o.spec.selector?.matchLabels, labels),
      );
      expect(budgets).toHaveLength(1);
      const health = find(objects, 'Service', `custodian-${app}-health`);
      expect(selects(health.spec.selector, labels)).toBe(true);
      expect(health.spec.ports).toEqual([
        expect.objectContaining({ port: HEALTH_PORT[app], targetPort: 'health' }),
      ]);
      // A migration Job's pods are in no Service and no budget.
      const jobLabels = find(objects, 'Job', `custodian-${app}-migrate`).spec.template.metadata
        .labels;
      expect(selects(health.spec.selector, jobLabels)).toBe(false);
    });
  });

  it('publishes the gateway API on port 3000 of the Service custodian-gateway', () => {
    const service = find(objects, 'Service', 'custodian-gateway');
    expect(service.spec.ports).toEqual([
      expect.objectContaining({ port: 3000, targetPort: 'http' }),
    ]);
    expect(
      selects(service.spec.selector, deployment('gateway').spec.template.metadata.labels),
    ).toBe(true);
  });

  it('samples one trace in ten at the gateway once tracing is on, and leaves it off', () => {
    const config = configOf(objects, mainContainer('gateway'));
    expect(config).toMatchObject({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    });
    // Off until an operator names a collector: no app is given an exporter here.
    for (const app of APPS) {
      const settings = Object.keys(configOf(objects, mainContainer(app)));
      expect(settings.filter((key) => key.startsWith('OTEL_EXPORTER'))).toEqual([]);
    }
  });

  it('autoscales the gateway and the register on CPU, and the worker on its events queue', () => {
    for (const app of ['gateway', 'register'] as const) {
      const hpa = find(objects, 'HorizontalPodAutoscaler', `custodian-${app}`);
      expect(hpa.apiVersion).toBe('autoscaling/v2');
      expect(hpa.spec.scaleTargetRef).toEqual({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: `custodian-${app}`,
      });
      expect(hpa.spec.metrics).toEqual([
        expect.objectContaining({
          type: 'Resource',
          resource: expect.objectContaining({ name: 'cpu' }),
        }),
      ]);
      // Two of each by default (issue 31): a pod lost, or drained, leaves one serving.
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpa.spec.maxReplicas).toBeGreaterThanOrEqual(hpa.spec.minReplicas);
    }
    const scaled = find(objects, 'ScaledObject', 'custodian-webhook-worker');
    expect(scaled.spec.scaleTargetRef.name).toBe('custodian-webhook-worker');
    expect(scaled.spec.minReplicaCount).toBeGreaterThanOrEqual(2);
    expect(scaled.spec.maxReplicaCount).toBeGreaterThanOrEqual(scaled.spec.minReplicaCount);
    const rabbit = scaled.spec.triggers.find((t: K8s) => t.type === 'rabbitmq');
    const queue =
      configOf(objects, mainContainer('webhook-worker')).EVENTS_QUEUE ??
      'custodian.webhook-worker.deliveries';
    expect(rabbit.metadata).toMatchObject({ queueName: queue, mode: 'QueueLength' });
    const auth = find(objects, 'TriggerAuthentication', rabbit.authenticationRef.name);
    expect(auth.spec.secretTargetRef).toEqual([
      { parameter: 'host', name: SECRET_NAME, key: secretKey('RABBITMQ_URL', 'autoscaler') },
    ]);
    // No replica count in the Deployments: the autoscalers own it.
    for (const app of APPS) expect(deployment(app).spec.replicas).toBeUndefined();
  });

  if (variant !== 'base') {
    it('names a namespace and a release tag for every image', () => {
      for (const o of objects) expect(o.metadata.namespace).toBe('custodian');
      for (const workload of objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job')) {
        for (const container of podContainers(workload.spec.template.spec)) {
          expect(container.image).toMatch(/:[\w.-]+$/);
          expect(container.image).not.toMatch(/:latest$/);
        }
      }
    });

    it('fits the Postgres connections of the README at the largest scale, during a rollout', () => {
      const replicas: Record<App, number> = {
        gateway: find(objects, 'HorizontalPodAutoscaler', 'custodian-gateway').spec.maxReplicas,
        register: find(objects, 'HorizontalPodAutoscaler', 'custodian-register').spec.maxReplicas,
        'webhook-worker': find(objects, 'ScaledObject', 'custodian-webhook-worker').spec
          .maxReplicaCount,
      };
      let connections = 0;
      for (const app of APPS) {
        const config = configOf(objects, mainContainer(app));
        const pool = Number(config.DATABASE_POOL_SIZE ?? 10);
        // The outbox relay's LISTEN connection, outside the pool: on by default in the gateway
        // and the register, off by default in the worker (whose outbox only polls).
        const listens =
          app === 'webhook-worker' ? config.OUTBOX_LISTEN === 'on' : config.OUTBOX_LISTEN !== 'off';
        const listener = listens ? 1 : 0;
        const surge = deployment(app).spec.strategy.rollingUpdate.maxSurge as number;
        // Every replica's connections, the surge pods of a rollout, and the migration Job's one.
        connections += (replicas[app] + surge) * (pool + listener) + 1;
      }
      expect(connections).toBeLessThanOrEqual(CONNECTION_BUDGET[variant]!);
    });
  }
});

describe('the schema validation', () => {
  it('refuses a Deployment with a field of the wrong type, naming it', () => {
    const deployment = parseStream(kubectlKustomize(path.join(KUSTOMIZE, 'base'))).find(
      (o) => o.kind === 'Deployment',
    );
    const broken = structuredClone(deployment);
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'three thousand';
    broken.spec.replicas = '2';
    const [valid, refused] = validateObjects([deployment, broken]);
    expect(valid!.errors).toBeNull();
    expect(refused!.errors).toContain('containerPort must be integer');
    expect(refused!.errors).toContain('data/spec/replicas must be integer');
  });

  it('refuses a ScaledObject without its target, and an object of an unknown kind', () => {
    const [scaled, unknown] = validateObjects([
      {
        apiVersion: 'keda.sh/v1alpha1',
        kind: 'ScaledObject',
        metadata: { name: 'x' },
        spec: { triggers: [] },
      },
      { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'y' } },
    ]);
    expect(scaled!.errors).toContain('data/spec must have required property scaleTargetRef');
    expect(unknown!.errors).toBe('no schema known for example.com/v1 Widget');
  });
});

// ---------------------------------------------------------------------------------------------
// The broker's users on Kubernetes

describe('RabbitMQ users on Kubernetes (npm run rabbitmq:definitions -- --format secret)', () => {
  const definitions = brokerDefinitions({
    vhost: '/',
    users: BROKER_USER_IDS.map((id) => ({ id, password: `${id}-password-0123456789` })),
  });

  it('is a valid Secret holding the definitions of every user', () => {
    const secret = definitionsSecret(definitions);
    expect(invalid(validateObjects([secret]))).toEqual([]);
    expect(
      JSON.parse(
        (secret as { stringData: Record<string, string> }).stringData['definitions.json']!,
      ),
    ).toEqual(definitions);
  });

  it('provisions the user of every RABBITMQ_URL_* key the base reads, and the README says which', () => {
    const rendered = kubectlKustomize(path.join(KUSTOMIZE, 'base'));
    const keys = [
      ...new Set([...rendered.matchAll(/key: (RABBITMQ_URL_[A-Z_]+)/g)].map((m) => m[1]!)),
    ];
    expect(keys.sort()).toEqual(
      BROKER_USER_IDS.filter((id) => id !== 'admin-cli')
        .map((id) => secretKey('RABBITMQ_URL', id))
        .sort(),
    );
    const readme = readFileSync(path.join(KUSTOMIZE, 'README.md'), 'utf8');
    const users = new Set(definitions.users.map((user) => user.name));
    for (const key of keys) {
      const id = BROKER_USER_IDS.find((user) => secretKey('RABBITMQ_URL', user) === key)!;
      expect(users).toContain(brokerUserName(id));
      // The README's row of the key names its user.
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${key}\``));
      expect({ key, row }).toEqual({ key, row: expect.stringContaining(brokerUserName(id)) });
    }
  });
});

describe('docs/operations.md, "RabbitMQ users"', () => {
  it('lists every user with the permissions of libs/messaging/src/broker-users.ts', () => {
    const text = readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
    const section = text.split('\n## ').find((part) => part.startsWith('RabbitMQ users\n'));
    const rows = new Map(
      (section ?? '')
        .split('\n')
        .filter((line) => line.startsWith('| `custodian'))
        .map((line) =>
          line
            .split('|')
            .slice(1, -1)
            .map((cell) => cell.trim()),
        )
        .map((cells) => [cells[0]!.replace(/`/g, ''), cells] as const),
    );
    /** The names a cell lists in backticks, sorted; `none` is none. */
    const names = (cell: string) =>
      cell === 'none' ? [] : [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!).sort();
    const sorted = (list: readonly string[]) => [...list].sort();
    const grants = brokerGrants();
    for (const id of BROKER_USER_IDS) {
      const cells = rows.get(brokerUserName(id));
      expect({ id, listed: cells !== undefined }).toEqual({ id, listed: true });
      const [, , configure, write, read, topic] = cells!;
      const grant = grants[id];
      expect({ id, configure: names(configure!) }).toEqual({
        id,
        configure: sorted(grant.configure),
      });
      expect({ id, write: names(write!) }).toEqual({ id, write: sorted(grant.write) });
      expect({ id, read: names(read!) }).toEqual({ id, read: sorted(grant.read) });
      if (!grant.topic) {
        expect({ id, topic }).toEqual({ id, topic: 'none' });
        continue;
      }
      const [publish, bind] = topic!.split(' / ');
      expect({ id, bind: names(bind!) }).toEqual({ id, bind: sorted(grant.topic.read) });
      if (id === 'register') {
        // 41 keys: the table names the list they come from.
        expect(publish).toContain('(`EVENT_KEYS`)');
        expect(grant.topic.write).toEqual(EVENT_KEYS);
      } else {
        expect({ id, publish: names(publish!) }).toEqual({
          id,
          publish: sorted(grant.topic.write),
        });
      }
    }
    // The administrator, and no user the source does not have.
    expect([...rows.keys()].sort()).toEqual(
      sorted([...BROKER_USER_IDS.map(brokerUserName), COMPOSE_ADMINISTRATOR.name]),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// docker compose

/**
 * ${VAR}, ${VAR:-default} and ${VAR-default} as compose resolves them, with `env` as the
 * environment (empty by default: every variable unset), and `$$` as a literal `$`; a required
 * ${VAR:?message} that is unset (compose refuses to start without it) as `<VAR>`.
 */
function interpolate(value: unknown, env: Record<string, string> = {}): unknown {
  if (typeof value === 'string') {
    return value.replace(
      /\$\$|\$\{([A-Z0-9_]+)(?:(:?[-?])([^}]*))?\}/g,
      (all, name: string, operator: string | undefined, argument: string | undefined) => {
        if (all === '$$') return '$';
        const set = env[name];
        if (operator?.endsWith('?')) return set ?? `<${name}>`;
        if (operator === ':-') return set || (argument ?? '');
        if (operator === '-') return set ?? argument ?? '';
        return set ?? '';
      },
    );
  }
  if (Array.isArray(value)) return value.map((item) => interpolate(item, env));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)]));
  }
  return value;
}

/** docker-compose.yml as written, variables and all. */
function readRawCompose(): K8s {
  return parse(readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true });
}

function readCompose(): K8s {
  return interpolate(readRawCompose());
}

function composeSchemaValidator() {
  const dclint = path.dirname(require.resolve('dclint/package.json'));
  const schema = JSON.parse(
    readFileSync(path.join(dclint, 'schemas', 'compose.schema.json'), 'utf8'),
  ) as Json;
  // Draft 07, named by an address Ajv does not know under that spelling.
  delete schema.$schema;
  const ajv = new Ajv({ allErrors: true, strict: false });
  return ajv.compile(schema);
}

describe('docker-compose.yml', () => {
  const compose = readCompose();
  const services = compose.services as Record<string, K8s>;

  it('is valid against the Compose Specification schema', () => {
    const validate = composeSchemaValidator();
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
    // ...which does refuse a broken file.
    const broken = structuredClone(compose);
    broken.services.gateway.healthcheck.retries = 'many';
    broken.services.gateway.depends_on['gateway-migrate'].condition = 'service_finished';
    expect(validate(broken)).toBe(false);
  });

  it.each(APPS)(
    '%s: migrates once in a one-shot service, then starts main.js with a health check',
    (app) => {
      const migrate = services[`${app}-migrate`];
      expect(migrate.restart).toBe('no');
      expect(migrate.image).toBe(`custodian-${app}`);
      expect(migrate.command).toEqual([
        'node',
        '-r',
        './tools/runtime/register-paths.js',
        `dist/apps/${app}/src/migrate.js`,
      ]);
      const service = services[app];
      expect(service.image).toBe(`custodian-${app}`);
      expect(service.command).toEqual([
        'node',
        '-r',
        './tools/runtime/register-paths.js',
        `dist/apps/${app}/src/main.js`,
      ]);
      expect(service.depends_on[`${app}-migrate`]).toEqual({
        condition: 'service_completed_successfully',
      });
      expect(String(service.environment.HEALTH_PORT)).toBe(String(HEALTH_PORT[app]));
      expect(service.healthcheck.test.join(' ')).toContain(
        `http://127.0.0.1:${HEALTH_PORT[app]}/health'`,
      );
      // The health port is never published.
      for (const port of service.ports ?? []) {
        expect(String(port)).not.toContain(String(HEALTH_PORT[app]));
      }
      if (app === 'webhook-worker') {
        expect(migrate.environment.WEBHOOK_SECRET_KEYS).toBe(
          service.environment.WEBHOOK_SECRET_KEYS,
        );
      }
    },
  );

  it('refuses to start without WEBHOOK_SECRET_KEYS and LICENSE_KEY_SECRETS: no key of its own, public in the file', () => {
    const text = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
    const required = [...text.matchAll(/\$\{([A-Z0-9_]+):\?[^}]+\}/g)].map((match) => match[1]);
    expect(required).toEqual(['WEBHOOK_SECRET_KEYS', 'LICENSE_KEY_SECRETS']);
    // No default anywhere for either, and each app and its migration get the required value.
    expect(text).not.toMatch(/\$\{WEBHOOK_SECRET_KEYS:?-/);
    expect(text).not.toMatch(/\$\{LICENSE_KEY_SECRETS:?-/);
    for (const name of ['webhook-worker', 'webhook-worker-migrate']) {
      expect(services[name].environment.WEBHOOK_SECRET_KEYS).toBe('<WEBHOOK_SECRET_KEYS>');
    }
    for (const name of ['register', 'register-migrate']) {
      expect(services[name].environment.LICENSE_KEY_SECRETS).toBe('<LICENSE_KEY_SECRETS>');
    }
  });

  it('provisions the broker users of libs/messaging/src/broker-users.ts at every broker start', () => {
    const raw = readRawCompose();
    // Exactly the source's document (`npm run --silent rabbitmq:definitions -- --format compose`).
    expect(raw.configs['rabbitmq-definitions'].content).toBe(composeDefinitions());
    const rabbitmq = raw.services.rabbitmq;
    const mounted = Object.fromEntries(
      (rabbitmq.configs as Array<{ source: string; target: string }>).map((config) => [
        config.source,
        config.target,
      ]),
    );
    // The image reads every /etc/rabbitmq/conf.d/*.conf; this one loads the mounted document.
    expect(mounted['rabbitmq-conf']).toMatch(/^\/etc\/rabbitmq\/conf\.d\/[\w-]+\.conf$/);
    const conf = String(raw.configs['rabbitmq-conf'].content);
    expect(conf).toContain('definitions.import_backend = local_filesystem');
    expect(conf).toContain(`definitions.local.path = ${mounted['rabbitmq-definitions']}`);
    // A node loading definitions creates no default user: a RABBITMQ_DEFAULT_USER would mislead.
    expect(Object.keys(rabbitmq.environment ?? {})).not.toContain('RABBITMQ_DEFAULT_USER');
  });

  it.each([
    ['unset', {}],
    [
      'set',
      Object.fromEntries(
        [...COMPOSE_BROKER_USERS.map(passwordVariable), COMPOSE_ADMINISTRATOR.passwordVariable].map(
          (variable) => [variable, `${variable.toLowerCase()}-set`],
        ),
      ),
    ],
  ])(
    'connects each app as its own user, with the password the broker is given (variables %s)',
    (_case, env: Record<string, string>) => {
      const compose = interpolate(readRawCompose(), env) as K8s;
      const definitions = JSON.parse(
        compose.configs['rabbitmq-definitions'].content,
      ) as BrokerDefinitions;
      const passwords = new Map(definitions.users.map((user) => [user.name, user.password]));
      const users = APPS.map((app) => {
        const url = new URL(compose.services[app].environment.RABBITMQ_URL);
        const user = decodeURIComponent(url.username);
        expect({ app, user }).toEqual({ app, user: brokerUserName(app) });
        expect({ app, password: decodeURIComponent(url.password) }).toEqual({
          app,
          password: passwords.get(user),
        });
        if (Object.keys(env).length > 0) {
          expect(passwords.get(user)).toBe(env[passwordVariable(app)]);
        }
        return user;
      });
      expect(new Set(users).size).toBe(APPS.length);
      // The administrator is the operators' only: no service connects as it.
      const administrator = definitions.users.find((user) => user.tags.includes('administrator'));
      expect(administrator?.name).toBe(COMPOSE_ADMINISTRATOR.name);
      expect(users).not.toContain(administrator?.name);
      expect(JSON.stringify(compose.services)).not.toContain(`//${COMPOSE_ADMINISTRATOR.name}:`);
    },
  );

  it('samples one trace in ten at the gateway, as the Kubernetes base does', () => {
    expect(services.gateway.environment).toMatchObject({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    });
  });

  it('runs Prometheus and Grafana only with the observability profile, from deploy/', () => {
    for (const name of ['prometheus', 'grafana']) {
      expect(services[name].profiles).toEqual(['observability']);
      for (const volume of services[name].volumes as string[]) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('./')) expect(existsSync(path.join(ROOT, source))).toBe(true);
      }
    }
    const others = Object.entries(services).filter(
      ([name]) => !['prometheus', 'grafana'].includes(name),
    );
    for (const [, service] of others) expect(service.profiles).toBeUndefined();
  });
});

describe('Dockerfile', () => {
  it("checks every app's /health on its HEALTH_PORT, the gateway's 3003 by default", () => {
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const healthcheck = /^HEALTHCHECK [^\n]*\\\n\s*CMD (.*)$/m.exec(dockerfile);
    expect(healthcheck).not.toBeNull();
    const command = healthcheck![1]!;
    expect(command).toContain(
      "e.HEALTH_PORT || { gateway: 3003, register: 3001, 'webhook-worker': 3002 }[e.APP]",
    );
    expect(command).toContain("'/health'");
    expect(command).not.toContain('e.PORT');
  });

  it('builds and runs on the Node major that development, tests and CI pin (tools/node)', () => {
    const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    const pinned: string = JSON.parse(
      readFileSync(path.join(ROOT, 'tools', 'node', 'package.json'), 'utf8'),
    ).dependencies.node;
    const major = pinned.split('.')[0];
    expect(/^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1]).toBe(`node:${major}-bookworm-slim`);
    // Every stage starts from that argument, none from an image of its own.
    const stages = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(stages.filter((from) => from !== '${NODE_IMAGE}' && from !== 'deps')).toEqual([]);
    expect(readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim()).toBe(major);
    const engines: string = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
      .engines.node;
    expect(engines).toContain(`>=${major}.`);
    // This test itself runs on the pinned Node (npm test puts tools/node first on PATH).
    expect(process.version).toBe(`v${pinned}`);
  });
});

// ---------------------------------------------------------------------------------------------
// Prometheus and Grafana

/** The metrics the apps export (libs/observability), and their types. */
const CUSTODIAN_METRICS: Record<string, 'histogram' | 'counter' | 'gauge'> = {
  custodian_http_request_duration_seconds: 'histogram',
  custodian_rpc_client_duration_seconds: 'histogram',
  custodian_rpc_server_duration_seconds: 'histogram',
  custodian_limit_refusals_total: 'counter',
  custodian_outbox_backlog: 'gauge',
  custodian_outbox_oldest_age_seconds: 'gauge',
  custodian_outbox_listening: 'gauge',
  custodian_events_consumed_total: 'counter',
  custodian_deliveries_total: 'counter',
  custodian_delivery_attempt_duration_seconds: 'histogram',
  custodian_delivery_end_to_end_seconds: 'histogram',
  custodian_delivery_leases_held: 'gauge',
  custodian_deliveries_due: 'gauge',
  custodian_delivery_oldest_due_age_seconds: 'gauge',
  custodian_dead_letter_messages: 'gauge',
  custodian_db_pool_connections: 'gauge',
  custodian_amqp_connected: 'gauge',
};

/** Every series name a query may use: ours, prom-client's defaults, and `up`. */
async function knownSeries(): Promise<Set<string>> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const defaults = (await registry.getMetricsAsJSON()).map((m) => ({
    name: m.name,
    type: String(m.type),
  }));
  registry.clear();
  const all = [
    ...Object.entries(CUSTODIAN_METRICS).map(([name, type]) => ({ name, type })),
    ...defaults,
  ];
  const names = new Set(['up']);
  for (const { name, type } of all) {
    names.add(name);
    if (type === 'histogram') {
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    }
  }
  return names;
}

const PROMQL_WORDS = new Set([
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'by',
  'without',
  'inf',
  'nan',
]);

/** The series names a PromQL expression selects (not its functions, labels or keywords). */
function seriesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names: string[] = [];
  for (const match of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const after = bare.slice(match.index + match[0].length).trimStart();
    if (after.startsWith('(') || PROMQL_WORDS.has(match[0].toLowerCase())) continue;
    if (/^\d/.test(bare.slice(match.index - 1, match.index))) continue; // 5m, 1e3
    names.push(match[0]);
  }
  return names;
}

interface Rule {
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

function alertRules(): Rule[] {
  const file = parse(readFileSync(path.join(ROOT, 'deploy/prometheus/alerts.yml'), 'utf8')) as {
    groups: Array<{ name: string; rules: Rule[] }>;
  };
  return file.groups.flatMap((group) => group.rules);
}

interface Panel {
  panels?: Panel[];
  targets?: Array<{ expr: string }>;
}

function dashboardExpressions(): string[] {
  const dashboard = JSON.parse(
    readFileSync(path.join(ROOT, 'deploy/grafana/custodian-dashboard.json'), 'utf8'),
  ) as { panels: Panel[] };
  const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
  return panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
}

describe('the PromQL extraction', () => {
  it('finds the series and nothing else', () => {
    expect(
      seriesIn(
        'histogram_quantile(0.99, sum by (le, route) (rate(custodian_http_request_duration_seconds_bucket{status=~"5.."}[$__rate_interval]))) > 1e3 and on () up == 0',
      ),
    ).toEqual(['custodian_http_request_duration_seconds_bucket', 'up']);
  });
});

describe('deploy/prometheus/alerts.yml', () => {
  const rules = alertRules();

  it('names only metrics the apps export', async () => {
    const known = await knownSeries();
    const unknown = rules.flatMap((rule) => seriesIn(rule.expr)).filter((n) => !known.has(n));
    expect(unknown).toEqual([]);
  });

  it('gives every alert a duration, a severity and what to do', () => {
    expect(rules.length).toBeGreaterThanOrEqual(10);
    for (const rule of rules) {
      expect(rule.alert).toMatch(/^Custodian[A-Z]\w+$/);
      expect(rule.for).toMatch(/^\d+[smh]$/);
      expect(['page', 'ticket']).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary).toBeTruthy();
      expect(rule.annotations?.description).toBeTruthy();
    }
  });

  it('covers what the runbook pages on', () => {
    const names = rules.map((rule) => rule.alert);
    expect(names).toEqual(
      expect.arrayContaining([
        'CustodianHigh5xxRatio',
        'CustodianApiP99LatencyCritical',
        'CustodianRpcTimeouts',
        'CustodianOutboxStuck',
        'CustodianDeadLetters',
        'CustodianDeliveryFailureRatio',
        'CustodianWorkerNotDelivering',
        'CustodianAmqpDisconnected',
        'CustodianDbPoolWaiting',
        'CustodianTargetDown',
      ]),
    );
  });
});

describe('deploy/grafana/custodian-dashboard.json', () => {
  const expressions = dashboardExpressions();

  it('names only metrics the apps export, and shows every one of ours', async () => {
    const known = await knownSeries();
    const used = expressions.flatMap(seriesIn);
    expect(used.filter((name) => !known.has(name))).toEqual([]);
    const shown = new Set(used.map((name) => name.replace(/_(bucket|sum|count)$/, '')));
    expect(Object.keys(CUSTODIAN_METRICS).filter((name) => !shown.has(name))).toEqual([]);
  });

  it('uses the datasource Grafana is provisioned with, and Prometheus scrapes each health port', () => {
    const datasources = parse(
      readFileSync(
        path.join(ROOT, 'deploy/grafana/provisioning/datasources/prometheus.yml'),
        'utf8',
      ),
    ) as { datasources: Array<{ uid: string }> };
    const text = readFileSync(path.join(ROOT, 'deploy/grafana/custodian-dashboard.json'), 'utf8');
    const uids = new Set([...text.matchAll(/"uid": "([^"]+)"/g)].map((m) => m[1]));
    uids.delete('custodian'); // the dashboard's own
    expect([...uids]).toEqual([datasources.datasources[0]!.uid]);
    const prometheus: K8s = parse(
      readFileSync(path.join(ROOT, 'deploy/prometheus/prometheus.yml'), 'utf8'),
    );
    expect(prometheus.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
    const targets = prometheus.scrape_configs.flatMap((job: K8s) =>
      job.static_configs.flatMap((config: K8s) => config.targets),
    );
    expect(targets).toEqual(APPS.map((app) => `${app}:${HEALTH_PORT[app]}`));
  });
});
