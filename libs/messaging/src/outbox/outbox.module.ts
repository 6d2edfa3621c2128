import { Logger, Module, type DynamicModule } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AmqpConnection } from '../amqp-connection';
import { OutboxRelay, type OutboxRelayOptions } from './outbox-relay';
import { OutboxWriter } from './outbox-writer';

export interface OutboxOptions {
  /** The app's schema, whose `outbox` table holds its events (see outboxEntity). */
  schema: string;
  /** The topic exchange the relay publishes to. */
  exchange: string;
  /** How often the relay polls an idle outbox (with `listen`, only as a safety net). */
  intervalMs: number;
  /**
   * Wake the relay at commit through LISTEN/NOTIFY on a connection of its own. Off behind a
   * pooler in transaction mode (PgBouncer), which does not keep a LISTEN: the relay then
   * relies on its poll. Default on.
   */
  listen?: boolean;
  /** How long published rows are kept before the relay prunes them (default 72 h). */
  retentionMs?: number;
  /** Queues the relay declares besides the exchange (OutboxRelayOptions.topology). */
  topology?: OutboxRelayOptions['topology'];
}

const OUTBOX_OPTIONS = Symbol('OUTBOX_OPTIONS');

/**
 * Events of an app that writes them (the gateway and the register): the OutboxWriter its
 * services call inside their transactions, and the relay that publishes the rows on the
 * app's connection (MessagingModule). Needs the app's DataSource as a global provider.
 */
@Module({})
export class OutboxModule {
  static forRoot(options: OutboxOptions): DynamicModule {
    return {
      module: OutboxModule,
      global: true,
      providers: [
        { provide: OUTBOX_OPTIONS, useValue: options },
        {
          provide: OutboxWriter,
          inject: [OUTBOX_OPTIONS],
          useFactory: (outbox: OutboxOptions) => new OutboxWriter(outbox.schema),
        },
        {
          provide: OutboxRelay,
          inject: [DataSource, AmqpConnection, OUTBOX_OPTIONS],
          useFactory: (db: DataSource, connection: AmqpConnection, outbox: OutboxOptions) => {
            const { url, applicationName } = db.options as {
              url?: string;
              applicationName?: string;
            };
            const { listen = true, ...relay } = outbox;
            if (listen && !url) throw new Error('the outbox listener needs the DataSource url');
            return new OutboxRelay(db, connection, {
              ...relay,
              ...(listen && url
                ? { listen: { url, applicationName: `${applicationName ?? 'custodian'}-outbox` } }
                : {}),
              log: (message) => new Logger('OutboxRelay').warn(message),
            });
          },
        },
      ],
      exports: [OutboxWriter, OutboxRelay],
    };
  }
}
