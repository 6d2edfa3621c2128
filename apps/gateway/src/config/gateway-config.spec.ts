import { GATEWAY_ADMIN_QUEUE, REGISTER_RPC_QUEUE } from '@custodian/contracts';
import { GatewayConfig, loadGatewayConfig, trustedProxies } from './gateway-config';

function loadError(env: NodeJS.ProcessEnv): string {
  try {
    loadGatewayConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe('loadGatewayConfig', () => {
  it('applies the defaults for an empty environment', () => {
    const config = loadGatewayConfig({});
    expect(config).toBeInstanceOf(GatewayConfig);
    expect(config).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/custodian',
      REDIS_URL: 'redis://127.0.0.1:6379',
      REDIS_PREFIX: 'cus:',
      RABBITMQ_URL: 'amqp://guest:guest@127.0.0.1:5672',
      REGISTER_QUEUE: REGISTER_RPC_QUEUE,
      ADMIN_QUEUE: GATEWAY_ADMIN_QUEUE,
      REGISTER_TIMEOUT_MS: 4_000,
      KEY_CACHE_TTL_SECONDS: 300,
      DATABASE_POOL_SIZE: 10,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
    });
  });

  it('converts numeric strings from the environment', () => {
    const config = loadGatewayConfig({
      PORT: '8080',
      REGISTER_TIMEOUT_MS: '250',
      KEY_CACHE_TTL_SECONDS: '60',
      DATABASE_POOL_SIZE: '3',
    });
    expect(config.PORT).toBe(8080);
    expect(config.REGISTER_TIMEOUT_MS).toBe(250);
    expect(config.KEY_CACHE_TTL_SECONDS).toBe(60);
    expect(config.DATABASE_POOL_SIZE).toBe(3);
  });

  it('keeps the given prefix and URLs', () => {
    const config = loadGatewayConfig({
      REDIS_PREFIX: 't:abc:',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/custodian_t_1',
      REDIS_URL: 'redis://127.0.0.1:6390',
    });
    expect(config.REDIS_PREFIX).toBe('t:abc:');
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/custodian_t_1');
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6390');
  });

  it('names PORT when it is not a number', () => {
    expect(loadError({ PORT: 'abc' })).toBe(
      'Invalid configuration: PORT must be an integer number',
    );
  });

  it('names DATABASE_URL when it is not a postgres URL', () => {
    expect(loadError({ DATABASE_URL: 'mysql://x' })).toBe(
      'Invalid configuration: DATABASE_URL must be a postgres:// URL',
    );
  });

  it('names both when both are bad', () => {
    expect(loadError({ PORT: 'abc', DATABASE_URL: 'mysql://x' })).toBe(
      'Invalid configuration: PORT must be an integer number; DATABASE_URL must be a postgres:// URL',
    );
  });

  it('names the other checked variables', () => {
    expect(loadError({ REDIS_URL: 'http://x' })).toBe(
      'Invalid configuration: REDIS_URL must be a redis:// URL',
    );
    expect(loadError({ RABBITMQ_URL: 'redis://x' })).toBe(
      'Invalid configuration: RABBITMQ_URL must be an amqp:// URL',
    );
    expect(loadError({ REGISTER_TIMEOUT_MS: '50' })).toBe(
      'Invalid configuration: REGISTER_TIMEOUT_MS must not be less than 100',
    );
    expect(loadError({ LOG_LEVEL: 'loud' })).toContain('LOG_LEVEL must be one of');
  });

  describe('TRUST_PROXY', () => {
    const trust = (value?: string) =>
      trustedProxies(loadGatewayConfig(value === undefined ? {} : { TRUST_PROXY: value }));

    it('trusts no proxy by default, nor with false or 0', () => {
      expect(trust()).toBe(false);
      expect(trust('false')).toBe(false);
      expect(trust('0')).toBe(false);
    });

    it('takes a hop count', () => {
      expect(trust('1')).toBe(1);
      expect(trust('3')).toBe(3);
    });

    it('takes a comma list of IPv4 and IPv6 addresses and CIDRs', () => {
      expect(trust('10.0.0.0/8, 2001:db8::/32,192.168.1.10 , ::1')).toEqual([
        '10.0.0.0/8',
        '2001:db8::/32',
        '192.168.1.10',
        '::1',
      ]);
    });

    it('refuses true, saying what to write instead', () => {
      expect(loadError({ TRUST_PROXY: 'true' })).toBe(
        'Invalid configuration: TRUST_PROXY=true would trust every hop, so any client could ' +
          'pick its own address with X-Forwarded-For; set the number of proxies in front of ' +
          'the gateway (e.g. 1) or their addresses/CIDRs (e.g. 10.0.0.0/8)',
      );
    });

    it('names the entry that is no address or CIDR', () => {
      const expected = (entry: string) =>
        'Invalid configuration: TRUST_PROXY must be false, a hop count (1 to 20) or a comma ' +
        `list of proxy addresses/CIDRs; "${entry}" is neither`;
      expect(loadError({ TRUST_PROXY: 'yes' })).toBe(expected('yes'));
      expect(loadError({ TRUST_PROXY: '21' })).toBe(expected('21'));
      expect(loadError({ TRUST_PROXY: '10.0.0.0/8,proxy.internal' })).toBe(
        expected('proxy.internal'),
      );
      expect(loadError({ TRUST_PROXY: '10.0.0.0/33' })).toBe(expected('10.0.0.0/33'));
      expect(loadError({ TRUST_PROXY: '2001:db8::/129' })).toBe(expected('2001:db8::/129'));
      // A /0 would trust everyone, as true does.
      expect(loadError({ TRUST_PROXY: '0.0.0.0/0' })).toBe(expected('0.0.0.0/0'));
      expect(loadError({ TRUST_PROXY: '10.0.0.1,,10.0.0.2' })).toBe(expected(''));
      expect(loadError({ TRUST_PROXY: '0x0a.0.0.1' })).toBe(expected('0x0a.0.0.1'));
    });
  });
});
