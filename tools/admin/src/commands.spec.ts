import {
  GatewayAdminPatterns,
  RegisterAdminPatterns,
  WorkerAdminPatterns,
} from '@custodian/contracts';
import { COMMANDS, parseCommand } from './commands';

function failure(argv: string[]): string {
  try {
    parseCommand(argv);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`expected ${argv.join(' ')} to be refused`);
}

describe('parseCommand', () => {
  it('parses workspace create', () => {
    const parsed = parseCommand(['workspace', 'create', '--name', 'Acme', '--plan', 'pro']);
    expect(parsed.name).toBe('workspace create');
    expect(parsed.command.pattern).toBe(GatewayAdminPatterns.workspaceCreate);
    expect(parsed.command.owner).toBe('gateway');
    expect(parsed.payload).toEqual({ name: 'Acme', plan: 'pro' });
  });

  it('parses workspace show', () => {
    const parsed = parseCommand(['workspace', 'show', '--workspace', 'wsp_1']);
    expect(parsed.command.pattern).toBe(GatewayAdminPatterns.workspaceGet);
    expect(parsed.payload).toEqual({ workspace: 'wsp_1' });
  });

  it('parses workspace plan', () => {
    const parsed = parseCommand(['workspace', 'plan', '--workspace', 'wsp_1', '--plan', 'free']);
    expect(parsed.command.pattern).toBe(GatewayAdminPatterns.workspacePlan);
    expect(parsed.payload).toEqual({ workspace: 'wsp_1', plan: 'free' });
  });

  it('parses workspace limits, turning kebab-case options into snake_case keys', () => {
    const parsed = parseCommand([
      'workspace',
      'limits',
      '--workspace',
      'wsp_1',
      '--rate-per-minute',
      '1000',
      '--monthly-quota',
      'unlimited',
      '--assets',
      '20000',
      '--people',
      'plan',
      '--seats',
      '5',
    ]);
    expect(parsed.command.pattern).toBe(GatewayAdminPatterns.workspaceLimits);
    expect(parsed.payload).toEqual({
      workspace: 'wsp_1',
      rate_per_minute: '1000',
      monthly_quota: 'unlimited',
      assets: '20000',
      people: 'plan',
      seats: '5',
    });
  });

  it('parses key create, with and without a name', () => {
    const parsed = parseCommand(['key', 'create', '--workspace', 'wsp_1', '--scope', 'write']);
    expect(parsed.command.pattern).toBe(GatewayAdminPatterns.keyCreate);
    expect(parsed.payload).toEqual({ workspace: 'wsp_1', scope: 'write' });
    expect(
      parseCommand(['key', 'create', '--workspace', 'w', '--scope', 'read', '--name', 'CI'])
        .payload,
    ).toEqual({ workspace: 'w', scope: 'read', name: 'CI' });
  });

  it('parses key revoke', () => {
    const parsed = parseCommand(['key', 'revoke', '--id', 'key_1']);
    expect(parsed.command.pattern).toBe(GatewayAdminPatterns.keyRevoke);
    expect(parsed.payload).toEqual({ id: 'key_1' });
  });

  it('parses key list', () => {
    const parsed = parseCommand(['key', 'list', '--workspace', 'wsp_1']);
    expect(parsed.command.pattern).toBe(GatewayAdminPatterns.keyList);
    expect(parsed.payload).toEqual({ workspace: 'wsp_1' });
  });

  it('parses workspace create with an owner e-mail', () => {
    const parsed = parseCommand([
      'workspace',
      'create',
      '--name',
      'Acme',
      '--plan',
      'pro',
      '--owner-email',
      'a@b.co',
    ]);
    expect(parsed.command.owner).toBe('gateway');
    expect(parsed.payload).toEqual({ name: 'Acme', plan: 'pro', owner_email: 'a@b.co' });
  });

  it('parses invitation list, sent to the register', () => {
    const parsed = parseCommand(['invitation', 'list', '--workspace', 'wsp_1']);
    expect(parsed.command.pattern).toBe(RegisterAdminPatterns.invitationList);
    expect(parsed.command.owner).toBe('register');
    expect(parsed.payload).toEqual({ workspace: 'wsp_1' });
  });

  it('parses invitation renew, sent to the register', () => {
    const parsed = parseCommand(['invitation', 'renew', '--id', 'inv_1']);
    expect(parsed.command.pattern).toBe(RegisterAdminPatterns.invitationRenew);
    expect(parsed.command.owner).toBe('register');
    expect(parsed.payload).toEqual({ id: 'inv_1' });
  });

  it('parses invitation accept, sent to the register', () => {
    const parsed = parseCommand(['invitation', 'accept', '--token', 'tok']);
    expect(parsed.command.pattern).toBe(RegisterAdminPatterns.invitationAccept);
    expect(parsed.command.owner).toBe('register');
    expect(parsed.payload).toEqual({ token: 'tok' });
  });

  it('parses customfield create with a list of options and a bare --required flag', () => {
    const parsed = parseCommand([
      ...['customfield', 'create', '--workspace', 'wsp_1', '--key', 'tier', '--label', 'Tier'],
      ...['--type', 'select', '--options', 'gold,silver', '--required'],
    ]);
    expect(parsed.command.owner).toBe('register');
    expect(parsed.payload).toEqual({
      workspace: 'wsp_1',
      key: 'tier',
      label: 'Tier',
      type: 'select',
      options: 'gold,silver',
      required: true,
    });
  });

  it('has a test above for every command it knows', () => {
    expect(Object.keys(COMMANDS).sort()).toEqual(
      [
        'customfield create',
        'deliveries',
        'invitation accept',
        'invitation list',
        'invitation renew',
        'key create',
        'key list',
        'key revoke',
        'webhook create',
        'webhook list',
        'webhook delete',
        'webhook test',
        'workspace create',
        'workspace limits',
        'workspace plan',
        'workspace show',
      ].sort(),
    );
  });

  it('takes the options in any order', () => {
    expect(
      parseCommand(['workspace', 'create', '--plan', 'pro', '--name', 'Acme']).payload,
    ).toEqual({ name: 'Acme', plan: 'pro' });
  });

  describe('flags without a value', () => {
    it('is true when it is the last argument', () => {
      const parsed = parseCommand([
        'key',
        'create',
        '--workspace',
        'w',
        '--scope',
        'read',
        '--name',
      ]);
      expect(parsed.payload.name).toBe(true);
    });

    it('is true when the next argument is another option', () => {
      const parsed = parseCommand([
        'key',
        'create',
        '--name',
        '--workspace',
        'w',
        '--scope',
        'read',
      ]);
      expect(parsed.payload).toEqual({ name: true, workspace: 'w', scope: 'read' });
    });
  });

  describe('errors', () => {
    it('refuses an unknown command and lists the known ones', () => {
      const message = failure(['workspace', 'delete', '--workspace', 'w']);
      expect(message).toBe(
        `unknown command "workspace delete"; commands: ${Object.keys(COMMANDS).join(', ')}`,
      );
      expect(message).toContain('workspace create');
    });

    it('refuses an empty command line', () => {
      expect(failure([])).toMatch(/^unknown command ""; commands: /);
    });

    it('refuses a noun without a verb', () => {
      expect(failure(['key'])).toMatch(/^unknown command "key"; commands: /);
    });

    it('refuses an unknown option and lists the options of the command', () => {
      expect(failure(['key', 'revoke', '--id', 'k', '--force'])).toBe(
        'unknown option --force for "key revoke"; options: --id',
      );
    });

    it('refuses the snake_case spelling of an option', () => {
      expect(failure(['workspace', 'limits', '--workspace', 'w', '--rate_per_minute', '5'])).toBe(
        'unknown option --rate_per_minute for "workspace limits"; options: --workspace ' +
          '--rate-per-minute --monthly-quota --assets --people --seats',
      );
    });

    it('refuses a stray positional argument', () => {
      expect(failure(['key', 'list', 'wsp_1'])).toBe('unexpected argument wsp_1');
    });

    it('names the one missing required option', () => {
      expect(failure(['workspace', 'create', '--name', 'Acme'])).toBe(
        '"workspace create" needs --plan',
      );
    });

    it('refuses a required option given without a value', () => {
      expect(failure(['key', 'revoke', '--id'])).toBe('--id needs a value');
      expect(failure(['key', 'create', '--workspace', '--scope', 'read'])).toBe(
        '--workspace needs a value',
      );
    });

    it('names every missing required option', () => {
      expect(failure(['workspace', 'create'])).toBe('"workspace create" needs --name, --plan');
      expect(failure(['key', 'create'])).toBe('"key create" needs --workspace, --scope');
      expect(failure(['key', 'revoke'])).toBe('"key revoke" needs --id');
    });
  });
});

