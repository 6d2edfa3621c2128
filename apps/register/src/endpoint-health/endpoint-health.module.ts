import { Module } from '@nestjs/common';
import { EndpointDisabledConsumer } from './endpoint-disabled.consumer';
import { EndpointDisabledNotices } from './endpoint-disabled-notices';

/**
 * Endpoint health reaching people (issue 35, item 7): the worker's notices of endpoints it
 * disabled, e-mailed to the workspace's owners and admins. Uses the global MailModule.
 */
@Module({ providers: [EndpointDisabledNotices, EndpointDisabledConsumer] })
export class EndpointHealthModule {}
