import { connect, type ChannelModel } from 'amqplib';
import type { Socket } from 'node:net';

/**
 * Opens an AMQP connection with Nagle off: amqplib leaves it on by default, which stalls
 * small request/response messages by about 40 ms each.
 */
export async function openConnection(url: string, name: string): Promise<ChannelModel> {
  const model = await connect(url, { noDelay: true, clientProperties: { connection_name: name } });
  if (coalescingWrites()) {
    coalesceWrites((model.connection as unknown as { stream: Socket }).stream);
  }
  return model;
}

/**
 * `RABBITMQ_COALESCE_WRITES=false` opens connections without the write coalescing below, so
 * that `npm run bench -- rpc` can measure what it is worth (docs/adr/0001). On by default.
 */
function coalescingWrites(): boolean {
  return process.env.RABBITMQ_COALESCE_WRITES !== 'false';
}

/**
 * amqplib writes every frame (each publish, each ack) to the socket separately: with Nagle
 * off that is one system call per frame, which profiling showed to be about half of the
 * register's CPU. Corking the socket for the rest of the event-loop turn sends everything
 * written in that turn in one writev, without Nagle's 40 ms wait.
 */
function coalesceWrites(socket: Socket): void {
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  socket.write = (...args: unknown[]) => {
    if (!corked) {
      corked = true;
      socket.cork();
      setImmediate(uncork);
    }
    return write(...args);
  };
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** 100 ms, 200 ms, 400 ms ... capped at 5 s: how long to wait before reconnect attempt n. */
export function reconnectDelay(attempt: number): number {
  return Math.min(5_000, 100 * 2 ** Math.min(attempt, 6));
}
