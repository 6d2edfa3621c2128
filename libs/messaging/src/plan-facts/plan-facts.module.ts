import {
  planFactsQueueOf,
  type PlanFactsReader,
  type WorkspacePlanFacts,
} from '@custodian/contracts';
import {
  Inject,
  Injectable,
  Logger,
  Module,
  type BeforeApplicationShutdown,
  type DynamicModule,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AmqpConnection, delay } from '../amqp-connection';
import { QueueConsumer, type Delivery } from '../queue-consumer';
import { readPlanFactsMessage, storePlanFacts, type WorkspacePlanRow } from './plan-facts.table';
import { declarePlanFactsQueue } from './plan-facts.topology';

export interface PlanFactsOptions {
  /** The app's schema, whose `workspace_plans` table holds its copy. */
  schema: string;
  /** The events exchange the gateway publishes plan facts to. */
  exchange: string;
  reader: PlanFactsReader;
  /**
   * How long a read of a workspace the copy does not hold yet waits for its facts (a workspace
   * created a moment ago: its facts are milliseconds behind). Default 3 s.
   */
  waitMs?: number;
}

const PLAN_FACTS_OPTIONS = Symbol('PLAN_FACTS_OPTIONS');

/** The app's copy of plan facts: what the gateway stated last about each workspace. */
@Injectable()
export class WorkspacePlans {
  constructor(
    private readonly db: DataSource,
    @Inject(PLAN_FACTS_OPTIONS) private readonly options: PlanFactsOptions,
  ) {}

  /** The facts of these workspaces that the copy holds (a workspace it does not is absent). */
  async many(workspaceIds: readonly string[]): Promise<Map<string, WorkspacePlanRow>> {
    if (workspaceIds.length === 0) return new Map();
    const rows = await this.db.query<WorkspacePlanRow[]>(
      `SELECT workspace_id, plan, api_access, limits, as_of, received_at
       FROM ${this.options.schema}.workspace_plans WHERE workspace_id = ANY($1::text[])`,
      [workspaceIds],
    );
    return new Map(rows.map((row) => [row.workspace_id, row]));
  }

  /** Stores facts that came another way than the plan-facts queue (keeping the newest). */
  async store(facts: readonly WorkspacePlanFacts[]): Promise<void> {
    for (const one of facts) await storePlanFacts(this.db.manager, this.options.schema, one);
  }

  /**
   * The facts of a workspace; if the copy has none yet, waits up to waitMs for them (polling
   * every 25 ms), since a workspace's facts follow its creation by milliseconds. Undefined
   * when none came: the gateway has no such workspace, or its facts are late.
   */
  async of(workspaceId: string): Promise<WorkspacePlanRow | undefined> {
    const deadline = performance.now() + (this.options.waitMs ?? 3_000);
    for (;;) {
      const found = (await this.many([workspaceId])).get(workspaceId);
      if (found || performance.now() >= deadline) return found;
      await delay(25);
    }
  }
}

/**
 * Reads the app's plan-facts queue into its copy, one message at a time (facts are rare: one
 * per workspace created or re-planned). A message that is not plan facts is dropped with an
 * error in the log; with Postgres down the message waits and is tried again, never lost.
 */
@Injectable()
export class PlanFactsConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('PlanFactsConsumer');
  private readonly consumer: QueueConsumer;
  private chain: Promise<void> = Promise.resolve();
  private stopping = false;

  constructor(
    private readonly db: DataSource,
    connection: AmqpConnection,
    @Inject(PLAN_FACTS_OPTIONS) private readonly options: PlanFactsOptions,
  ) {
    this.consumer = new QueueConsumer(connection, {
      queue: planFactsQueueOf(options.exchange, options.reader),
      prefetch: 20,
      topology: async (channel) => {
        await declarePlanFactsQueue(channel, options.exchange, options.reader);
      },
      onMessage: (delivery) => {
        this.chain = this.chain.then(() => this.store(delivery));
      },
      log: (message) => this.logger.warn(message),
    });
  }

  onApplicationBootstrap(): Promise<void> {
    return this.consumer.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.consumer.stop();
  }

  private async store(delivery: Delivery): Promise<void> {
    const { facts } = readPlanFactsMessage(delivery.message.content);
    if (typeof facts === 'string') {
      const id = (delivery.message.properties as { messageId?: string }).messageId ?? '';
      this.logger.error(`plan facts message ${id} refused (${facts}); dropped`);
      delivery.reject();
      return;
    }
    for (let attempt = 0; ; attempt++) {
      try {
        await storePlanFacts(this.db.manager, this.options.schema, facts);
        delivery.ack();
        return;
      } catch (error) {
        // Unacked at shutdown: the broker hands it to the next start.
        if (this.stopping) return delivery.abandon();
        if (attempt % 10 === 0) {
          this.logger.warn(
            `plan facts of ${facts.workspace_id} not stored yet: ${(error as Error).message}`,
          );
        }
        await delay(Math.min(200 * 2 ** Math.min(attempt, 5), 5_000));
      }
    }
  }
}

/**
 * An app's copy of the gateway's plan facts (ADR 0019): the consumer that keeps it and the
 * WorkspacePlans its services read. Needs the app's DataSource and AmqpConnection as global
 * providers, and a migration that ran createWorkspacePlansTable for the schema.
 */
@Module({})
export class PlanFactsModule {
  static forRoot(options: PlanFactsOptions): DynamicModule {
    return {
      module: PlanFactsModule,
      global: true,
      providers: [
        { provide: PLAN_FACTS_OPTIONS, useValue: options },
        WorkspacePlans,
        PlanFactsConsumer,
      ],
      exports: [WorkspacePlans],
    };
  }
}
