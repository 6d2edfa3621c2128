import { ContractSchema } from '../fields/contract-schema.decorator';
import { IdField, NestedField, TextField } from '../fields/field.decorators';

@ContractSchema({ name: 'EndpointRef' })
export class EndpointRef {
  @IdField('whe', 'Id of the webhook endpoint.') id!: string;
  @TextField({ description: 'URL of the endpoint.' }) url!: string;
}

@ContractSchema({ name: 'PingEvent' })
export class PingEvent {
  @NestedField(EndpointRef) endpoint!: EndpointRef;
}