describe('parseCommand: webhook commands (owner worker)', () => {
  it('parses webhook create with events and a description', () => {
    const parsed = parseCommand([
      'webhook',
      'create',
      '--workspace',
      'wsp_1',
      '--url',
      'https://hooks.example.com/in',
      '--events',
      'asset.created,asset.updated',
      '--description',
      'CMDB sync',
    ]);
    expect(parsed.command.owner).toBe('worker');
    expect(parsed.command.pattern).toBe(WorkerAdminPatterns.webhookCreate);
    expect(parsed.payload).toEqual({
      workspace: 'wsp_1',
      url: 'https://hooks.example.com/in',
      events: 'asset.created,asset.updated',
      description: 'CMDB sync',
    });
  });

  it('parses webhook delete, which needs the id', () => {
    const parsed = parseCommand(['webhook', 'delete', '--id', 'whe_1']);
    expect(parsed.command.pattern).toBe(WorkerAdminPatterns.webhookDelete);
    expect(parsed.payload).toEqual({ id: 'whe_1' });
    expect(failure(['webhook', 'delete'])).toContain('--id');
  });

  it('parses webhook list and webhook test', () => {
    expect(parseCommand(['webhook', 'list', '--workspace', 'wsp_1']).command.pattern).toBe(
      WorkerAdminPatterns.webhookList,
    );
    const test = parseCommand(['webhook', 'test', '--id', 'whe_1']);
    expect(test.command.pattern).toBe(WorkerAdminPatterns.webhookTest);
    expect(test.payload).toEqual({ id: 'whe_1' });
  });

  it('parses the one-word deliveries command', () => {
    const parsed = parseCommand(['deliveries', '--endpoint', 'whe_1', '--limit', '5']);
    expect(parsed.name).toBe('deliveries');
    expect(parsed.command.owner).toBe('worker');
    expect(parsed.command.pattern).toBe(WorkerAdminPatterns.deliveries);
    expect(parsed.payload).toEqual({ endpoint: 'whe_1', limit: '5' });
    expect(failure(['deliveries'])).toContain('--endpoint');
  });
});
