import {
  CreateAssetInput,
  CreateCustomFieldInput,
  DomainError,
  ListMessage,
  RecordMessage,
  UpdateAssetMessage,
  type CallerContext,
} from '@custodian/contracts';
import type { ArgumentMetadata } from '@nestjs/common';
import { ContractValidationPipe } from './contract-validation.pipe';

const pipe = new ContractValidationPipe();
const httpBody = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({
  type: 'body',
  metatype,
});
// Nest hands RPC payload parameters to pipes with a numeric type.
const rpcPayload = (metatype: ArgumentMetadata['metatype']) =>
  ({ type: 3, metatype }) as unknown as ArgumentMetadata;

const caller: CallerContext = {
  workspaceId: 'wsp_1',
  keyId: 'key_1',
  scope: 'write',
  plan: 'pro',
  limits: { ratePerMinute: 120, monthlyQuota: 100_000, assets: 5000, people: null, seats: 25 },
};

async function refusal(value: unknown, metadata: ArgumentMetadata): Promise<string> {
  const error = await pipe.transform(value, metadata).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe('invalid_input');
  return (error as DomainError).message;
}

describe('ContractValidationPipe', () => {
  describe('an HTTP body', () => {
    it('becomes an instance of its class', async () => {
      const body = await pipe.transform({ name: 'Desk' }, httpBody(CreateAssetInput));
      expect(body).toBeInstanceOf(CreateAssetInput);
      expect(body).toEqual({ name: 'Desk' });
    });

    it('names unknown and wrong fields as the client wrote them', async () => {
      expect(await refusal({ colour: 'red', name: 3 }, httpBody(CreateAssetInput))).toBe(
        'unknown field colour; name must be a string',
      );
    });

    it('refuses what is not a JSON object, and text Postgres cannot store', async () => {
      for (const value of [null, undefined, [], 'x']) {
        expect(await refusal(value, httpBody(CreateAssetInput))).toBe('body must be a JSON object');
      }
      expect(await refusal({ name: 'a\u0000b' }, httpBody(CreateAssetInput))).toBe(
        'name must not contain NUL characters',
      );
    });
  });

  describe('a message carrying a client body', () => {
    it('builds the body and the caller as their classes', async () => {
      const message = (await pipe.transform(
        { caller, id: 'ast_1', body: { status: 'retired' } },
        rpcPayload(UpdateAssetMessage),
      )) as UpdateAssetMessage;
      expect(message).toBeInstanceOf(UpdateAssetMessage);
      expect(message.body).toEqual({ status: 'retired' });
      expect(message.caller).toEqual(caller);
    });

    it('names the fields of the body relative to it', async () => {
      expect(
        await refusal(
          { caller, id: 'ast_1', body: { colour: 'red', name: null } },
          rpcPayload(UpdateAssetMessage),
        ),
      ).toBe('unknown field colour; name must be a string');
    });

    it('refuses a body that is not an object, or with text Postgres cannot store', async () => {
      expect(await refusal({ caller, id: 'ast_1', body: [] }, rpcPayload(UpdateAssetMessage))).toBe(
        'body must be a JSON object',
      );
      expect(
        await refusal(
          { caller, id: 'ast_1', body: { custom_fields: { note: '\ud800' } } },
          rpcPayload(UpdateAssetMessage),
        ),
      ).toBe('custom_fields.note must be valid Unicode text');
    });

    it('refuses a message whose caller is malformed or has fields it does not declare', async () => {
      expect(
        await refusal(
          { caller: { ...caller, scope: 'admin' }, id: 'ast_1', body: {} },
          rpcPayload(UpdateAssetMessage),
        ),
      ).toBe(
        'caller must be {workspaceId, keyId, scope, plan, limits, actorName?} as the gateway sends it',
      );
      const fourLimits: Partial<CallerContext['limits']> = { ...caller.limits };
      delete fourLimits.seats;
      expect(
        await refusal(
          { caller: { ...caller, limits: fourLimits }, id: 'ast_1', body: {} },
          rpcPayload(UpdateAssetMessage),
        ),
      ).toBe(
        'caller must be {workspaceId, keyId, scope, plan, limits, actorName?} as the gateway sends it',
      );
      expect(
        await refusal({ caller, id: 'ast_1', body: {}, extra: 1 }, rpcPayload(UpdateAssetMessage)),
      ).toBe('unknown field extra');
    });

    it("takes a caller with or without the actor's name (a gateway of the version before)", async () => {
      const named = { caller: { ...caller, actorName: 'Zapier' }, id: 'ast_1' };
      expect(await pipe.transform(named, rpcPayload(RecordMessage))).toBe(named);
      expect(
        await refusal(
          { caller: { ...caller, actorName: 7 }, id: 'ast_1' },
          rpcPayload(RecordMessage),
        ),
      ).toBe(
        'caller must be {workspaceId, keyId, scope, plan, limits, actorName?} as the gateway sends it',
      );
    });
  });

  describe('a read of the register (checked in plain code when it is valid)', () => {
    it('passes a valid message through as it came', async () => {
      const message = { caller, id: 'ast_1' };
      expect(await pipe.transform(message, rpcPayload(RecordMessage))).toBe(message);
      const list = { caller, query: { page: '1', search: 'mac' } };
      expect(await pipe.transform(list, rpcPayload(ListMessage))).toBe(list);
    });

    it('refuses the rest with the messages of the decorators', async () => {
      expect(await refusal({ caller, id: 7 }, rpcPayload(RecordMessage))).toBe(
        'id must be a string',
      );
      expect(await refusal({ caller, id: 'ast_1', extra: 1 }, rpcPayload(RecordMessage))).toBe(
        'unknown field extra',
      );
      expect(
        await refusal({ caller: { ...caller, plan: 'gold' }, query: {} }, rpcPayload(ListMessage)),
      ).toBe(
        'caller must be {workspaceId, keyId, scope, plan, limits, actorName?} as the gateway sends it',
      );
      expect(await refusal({ caller, query: 'page=1' }, rpcPayload(ListMessage))).toBe(
        'query must be an object',
      );
    });
  });

  describe('an admin payload', () => {
    it("takes the CLI's strings for lists and flags", async () => {
      const input = (await pipe.transform(
        {
          workspace: 'wsp_1',
          key: 'colour',
          label: 'Colour',
          type: 'select',
          options: 'red, green,,blue',
          required: 'true',
        },
        rpcPayload(CreateCustomFieldInput),
      )) as CreateCustomFieldInput;
      expect(input.options).toEqual(['red', 'green', 'blue']);
      expect(input.required).toBe(true);
    });

    it('refuses a payload that is not an object', async () => {
      expect(await refusal('x', rpcPayload(CreateCustomFieldInput))).toBe(
        'payload must be a JSON object',
      );
    });
  });
});
