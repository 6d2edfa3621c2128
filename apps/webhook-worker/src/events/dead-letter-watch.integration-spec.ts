import { AmqpConnection, openConnection } from '@custodian/messaging';
import { uniqueSuffix } from '@custodian/testing';
import { Logger } from '@nestjs/common';
import { loadWorkerConfig } from '../config/worker-config';
import { DeadLetterWatch } from './dead-letter-watch';

const RABBITMQ_URL = process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const queue = `custodian.test.dead.${uniqueSuffix()}`;

describe('DeadLetterWatch on the real broker', () => {
  const connection = new AmqpConnection({ url: RABBITMQ_URL, name: 'dead-letter-test' });
  const watch = new DeadLetterWatch(
    connection,
    loadWorkerConfig({ RABBITMQ_URL, EVENTS_DEAD_LETTER_QUEUE: queue }),
  );
  let warn: jest.SpyInstance;

  beforeAll(async () => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    await connection.open();
    await watch.onApplicationBootstrap();
  });

  afterAll(async () => {
    await watch.beforeApplicationShutdown();
    const admin = await openConnection(RABBITMQ_URL, 'dead-letter-test-cleanup');
    const channel = await admin.createChannel();
    await channel.deleteQueue(queue);
    await admin.close();
    await connection.close();
    warn.mockRestore();
  });

  it('reads the depth, warns when it grows, and keeps the figure for /health', async () => {
    expect(watch.count).toBe(0);
    expect(warn).not.toHaveBeenCalled();

    const admin = await openConnection(RABBITMQ_URL, 'dead-letter-test-publisher');
    const channel = await admin.createConfirmChannel();
    channel.sendToQueue(queue, Buffer.from('{"id":"evt_1"}'), { persistent: true });
    channel.sendToQueue(queue, Buffer.from('{"id":"evt_2"}'), { persistent: true });
    await channel.waitForConfirms();
    await admin.close();

    await expect(watch.check()).resolves.toBe(2);
    expect(watch.count).toBe(2);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(
      `dead-letter queue ${queue} holds 2 event(s) (+2); they are not retried by themselves`,
    );

    // Unchanged: no new line.
    await expect(watch.check()).resolves.toBe(2);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
