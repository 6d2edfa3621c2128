import { DeliveriesInput, DomainError } from '@custodian/contracts';
import { validateInput } from '@custodian/validation';

/** The `deliveries` admin message: `limit` as a number (JSON callers) or digits (the CLI). */
describe('DeliveriesInput limit', () => {
  const valid = (limit: unknown) => validateInput(DeliveriesInput, { endpoint: 'whe_1', limit });
  const refusal = (limit: unknown): string => {
    try {
      valid(limit);
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('invalid_input');
      return (error as DomainError).message;
    }
    throw new Error(`limit ${JSON.stringify(limit)} was accepted`);
  };

  it('accepts a whole number from 1 to 100, as a number or as a string of digits', () => {
    for (const limit of [1, 20, 100, '1', '20', '100']) {
      expect(valid(limit).limit).toBe(limit);
    }
  });

  it('may be left out (the service then takes 20)', () => {
    expect(validateInput(DeliveriesInput, { endpoint: 'whe_1' }).limit).toBeUndefined();
  });

  it('refuses anything else with an error naming limit', () => {
    for (const limit of [
      0,
      101,
      -5,
      2.5,
      Number.NaN,
      '0',
      '101',
      '1000',
      '2.5',
      '',
      ' 5',
      'ten',
      true,
      [5],
      { n: 5 },
    ]) {
      expect(refusal(limit)).toBe('limit must be a whole number from 1 to 100');
    }
  });
});
