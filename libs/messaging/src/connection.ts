import { connect, type ChannelModel } from 'amqplib';

/**
 * Opens an AMQP connection with Nagle off: amqplib leaves it on by default, which stalls
 * small request/response messages by about 40 ms each.
 */
export async function openConnection(url: string, name: string): Promise<ChannelModel> {
  return connect(url, { noDelay: true, clientProperties: { connection_name: name } });
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** 100 ms, 200 ms, 400 ms ... capped at 5 s: how long to wait before reconnect attempt n. */
export function reconnectDelay(attempt: number): number {
  return Math.min(5_000, 100 * 2 ** Math.min(attempt, 6));
}
