import {
  brokerDefinitions,
  composeDefinitions,
  type BrokerDefinitions,
} from '@custodian/messaging';
import { runRabbitmqDefinitions } from './rabbitmq-definitions';

const PASSWORDS = {
  RABBITMQ_GATEWAY_PASSWORD: 'gateway-password-0123456789',
  RABBITMQ_REGISTER_PASSWORD: 'register-password-0123456789',
  RABBITMQ_WEBHOOK_WORKER_PASSWORD: 'worker-password-0123456789',
};

function run(argv: string[], env: NodeJS.ProcessEnv) {
  let stdout = '';
  let stderr = '';
  const code = runRabbitmqDefinitions(argv, {
    env,
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

describe('npm run rabbitmq:definitions', () => {
  it("prints the apps' users with their passwords; the CLI and KEDA only when theirs are set", () => {
    const apps = run([], PASSWORDS);
    expect(apps.code).toBe(0);
    const definitions = JSON.parse(apps.stdout) as BrokerDefinitions;
    expect(definitions).toEqual(
      brokerDefinitions({
        vhost: '/',
        users: [
          { id: 'gateway', password: PASSWORDS.RABBITMQ_GATEWAY_PASSWORD },
          { id: 'register', password: PASSWORDS.RABBITMQ_REGISTER_PASSWORD },
          { id: 'webhook-worker', password: PASSWORDS.RABBITMQ_WEBHOOK_WORKER_PASSWORD },
        ],
      }),
    );
    const all = run([], {
      ...PASSWORDS,
      RABBITMQ_ADMIN_CLI_PASSWORD: 'cli-password-0123456789',
      RABBITMQ_AUTOSCALER_PASSWORD: 'keda-password-0123456789',
    });
    expect((JSON.parse(all.stdout) as BrokerDefinitions).users.map((user) => user.name)).toEqual([
      'custodian-gateway',
      'custodian-register',
      'custodian-webhook-worker',
      'custodian-admin-cli',
      'custodian-autoscaler',
    ]);
  });

  it("refuses without an app's password, or with one a URL would need to encode", () => {
    const missing = run([], { ...PASSWORDS, RABBITMQ_REGISTER_PASSWORD: undefined });
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toContain('RABBITMQ_REGISTER_PASSWORD is not set');
    const unsafe = run([], { ...PASSWORDS, RABBITMQ_GATEWAY_PASSWORD: 'p@ss/word:0123456789' });
    expect(unsafe.code).toBe(2);
    expect(unsafe.stderr).toContain('RABBITMQ_GATEWAY_PASSWORD: 16 or more letters');
  });

  it("takes the vhost and the deployment's own names from the apps' variables", () => {
    const { stdout } = run([], {
      ...PASSWORDS,
      RABBITMQ_VHOST: 'custodian',
      REGISTER_QUEUE: 'acme.register',
    });
    const definitions = JSON.parse(stdout) as BrokerDefinitions;
    expect(definitions.vhosts).toEqual([{ name: 'custodian' }]);
    const register = definitions.permissions.find((entry) => entry.user === 'custodian-register');
    expect(register?.vhost).toBe('custodian');
    expect(register?.read).toContain('acme\\.register\\.heavy');
    expect(register?.read).not.toContain('custodian\\.register\\.rpc');
  });

  it('prints a Kubernetes Secret of the same document, or the compose config', () => {
    const secret = run(
      ['--format', 'secret', '--secret-name', 'rabbitmq-load-definition'],
      PASSWORDS,
    );
    const parsed = JSON.parse(secret.stdout) as {
      kind: string;
      metadata: { name: string };
      stringData: Record<string, string>;
    };
    expect(parsed.kind).toBe('Secret');
    expect(parsed.metadata.name).toBe('rabbitmq-load-definition');
    expect(JSON.parse(parsed.stringData['definitions.json']!)).toEqual(
      JSON.parse(run([], PASSWORDS).stdout),
    );
    expect(run(['--format', 'compose'], {}).stdout).toBe(composeDefinitions());
    expect(run(['--format', 'yaml'], PASSWORDS).code).toBe(2);
  });
});
