import { SetMetadata } from '@nestjs/common';

/** Marks a route that needs no API key (health, the OpenAPI document); lint checks for it. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata('custodian:public', true);
