import { IsIn, IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { loadConfig } from './config';

/** A config class written the way the apps write theirs (see apps/gateway/src/config). */
class ExampleConfig {
  @IsInt() @Min(0) @Max(65535) PORT: number = 3000;

  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string = 'postgres://postgres@127.0.0.1:5432/example';

  @IsString() PREFIX: string = 'ex:';

  @IsInt() @Min(100) TIMEOUT_MS: number = 4_000;

  @IsIn(['json', 'pretty']) LOG_FORMAT: 'json' | 'pretty' = 'json';
}

function loadError(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(ExampleConfig, env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe('loadConfig', () => {
  it('applies every default for an empty environment', () => {
    const config = loadConfig(ExampleConfig, {});
    expect(config).toBeInstanceOf(ExampleConfig);
    expect({ ...config }).toEqual({
      PORT: 3000,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/example',
      PREFIX: 'ex:',
      TIMEOUT_MS: 4_000,
      LOG_FORMAT: 'json',
    });
  });

  it('treats an empty variable as not set, so the default applies', () => {
    const config = loadConfig(ExampleConfig, { PORT: '', PREFIX: '' });
    expect(config.PORT).toBe(3000);
    expect(config.PREFIX).toBe('ex:');
  });

  it('converts numeric strings to numbers', () => {
    const config = loadConfig(ExampleConfig, { PORT: '8080', TIMEOUT_MS: '250' });
    expect(config.PORT).toBe(8080);
    expect(typeof config.PORT).toBe('number');
    expect(config.TIMEOUT_MS).toBe(250);
  });

  it('keeps the given strings and the defaults of what is not given', () => {
    const config = loadConfig(ExampleConfig, {
      DATABASE_URL: 'postgresql://u@db:5432/x',
      LOG_FORMAT: 'pretty',
    });
    expect(config.DATABASE_URL).toBe('postgresql://u@db:5432/x');
    expect(config.LOG_FORMAT).toBe('pretty');
    expect(config.PORT).toBe(3000);
    expect(config.PREFIX).toBe('ex:');
  });

  it('ignores variables the class does not declare', () => {
    const config = loadConfig(ExampleConfig, { HOME: '/root', PATH: '/bin' });
    expect(Object.keys(config).sort()).toEqual(
      ['DATABASE_URL', 'LOG_FORMAT', 'PORT', 'PREFIX', 'TIMEOUT_MS'].sort(),
    );
  });

  it('does not change the environment object it reads', () => {
    const env = { PORT: '8080' };
    loadConfig(ExampleConfig, env);
    expect(env).toEqual({ PORT: '8080' });
  });

  it('names a variable that is not a number', () => {
    expect(loadError({ PORT: 'abc' })).toBe(
      'Invalid configuration: PORT must be an integer number',
    );
  });

  it('names a variable out of range', () => {
    expect(loadError({ PORT: '70000' })).toBe(
      'Invalid configuration: PORT must not be greater than 65535',
    );
    expect(loadError({ TIMEOUT_MS: '5' })).toBe(
      'Invalid configuration: TIMEOUT_MS must not be less than 100',
    );
  });

  it('refuses a fractional number where an integer is needed', () => {
    expect(loadError({ PORT: '1.5' })).toContain('PORT');
  });

  it('gives the custom message of a pattern', () => {
    expect(loadError({ DATABASE_URL: 'mysql://x' })).toBe(
      'Invalid configuration: DATABASE_URL must be a postgres:// URL',
    );
  });

  it('names every bad variable at once', () => {
    const message = loadError({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_FORMAT: 'xml' });
    expect(message).toMatch(/^Invalid configuration: /);
    expect(message).toContain('PORT must be an integer number');
    expect(message).toContain('DATABASE_URL must be a postgres:// URL');
    expect(message).toContain('LOG_FORMAT must be one of the following values: json, pretty');
  });
});
