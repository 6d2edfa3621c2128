import {
  API_MODELS,
  CreateAssetInput,
  CreatePersonInput,
  DELIVERABLE_EVENTS,
  EventEnvelope,
  InviteMemberInput,
  UpdateAssetInput,
  UpdateMemberInput,
  UpdatePersonInput,
  contractErrors,
  eventDataModels,
  eventEnvelopeExample,
  examplesOf,
  oneOfErrors,
  type ContractClass,
} from '@custodian/contracts';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { generateOpenApiDocument } from './generate';
import type { OpenApiDocument } from './openapi-document';

const ID = 'https://contract.custodian.invalid/openapi.json';

/** A valid value and variants of it: each field null, absent, of another type; an extra one. */
function variants(value: Record<string, unknown>): Array<Record<string, unknown>> {
  const result = [value, { ...value, undocumented: 1 }];
  for (const key of Object.keys(value)) {
    const without = { ...value };
    delete without[key];
    result.push(without);
    for (const other of [null, 7, 1.5, 'x', '', ' ', 'x'.repeat(201), {}, []]) {
      result.push({ ...value, [key]: other });
    }
  }
  return result;
}

/** Bodies the public routes take, each valid as given. */
const BODIES: Array<[ContractClass, Record<string, unknown>]> = [
  [
    CreateAssetInput,
    {
      name: 'Desk',
      sku: 'D-1',
      status: 'active',
      brand: 'Ikea',
      model: 'Bekant',
      serial_number: 'S1',
      asset_tag: 'AT-1',
      category: 'Furniture',
      location: 'Berlin',
      custom_fields: { colour: 'white' },
      assigned_to_id: 'per_1',
    },
  ],
  [UpdateAssetInput, { name: 'Desk', status: 'retired', asset_tag: 'AT-2', category: null }],
  [
    CreatePersonInput,
    {
      full_name: 'Ada Lovelace',
      email: 'ada@example.com',
      employee_number: 'E-1',
      department: 'Engineering',
      location: 'London',
      status: 'active',
    },
  ],
  [UpdatePersonInput, { full_name: 'Ada', email: null, status: 'inactive' }],
  [InviteMemberInput, { email: 'grace@example.com', role: 'admin', name: 'Grace' }],
  [UpdateMemberInput, { role: 'manager' }],
];

describe('the OpenAPI document says what the contract classes check', () => {
  let document: OpenApiDocument;
  let ajv: Ajv2020;

  beforeAll(async () => {
    document = await generateOpenApiDocument();
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(document, ID);
  }, 30_000);

  const schemaAt = (pointer: string): ValidateFunction => {
    const validate = ajv.getSchema(`${ID}#${pointer}`);
    if (!validate) throw new Error(`no schema at ${pointer}`);
    return validate;
  };

  it.each(Object.entries(API_MODELS))(
    '%s: the component accepts exactly what the class accepts',
    (name, model) => {
      const validate = schemaAt(`/components/schemas/${name}`);
      for (const example of examplesOf(model) as Array<Record<string, unknown>>) {
        for (const value of variants(example)) {
          const byClass = contractErrors(model, value).length === 0;
          expect({ value, documented: validate(value) }).toEqual({ value, documented: byClass });
        }
      }
    },
  );

  it.each(BODIES.map(([model, body]) => [model.name, model, body] as const))(
    '%s: the request body accepts exactly what the pipe accepts',
    (name, model, body) => {
      const validate = schemaAt(`/components/schemas/${name}`);
      expect(contractErrors(model, body)).toEqual([]);
      for (const value of variants(body)) {
        const byClass = contractErrors(model, value).length === 0;
        expect({ value, documented: validate(value) }).toEqual({ value, documented: byClass });
      }
    },
  );

  it.each(DELIVERABLE_EVENTS)('%s: the webhook body accepts what the classes accept', (key) => {
    const validate = schemaAt(`/webhooks/${key}/post/requestBody/content/application~1json/schema`);
    const example = eventEnvelopeExample(key) as Record<string, unknown>;
    const data = example.data as Record<string, unknown>;
    const bodies: Array<Record<string, unknown>> = [
      ...variants(example),
      ...variants(data).map((variant) => ({ ...example, data: variant })),
    ];
    for (const body of bodies) {
      const byClasses =
        contractErrors(EventEnvelope, body).length === 0 &&
        body.event === key &&
        oneOfErrors(eventDataModels(key), body.data).length === 0;
      expect({ body, documented: validate(body) }).toEqual({ body, documented: byClasses });
    }
  });
});
