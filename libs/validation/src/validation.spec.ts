import {
  CreateAssetInput,
  CreateReminderInput,
  DomainError,
  UpdateAssetInput,
} from '@custodian/contracts';
import { validateInput } from './validation';

/** The DomainError validateInput throws; fails the test when it does not throw one. */
function rejection(type: new () => object, raw: unknown, what?: string): DomainError {
  try {
    validateInput(type, raw, what);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid_input');
    return error as DomainError;
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be rejected`);
}

const STATUS_MESSAGE = 'status must be one of active, maintenance, retired, lost, stolen, inactive';

describe('validateInput', () => {
  it('names a nested field by its path from the body', () => {
    const due_at = '2030-01-01T00:00:00Z';
    expect(
      rejection(CreateReminderInput, { title: 'T', due_at, repeat: { every: 0, unit: 'year' } })
        .message,
    ).toBe('repeat.every must not be less than 1; repeat.unit must be one of day, week, month');
  });

  describe('valid bodies', () => {
    it('returns an instance of the class with the given values', () => {
      const input = validateInput(CreateAssetInput, {
        name: 'Laptop',
        sku: 'LT-1',
        status: 'maintenance',
        custom_fields: { colour: 'grey' },
      });
      expect(input).toBeInstanceOf(CreateAssetInput);
      expect(input).toEqual({
        name: 'Laptop',
        sku: 'LT-1',
        status: 'maintenance',
        custom_fields: { colour: 'grey' },
      });
    });

    it('accepts an empty PATCH body', () => {
      expect(validateInput(UpdateAssetInput, {})).toBeInstanceOf(UpdateAssetInput);
    });

    it('does not convert types implicitly', () => {
      expect(rejection(CreateAssetInput, { name: 42 }).message).toBe('name must be a string');
      expect(rejection(CreateAssetInput, { name: 'a', sku: 7 }).message).toBe(
        'sku must be a string',
      );
    });
  });

  describe('unknown fields', () => {
    it('names the unknown field', () => {
      expect(rejection(CreateAssetInput, { name: 'Laptop', colour: 'red' }).message).toBe(
        'unknown field colour',
      );
    });

    it('names every unknown field', () => {
      expect(rejection(CreateAssetInput, { name: 'a', colour: 1, size: 2 }).message).toBe(
        'unknown field colour; unknown field size',
      );
    });

    it('refuses unknown fields on PATCH too', () => {
      expect(rejection(UpdateAssetInput, { colour: 'red' }).message).toBe('unknown field colour');
    });
  });

  describe('messages', () => {
    it('gives one message per field, the type check first', () => {
      // name: 5 breaks both @IsString and @Length; only the type check is reported.
      expect(rejection(CreateAssetInput, { name: 5 }).message).toBe('name must be a string');
    });

    it('reports a missing required field with the same single message', () => {
      expect(rejection(CreateAssetInput, {}).message).toBe('name must be a string');
    });

    it('reports the length rule when the type is right', () => {
      expect(rejection(CreateAssetInput, { name: '' }).message).toBe(
        'name must be between 1 and 200 characters',
      );
      expect(rejection(CreateAssetInput, { name: 'x'.repeat(201) }).message).toBe(
        'name must be between 1 and 200 characters',
      );
    });

    it('lists every bad field, one message each, joined by "; "', () => {
      const message = rejection(CreateAssetInput, { name: 'a', sku: 3, status: 'broken' }).message;
      expect(message.split('; ').sort()).toEqual(['sku must be a string', STATUS_MESSAGE].sort());
    });

    it('names custom_fields when it is not an object', () => {
      expect(rejection(CreateAssetInput, { name: 'a', custom_fields: 'x' }).message).toBe(
        'custom_fields must be an object',
      );
    });
  });

  describe('non-object bodies', () => {
    it.each([
      ['null', null],
      ['an array', [{ name: 'a' }]],
      ['a string', 'name=a'],
      ['a number', 42],
      ['a boolean', true],
      ['undefined', undefined],
    ])('rejects %s', (_label, raw) => {
      expect(rejection(CreateAssetInput, raw).message).toBe('body must be a JSON object');
    });

    it('names what was being validated', () => {
      expect(rejection(CreateAssetInput, null, 'query').message).toBe(
        'query must be a JSON object',
      );
    });
  });

  describe('prototype keys', () => {
    it('rejects __proto__ as a key of the parsed JSON', () => {
      const raw: unknown = JSON.parse('{"name":"a","__proto__":{"polluted":true}}');
      expect(rejection(CreateAssetInput, raw).message).toBe(
        'body must not contain the key __proto__',
      );
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('rejects constructor', () => {
      expect(rejection(CreateAssetInput, { name: 'a', constructor: { x: 1 } }).message).toBe(
        'body must not contain the key constructor',
      );
    });

    it('rejects prototype', () => {
      expect(rejection(UpdateAssetInput, { prototype: {} }).message).toBe(
        'body must not contain the key prototype',
      );
    });
  });

  describe('UpdateAssetInput nulls', () => {
    it('rejects name: null (an asset cannot be without a name)', () => {
      expect(rejection(UpdateAssetInput, { name: null }).message).toBe('name must be a string');
    });

    it('rejects status: null and asset_tag: null', () => {
      expect(rejection(UpdateAssetInput, { status: null }).message).toBe(STATUS_MESSAGE);
      expect(rejection(UpdateAssetInput, { asset_tag: null }).message).toBe(
        'asset_tag must be a string',
      );
    });

    it('accepts sku: null (null clears the field)', () => {
      const input = validateInput(UpdateAssetInput, { sku: null });
      expect(input.sku).toBeNull();
    });

    it('accepts null for every clearable field', () => {
      const body = {
        sku: null,
        brand: null,
        model: null,
        serial_number: null,
        category: null,
        location: null,
        custom_fields: null,
      };
      expect(validateInput(UpdateAssetInput, body)).toEqual(body);
    });
  });
});

describe('NUL characters', () => {
  it('refuses U+0000 anywhere in a body, naming the field', () => {
    expect(() => validateInput(CreateAssetInput, { name: 'a\u0000b' })).toThrow(
      'name must not contain NUL characters',
    );
    expect(() =>
      validateInput(CreateAssetInput, { name: 'x', custom_fields: { note: ['ok', '\u0000'] } }),
    ).toThrow('custom_fields.note[1] must not contain NUL characters');
  });
});
